"""Strings of issue 35 ("every sentence true"): the demonstrations that make the notes' weak ideas computed (swap and
compare, the shift property of positional encoding, CNN/RNN/self-attention counted, more than a weighted average,
note 003's column vectors, random baselines of the real model, symmetry breaking, note 002's batch run) and the
chart titles that name what they draw. Literal braces in formatted strings are doubled."""

STRINGS: dict[str, dict[str, str]] = {
    # ---- positional page: P P^T along offsets
    "pe.similarity_even": {
        "en": "Here $d_\\text{{model}}$ = {d} is even: entries at the same distance differ by at most {spread} "
              "(rounding).",
        "zh": "这里 $d_\\text{{model}}$ = {d} 为偶数：距离相同的元素最多相差 {spread}（舍入误差）。",
    },
    "pe.similarity_odd": {
        "en": "Here $d_\\text{{model}}$ = {d} is odd: the last column is a sine without its cosine, and its "
              "product sin(iω)·sin(kω) depends on i + k too, so entries at the same distance differ by up to "
              "{spread}.",
        "zh": "这里 $d_\\text{{model}}$ = {d} 为奇数：最后一列是没有余弦配对的正弦，它的乘积 sin(iω)·sin(kω) 还取决于 i + k，所以距离相同的元素最多相差 "
              "{spread}。",
    },
    # ---- positional page: the shift property
    "pe.shift.title": {"en": "Moving by k positions is a rotation", "zh": "平移 k 个位置就是一次旋转"},
    "pe.shift.text": {
        "en": "Sines and cosines were chosen so that the encoding of position pos + k is a fixed linear function "
              "of the encoding of pos (Vaswani et al. 2017, section 3.5): each pair of columns (2j, 2j+1) turns "
              "by the angle k·$\\omega_j$, whatever pos is. So $P_{pos+k} = P_{pos} M_k$, with $M_k$ "
              "block-diagonal (one 2 × 2 rotation per pair) and the same for every position. The first blocks of "
              "$M_k$:",
        "zh": "选用正弦和余弦，是为了让位置 pos + k 的编码成为位置 pos 的编码的一个固定线性函数（Vaswani 等 2017，第 3.5 节）：每一对列 (2j, 2j+1) 都转过角度 "
              "k·$\\omega_j$，与 pos 无关。所以 $P_{pos+k} = P_{pos} M_k$，其中 $M_k$ 是分块对角矩阵（每对列一个 2 × 2 旋转），对每个位置都相同。"
              "$M_k$ 的前几块：",
    },
    "pe.shift.k": {"en": "Offset k", "zh": "偏移 k"},
    "pe.shift.check": {
        "en": "Computed ($d_\\text{{model}}$ = {d}, base {base}, k = {k}): the largest |$P_{{pos+k}}$ − "
              "$P_{{pos}} M_k$| over all {n} positions is {err}.",
        "zh": "计算结果（$d_\\text{{model}}$ = {d}，底数 {base}，k = {k}）：在全部 {n} 个位置上，|$P_{{pos+k}}$ − $P_{{pos}} M_k$| 的"
              "最大值为 {err}。",
    },
    "pe.shift.odd": {
        "en": "($d_\\text{model}$ is odd: the last column, a sine alone, has no such rotation and is left out.)",
        "zh": "（$d_\\text{model}$ 为奇数：最后一列是单独的正弦，没有这样的旋转，计算时不含这一列。）",
    },
    # ---- positional page: swap and compare
    "pe.order.title": {"en": "Does attention see the order? Swap two tokens", "zh": "注意力看得到顺序吗？对调两个词元"},
    "pe.order.text": {
        "en": "The sentence and weights of the sidebar. Two tokens trade places, and each token's output row is "
              "compared with its row before the swap, wherever it now stands. Without positions and without a mask "
              "every bar is 0 up to rounding: attention is permutation-equivariant, it treats the keys as a set. "
              "With the positional encoding added, the tokens carry their positions and every row can change; with "
              "a causal mask, the rows between the two tokens see a different set of keys.",
        "zh": "使用侧边栏中的句子和权重。对调两个词元，把每个词元的输出行与它在对调前的输出行比较（不管它现在在哪个位置）。"
              "没有位置信息、也没有掩码时，每根柱子在舍入误差内都是 0：注意力对排列是等变的，它把键当作一个集合。加上位置编码后，"
              "词元带有了各自的位置，每一行都可能改变；使用因果掩码时，位于两个词元之间的行看到的键集合不同了。",
    },
    "pe.order.a": {"en": "Swap token", "zh": "对调词元"},
    "pe.order.b": {"en": "with token", "zh": "与词元"},
    "pe.order.same": {"en": "Pick two different tokens.", "zh": "请选择两个不同的词元。"},
    "pe.order.short": {"en": "The sentence has one token: there is nothing to swap.", "zh": "句子只有一个词元：没有可对调的。"},
    "pe.order.result": {
        "en": "Largest change of a token's output row: no positions {plain}; positional encoding added {pe}; causal "
              "mask {causal} (the output's entries reach {scale}).",
        "zh": "词元输出行的最大变化：无位置信息 {plain}；加上位置编码 {pe}；因果掩码 {causal}（输出元素最大为 {scale}）。",
    },
    "fig.order.title": {
        "en": "Swap {a} and {b}: change of each token's row",
        "zh": "对调 {a} 与 {b}：每个词元输出行的变化",
    },
    "fig.order.plain": {"en": "no positions, no mask", "zh": "无位置信息、无掩码"},
    "fig.order.pe": {"en": "positional encoding added", "zh": "加上位置编码"},
    "fig.order.causal": {"en": "causal mask, no positions", "zh": "因果掩码、无位置信息"},
    "fig.order.token": {
        "en": "token (its place before the swap)",
        "zh": "词元（对调前的位置）",
    },
    "fig.order.change": {"en": "largest |change| of its output row", "zh": "其输出行的最大 |变化|"},
    # ---- why page: CNN, RNN and self-attention, counted
    "why.arch.title": {"en": "The same table, counted for n and d", "zh": "同一张表，按 n 和 d 计数"},
    "why.arch.text": {
        "en": "For a length n and width d of your choice: the multiplications of one layer (self-attention: the "
              "scores and the weighted sum, 2 n² d, projections left out as in the table; a recurrent layer: $W "
              "h_{t-1}$ and $U x_t$ at each of n steps, 2 n d²; a convolution of width k from d to d channels: k "
              "n d²), the steps that must wait for one another, and how many layers or steps a signal needs from "
              "the first token to the last.",
        "zh": "对你选择的长度 n 和维度 d：一层的乘法次数（自注意力：分数与加权求和，2 n² d，与表中一样不计投影；循环层：n 步中每步计算 $W h_{t-1}$ 和 $U x_t$，2 n "
              "d²；卷积核宽度为 k、从 d 到 d 个通道的卷积：k n d²），必须依次等待的步骤数，以及信号从第一个词元传到最后一个词元需要经过多少层或多少步。",
    },
    "why.arch.n": {"en": "n (tokens)", "zh": "n（词元数）"},
    "why.arch.d": {"en": "d (width)", "zh": "d（维度）"},
    "why.arch.k": {"en": "k (kernel width)", "zh": "k（卷积核宽度）"},
    "why.arch.col_layer": {"en": "layer", "zh": "层"},
    "why.arch.col_mults": {"en": "multiplications", "zh": "乘法次数"},
    "why.arch.col_seq": {"en": "sequential steps", "zh": "顺序步骤数"},
    "why.arch.col_path": {"en": "longest path (layers or steps)", "zh": "最长路径（层数或步数）"},
    "why.arch.cnn": {"en": "CNN (width k)", "zh": "CNN（卷积核宽度 k）"},
    "why.arch.rnn": {"en": "RNN", "zh": "RNN"},
    "why.arch.self_attention": {"en": "self-attention", "zh": "自注意力"},
    "why.arch.ratio": {
        "en": "Self-attention against the RNN: n / d = {ratio} times the multiplications, so self-attention is the "
              "cheaper layer while n < d; it always needs 1 sequential step where the RNN needs n = {n}.",
        "zh": "自注意力与 RNN 相比：乘法次数是 n / d = {ratio} 倍，所以只要 n < d，自注意力就是更省的一层；它始终只需 1 个"
              "顺序步骤，而 RNN 需要 n = {n} 个。",
    },
    # ---- subspaces page: more than a weighted average
    "sub.avg.title": {"en": "More than a weighted average (note 003)", "zh": "不只是加权平均（笔记 003）"},
    "sub.avg.text": {
        "en": "Each head's output row is a weighted average of its value rows (weights ≥ 0 that sum to 1). Note "
              "003 says that several heads can represent more complex functions than a weighted average. Computed: "
              "carry every value to the output, $u_j = x_j W^V W^O$, and measure how far each output row is from "
              "the nearest affine combination of these rows (weights that sum to 1, negative ones too); every "
              "weighted average is such a combination, so none comes closer. With the same weights run as one head "
              "(h = 1) every output row is a weighted average (distance up to {one}). With h = {h} heads every "
              "weighted average misses every output row by at least {lo}, and the farthest row by at least {hi}, "
              "while the output's entries reach {scale}: each head averages with its own weights, and a sum of h "
              "different averages is no single average.",
        "zh": "每个头的输出行都是其值向量各行的加权平均（权重 ≥ 0 且和为 1）。笔记 003 说多个头可以表示比简单加权平均更复杂的函数。计算一下：把每个值都带到输出空间，$u_j = x_j W^V "
              "W^O$，测量每个输出行离这些行最近的仿射组合（权重之和为 1，允许为负）有多远；每个加权平均都是这样的组合，所以没有哪个加权平均离得更近。把同样的权重当作一个头（h = "
              "1）来运行，每个输出行都恰好是一个加权平均（距离不超过 {one}）。有 h = {h} 个头时，任何加权平均与每个输出行的距离都至少为 {lo}，与离得最远的那一行至少为 "
              "{hi}，而输出元素最大为 {scale}：每个头用自己的权重求平均，h 个不同平均之和并不是某一个平均。",
    },
    "sub.avg.fills": {
        "en": "Here $L_k$ = {Lk} > $d_\\text{{model}}$ = {d}: the value rows span every direction, so every "
              "output row is some affine combination of them and the distance says nothing. Shorten the sentence "
              "or widen $d_\\text{{model}}$.",
        "zh": "这里 $L_k$ = {Lk} > $d_\\text{{model}}$ = {d}：值向量的各行张成了所有方向，每个输出行都是它们的某个仿射组合，距离说明不了什么。请缩短句子或增大 "
              "$d_\\text{{model}}$。",
    },
    "sub.avg.one_head": {
        "en": "With h = 1 the layer is one head, and its output rows are weighted averages (distance up to {one}). "
              "Choose more heads in the sidebar to compare.",
        "zh": "h = 1 时这一层只有一个头，它的输出行就是加权平均（距离不超过 {one}）。在侧边栏选择更多的头来比较。",
    },
    # ---- subspaces page: note 003's column vectors (d2l) beside the app's rows
    "sub.d2l.title": {"en": "Note 003's notation: column vectors (d2l)", "zh": "笔记 003 的记法：列向量（d2l）"},
    "sub.d2l.text": {
        "en": "Note 003 and d2l write one head for one query as $h_i = f(W_i^{(q)} q,\\ W_i^{(k)} k,\\ W_i^{(v)} "
              "v)$, with a column vector q ($d_\\text{model}$ × 1) and $W_i^{(q)}$ of $d_k$ × $d_\\text{model}$. "
              "The other notes and this app write rows: $Q_i$ = X $W_i^Q$, one row per token, with $W_i^Q$ of "
              "$d_\\text{model}$ × $d_k$. They are the same numbers transposed: $W_i^{(q)} = (W_i^Q)^\\top$ and "
              "$q = x_t^\\top$, so $W_i^{(q)} q = (x_t W_i^Q)^\\top$. On the current weights:",
        "zh": "笔记 003 和 d2l 把一个头对一个查询的计算写成 $h_i = f(W_i^{(q)} q,\\ W_i^{(k)} k,\\ W_i^{(v)} v)$，其中 q 是列向量（"
              "$d_\\text{model}$ × 1），$W_i^{(q)}$ 的形状是 $d_k$ × $d_\\text{model}$。其他笔记和本应用用行向量：$Q_i$ = X "
              "$W_i^Q$，每个词元一行，$W_i^Q$ 的形状是 $d_\\text{model}$ × $d_k$。二者是同一组数值的转置：$W_i^{(q)} = (W_i^Q)^\\top$，$q "
              "= x_t^\\top$，所以 $W_i^{(q)} q = (x_t W_i^Q)^\\top$。在当前权重上：",
    },
    "sub.d2l.head": {"en": "Head", "zh": "头"},
    "sub.d2l.token": {"en": "Token", "zh": "词元"},
    "sub.d2l.gap": {
        "en": "Largest difference between the column $W_i^{{(q)}} q$ and the row $x_t\\ W_i^Q$: {gap}.",
        "zh": "列向量 $W_i^{{(q)}} q$ 与行向量 $x_t\\ W_i^Q$ 的最大差：{gap}。",
    },
    "sub.d2l.first": {
        "en": "(the first {n} of $d_k$ = {dk} entries)",
        "zh": "（$d_k$ = {dk} 个元素中的前 {n} 个）",
    },
    # ---- real model: random baselines, local and global heads
    "minilm.col_random": {"en": "random heads, same input", "zh": "随机的头，同样输入"},
    "minilm.distance.title": {
        "en": "Local and global heads: mean attention distance",
        "zh": "局部的头与全局的头：平均注意力距离",
    },
    "minilm.distance.text": {
        "en": "How far each head looks: $\\sum_j A_{{ij}}\\,|i-j|$ averaged over the queries, in tokens. A head "
              "that attends to a neighbour scores about 1; one that spreads its weight evenly over the {L} "
              "tokens scores {uniform}; random heads of the same shapes, on the same input, score {rlo}–{rhi}. "
              "The trained heads here range from {lo} (layer {ll}, head {lh}) to {hi}.",
        "zh": "每个头看得多远：$\\sum_j A_{{ij}}\\,|i-j|$ 对所有查询取平均，单位是词元。关注相邻词元的头约为 1；把权重均匀分给 {L} 个词元的头为 "
              "{uniform}；同样形状、同样输入的随机头为 {rlo}–{rhi}。这里训练后的头从 {lo}（第 {ll} 层第 {lh} 个头）到 {hi}。",
    },
    "minilm.distance.fig": {"en": "mean attention distance (tokens)", "zh": "平均注意力距离（词元）"},
    # ---- note 004 page: symmetry breaking
    "n4.sym.title": {"en": "6. Symmetry breaking: identical heads stay identical", "zh": "6. 对称性破缺：相同的头始终相同"},
    "n4.sym.text": {
        "en": "Note 004 says the heads specialise because they start from different random points. Test it: the "
              "training lab's model is trained twice on the same batches, once from its random initial heads and "
              "once with every head of a layer given head 1's initial $W_1^Q$, $W_1^K$, $W_1^V$ and $W^O_1$. "
              "Tied heads receive the same gradient at every step and stay exactly the same: without a "
              "difference to start from (or noise that differs between heads, such as dropout), nothing can make "
              "them part.",
        "zh": "笔记 004 说各个头之所以分工，是因为它们从不同的随机起点出发。检验一下：把训练实验室的模型在同样的批量上训练两次，一次从随机的初始头出发，一次让一层中的每个头都取头 1 的初始 "
              "$W_1^Q$、$W_1^K$、$W_1^V$ 和 $W^O_1$。初始相同的头在每一步得到相同的梯度，始终完全相同：没有起点上的差异（或各头不同的噪声，例如 "
              "dropout），就没有什么能让它们分开。",
    },
    "n4.sym.run": {"en": "Train both ({steps} steps)", "zh": "训练两次（{steps} 步）"},
    "n4.sym.running": {"en": "Training twice …", "zh": "正在训练两次……"},
    "n4.sym.result": {
        "en": "After {steps} steps on “{task}”: the tied heads differ by at most {tied} (pattern scores {pt}); the "
              "random ones by {rand} (pattern scores {pr}). Accuracy: {at} tied, {ar} random.",
        "zh": "在“{task}”上训练 {steps} 步之后：初始相同的头最多相差 {tied}（模式得分 {pt}）；随机初始的头相差 {rand}"
              "（模式得分 {pr}）。准确率：初始相同 {at}，随机初始 {ar}。",
    },
    "n4.kernel.sum": {
        "en": "Multiple kernel learning would add the heads' kernels first and normalise once: on this setting that "
              "changes the output by up to {gap} (its entries reach {scale}): ⟦errata:n004_mkl⟧.",
        "zh": "多核学习会先把各头的核相加、再统一归一化一次：在当前设置下，这会使输出最多改变 {gap}（输出元素最大为 {scale}）："
              "⟦errata:n004_mkl⟧。",
    },
    # ---- step by step: note 002's batch run, step 9's chart
    "steps.split.note002": {
        "en": "Note 002's sizes (B = 32, T = 20, d_model = 512, h = 8)",
        "zh": "笔记 002 的尺寸（B = 32，T = 20，d_model = 512，h = 8）",
    },
    "steps.split.computed": {
        "en": "Every shape is read from a forward pass of the core on a random batch: B = {B}, L = {L}, $L_k$ = "
              "{Lk}, $d_\\text{{model}}$ = {d}, h = {h}. Rows marked “one head” are one head i alone; note 002 "
              "gives $\\mathrm{{head}}_i$ the shape of all heads (⟦errata:n002_head⟧).",
        "zh": "每个形状都读自核心在一个随机批量上的一次前向计算：B = {B}，L = {L}，$L_k$ = {Lk}，$d_\\text{{model}}$ = {d}，h = "
              "{h}。标有“一个头”的行是单独一个头 i；笔记 002 把 $\\mathrm{{head}}_i$ 写成了全部头的形状（⟦errata:n002_head⟧）。",
    },
    "steps.one_head": {"en": "one head", "zh": "一个头"},
    "steps.all_heads": {"en": "all heads", "zh": "全部的头"},
    "steps.out.chart": {"en": "Output Y = Concat W^O ({L} × {d})", "zh": "输出 Y = Concat W^O（{L} × {d}）"},
}
