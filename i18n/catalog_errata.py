"""Where the lecture notes are wrong: the ONE list. The errata page, the links on other pages and the README's
section "Where the lecture notes are wrong" (scripts/errata_readme.py) are all drawn from ERRATA.

Each entry: id; note (000..004) and line in /work/shared/seeds; quote: the note's own words, verbatim (tests check
them against the note files when present); title and true: what is wrong and what is true (en, zh); evidence:
a sentence with the live numbers explorer/errata.py computes on the current setting ({...} fields); page: the
page (url_path) whose demonstration shows it; computation: the function(s) that compute that demonstration.
"""

from __future__ import annotations

ERRATA: tuple[dict, ...] = (
    # ----------------------------------------------------------------------------------------- note 000
    {
        "id": "n000_split", "note": "000", "line": 20,
        "quote": "将输入的特征维度 **$d_{model}$**，也即将每个$\\text{token}$的维度平均分配到每个头中",
        "title": {"en": "Heads do not split the input's dimensions", "zh": "各个头并不瓜分输入的维度"},
        "true": {
            "en": "Each W_i^Q, W_i^K, W_i^V is d_model × d_k: every head reads all d_model input dimensions. What is "
                  "divided among the heads is the projected width h·d_k = d_model, not the input (the same "
                  "misconception as note 004's block-diagonal projection).",
            "zh": "每个 W_i^Q、W_i^K、W_i^V 的形状都是 d_model × d_k：每个头都读取全部 d_model 个输入维度。分给各个头的是"
                  "投影后的宽度 h·d_k = d_model，而不是输入（与笔记 004 的分块对角投影是同一个误解）。",
        },
        "evidence": {"en": "Now: input dimension 1 changes the queries of {heads} of the {h} heads.",
                     "zh": "当前设置：改变第 1 个输入维度，{h} 个头中有 {heads} 个头的查询随之改变。"},
        "page": "why", "computation": "per-head W_i^Q blocks of the fused W^Q (figures.why.fused_weight_figure)",
    },
    {
        "id": "n000_wo", "note": "000", "line": 48,
        "quote": "$\\text{Multi\\ Head}(Q,K,V)=\\text{Concat}(\\text{head}_1,\\text{head}_2,…,\\text{head}_h)$",
        "title": {"en": "MultiHead without W^O", "zh": "MultiHead 漏掉了 W^O"},
        "true": {
            "en": "MultiHead(Q, K, V) = Concat(head_1, …, head_h) W^O: the output projection is part of multi-head "
                  "attention (notes 001, 002 and 004 write it so). Note 000 calls the concatenation alone MultiHead "
                  "and multiplies by W_O one line later.",
            "zh": "MultiHead(Q, K, V) = Concat(head_1, …, head_h) W^O：输出投影属于多头注意力本身（笔记 001、002、004 都这样写）。"
                  "笔记 000 把拼接结果本身称为 MultiHead，下一行才乘以 W_O。",
        },
        "evidence": {"en": "Now: the concatenation and the output differ by up to {gap}.",
                     "zh": "当前设置：拼接结果与输出之间最大相差 {gap}。"},
        "page": "steps", "computation": "AttentionTrace.concat vs AttentionTrace.output",
    },
    {
        "id": "n000_a", "note": "000", "line": 63,
        "quote": "$A_{i,j}=\\sum\\limits_{k=1}^dQ_{i,k}\\cdot K_{j,k}$",
        "title": {"en": "A names two different matrices", "zh": "A 同时指两个不同的矩阵"},
        "true": {
            "en": "Note 000 writes A_i = softmax(Q_i K_iᵀ/√d_k) (after the softmax) and later A_ij = Σ_k Q_ik K_jk "
                  "(the raw scores, before it). They are different matrices: the app calls the scores S and the "
                  "weights A.",
            "zh": "笔记 000 先写 A_i = softmax(Q_i K_iᵀ/√d_k)（softmax 之后），后面又写 A_ij = Σ_k Q_ik K_jk（softmax 之前的"
                  "原始分数）。二者是不同的矩阵：本应用把分数记作 S，把权重记作 A。",
        },
        "evidence": {"en": "Now: rows of A sum to 1; rows of S (head 1) sum to values from {lo} to {hi}.",
                     "zh": "当前设置：A 的每行之和为 1；S（头 1）的行和从 {lo} 到 {hi}。"},
        "page": "steps", "computation": "AttentionTrace.scores vs AttentionTrace.weights",
    },
    {
        "id": "n000_t", "note": "000", "line": 65,
        "quote": "总加法次数为\u00a0$T^2 (d-1)$",  # a no-break space, as in the note
        "title": {"en": "T where L is meant", "zh": "把 L 写成了 T"},
        "true": {"en": "QKᵀ takes L²(d−1) additions: the note switches from L to T in the middle of the count.",
                 "zh": "QKᵀ 需要 L²(d−1) 次加法：笔记在计数中途把 L 换成了 T。"},
        "evidence": {"en": "Now (one head of width d = {d}, L = {L}): {adds} additions = L²(d−1).",
                     "zh": "当前设置（一个宽为 d = {d} 的头，L = {L}）：{adds} 次加法 = L²(d−1)。"},
        "page": "why", "computation": "mha_core.operation_counts",
    },
    {
        "id": "n000_mult", "note": "000", "line": 66,
        "quote": "硬件加速器(GPU/TPU)的**乘法操作**是计算瓶颈",
        "title": {"en": "Multiplications are not the bottleneck", "zh": "乘法并不是瓶颈"},
        "true": {
            "en": "GPUs and TPUs do a multiply and an add in one fused instruction, and attention at long L is "
                  "usually limited by moving the L × L matrices through memory, not by arithmetic (the reason for "
                  "FlashAttention, Dao et al. 2022). Counting multiplications does not predict the time: at equal "
                  "multiplications, more heads take longer.",
            "zh": "GPU 和 TPU 用一条融合指令同时完成一次乘法和一次加法；长序列的注意力通常受限于在内存中搬运 L × L 矩阵，"
                  "而不是算术本身（这正是 FlashAttention 的出发点，Dao 等，2022）。乘法次数并不能预测耗时：乘法次数相同时，"
                  "头越多越慢。",
        },
        "evidence": {"en": "Now: h = 1 and h = {h} need the same {mults} multiplications but {x}× the exponentials "
                           "and L × L memory; time both on the page linked.",
                     "zh": "当前设置：h = 1 与 h = {h} 需要同样的 {mults} 次乘法，但指数运算和 L × L 内存是 {x} 倍；"
                           "可在链接的页面上实测两者的耗时。"},
        "page": "note004", "computation": "mha_core.note004.cost_by_heads, time_by_heads",
    },
    # ----------------------------------------------------------------------------------------- note 001
    {
        "id": "n001_q", "note": "001", "line": 156,
        "quote": "Q_1 = X W_1^Q = \\begin{bmatrix} 0.85 & -0.05 \\\\ -0.29 & 0.74 \\end{bmatrix}",
        "title": {"en": "The worked example's Q₁ and Q₂ are miscalculated", "zh": "算例中的 Q₁ 和 Q₂ 算错了"},
        "true": {
            "en": "Multiplying the note's own X and W₁^Q, W₂^Q gives Q₁ = [[0, 1.45], [−0.95, −0.45]] and "
                  "Q₂ = [[2.05, −0.5], [−0.27, 0.94]], not the printed [[0.85, −0.05], [−0.29, 0.74]] and "
                  "[[2.15, 0.65], [−1.32, 1.02]].",
            "zh": "用笔记自己给出的 X 与 W₁^Q、W₂^Q 相乘，得到 Q₁ = [[0, 1.45], [−0.95, −0.45]]，"
                  "Q₂ = [[2.05, −0.5], [−0.27, 0.94]]，而不是笔记写的 [[0.85, −0.05], [−0.29, 0.74]] 和 "
                  "[[2.15, 0.65], [−1.32, 1.02]]。",
        },
        "evidence": {"en": "Computed: X W₁^Q = {q1}, X W₂^Q = {q2}.", "zh": "计算结果：X W₁^Q = {q1}，X W₂^Q = {q2}。"},
        "page": "worked", "computation": "run_scene(worked preset).q",
    },
    {
        "id": "n001_params", "note": "001", "line": 180,
        "quote": "| **参数量**   | $3d_{\\text{model}}^2$    | $3d_{\\text{model}}^2$ (相同)   |",
        "title": {"en": "4 d_model² weights, not 3", "zh": "权重是 4 d_model²，不是 3 d_model²"},
        "true": {"en": "W^O is a fourth d_model × d_model matrix: single- and multi-head attention both have "
                       "4 d_model² weights (note 004 says so), whatever h is.",
                 "zh": "W^O 是第四个 d_model × d_model 矩阵：单头和多头注意力的权重都是 4 d_model²（笔记 004 也这样写），"
                       "与 h 无关。"},
        "evidence": {"en": "Now (d_model = {d}): {weights} weights = 4 · {d}², for every h.",
                     "zh": "当前设置（d_model = {d}）：{weights} 个权重 = 4 · {d}²，对任何 h 都一样。"},
        "page": "why", "computation": "mha_core.parameter_count",
    },
    {
        "id": "n001_orth", "note": "001", "line": 182,
        "quote": "$h$ 个正交子空间",
        "title": {"en": "The heads' subspaces are not necessarily orthogonal", "zh": "各个头的子空间不一定正交"},
        "true": {"en": "Nothing in the layer or in training makes the column spaces of W_i^Q (or W_i^K, W_i^V) "
                       "orthogonal; they generally overlap.",
                 "zh": "层的结构和训练都不会迫使 W_i^Q（或 W_i^K、W_i^V）的列空间相互正交；它们通常有重叠。"},
        "evidence": {"en": "Now: the query subspaces of two heads share a direction up to cos θ = {cos} "
                           "(0 would be orthogonal).",
                     "zh": "当前设置：两个头的查询子空间之间，最小主角的余弦可达 {cos}（正交时为 0）。"},
        "page": "subspaces", "computation": "mha_core.note004.subspace_overlap",
    },
    {
        "id": "n001_f", "note": "001", "line": 141,
        "quote": "输出是多个子空间的非线性组合",
        "title": {"en": "The heads are combined linearly", "zh": "各个头是线性组合的"},
        "true": {"en": "Concat(head_1, …, head_h) W^O = Σ_i head_i W^O_i: a plain sum of one term per head, with no "
                       "function f around it (the non-linearity is inside each head, in the softmax).",
                 "zh": "Concat(head_1, …, head_h) W^O = Σ_i head_i W^O_i：每个头一项，直接相加，外面没有函数 f"
                       "（非线性在每个头内部的 softmax 里）。"},
        "evidence": {"en": "Now: |Σ_i head_i W^O_i − output| ≤ {gap}.", "zh": "当前设置：|Σ_i head_i W^O_i − 输出| ≤ {gap}。"},
        "page": "note004", "computation": "mha_core.why.head_contributions",
    },
    {
        "id": "n001_parallel", "note": "001", "line": 183,
        "quote": "| **并行性**   | 低                       | 高（头间完全并行）             |",
        "title": {"en": "A single head is not “low parallelism”", "zh": "单头注意力的并行性并不“低”"},
        "true": {"en": "One head already computes all L queries at once: O(1) sequential steps, which note 003's own "
                       "table gives for self-attention. Several heads add parallelism across heads, at the same "
                       "number of multiplications.",
                 "zh": "一个头就已经同时计算全部 L 个查询：顺序步骤为 O(1)，笔记 003 自己的表格对自注意力也是这样写的。"
                       "多个头只是在头之间再增加并行，乘法次数不变。"},
        "evidence": {"en": "Now: one forward pass is the same {steps} steps for h = 1 and h = {h}, each over all "
                           "L = {L} tokens at once.",
                     "zh": "当前设置：h = 1 与 h = {h} 的一次前向计算都是同样的 {steps} 个步骤，每一步都同时处理全部 "
                           "L = {L} 个词元。"},
        "page": "why", "computation": "mha_core.operation_counts",
    },
    {
        "id": "n001_end", "note": "001", "line": 201,
        "quote": "成为 Transformer 架构的核心创新。� Transformer 架构的核心创新。",
        "title": {"en": "The last sentence is garbled", "zh": "最后一句有乱码"},
        "true": {"en": "The note ends with its last phrase repeated after a broken character (�): a copy slip, "
                       "nothing is missing.",
                 "zh": "笔记末尾在一个损坏的字符（�）之后重复了最后半句：只是复制时的失误，没有缺少内容。"},
        "page": "", "computation": "",
    },
    # ----------------------------------------------------------------------------------------- note 003
    {
        "id": "n003_x", "note": "003", "line": 3,
        "quote": "用独立学习得到的x组不同的`线性投影`",
        "title": {"en": "x for the number of heads", "zh": "用 x 表示头数"},
        "true": {"en": "The number of heads is h (the note's own formula uses h_i, i = 1, …, h); x is the input "
                       "elsewhere in the notes.",
                 "zh": "头数是 h（笔记自己的公式也写 h_i，i = 1, …, h）；在其他笔记中 x 表示输入。"},
        "page": "", "computation": "",
    },
    {
        "id": "n003_additive", "note": "003", "line": 2,
        "quote": "（比如可加性）",
        "title": {"en": "“可加性” for additive attention", "zh": "把加性注意力写成“可加性”"},
        "true": {"en": "Additive attention is 加性注意力 (as the same note writes a few lines later); 可加性 means "
                       "the property of additivity.",
                 "zh": "additive attention 应译为加性注意力（同一篇笔记几行之后就是这样写的）；可加性指的是“可加”这一性质。"},
        "page": "subspaces", "computation": "mha_core.why.additive_attention",
    },
    # ----------------------------------------------------------------------------------------- note 004
    {
        "id": "n004_stack", "note": "004", "line": 22,
        "quote": "W_Q^{\\text{all}} = \\begin{bmatrix} W_1^Q \\\\ W_2^Q \\\\ \\vdots \\\\ W_h^Q \\end{bmatrix} "
                 "\\in \\mathbb{R}^{(h \\cdot d_k) \\times d_{\\text{model}}}",
        "title": {"en": "The heads' W_i^Q sit side by side, not stacked", "zh": "各个 W_i^Q 是横向拼接，不是纵向堆叠"},
        "true": {"en": "X W^Q with X of shape n × d_model needs W^Q = [W_1^Q | … | W_h^Q], d_model × (h·d_k): the "
                       "blocks are concatenated by columns. Stacked by rows, (h·d_k) × d_model, the product X W "
                       "is not even defined unless h·d_k = d_model.",
                 "zh": "X 的形状是 n × d_model，X W^Q 需要 W^Q = [W_1^Q | … | W_h^Q]，形状 d_model × (h·d_k)：各块按列拼接。"
                       "按行堆叠得到 (h·d_k) × d_model，只有在 h·d_k = d_model 时 X W 才有定义。"},
        "evidence": {"en": "Now: Q = X W^Q split every d_k = {dk} columns equals X W_i^Q for every head "
                           "(max difference {gap}).",
                     "zh": "当前设置：Q = X W^Q 每 d_k = {dk} 列切开，与每个头的 X W_i^Q 相同（最大差 {gap}）。"},
        "page": "why", "computation": "mha_core.split_weight_columns; AttentionTrace.q_fused vs q",
    },
    {
        "id": "n004_blockdiag", "note": "004", "line": 34,
        "quote": "分块对角结构意味着不同头的投影在输入空间中是不相交的——每个输入维度只贡献给特定的头",
        "title": {"en": "The projection is not block-diagonal", "zh": "投影并不是分块对角的"},
        "true": {"en": "Q = X [W_1^Q | … | W_h^Q]: every input dimension feeds every head. A block-diagonal W would "
                       "give each head its own slice of the input, which is not what multi-head attention does.",
                 "zh": "Q = X [W_1^Q | … | W_h^Q]：每个输入维度都会影响每个头。分块对角的 W 才会让每个头只读取输入的一段，"
                       "而多头注意力并不是这样。"},
        "evidence": {"en": "Now: input dimension 1 changes the queries of {heads} of the {h} heads.",
                     "zh": "当前设置：改变第 1 个输入维度，{h} 个头中有 {heads} 个头的查询随之改变。"},
        "page": "why", "computation": "figures.why.fused_weight_figure",
    },
    {
        "id": "n004_kernel", "note": "004", "line": 7,
        "quote": "单头注意力可以被视为一个特定的核函数",
        "title": {"en": "exp(q·k) is not a kernel here", "zh": "这里的 exp(q·k) 不是核函数"},
        "true": {"en": "A (Mercer) kernel is symmetric and positive semi-definite. exp(q_i·k_j) with q = x W^Q, "
                       "k = x W^K and W^Q ≠ W^K is not symmetric (s_ij ≠ s_ji), so it is a similarity score, not a "
                       "kernel; only with W^K = W^Q is exp(x W Wᵀ x′ᵀ) one.",
                 "zh": "（Mercer）核函数必须对称且半正定。q = x W^Q、k = x W^K 且 W^Q ≠ W^K 时，exp(q_i·k_j) 不对称"
                       "（s_ij ≠ s_ji），它只是一个相似度分数，不是核函数；只有 W^K = W^Q 时 exp(x W Wᵀ x′ᵀ) 才是核函数。"},
        "evidence": {"en": "Now (head 1): |S − Sᵀ| / |S| = {asym}; smallest eigenvalue of exp(S)'s symmetric part "
                           "{eig}; with W^K = W^Q {tied} (≥ 0).",
                     "zh": "当前设置（头 1）：|S − Sᵀ| / |S| = {asym}；exp(S) 对称部分的最小特征值为 {eig}；"
                           "取 W^K = W^Q 时为 {tied}（≥ 0）。"},
        "page": "note004", "computation": "mha_core.note004.kernel_view",
    },
    {
        "id": "n004_fh", "note": "004", "line": 39,
        "quote": "可以证明，$\\mathcal{F}_h$严格包含$\\mathcal{F}_1$",
        "title": {"en": "F_h ⊋ F_1 is not proven, and fails at fixed d_model", "zh": "F_h ⊋ F_1 没有被证明，且在 d_model 固定时不成立"},
        "true": {"en": "The inclusion holds if each of the h heads may be as wide as the single head (d_k = d_model, "
                       "h times the parameters): keep one head, set the other W^O_i to 0. At fixed d_model each head "
                       "has d_k = d_model/h, its scores have rank ≤ d_k, and it can give the single head's weights "
                       "only if that head's scores have rank ≤ d_k + 1. The two classes differ; neither is shown "
                       "to contain the other.",
                 "zh": "如果 h 个头中每个头都可以和单头一样宽（d_k = d_model，参数量是 h 倍），包含关系成立：保留一个头，"
                       "其余 W^O_i 取 0。d_model 固定时，每个头 d_k = d_model/h，分数矩阵的秩 ≤ d_k，只有当单头分数矩阵的秩"
                       " ≤ d_k + 1 时它才能给出单头的注意力权重。两个函数类不同，并没有谁包含谁的证明。"},
        "evidence": {"en": "Now: a single head of width {d} has score rank {r1}; from h = {h0} on no head can give "
                           "its weights.",
                     "zh": "当前设置：宽为 {d} 的单头分数矩阵的秩为 {r1}；从 h = {h0} 起，没有任何一个头能给出它的注意力权重。"},
        "page": "note004", "computation": "mha_core.note004.inclusion_check",
    },
    {
        "id": "n004_asym", "note": "004", "line": 39,
        "quote": "一个简单的例子是\"非对称的成对交互\"",
        "title": {"en": "One head is already asymmetric", "zh": "一个头本身就是非对称的"},
        "true": {"en": "Note 004's example of what needs several heads, an asymmetric pairwise interaction, is "
                       "something one head already does: with W^Q ≠ W^K, how much i attends to j (s_ij) differs "
                       "from how much j attends to i (s_ji).",
                 "zh": "笔记 004 举的“需要多个头”的例子——非对称的成对交互——一个头就能做到：W^Q ≠ W^K 时，"
                       "i 对 j 的分数 s_ij 与 j 对 i 的分数 s_ji 不同。"},
        "evidence": {"en": "Now (head 1): s_ij − s_ji reaches {gap}.", "zh": "当前设置（头 1）：s_ij − s_ji 最大为 {gap}。"},
        "page": "note004", "computation": "mha_core.note004.kernel_view",
    },
    {
        "id": "n004_basis", "note": "004", "line": 44,
        "quote": "基函数展开的理论保证告诉我们，如果基函数集合足够丰富，任意连续函数都可以用这些基函数的线性组合来逼近",
        "title": {"en": "One layer of h heads is not a universal basis expansion", "zh": "一层 h 个头并不是万能的基函数展开"},
        "true": {"en": "The output is indeed Σ_i head_i W^O_i, h terms. But h is small and fixed and every term comes "
                       "from the same family of attention heads, so the guarantee for rich sets of basis functions "
                       "says nothing about one layer. Universal approximation has been shown for stacks of "
                       "attention and feed-forward layers (Yun et al., ICLR 2020), not for one attention layer.",
                 "zh": "输出确实是 Σ_i head_i W^O_i，共 h 项。但 h 很小且固定，每一项都来自同一类注意力头，"
                       "关于“足够丰富的基函数集合”的保证对一层注意力并不适用。万能逼近性已对注意力层与前馈层的堆叠"
                       "给出证明（Yun 等，ICLR 2020），而不是对单独一层注意力。"},
        "evidence": {"en": "Now: the output is the sum of h = {h} terms (largest error {gap}).",
                     "zh": "当前设置：输出是 h = {h} 项之和（最大误差 {gap}）。"},
        "page": "note004", "computation": "mha_core.why.head_contributions",
    },
    {
        "id": "n004_rho", "note": "004", "line": 52,
        "quote": "如果两个头学习到相似的特征，它们的输出表示会高度相关，$\\rho_{ij}$接近1",
        "title": {"en": "ρ_ij near 1 does not mean the heads say the same thing", "zh": "ρ_ij 接近 1 并不表示两个头说的是同一件事"},
        "true": {"en": "ρ_ij compares head_i and head_j coordinate by coordinate, but each head's value coordinates "
                       "are arbitrary: W_j^V → W_j^V R, W^O_j → Rᵀ W^O_j (R orthogonal) leaves the layer's output "
                       "exactly the same and moves ρ_ij. Compare what the heads add to the output instead: the "
                       "cosine of head_i W^O_i and head_j W^O_j, which do not move.",
                 "zh": "ρ_ij 按坐标逐一比较 head_i 与 head_j，但每个头的值坐标是任意的：W_j^V → W_j^V R、W^O_j → Rᵀ W^O_j"
                       "（R 正交）使层的输出完全不变，ρ_ij 却会改变。应比较各头加到输出上的部分：head_i W^O_i 与 "
                       "head_j W^O_j 的余弦，它不会改变。"},
        "evidence": {"en": "Now: rotating head 2 alone moves ρ₁₂ anywhere from {lo} to {hi} (now {now}); the layer's "
                           "output does not change.",
                     "zh": "当前设置：只旋转头 2，ρ₁₂ 可以取 {lo} 到 {hi} 之间的任意值（现在为 {now}）；层的输出不变。"},
        "page": "heads", "computation": "mha_core.note004.rotation_demo, rho_extremes",
    },
    {
        "id": "n004_lowcorr", "note": "004", "line": 52,
        "quote": "实验观察表明，训练良好的Transformer中不同头的输出表示往往具有较低的相关性，这意味着各个头确实学习到了互补的信息",
        "title": {"en": "“Trained heads have low correlation” is contested", "zh": "“训练后的头相关性低”是有争议的"},
        "true": {"en": "Head-pruning studies find much redundancy: Michel et al. (NeurIPS 2019, “Are Sixteen Heads "
                       "Really Better than One?”) remove many heads, some layers down to one, at test time with "
                       "little loss; Voita et al. (ACL 2019) prune most encoder heads with a small BLEU drop, a few "
                       "specialised heads doing most of the work. And ρ_ij, the note's own measure, depends on "
                       "arbitrary coordinates.",
                 "zh": "剪枝研究发现头之间有大量冗余：Michel 等（NeurIPS 2019，“Are Sixteen Heads Really Better than One?”）"
                       "在测试时去掉许多头（有些层只留一个）而性能几乎不降；Voita 等（ACL 2019）剪掉了编码器的大部分头，"
                       "BLEU 只略有下降，少数专门化的头承担了主要工作。而且笔记自己的度量 ρ_ij 依赖于任意的坐标。"},
        "evidence": {"en": "Look at a real model's heads: the cosine of their contributions on the page linked.",
                     "zh": "在链接的页面上查看真实模型各个头贡献之间的余弦。"},
        "page": "minilm", "computation": "mha_core.contribution_similarity on all-MiniLM-L6-v2",
    },
    {
        "id": "n004_free", "note": "004", "line": 58,
        "quote": "而不增加计算成本",
        "title": {"en": "More heads are not free", "zh": "更多的头并不是免费的"},
        "true": {"en": "The parameters (4 d_model²) and the multiplications of the matrix products are the same for "
                       "every h. But the softmax takes one exponential per score, h·L·L_k, and every L × L tensor "
                       "holds h·L·L_k numbers: both grow h-fold.",
                 "zh": "参数量（4 d_model²）和矩阵乘法的乘法次数对任何 h 都一样。但 softmax 对每个分数做一次指数运算，"
                       "共 h·L·L_k 次，每个 L × L 张量也有 h·L·L_k 个数：两者都随 h 成倍增长。"},
        "evidence": {"en": "Now (L = {L}): {mults} multiplications for every h; {e1} exponentials at h = 1, {eh} at "
                           "h = {h}.",
                     "zh": "当前设置（L = {L}）：每个 h 都是 {mults} 次乘法；h = 1 时 {e1} 次指数运算，h = {h} 时 {eh} 次。"},
        "page": "note004", "computation": "mha_core.note004.cost_by_heads, time_by_heads",
    },
    {
        "id": "n004_typo", "note": "004", "line": 52,
        "quote": "如果两个头学习到正交的特理",
        "title": {"en": "特理 for 特征", "zh": "“特理”应为“特征”"},
        "true": {"en": "A typo: “orthogonal features” is 正交的特征.", "zh": "笔误：应为“正交的特征”。"},
        "page": "", "computation": "",
    },
)

STRINGS: dict[str, dict[str, str]] = {
    "errata.intro": {
        "en": "The app teaches from five Chinese lecture notes and shows computed numbers, never the notes'. "
              "Each entry quotes the note, says what is true, and shows the live number on the current setting "
              "that proves it (where a computation can). The README's list is generated from this same list.",
        "zh": "本应用依据五篇中文笔记讲解，只显示计算得到的数值，从不照抄笔记。每一条都引用笔记原文，说明正确的内容，"
              "并在能计算时给出当前设置下证明它的实时数值。README 中的列表由同一份清单生成。",
    },
    "errata.note_n": {"en": "Note {n}", "zh": "笔记 {n}"},
    "errata.the_note": {"en": "The note (line {line})", "zh": "笔记原文（第 {line} 行）"},
    "errata.what_is_true": {"en": "What is true", "zh": "正确的是"},
    "errata.live": {"en": "Live", "zh": "实时计算"},
    "errata.see": {"en": "Shown on", "zh": "演示页面"},
    "errata.filter": {"en": "Notes", "zh": "笔记"},
    "errata.count": {"en": "{n} entries.", "zh": "共 {n} 条。"},
    "errata.here": {"en": "Where the notes are wrong about this page ({n})", "zh": "笔记中与本页相关的错误（{n} 处）"},
}
for _e in ERRATA:
    STRINGS[f"errata.{_e['id']}.title"] = _e["title"]
    STRINGS[f"errata.{_e['id']}.true"] = _e["true"]
    if "evidence" in _e:
        STRINGS[f"errata.{_e['id']}.evidence"] = _e["evidence"]
