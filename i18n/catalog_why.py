"""Strings of the two "why it works" pages (why.*: scaling, cost, parameters; sub.*: subspaces, W^O, residual,
self vs cross, scoring functions)."""

STRINGS: dict[str, dict[str, str]] = {
    "why.title": {"en": "Why: scaling, cost, parameters", "zh": "原理：缩放、计算开销与参数量"},
    "why.intro": {
        "en": "Three arguments of the notes, computed live for the current setting instead of asserted.",
        "zh": "笔记中的三个论点，不是直接断言，而是按当前设置现场计算。",
    },
    "why.scale.title": {"en": "Why divide by √d_k", "zh": "为什么要除以 √d_k"},
    "why.scale.text": {
        "en": "If the entries of q and k are independent with mean 0 and variance 1, q·k is a sum of $d_k$ such "
              "products, so its variance is $d_k$ (Vaswani et al. 2017, footnote 4; note 002 gives only the "
              "purpose: keep the dot products from growing large and the gradient from vanishing). Without "
              "scaling the scores spread out as $d_k$ grows, the softmax puts almost all weight on one key and "
              "its gradient vanishes (saturation). Below: random q and k at growing $d_k$, with and without the "
              "factor $1/\\sqrt{{d_k}}$. The current setting has $d_k$ = {dk}.",
        "zh": "若 q 和 k 的各分量独立、均值 0、方差 1，q·k 是 $d_k$ 个这样的乘积之和，方差为 $d_k$（Vaswani 等 2017，脚注 4；笔记 002 只给出了目的：防止点积过大、梯"
              "度消失）。不缩放时，分数随 $d_k$ 增大而越来越分散，softmax 几乎把全部权重给一个键，梯度消失（饱和）。下图：随机的 q、k，$d_k$ 逐渐增大，对比有无 "
              "$1/\\sqrt{{d_k}}$ 因子。当前设置 $d_k$ = {dk}。",
    },
    "why.scale.now": {
        "en": "At $d_k$ = {dk} with {n} keys: entropy {es} scaled vs {er} unscaled, largest weight {ms} vs {mr}, "
              "gradient size {gs} vs {gr}.",
        "zh": "$d_k$ = {dk}、{n} 个键时：熵 {es}（缩放）对 {er}（不缩放），最大权重 {ms} 对 {mr}，梯度大小 {gs} 对 {gr}。",
    },
    "why.cost.title": {"en": "Cost grows with L²", "zh": "开销随 L² 增长"},
    "why.cost.text": {
        "en": "Counted for the current setting (L = {L} queries, $L_k$ = {Lk} keys, $d_\\text{{model}}$ = {d}, h "
              "= {h}, $d_k$ = {dk}). A dot product of length n costs n multiplications and n − 1 additions (note "
              "000), so $QK^\\top$ costs L·$L_k$·$d_k$ multiplications per head, L·$L_k$·$d_\\text{{model}}$ "
              "over all heads. The table counts every step, not only $QK^\\top$ (⟦errata:n000_qkonly⟧).",
        "zh": "按当前设置计数（L = {L} 个查询，$L_k$ = {Lk} 个键，$d_\\text{{model}}$ = {d}，h = {h}，$d_k$ = {dk}）。长度为 n 的点积需要 n "
              "次乘法和 n − 1 次加法（笔记 000），所以 $QK^\\top$ 每个头需要 L·$L_k$·$d_k$ 次乘法，所有头合计 L·$L_k$·$d_\\text{{model}}$ 次。表"
              "中计入了每一个步骤，而不只是 $QK^\\top$（⟦errata:n000_qkonly⟧）。",
    },
    "why.step.q_proj": {
        "en": "$Q = X W^Q$",
        "zh": "$Q = X W^Q$",
    },
    "why.step.k_proj": {
        "en": "$K = X W^K$",
        "zh": "$K = X W^K$",
    },
    "why.step.v_proj": {
        "en": "$V = X W^V$",
        "zh": "$V = X W^V$",
    },
    "why.step.qk": {
        "en": "$Q_i K_i^\\top$ (all heads)",
        "zh": "$Q_i K_i^\\top$（所有头）",
    },
    "why.step.scale": {
        "en": "× $1/\\sqrt{d_k}$",
        "zh": "× $1/\\sqrt{d_k}$",
    },
    "why.step.softmax": {"en": "softmax (exp and divide: other)", "zh": "softmax（指数与除法：其他）"},
    "why.step.weights_v": {
        "en": "$A_i V_i$ (all heads)",
        "zh": "$A_i V_i$（所有头）",
    },
    "why.step.out_proj": {
        "en": "$\\mathrm{Concat}\\, W^O$",
        "zh": "$\\mathrm{Concat}\\, W^O$",
    },
    "why.step.total": {"en": "total", "zh": "合计"},
    "why.col.step": {"en": "step", "zh": "步骤"},
    "why.col.mults": {"en": "multiplications", "zh": "乘法"},
    "why.col.adds": {"en": "additions", "zh": "加法"},
    "why.col.other": {"en": "other (exp, ÷)", "zh": "其他（指数、除法）"},
    "why.cost.measure": {"en": "Measure our core at growing L", "zh": "在不同 L 下测量本应用核心"},
    "why.cost.measuring": {"en": "Timing the core …", "zh": "正在计时 …"},
    "why.cost.measured_n": {"en": "Timed {n} of {total} lengths", "zh": "已测 {total} 个长度中的 {n} 个"},
    "why.cost.memory": {
        "en": "Memory: each h × L × L tensor (scores, masked scores, weights) takes {now} KB now (L = {L}, h = "
              "{h}, float32); at L = 4096 it would take {big} MB, each.",
        "zh": "内存：每个 h × L × L 张量（分数、掩蔽后的分数、权重）现在占 {now} KB（L = {L}，h = {h}，float32）；L = 4096 时每个要 {big} MB。",
    },
    "why.table.title": {"en": "CNN, RNN and self-attention (note 003)", "zh": "CNN、RNN 与自注意力（笔记 003）"},
    "why.table.md": {
        "en": ("| | CNN (kernel k) | RNN | self-attention |\n|---|---|---|---|\n"
               "| computation per layer | O(k·n·d²) | O(n·d²) | O(n²·d) |\n"
               "| sequential steps | O(1) | O(n) | O(1) |\n"
               "| longest path between two tokens | O(n/k) | O(n) | O(1) |\n\n"
               "n tokens of dimension d. Note 003 lists the same, calling the sequential steps “parallelism” "
               "(O(n) means all n positions at once). With dilated convolutions the CNN path shrinks to "
               "O(log_k n) (Vaswani et al. 2017, table 1)."),
        "zh": ("| | CNN（卷积核 k） | RNN | 自注意力 |\n|---|---|---|---|\n"
               "| 每层计算量 | O(k·n·d²) | O(n·d²) | O(n²·d) |\n"
               "| 顺序步骤数 | O(1) | O(n) | O(1) |\n"
               "| 任意两个词元间最长路径 | O(n/k) | O(n) | O(1) |\n\n"
               "n 个 d 维词元。笔记 003 给出的相同，只是把顺序步骤写成“并行度”（O(n) 表示 n 个位置同时计算）。"
               "使用空洞卷积时 CNN 的路径可缩短到 O(log_k n)（Vaswani 等 2017，表 1）。"),
    },
    "why.params.title": {"en": "Parameters do not depend on h", "zh": "参数量与 h 无关"},
    "why.params.text": {
        "en": "Each head has its own $W_i^Q$, $W_i^K$, $W_i^V$ of $d_\\text{{model}}$ × $d_k$, so h heads need h "
              "· $d_\\text{{model}}$ · $d_k$ = $d_\\text{{model}}^2$ per projection, whatever h is; $W^O$ adds "
              "another $d_\\text{{model}}^2$ (notes 001 and 004; note 001's table counts 3 "
              "$d_\\text{{model}}^2$: ⟦errata:n001_params⟧). For $d_\\text{{model}}$ = {d}: 4 "
              "$d_\\text{{model}}^2$ = {w} weights + {b} biases = {total}. More heads only means thinner heads "
              "(smaller $d_k$).",
        "zh": "每个头有自己的 $W_i^Q$、$W_i^K$、$W_i^V$（$d_\\text{{model}}$ × $d_k$），h 个头合计每种投影 h · $d_\\text{{model}}$ · "
              "$d_k$ = $d_\\text{{model}}^2$，与 h 无关；$W^O$ 再加一个 $d_\\text{{model}}^2$（笔记 001、004；笔记 001 的表格只算了 3 "
              "$d_\\text{{model}}^2$：⟦errata:n001_params⟧）。$d_\\text{{model}}$ = {d} 时：4 $d_\\text{{model}}^2$ = "
              "{w} 个权重 + {b} 个偏置 = {total}。头越多，只是每个头的维度越小（$d_k$ 越小）。",
    },
    "why.params.biases": {"en": "biases", "zh": "偏置"},
    "why.params.pick_h": {
        "en": "Split $W^Q$ into h heads",
        "zh": "把 $W^Q$ 分成 h 个头",
    },
    "why.params.blocks": {
        "en": "The same fused $W^Q$ ({d} × {d}) read as h = {h} heads: columns (i−1)·$d_k$ … i·$d_k$ − 1 are "
              "$W_i^Q$ ($d_k$ = {dk}). Fused view above, per-head view below: the same numbers.",
        "zh": "同一个融合的 $W^Q$（{d} × {d}）按 h = {h} 个头来读：第 (i−1)·$d_k$ … i·$d_k$ − 1 列就是 $W_i^Q$（$d_k$ = "
              "{dk}）。上面是融合视图，下面是分头视图：数字完全相同。",
    },
    "why.params.input_dim": {"en": "input dimension", "zh": "输入维度"},
    "why.params.models_title": {"en": "h and d_k in real models", "zh": "真实模型中的 h 与 d_k"},
    "why.params.models_text": {
        "en": "At fixed $d_\\text{{model}}$, more heads means smaller heads ($d_k$ = $d_\\text{{model}}$ / h) at the "
              "same parameter count: note 004's trade-off. In the published models below, $d_\\text{{model}}$ grows "
              "from {d_lo} to {d_hi} while $d_k$ stays between {dk_lo} and {dk_hi}: heads are added as "
              "$d_\\text{{model}}$ grows, so their h and $d_k$ do not show that trade-off (GPT-3: "
              "⟦errata:n004_gpt3⟧). The parameter count of one attention layer is computed here "
              "(4·$d_\\text{{model}}^2$ + 4·$d_\\text{{model}}$ with biases), the same for any h.",
        "zh": "$d_\\text{{model}}$ 固定时，头越多，每个头的维度越小（$d_k$ = $d_\\text{{model}}$ / h），而参数量不变：这就是笔记 004 "
              "所说的权衡。在下表已发表的模型中，$d_\\text{{model}}$ 从 {d_lo} 增大到 {d_hi}，而 $d_k$ 始终在 {dk_lo} 到 {dk_hi} 之间：头数随 "
              "$d_\\text{{model}}$ 增大而增加，所以它们的 h 和 $d_k$ 并不体现这种权衡（GPT-3：⟦errata:n004_gpt3⟧）。表中每个注意力层的参数量由本应用计算（含偏置为 "
              "4·$d_\\text{{model}}^2$ + 4·$d_\\text{{model}}$），与 h 无关。",
    },
    "why.params.col_layers": {"en": "layers", "zh": "层数"},
    "why.params.col_params": {"en": "parameters per attention layer", "zh": "每个注意力层的参数量"},
    "why.params.too_big": {
        "en": "d_model = {d} is too large to draw W^Q cell by cell; choose d_model ≤ 256 to see it.",
        "zh": "d_model = {d} 太大，无法逐格绘制 W^Q；请选择 d_model ≤ 256。",
    },
    "sub.title": {
        "en": "Why: subspaces, Wᴼ, scoring",
        "zh": "原理：子空间、Wᴼ 与评分函数",
    },
    "sub.intro": {
        "en": "How the heads differ, how W^O puts them back together, and what comes around attention in a layer.",
        "zh": "各个头有何不同，W^O 如何把它们重新组合，以及一层中注意力前后还有什么。",
    },
    "sub.heads.title": {"en": "Heads see different subspaces", "zh": "各个头看到不同的子空间"},
    "sub.heads.text": {
        "en": "Each of the h = {h} heads projects the {d}-dimensional tokens into its own $d_k$ = {dk}-dimensional "
              "subspace, and every head reads every input dimension. Nothing makes these subspaces orthogonal "
              "(⟦errata:n001_orth⟧): with these weights the two closest query subspaces, of heads {i} and {j}, are "
              "at a smallest principal angle of {angle}° (orthogonal: 90°; a shared direction: 0°) and share "
              "{shared} of their {dk} dimensions.",
        "zh": "h = {h} 个头各自把 {d} 维的词元投影到自己的 $d_k$ = {dk} "
              "维子空间，每个头都读取全部输入维度。没有任何约束使这些子空间正交（⟦errata:n001_orth⟧）：在当前权重下，最接近的两个查询子空间（头 {i} 和头 {j}）之间的最小主角度为 "
              "{angle}°（正交时为 90°，共享一个方向时为 0°），它们的 {dk} 个维度中共享 {shared} 个。",
    },
    "sub.heads.one": {
        "en": "With h = 1 the one head projects the {d}-dimensional tokens into a $d_k$ = {dk}-dimensional subspace, "
              "reading every input dimension; there is no second subspace to compare it with.",
        "zh": "h = 1 时，唯一的头把 {d} 维的词元投影到一个 $d_k$ = {dk} 维子空间，读取全部输入维度；没有第二个子空间可以与它比较。",
    },
    "sub.wo.title": {
        "en": "$W^O$ adds the heads up",
        "zh": "$W^O$ 把各个头加起来",
    },
    "sub.wo.text": {
        "en": "Split $W^O$ by rows into h blocks $W^O_i$ of $d_k$ = {dk} rows: the concatenation times $W^O$ is "
              "the sum of $\\mathrm{{head}}_i\\ W^O_i$, each head writing its own contribution into all {d} "
              "output dimensions. Computed here: largest difference between the two sides = {gap}.",
        "zh": "把 $W^O$ 按行分成 h 块 $W^O_i$（每块 $d_k$ = {dk} 行）：拼接结果乘 $W^O$ 等于各个 $\\mathrm{{head}}_i\\ W^O_i$ 之和，每个头把自"
              "己的贡献写入全部 {d} 个输出维度。这里实际计算：两边的最大差 = {gap}。",
    },
    "sub.ln.title": {"en": "Residual and LayerNorm", "zh": "残差连接与层规范化"},
    "sub.ln.text": {
        "en": ("In a Transformer layer the attention output is added to its input and normalised per token "
               "(note 001): each row of Y has mean 0 and standard deviation 1 (before a learned gain and bias, "
               "left out here). The residual lets a layer pass its input through unchanged where attention adds "
               "little."),
        "zh": ("在 Transformer 层中，注意力输出与输入相加，再按词元做层规范化（笔记 001）：Y 的每一行均值为 0、"
               "标准差为 1（此处省略可学习的缩放与偏置）。残差连接让注意力贡献不大时，输入可以原样通过。"),
    },
    "sub.ln.show": {"en": "Show LayerNorm(X + MultiHead(X)) as a last step", "zh": "显示最后一步 LayerNorm(X + MultiHead(X))"},
    "sub.ln.fig": {"en": "Y = LayerNorm(X + MultiHead(X))", "zh": "Y = LayerNorm(X + MultiHead(X))"},
    "sub.ln.stats": {
        "en": "Largest |row mean| = {mean}, mean row standard deviation = {std}.",
        "zh": "最大的 |行均值| = {mean}，行标准差的平均 = {std}。",
    },
    "sub.cross.title": {"en": "Self-attention and cross-attention (note 003)", "zh": "自注意力与交叉注意力（笔记 003）"},
    "sub.cross.table": {
        "en": "| | cross-attention (encoder-decoder) | self-attention |\n|---|---|---|\n| relates | two "
              "sequences (source ↔ target) | the elements of one sequence |\n| typical use | seq2seq, e.g. "
              "translation | Transformer encoders and decoders, BERT, GPT |\n| purpose | align positions of two "
              "sequences | global dependencies inside one sequence |\n| Q, K, V | Q from the decoder, K and V "
              "from the encoder | all from the same sequence |\n",
        "zh": "| | 交叉注意力（编码器-解码器） | 自注意力 |\n|---|---|---|\n| 作用对象 | 两个序列（源 ↔ 目标） | 同一序列内部的元素 |\n| 典型应用 | "
              "seq2seq，如机器翻译 | Transformer 编码器和解码器、BERT、GPT |\n| 目的 | 对齐两个序列的位置 | 捕捉同一序列内部的全局依赖 |\n| Q、K、V | Q 来自"
              "解码器，K、V 来自编码器 | 全部来自同一序列 |\n",
    },
    "sub.cross.now_self": {
        "en": ("Now: self-attention. Q, K and V all come from the sentence, so A is {L} × {L}. Turn on "
               "“Cross-attention” in the sidebar to take K and V from a second sentence."),
        "zh": "当前：自注意力。Q、K、V 都来自同一句子，所以 A 是 {L} × {L}。在侧边栏打开“交叉注意力”，K、V 将来自第二个句子。",
    },
    "sub.cross.now_cross": {
        "en": ("Now: cross-attention. Q comes from the first sentence ({Lq} tokens), K and V from the second "
               "({Lk} tokens): A is {Lq} × {Lk}, every page shows it so."),
        "zh": "当前：交叉注意力。Q 来自第一个句子（{Lq} 个词元），K、V 来自第二个句子（{Lk} 个词元）：A 是 {Lq} × {Lk}，各页面都这样显示。",
    },
    "sub.score.title": {"en": "Two scoring functions on the same input", "zh": "同一输入上的两种评分函数"},
    "sub.score.head": {"en": "Head", "zh": "头"},
    "sub.score.text": {
        "en": "Note 003: the attention pooling f can be scaled dot-product or additive attention. Both get the "
              "same $Q_{{{n}}}$, $K_{{{n}}}$ of head {n}; additive attention has its own small learned network "
              "(here seeded $W_q$, $W_k$ and $w_v$ with 16 hidden units). Each row of both maps sums to 1.",
        "zh": "笔记 003：注意力汇聚函数 f 可以是缩放点积注意力，也可以是加性注意力。两者使用头 {n} 的同一组 "
              "$Q_{{{n}}}$、$K_{{{n}}}$；加性注意力有自己的小网络（这里是随机种子生成的 $W_q$、$W_k$ 和 $w_v$，16 个隐藏单元）。两张图的每一行之和都是 1。",
    },
    "sub.score.dot": {"en": "scaled dot-product: softmax(QKᵀ/√d_k)", "zh": "缩放点积：softmax(QKᵀ/√d_k)"},
    "sub.score.add": {"en": "additive: softmax(w_vᵀ tanh(W_q q + W_k k))", "zh": "加性：softmax(w_vᵀ tanh(W_q q + W_k k))"},
}
