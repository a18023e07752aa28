"""Where the lecture notes are wrong: the ONE list. The errata page, the links on other pages and the README's
section "Where the lecture notes are wrong" (scripts/errata_readme.py) are all drawn from ERRATA.

Each entry: id; note (000..004) and line in /work/shared/seeds; quote: the note's own words, verbatim (tests check
them against the note files when present); title and true: what is wrong and what is true (en, zh), and "true" says
only what a test shows (tests/test_errata_claims.py holds one test per entry); evidence: a sentence with the live
numbers explorer/errata.py computes on the current setting ({...} fields); page: the page (url_path) whose
demonstration shows it; computation: the function(s) that compute that demonstration; kind "clarification" (optional)
for an entry whose quote is right but incomplete. A text may cite another entry (⟦errata:<id>⟧).
"""

from __future__ import annotations

ERRATA: tuple[dict, ...] = (
    # ----------------------------------------------------------------------------------------- note 000
    {
        "id": "n000_split", "note": "000", "line": 20,
        "quote": "将输入的特征维度 **$d_{model}$**，也即将每个$\\text{token}$的维度平均分配到每个头中",
        "title": {
            "en": "Heads do not split the input's dimensions",
            "zh": "各个头并不瓜分输入的维度",
        },
        "true": {
            "en": "Each $W_i^Q$, $W_i^K$, $W_i^V$ is $d_\\text{model}$ × $d_k$: every head reads all "
                  "$d_\\text{model}$ input dimensions. What is divided among the heads is the projected width "
                  "h·$d_k$ = $d_\\text{model}$, not the input (the same misconception as note 004's "
                  "block-diagonal projection).",
            "zh": "每个 $W_i^Q$、$W_i^K$、$W_i^V$ 的形状都是 $d_\\text{model}$ × $d_k$：每个头都读取全部 $d_\\text{model}$ 个输入维度。分给"
                  "各个头的是投影后的维度 h·$d_k$ = $d_\\text{model}$，而不是输入（与笔记 004 的分块对角投影是同一个误解）。",
        },
        "evidence": {
            "en": "Now: input dimension 1 changes the queries of {heads} of the {h} heads.",
            "zh": "当前设置：改变第 1 个输入维度，{h} 个头中有 {heads} 个头的查询随之改变。",
        },
        "page": "why", "computation": "per-head W_i^Q blocks of the fused W^Q (figures.why.fused_weight_figure)",
    },
    {
        "id": "n000_wo", "note": "000", "line": 48,
        "quote": "$\\text{Multi\\ Head}(Q,K,V)=\\text{Concat}(\\text{head}_1,\\text{head}_2,…,\\text{head}_h)$",
        "title": {
            "en": "MultiHead without $W^O$",
            "zh": "MultiHead 漏掉了 $W^O$",
        },
        "true": {
            "en": "MultiHead(Q, K, V) = Concat($\\mathrm{head}_1$, …, $\\mathrm{head}_h$) $W^O$: the output "
                  "projection is part of multi-head attention, as notes 002 and 004 write it and as note 001's "
                  "summary does. Note 000 calls the concatenation alone MultiHead and multiplies by $W_O$ one line "
                  "later; note 001 makes the same slip in its section 4 (⟦errata:n001_wo⟧).",
            "zh": "MultiHead(Q, K, V) = Concat($\\mathrm{head}_1$, …, $\\mathrm{head}_h$) $W^O$：输出投影属于多头注意力本身，笔记 "
                  "002 和 004 都这样写，笔记 001 的汇总公式也是如此。笔记 000 把拼接结果本身称为 MultiHead，下一行才乘以 $W_O$；笔记 001 "
                  "在第 4 节也犯了同样的错（⟦errata:n001_wo⟧）。",
        },
        "evidence": {
            "en": "Now: the concatenation and the output differ by up to {gap}.",
            "zh": "当前设置：拼接结果与输出之间最大相差 {gap}。",
        },
        "page": "steps", "computation": "AttentionTrace.concat vs AttentionTrace.output",
    },
    {
        "id": "n000_parallel", "note": "000", "line": 6,
        "quote": "主要**增加了一种并行化和多视角的机制**",
        "title": {
            "en": "Several heads add views, not parallelism",
            "zh": "多个头增加的是视角，而不是并行性",
        },
        "true": {
            "en": "One head already computes all L queries at once, and its L × $L_k$ scores are independent dot "
                  "products. Splitting into h heads cuts the same multiplications into h independent pieces, none "
                  "of which one head had to wait for. What several heads add is h attention patterns instead of "
                  "one (the “views”), not parallelism that one head lacks (note 001's table makes the same claim: "
                  "⟦errata:n001_parallel⟧).",
            "zh": "一个头就已经同时计算全部 L 个查询，它的 L × $L_k$ 个分数都是相互独立的点积。分成 h 个头只是把同样的乘法切成 h "
                  "个独立的部分，而一个头原本也不必等待其中任何一部分。多个头带来的是 h 种注意力模式而不只是一种（即“多视角”），并没有带来单个头所缺少的并行性"
                  "（笔记 001 的表格也有同样的说法：⟦errata:n001_parallel⟧）。",
        },
        "evidence": {
            "en": "Now (L = {L}): h = 1 computes $QK^\\top$ as {n1} independent dot products of length {d}, h = "
                  "{h} as {nh} of length {dk}: {mults} multiplications either way; the {h} heads' attention "
                  "weights differ from one another by up to {spread}.",
            "zh": "当前设置（L = {L}）：h = 1 把 $QK^\\top$ 算作 {n1} 个长度为 {d} 的独立点积，h = {h} 算作 {nh} 个长度为 {dk} "
                  "的独立点积：乘法都是 {mults} 次；{h} 个头的注意力权重彼此最多相差 {spread}。",
        },
        "page": "why", "computation": "mha_core.operation_counts; AttentionTrace.weights",
    },
    {
        "id": "n000_a", "note": "000", "line": 63,
        "quote": "$A_{i,j}=\\sum\\limits_{k=1}^dQ_{i,k}\\cdot K_{j,k}$",
        "title": {
            "en": "A names two different matrices",
            "zh": "A 同时指两个不同的矩阵",
        },
        "true": {
            "en": "Note 000 writes $A_i$ = softmax($Q_i K_i^\\top / \\sqrt{d_k}$) (after the softmax) and later "
                  "$A_{ij}$ = $\\sum_k Q_{ik} K_{jk}$ (the raw scores, before it). They are different matrices: "
                  "the app calls the scores S and the weights A.",
            "zh": "笔记 000 先写 $A_i$ = softmax($Q_i K_i^\\top / \\sqrt{d_k}$)（softmax 之后），后面又写 $A_{ij}$ = $\\sum_k "
                  "Q_{ik} K_{jk}$（softmax 之前的原始分数）。二者是不同的矩阵：本应用把分数记作 S，把权重记作 A。",
        },
        "evidence": {
            "en": "Now: rows of A sum to 1; rows of S (head 1) sum to values from {lo} to {hi}.",
            "zh": "当前设置：A 的每行之和为 1；S（头 1）的行和从 {lo} 到 {hi}。",
        },
        "page": "steps", "computation": "AttentionTrace.scores vs AttentionTrace.weights",
    },
    {
        "id": "n000_t", "note": "000", "line": 65,
        "quote": "总加法次数为\u00a0$T^2 (d-1)$",
        "title": {
            "en": "T where L is meant",
            "zh": "把 L 写成了 T",
        },
        "true": {
            "en": "$QK^\\top$ takes L²(d−1) additions: the note switches from L to T in the middle of the count.",
            "zh": "$QK^\\top$ 需要 L²(d−1) 次加法：笔记在计数中途把 L 换成了 T。",
        },
        "evidence": {
            "en": "Now (one head of width d = {d}, L = {L}): {adds} additions = L²(d−1).",
            "zh": "当前设置（一个维度为 d = {d} 的头，L = {L}）：{adds} 次加法 = L²(d−1)。",
        },
        "page": "why", "computation": "mha_core.operation_counts",
    },
    {
        "id": "n000_mult", "note": "000", "line": 66,
        "quote": "硬件加速器(GPU/TPU)的**乘法操作**是计算瓶颈",
        "title": {
            "en": "Counting multiplications does not tell the time",
            "zh": "乘法次数并不能说明耗时",
        },
        "true": {
            "en": "What can be counted: for every h the matrix products take the same multiplications, while h "
                  "heads take h times the softmax's exponentials and h times the L × L memory. What that costs "
                  "in time depends on the machine, and the note measures nothing: GPUs and TPUs do a multiply and "
                  "an add in one fused instruction, and attention at long L is often limited by moving the L × L "
                  "matrices through memory rather than by arithmetic (the reason for FlashAttention, Dao et al. "
                  "2022). So “multiplications are the bottleneck” is not a rule; the page linked times the layer "
                  "for each h on this server.",
            "zh": "可以计数的是：对任何 h，矩阵乘法的乘法次数都相同；而 h 个头需要 h 倍的 softmax 指数运算和 h 倍的 L × L 内存。这些在时间上代价多大取决于机器，而笔记"
                  "没有做任何测量：GPU 和 TPU 用一条融合指令同时完成一次乘法和一次加法，长序列的注意力往往受限于在内存中搬运 L × L 矩阵，而不是算术本身（这正是 "
                  "FlashAttention 的出发点，Dao 等，2022）。所以“乘法是瓶颈”并不是一条规律；链接的页面在本服务器上对每个 h 实测这一层的耗时。",
        },
        "evidence": {
            "en": "Now: h = 1 and h = {h} need the same {mults} multiplications in their matrix products; h = {h} "
                  "needs {x}× the exponentials ({e1} → {eh}) and {x}× the L × L memory. The page linked times "
                  "both on this server.",
            "zh": "当前设置：h = 1 与 h = {h} 的矩阵乘法需要同样的 {mults} 次乘法；h = {h} 需要 {x} 倍的指数运算（{e1} → {eh}）和 {x} 倍的 L × L "
                  "内存。可在链接的页面上实测两者在本服务器上的耗时。",
        },
        "page": "note004", "computation": "mha_core.note004.cost_by_heads, time_by_heads",
    },
    {
        "id": "n000_unified", "note": "000", "line": 21,
        "quote": "不共享权重，不存在“统一的权重矩阵”",
        "title": {
            "en": "There is one $W^Q$: the heads' $W_i^Q$ are its column blocks",
            "zh": "存在统一的权重矩阵：各个 $W_i^Q$ 就是 $W^Q$ 的列块",
        },
        "true": {
            "en": "The heads do not share weights, but their h matrices $W_i^Q$ ($d_\\text{model}$ × $d_k$) side "
                  "by side are one $d_\\text{model}$ × $d_\\text{model}$ matrix $W^Q$ = [$W_1^Q$ | … | $W_h^Q$], "
                  "and Q = X $W^Q$ computed once and cut every $d_k$ columns gives every $Q_i$ = X $W_i^Q$. Note "
                  "002 computes it so, and implementations store it as one tensor (PyTorch's in_proj_weight holds "
                  "$(W^Q)^\\top$, $(W^K)^\\top$ and $(W^V)^\\top$ stacked, the way torch.nn.Linear stores a weight). "
                  "The per-head and the fused views are the same numbers.",
            "zh": "各个头确实不共享权重，但它们的 h 个矩阵 $W_i^Q$（$d_\\text{model}$ × $d_k$）横向拼接起来就是一个 $d_\\text{model}$ × "
                  "$d_\\text{model}$ 的矩阵 $W^Q$ = [$W_1^Q$ | … | $W_h^Q$]；一次算出 Q = X $W^Q$，再每 $d_k$ 列切开，就得到每个 "
                  "$Q_i$ = X $W_i^Q$。笔记 002 正是这样计算的，实际实现也把它存成一个张量（PyTorch 的 in_proj_weight 把 $(W^Q)^\\top$、$(W^K)^\\top$ 和 "
                  "$(W^V)^\\top$ 堆叠存放，这是 torch.nn.Linear 存放权重的方式）。分头视图和融合视图是同一组数值。",
        },
        "evidence": {
            "en": "Now: $W^Q$ ({d} × {d}) cut every $d_k$ = {dk} columns gives the {h} matrices $W_i^Q$ (largest "
                  "difference {wgap}); X $W^Q$ cut the same way gives every X $W_i^Q$ (largest difference {gap}).",
            "zh": "当前设置：$W^Q$（{d} × {d}）每 $d_k$ = {dk} 列切开，就得到 {h} 个矩阵 $W_i^Q$（最大差 {wgap}）；X $W^Q$ 同样切开，就得到每个 X "
                  "$W_i^Q$（最大差 {gap}）。",
        },
        "page": "steps", "computation": "mha_core.split_weight_columns; AttentionTrace.q_fused vs q",
    },
    {
        "id": "n000_qkonly", "note": "000", "line": 64,
        "quote": "总乘法次数为  $L\\times L\\times d=L^2d$",
        "title": {
            "en": "The cost analysis counts only $QK^\\top$",
            "zh": "复杂度分析只算了 $QK^\\top$",
        },
        "true": {
            "en": "Note 000 counts the multiplications of $QK^\\top$, L²d, and stops there. The layer also "
                  "computes A V (another L²d), four projections (4 L d² in all) and, with the scaling, one "
                  "multiplication by 1/√$d_k$ per score. The L² part outweighs the projections only when 2 L² d "
                  "> 4 L d², i.e. L > 2d: at note 002's sizes (T = 20, $d_\\text{model}$ = 512) the projections "
                  "are 98 % of the multiplications and $QK^\\top$ about 1 %.",
            "zh": "笔记 000 只计算了 $QK^\\top$ 的乘法次数 L²d 就停下了。这一层还要计算 A V（又一个 L²d）、四个投影（共 4 L d²），"
                  "缩放时每个分数还要乘一次 1/√$d_k$。只有当 2 L² d > 4 L d²，即 L > 2d 时，L² 部分才超过投影：在笔记 002 的尺寸下"
                  "（T = 20，$d_\\text{model}$ = 512），投影占乘法次数的 98%，$QK^\\top$ 只占约 1%。",
        },
        "evidence": {
            "en": "Now (L = {L}, $d_\\text{{model}}$ = {d}): {total} multiplications, {mm} in the matrix products "
                  "and {scale} for the scaling (one per score). $QK^\\top$ {qk}, A V {av}, the four projections "
                  "{proj}. At note 002's sizes: $QK^\\top$ {n_qk}, projections {n_proj}.",
            "zh": "当前设置（L = {L}，$d_\\text{{model}}$ = {d}）：共 {total} 次乘法，其中矩阵乘法 {mm} 次，缩放 {scale} 次（每个分数一次）。"
                  "$QK^\\top$ 占 {qk}，A V 占 {av}，四个投影占 {proj}。在笔记 002 的尺寸下：$QK^\\top$ 占 {n_qk}，投影占 {n_proj}。",
        },
        "page": "why", "computation": "mha_core.operation_counts",
    },
    # ----------------------------------------------------------------------------------------- note 001
    {
        "id": "n001_q", "note": "001", "line": 156,
        "quote": "Q_1 = X W_1^Q = \\begin{bmatrix} 0.85 & -0.05 \\\\ -0.29 & 0.74 \\end{bmatrix}",
        "title": {
            "en": "The worked example's Q₁ and Q₂ are miscalculated",
            "zh": "算例中的 Q₁ 和 Q₂ 算错了",
        },
        "true": {
            "en": "Multiplying the note's own X and $W_1^Q$, $W_2^Q$ gives Q₁ = [[0, 1.45], [−0.95, −0.45]] and "
                  "Q₂ = [[2.05, −0.5], [−0.27, 0.94]], not the printed [[0.85, −0.05], [−0.29, 0.74]] and "
                  "[[2.15, 0.65], [−1.32, 1.02]].",
            "zh": "用笔记自己给出的 X 与 $W_1^Q$、$W_2^Q$ 相乘，得到 Q₁ = [[0, 1.45], [−0.95, −0.45]]，Q₂ = [[2.05, −0.5], "
                  "[−0.27, 0.94]]，而不是笔记写的 [[0.85, −0.05], [−0.29, 0.74]] 和 [[2.15, 0.65], [−1.32, 1.02]]。",
        },
        "evidence": {
            "en": "Computed: X $W_1^Q$ = {q1}, X $W_2^Q$ = {q2}.",
            "zh": "计算结果：X $W_1^Q$ = {q1}，X $W_2^Q$ = {q2}。",
        },
        "page": "worked", "computation": "run_scene(worked preset).q",
    },
    {
        "id": "n001_params", "note": "001", "line": 180,
        "quote": "| **参数量**   | $3d_{\\text{model}}^2$    | $3d_{\\text{model}}^2$ (相同)   |",
        "title": {
            "en": "Multi-head attention has 4 $d_\\text{model}^2$ weights, not 3",
            "zh": "多头注意力的权重是 4 $d_\\text{model}^2$，不是 3 $d_\\text{model}^2$",
        },
        "true": {
            "en": "The multi-head column forgets $W^O$, which note 001's own formula uses: $W_i^Q$, $W_i^K$, "
                  "$W_i^V$ of all h heads hold 3 · h · $d_\\text{model}$ · $d_k$ = 3 $d_\\text{model}^2$, and "
                  "$W^O$ another $d_\\text{model}^2$, 4 $d_\\text{model}^2$ in all (note 004 says so), whatever "
                  "h is. The single-head column depends on the layer compared: one head of width "
                  "$d_\\text{model}$ with an output projection also has 4 $d_\\text{model}^2$; without one it "
                  "has 3 $d_\\text{model}^2$ (one head already ends at width $d_\\text{model}$, and note 002's "
                  "scaled dot-product attention has no projections at all). Either way, “3 $d_\\text{model}^2$, "
                  "the same” is wrong for multi-head attention.",
            "zh": "多头一栏漏掉了 $W^O$，而笔记 001 自己的公式里就有它：h 个头的 $W_i^Q$、$W_i^K$、$W_i^V$ 共有 3 · h · $d_\\text{model}$ · "
                  "$d_k$ = 3 $d_\\text{model}^2$ 个权重，$W^O$ 再加 $d_\\text{model}^2$，合计 4 $d_\\text{model}^2$（笔记 "
                  "004 也这样写），与 h 无关。单头一栏取决于拿什么层来比：维度为 $d_\\text{model}$ 且带输出投影的单头同样是 4 "
                  "$d_\\text{model}^2$；不带输出投影则是 3 $d_\\text{model}^2$（单头的输出本来就是 $d_\\text{model}$ 维，笔记 002 的缩放点积注"
                  "意力更是没有任何投影）。无论哪种，“3 $d_\\text{model}^2$，相同”对多头注意力都是错的。",
        },
        "evidence": {
            "en": "Now ($d_\\text{{model}}$ = {d}): multi-head, h = {h}: {mh} weights = 4 · {d}²; one head with "
                  "$W^O$: {s4}; one head without $W^O$: {s3} = 3 · {d}².",
            "zh": "当前设置（$d_\\text{{model}}$ = {d}）：多头，h = {h}：{mh} 个权重 = 4 · {d}²；带 $W^O$ 的单头：{s4}；不带 $W^O$ 的单头："
                  "{s3} = 3 · {d}²。",
        },
        "page": "why", "computation": "mha_core.parameter_count",
    },
    {
        "id": "n001_orth", "note": "001", "line": 182,
        "quote": "$h$ 个正交子空间",
        "title": {
            "en": "The heads' subspaces are not necessarily orthogonal",
            "zh": "各个头的子空间不一定正交",
        },
        "true": {
            "en": "Nothing in the layer or in training makes the column spaces of $W_i^Q$ (or $W_i^K$, $W_i^V$) "
                  "orthogonal, which would need every principal angle between two of them to be 90°; in general "
                  "the smallest one is below 90°. Nor do they need to share a direction (a principal angle of "
                  "0°): two $d_k$-dimensional subspaces of the $d_\\text{model}$-dimensional input space, with 2 "
                  "$d_k$ ≤ $d_\\text{model}$, generally meet only in 0.",
            "zh": "层的结构和训练都不会迫使 $W_i^Q$（或 $W_i^K$、$W_i^V$）的列空间相互正交；正交要求它们之间的每个主角度都是 90°，而一般情况下最小的主角度小于 "
                  "90°。它们也不必共享某个方向（主角度为 0°）：当 2 $d_k$ ≤ $d_\\text{model}$ 时，$d_\\text{model}$ 维输入空间中的两个 $d_k$ "
                  "维子空间一般只在 0 处相交。",
        },
        "evidence": {
            "en": "Now: the two closest query subspaces (heads {i} and {j}) are at a smallest principal angle of "
                  "{angle}° (orthogonal: 90°; a shared direction: 0°); they share {shared} of their {dk} "
                  "dimensions.",
            "zh": "当前设置：最接近的两个查询子空间（头 {i} 和头 {j}）之间的最小主角度为 {angle}°（正交时为 90°，共享一个方向时为 0°）；它们的 {dk} "
                  "个维度中共享 {shared} 个。",
        },
        "page": "subspaces", "computation": "mha_core.note004.closest_subspaces",
    },
    {
        "id": "n001_f", "note": "001", "line": 141,
        "quote": "输出是多个子空间的非线性组合",
        "title": {
            "en": "The heads are combined linearly",
            "zh": "各个头是线性组合的",
        },
        "true": {
            "en": "Concat($\\mathrm{head}_1$, …, $\\mathrm{head}_h$) $W^O$ = $\\sum_i \\mathrm{head}_i W^O_i$: a "
                  "plain sum of one term per head, with no function f around it (the non-linearity is inside "
                  "each head, in the softmax).",
            "zh": "Concat($\\mathrm{head}_1$, …, $\\mathrm{head}_h$) $W^O$ = $\\sum_i \\mathrm{head}_i "
                  "W^O_i$：每个头一项，直接相加，外面没有函数 f（非线性在每个头内部的 softmax 里）。",
        },
        "evidence": {
            "en": "Now: |$\\sum_i \\mathrm{{head}}_i W^O_i$ − output| ≤ {gap}.",
            "zh": "当前设置：|$\\sum_i \\mathrm{{head}}_i W^O_i$ − 输出| ≤ {gap}。",
        },
        "page": "note004", "computation": "mha_core.why.head_contributions",
    },
    {
        "id": "n001_wo", "note": "001", "line": 55,
        "quote": "\\text{MultiHead}(Q, K, V) = \\text{Concat}(\\text{head}_1, \\text{head}_2, \\dots, \\text{head}_h)",
        "title": {
            "en": "MultiHead is the concatenation in section 4 and Concat $W^O$ in the summary",
            "zh": "MultiHead 在第 4 节是拼接结果，在汇总公式中却是 Concat $W^O$",
        },
        "true": {
            "en": "Note 001's section 4 defines MultiHead(Q, K, V) as the concatenation of the heads; section 5 "
                  "multiplies it by $W^O$ and calls the result the output; the summary then writes MultiHead(X) = "
                  "Concat($\\mathrm{head}_1$, …, $\\mathrm{head}_h$) $W^O$. The summary is right: $W^O$ is part of "
                  "multi-head attention, and the concatenation alone is another matrix.",
            "zh": "笔记 001 第 4 节把 MultiHead(Q, K, V) 定义为各头的拼接结果；第 5 节再乘以 $W^O$，把结果称为输出；汇总公式又写成 MultiHead(X) = "
                  "Concat($\\mathrm{head}_1$, …, $\\mathrm{head}_h$) $W^O$。汇总公式是对的：$W^O$ 属于多头注意力本身，单纯的拼接结果是另一个矩阵。",
        },
        "evidence": {
            "en": "Now: the concatenation and the output differ by up to {gap}.",
            "zh": "当前设置：拼接结果与输出之间最大相差 {gap}。",
        },
        "page": "steps", "computation": "AttentionTrace.concat vs AttentionTrace.output",
    },
    {
        "id": "n001_parallel", "note": "001", "line": 183,
        "quote": "| **并行性**   | 低                       | 高（头间完全并行）             |",
        "title": {
            "en": "A single head is not “low parallelism”",
            "zh": "单头注意力的并行性并不“低”",
        },
        "true": {
            "en": "One head already computes all L queries at once: O(1) sequential steps (note 003's own table "
                  "gives self-attention a parallelism of O(n): all n positions at once). Several heads cut the "
                  "same products into more, smaller independent pieces, at the same number of multiplications. "
                  "In either layer Q, K and V are computed independently of one another, then the scores, the "
                  "softmax, A V and $W^O$ follow in turn, whatever h is.",
            "zh": "一个头就已经同时计算全部 L 个查询：顺序步骤为 O(1)（笔记 003 自己的表格给自注意力的并行度是 O(n)：n 个位置同时计算）。多个头只是把同样的乘积切成更多、更小的"
                  "独立部分，乘法次数不变。两种层中，Q、K、V 都彼此独立地计算，之后依次是分数、softmax、A V 和 $W^O$，与 h 无关。",
        },
        "evidence": {
            "en": "Now (L = {L}): h = 1 computes $QK^\\top$ as {n1} independent dot products of length {d}, h = "
                  "{h} as {nh} of length {dk}: {mults} multiplications either way. A recurrent layer would need L "
                  "= {L} steps one after another.",
            "zh": "当前设置（L = {L}）：h = 1 把 $QK^\\top$ 算作 {n1} 个长度为 {d} 的独立点积，h = {h} 算作 {nh} 个长度为 {dk} 的独立点积：乘法都是 "
                  "{mults} 次。循环层则需要依次执行 L = {L} 步。",
        },
        "page": "why", "computation": "mha_core.operation_counts, mha_core.why.architecture_costs",
    },
    {
        "id": "n001_end", "note": "001", "line": 201,
        "quote": "成为 Transformer 架构的核心创新。� Transformer 架构的核心创新。",
        "title": {
            "en": "The last sentence is garbled",
            "zh": "最后一句有乱码",
        },
        "true": {
            "en": "The note ends with its last phrase repeated after a broken character (�): a copy slip, "
                  "nothing is missing.",
            "zh": "笔记末尾在一个损坏的字符（�）之后重复了最后半句：只是复制时的失误，没有缺少内容。",
        },
        "page": "", "computation": "",
    },
    {
        "id": "n001_kv", "note": "001", "line": 158,
        "quote": "（类似计算 $K_1$, $V_1$ 后求 $\\text{head}_1$）",
        "title": {
            "en": "The worked example cannot be finished: $W^K$ and $W^V$ are missing",
            "zh": "算例无法算完：缺少 $W^K$ 和 $W^V$",
        },
        "true": {
            "en": "Note 001 gives X, $W_1^Q$, $W_2^Q$ and $W^O$ and says to compute $K_1$, $V_1$ “similarly”, "
                  "but never gives $W_i^K$ or $W_i^V$. Without them $\\mathrm{head}_1$, $\\mathrm{head}_2$ and "
                  "the output are not determined by the note: the worked-example page uses weights the app "
                  "chose, and says so.",
            "zh": "笔记 001 给出了 X、$W_1^Q$、$W_2^Q$ 和 $W^O$，说 $K_1$、$V_1$ “类似计算”，却始终没有给出 $W_i^K$ 和 "
                  "$W_i^V$。缺了它们，笔记并不能确定 $\\mathrm{head}_1$、$\\mathrm{head}_2$ 和输出：算例页面使用的是本应用选定的权重，并明确说明了这一点。",
        },
        "evidence": {
            "en": "Now: with the note's own X, $W_i^Q$ and $W^O$, the app's $W_i^K$, $W_i^V$ and another choice "
                  "(seed 1) give outputs that differ by up to {gap} (the output's entries reach {scale}).",
            "zh": "当前：使用笔记自己的 X、$W_i^Q$ 和 $W^O$，本应用选定的 $W_i^K$、$W_i^V$ 与另一组取值（种子 1）给出的输出最大相差 {gap}（输出元素最大为 "
                  "{scale}）。",
        },
        "page": "worked", "computation": "explorer.errata: the worked preset with W_i^K, W_i^V redrawn",
    },
    {
        "id": "n001_learn", "note": "001", "line": 192,
        "quote": "**维度分解**：将高维空间分解为低维子空间，降低学习难度",
        "title": {
            "en": "“Splitting the dimensions makes learning easier” is asserted, not shown",
            "zh": "“维度分解降低学习难度”只是断言，并无依据",
        },
        "true": {
            "en": "Nothing is decomposed on the input side: every head reads all $d_\\text{model}$ input "
                  "dimensions; $\\bigoplus_{i=1}^{h} \\mathbb{R}^{d_k} = \\mathbb{R}^{d_\\text{model}}$ is only the "
                  "dimension of the concatenation. The layer learns the same 4 $d_\\text{model}^2$ weights for "
                  "every h. Whether several small heads train more easily than one large head is an empirical "
                  "question that the note does not test.",
            "zh": "在输入一侧没有任何东西被分解：每个头都读取全部 $d_\\text{model}$ 个输入维度；$\\bigoplus_{i=1}^{h} \\mathbb{R}^{d_k} = "
                  "\\mathbb{R}^{d_\\text{model}}$ 只是拼接结果的维度。对任何 h，这一层要学习的都是同样的 4 $d_\\text{model}^2$ 个权重。"
                  "几个小维度的头是否比一个大维度的头更容易训练，是一个经验问题，笔记并没有检验。",
        },
        "evidence": {
            "en": "Now: h = 1 and h = {h} both learn {weights} weights; input dimension 1 feeds {heads} of the "
                  "{h} heads.",
            "zh": "当前设置：h = 1 与 h = {h} 要学习的都是 {weights} 个权重；第 1 个输入维度影响 {h} 个头中的 {heads} 个。",
        },
        "page": "why", "computation": "mha_core.parameter_count; figures.why.fused_weight_figure",
    },
    # ----------------------------------------------------------------------------------------- note 002
    {
        "id": "n002_head", "note": "002", "line": 198,
        "quote": "| head\\_i           | 每个头的注意力输出            | $B \\times h \\times T \\times d_k$",
        "title": {
            "en": "One head's output is B × T × $d_k$; B × h × T × $d_k$ is all the heads",
            "zh": "一个头的输出是 B × T × $d_k$；B × h × T × $d_k$ 是全部的头",
        },
        "true": {
            "en": "Note 002's table gives $\\mathrm{head}_i$, “each head's attention output”, the shape B × h × "
                  "T × $d_k$. That is the tensor of all h heads (output_per_head of its step 4); one head i is a "
                  "slice of it, B × T × $d_k$, as note 000 writes (N × L × $d_k$). The concatenation then puts "
                  "the h slices side by side: B × T × h·$d_k$.",
            "zh": "笔记 002 的表格把 $\\mathrm{head}_i$（“每个头的注意力输出”）的形状写成 B × h × T × $d_k$。这是全部 h 个头合在一起的张量（即其第 4 步中的 "
                  "output_per_head）；一个头 i 只是它的一个切片，形状为 B × T × $d_k$，与笔记 000 的写法（N × L × $d_k$）一致。拼接再把 h 个切片横向并排："
                  "B × T × h·$d_k$。",
        },
        "evidence": {
            "en": "Now, from a forward pass of the core at note 002's sizes (B = 32, T = 20, $d_\\text{{model}}$ "
                  "= 512, h = 8): all heads {all}; $\\mathrm{{head}}_1$ alone {one}; Concat {concat}.",
            "zh": "当前：按笔记 002 的尺寸（B = 32，T = 20，$d_\\text{{model}}$ = 512，h = 8）实际运行一次核心前向计算：全部的头 {all}；单独的 "
                  "$\\mathrm{{head}}_1$ {one}；拼接结果 {concat}。",
        },
        "page": "steps", "computation": "explorer.pipeline.traced_shapes",
    },
    # ----------------------------------------------------------------------------------------- note 003
    {
        "id": "n003_x", "note": "003", "line": 3,
        "quote": "用独立学习得到的x组不同的`线性投影`",
        "title": {
            "en": "x for the number of heads",
            "zh": "用 x 表示头数",
        },
        "true": {
            "en": "The number of heads is h (the note's own formula uses $h_i$, i = 1, …, h); x is the input "
                  "elsewhere in the notes.",
            "zh": "头数是 h（笔记自己的公式也写 $h_i$，i = 1, …, h）；在其他笔记中 x 表示输入。",
        },
        "page": "", "computation": "",
    },
    {
        "id": "n003_additive", "note": "003", "line": 2,
        "quote": "（比如可加性）",
        "title": {
            "en": "“可加性” for additive attention",
            "zh": "把加性注意力写成“可加性”",
        },
        "true": {
            "en": "Additive attention is 加性注意力 (as the same note writes a few lines later); 可加性 means the "
                  "property of additivity.",
            "zh": "additive attention 应译为加性注意力（同一篇笔记几行之后就是这样写的）；可加性指的是“可加”这一性质。",
        },
        "page": "subspaces", "computation": "mha_core.why.additive_attention",
    },
    {
        "id": "n003_d2l", "note": "003", "line": 2,
        "quote": "以此捕获不同序列之间各种范围的关系",
        "title": {
            "en": "d2l says “within a sequence”, not “between different sequences”",
            "zh": "d2l 说的是“序列内”，而不是“不同序列之间”",
        },
        "true": {
            "en": "The sentence follows d2l's section on multi-head attention, which says the heads' behaviours, "
                  "combined, capture dependencies of various ranges within a sequence (序列内各种范围的依赖关系: "
                  "shorter and longer range). “Between different sequences” changes the claim: in self-attention "
                  "every head relates positions of one sequence, at different distances.",
            "zh": "这句话出自 d2l 讲多头注意力的一节，原文说的是把各个头的行为组合起来，捕获序列内各种范围的依赖关系（较短距离和较长距离的依赖）。"
                  "“不同序列之间”改变了原意：在自注意力中，每个头关联的都是同一个序列中相隔不同距离的位置。",
        },
        "page": "", "computation": "",
    },
    # ----------------------------------------------------------------------------------------- note 004
    {
        "id": "n004_stack", "note": "004", "line": 22,
        "quote": "W_Q^{\\text{all}} = \\begin{bmatrix} W_1^Q \\\\ W_2^Q \\\\ \\vdots \\\\ W_h^Q \\end{bmatrix} "
                 "\\in \\mathbb{R}^{(h \\cdot d_k) \\times d_{\\text{model}}}",
        "title": {
            "en": "The heads' $W_i^Q$ sit side by side, not stacked",
            "zh": "各个 $W_i^Q$ 是横向拼接，不是纵向堆叠",
        },
        "true": {
            "en": "X $W^Q$ with X of shape n × $d_\\text{model}$ needs $W^Q$ = [$W_1^Q$ | … | $W_h^Q$], "
                  "$d_\\text{model}$ × (h·$d_k$): the blocks sit side by side, by columns. The note's (h·$d_k$) "
                  "× $d_\\text{model}$ stacks the transposes $(W_i^Q)^\\top$: that is $(W^Q)^\\top$, the way "
                  "torch.nn.Linear stores a weight and multiplies by it transposed. Taken as written, X "
                  "$W_Q^\\text{all}$ is defined only because h·$d_k$ = $d_\\text{model}$, and it multiplies by "
                  "the transpose: other numbers.",
            "zh": "X 的形状是 n × $d_\\text{model}$，X $W^Q$ 需要 $W^Q$ = [$W_1^Q$ | … | $W_h^Q$]，形状 $d_\\text{model}$ "
                  "× (h·$d_k$)：各块按列横向拼接。笔记的 (h·$d_k$) × $d_\\text{model}$ 堆叠的是转置 $(W_i^Q)^\\top$，即 "
                  "$(W^Q)^\\top$，这是 torch.nn.Linear 存放权重、再转置相乘的方式。照字面计算，X $W_Q^\\text{all}$ 只因为 h·$d_k$ = "
                  "$d_\\text{model}$ 才有定义，而且乘的是转置：得到的是另一组数。",
        },
        "evidence": {
            "en": "Now: Q = X $W^Q$ split every $d_k$ = {dk} columns equals X $W_i^Q$ for every head (max "
                  "difference {gap}); X $(W^Q)^\\top$, the note's stacked matrix taken as written, differs from "
                  "Q by up to {tgap}.",
            "zh": "当前设置：Q = X $W^Q$ 每 $d_k$ = {dk} 列切开，与每个头的 X $W_i^Q$ 相同（最大差 {gap}）；照字面使用笔记堆叠的矩阵，X "
                  "$(W^Q)^\\top$ 与 Q 最多相差 {tgap}。",
        },
        "page": "why", "computation": "mha_core.split_weight_columns; AttentionTrace.q_fused vs q",
    },
    {
        "id": "n004_blockdiag", "note": "004", "line": 34,
        "quote": "分块对角结构意味着不同头的投影在输入空间中是不相交的——每个输入维度只贡献给特定的头",
        "title": {
            "en": "The projection is not block-diagonal",
            "zh": "投影并不是分块对角的",
        },
        "true": {
            "en": "Q = X [$W_1^Q$ | … | $W_h^Q$]: every input dimension feeds every head. A block-diagonal W "
                  "would give each head its own slice of the input, which is not what multi-head attention does.",
            "zh": "Q = X [$W_1^Q$ | … | $W_h^Q$]：每个输入维度都会影响每个头。分块对角的 W 才会让每个头只读取输入的一段，而多头注意力并不是这样。",
        },
        "evidence": {
            "en": "Now: input dimension 1 changes the queries of {heads} of the {h} heads.",
            "zh": "当前设置：改变第 1 个输入维度，{h} 个头中有 {heads} 个头的查询随之改变。",
        },
        "page": "why", "computation": "figures.why.fused_weight_figure",
    },
    {
        "id": "n004_extra", "note": "004", "line": 27,
        "quote": "多头注意力引入了额外的参数",
        "title": {
            "en": "Several heads add no parameters",
            "zh": "多个头并没有引入额外的参数",
        },
        "true": {
            "en": "At a fixed $d_\\text{model}$ the h heads' $W_i^Q$, $W_i^K$, $W_i^V$ hold 3 · h · "
                  "$d_\\text{model}$ · $d_k$ = 3 $d_\\text{model}^2$ weights and $W^O$ another $d_\\text{model}^2$: "
                  "4 $d_\\text{model}^2$ for every h, as many as one head of width $d_\\text{model}$ with an output "
                  "projection. Two lines later the same section concludes that the total is exactly that of one head, "
                  "which contradicts this opening sentence. The projections are extra only against attention with no "
                  "weights at all (note 002's scaled dot-product attention), and then they are 4 "
                  "$d_\\text{model}^2$ whatever h is.",
            "zh": "$d_\\text{model}$ 固定时，h 个头的 $W_i^Q$、$W_i^K$、$W_i^V$ 共有 3 · h · $d_\\text{model}$ · $d_k$ = 3 "
                  "$d_\\text{model}^2$ 个权重，$W^O$ 再加 $d_\\text{model}^2$：对任何 h 都是 4 $d_\\text{model}^2$，与维度为 "
                  "$d_\\text{model}$、带输出投影的单头一样多。同一节两行之后的结论正是总参数量与单头完全相同，与这句开头自相矛盾。"
                  "只有相对于完全没有权重的注意力（笔记 002 的缩放点积注意力），这些投影才是“额外”的参数，而那也是 4 "
                  "$d_\\text{model}^2$，与 h 无关。",
        },
        "evidence": {
            "en": "Now ($d_\\text{{model}}$ = {d}): h = 1 holds {w1} weights, h = {h} holds {wh}; 4 · {d}² = {four}.",
            "zh": "当前设置（$d_\\text{{model}}$ = {d}）：h = 1 有 {w1} 个权重，h = {h} 有 {wh} 个；4 · {d}² = {four}。",
        },
        "page": "why", "computation": "mha_core.parameter_count",
    },
    {
        "id": "n004_kernel", "note": "004", "line": 7,
        "quote": "单头注意力可以被视为一个特定的核函数",
        "title": {
            "en": "A head's similarity is not a Mercer kernel in general",
            "zh": "一个头的相似度一般不是 Mercer 核",
        },
        "true": {
            "en": "A head is a kernel smoother: its weights $\\exp(s_{ij}) / \\sum_{j'} \\exp(s_{ij'})$ are "
                  "Nadaraya–Watson weights (d2l's view of attention pooling), and such a similarity need not be "
                  "symmetric. The kernel-method reading the note goes on to use (a feature space, multiple kernel "
                  "learning) needs a Mercer kernel, symmetric and positive semi-definite. exp(u·v) of two vectors "
                  "is one. But a head compares two tokens x, x′ through $k(x, x') = \\exp(x M x'^\\top / "
                  "\\sqrt{d_k})$ with $M = W^Q (W^K)^\\top$: a Mercer kernel when M is symmetric positive "
                  "semi-definite (for instance $W^K = c\\,W^Q$ with c ≥ 0), not even symmetric when M is not "
                  "symmetric, as with independent $W^Q$ and $W^K$.",
            "zh": "一个头是核平滑器：它的权重 $\\exp(s_{ij}) / \\sum_{j'} \\exp(s_{ij'})$ 就是 Nadaraya–Watson 权重（d2l 对注意力汇聚的解释），"
                  "这样的相似度不必对称。笔记接着使用的核方法解读（特征空间、多核学习）需要 Mercer 核，即对称且半正定。两个向量的 exp(u·v) 是 Mercer 核；"
                  "但一个头通过 $k(x, x') = \\exp(x M x'^\\top / \\sqrt{d_k})$ 比较两个词元 x、x′，其中 $M = W^Q (W^K)^\\top$：当 M "
                  "对称半正定时（例如 $W^K = c\\,W^Q$，c ≥ 0），它是 Mercer 核；当 M 不对称时（例如 $W^Q$ 与 $W^K$ 相互独立），它连对称都不是。",
        },
        "evidence": {
            "en": "Now (head 1): |S − $S^\\top$| / |S| = {asym}; the smallest eigenvalue of exp(S)'s symmetric "
                  "part, over its largest: {eig}. With $W^K$ = $W^Q$: {tied}; with $W^K$ = 2 $W^Q$: {double} (M "
                  "symmetric positive semi-definite: ≥ 0).",
            "zh": "当前设置（头 1）：|S − $S^\\top$| / |S| = {asym}；exp(S) 对称部分的最小特征值与最大特征值之比为 {eig}。取 $W^K$ = $W^Q$ 时为 "
                  "{tied}；取 $W^K$ = 2 $W^Q$ 时为 {double}（M 对称半正定：≥ 0）。",
        },
        "page": "note004", "computation": "mha_core.note004.kernel_view",
    },
    {
        "id": "n004_mkl", "note": "004", "line": 7,
        "quote": "这种组合策略在核方法文献中被称为\"多核学习\"，已被证明在许多任务上优于单一核函数的使用",
        "title": {
            "en": "Not “proven”, and the heads are not a sum of kernels",
            "zh": "并非“已被证明”，各个头也不是核函数之和",
        },
        "true": {
            "en": "Two slips. The gains of multiple kernel learning are empirical findings on some data sets "
                  "(Gönen and Alpaydın's survey, JMLR 2011, compares the methods on such data): not a proof, and "
                  "not about attention. And multi-head attention is not multiple kernel learning: that adds the "
                  "kernels, K = $\\sum_m \\beta_m k_m$, and uses the sum in one predictor, whereas each head "
                  "normalises its own kernel exp($S_i$) into its own weights $A_i$ and averages its own values "
                  "$V_i$, and only the results are added, through $W^O$. Summing the kernels first and "
                  "normalising once gives a different layer.",
            "zh": "两处问题。多核学习的收益是在某些数据集上的经验发现（Gönen 与 Alpaydın 的综述，JMLR "
                  "2011，就是在这类数据上比较各种方法）：这不是证明，也与注意力无关。而且多头注意力并不是多核学习：多核学习先把核相加，K = $\\sum_m \\beta_m "
                  "k_m$，再把这个和用于一个预测器；而每个头把自己的核 exp($S_i$) 归一化成自己的权重 $A_i$，对自己的值 $V_i$ 求加权平均，只有这些结果才经过 $W^O$ 相加。先把"
                  "核相加、再统一归一化一次，得到的是另一个层。",
        },
        "evidence": {
            "en": "Now: summing the heads' kernels exp($S_i$) and normalising once (one A for all heads) changes "
                  "the output by up to {gap} (its entries reach {scale}); the heads' own $A_i$ differ from that "
                  "shared A by up to {wgap}.",
            "zh": "当前设置：把各头的核 exp($S_i$) 相加后统一归一化（所有头共用一个 A），输出最多改变 {gap}（输出元素最大为 {scale}）；各头自己的 $A_i$ 与这个共用的 A 最"
                  "多相差 {wgap}。",
        },
        "page": "note004", "computation": "mha_core.note004.kernel_sum_check",
    },
    {
        "id": "n004_fh", "note": "004", "line": 39,
        "quote": "可以证明，$\\mathcal{F}_h$严格包含$\\mathcal{F}_1$",
        "title": {
            "en": "𝓕ₕ ⊋ 𝓕₁ is claimed, not proven",
            "zh": "𝓕ₕ ⊋ 𝓕₁ 只是断言，并未证明",
        },
        "true": {
            "en": "The inclusion holds if each of the h heads may be as wide as the single head ($d_k$ = "
                  "$d_\\text{model}$, h times the parameters): keep one head, set the other $W^O_i$ to 0. At "
                  "fixed $d_\\text{model}$ that construction fails: a head of width $d_k$ = $d_\\text{model}$/h "
                  "has scores of rank ≤ $d_k$, and can give a single head's weights only if the single head's "
                  "scores have rank ≤ $d_k$ + 1. The check on the page linked shows just this, on one sentence: "
                  "no single head reproduces the single head's weights. It does not show that the h heads "
                  "together (through $W^O$) cannot give the same output, nor the converse. Whether either class "
                  "contains the other at fixed $d_\\text{model}$ is not settled there, and the note proves "
                  "neither.",
            "zh": "如果 h 个头中每个头的维度都可以和单头一样大（$d_k$ = $d_\\text{model}$，参数量是 h 倍），包含关系成立：保留一个头，其余 $W^O_i$ 取 "
                  "0。$d_\\text{model}$ 固定时这个构造不成立：维度为 $d_k$ = $d_\\text{model}$/h 的头，分数矩阵的秩 ≤ $d_k$，只有当单头分数矩阵的秩 ≤ "
                  "$d_k$ + 1 时才能给出单头的注意力权重。链接页面上的检验在一句话上恰好说明了这一点：没有任何一个头能复现单头的注意力权重。它并没有说明 h 个头合起来（经过 "
                  "$W^O$）不能给出同样的输出，也没有说明反过来的情况。$d_\\text{model}$ 固定时谁包含谁，那里没有定论，笔记也没有证明任何一方。",
        },
        "evidence": {
            "en": "Now: a single head of width {d} has score rank {r1} on this sentence; from h = {h0} on, no "
                  "one head of the h-head layer can give its weights.",
            "zh": "当前设置：维度为 {d} 的单头在这句话上的分数矩阵秩为 {r1}；从 h = {h0} 起，h 头层中没有任何一个头能给出它的注意力权重。",
        },
        "page": "note004", "computation": "mha_core.note004.inclusion_check",
    },
    {
        "id": "n004_but", "note": "004", "line": 39,
        "quote": "但存在一些函数可以用多头注意力表示而无法用单头注意力表示",
        "title": {
            "en": "“Strictly contains …, but there exist …” sets a definition against itself",
            "zh": "“严格包含……，但存在……”把定义当成了转折",
        },
        "true": {
            "en": "“$\\mathcal{F}_h$ strictly contains $\\mathcal{F}_1$” already says two things: every function "
                  "of $\\mathcal{F}_1$ is in $\\mathcal{F}_h$, and some function of $\\mathcal{F}_h$ is not in "
                  "$\\mathcal{F}_1$. The sentence then adds the second after “but”, as if it limited the first; it "
                  "only repeats it. Whether the inclusion holds at fixed $d_\\text{model}$ is another question "
                  "(⟦errata:n004_fh⟧).",
            "zh": "“$\\mathcal{F}_h$ 严格包含 $\\mathcal{F}_1$”本身已经说了两件事：$\\mathcal{F}_1$ 中的每个函数都在 $\\mathcal{F}_h$ 中，"
                  "并且 $\\mathcal{F}_h$ 中有函数不在 $\\mathcal{F}_1$ 中。这句话接着用“但”引出后一件事，好像它限制了前者；其实只是重复。"
                  "$d_\\text{model}$ 固定时这个包含关系是否成立，是另一个问题（⟦errata:n004_fh⟧）。",
        },
        "page": "", "computation": "",
    },
    {
        "id": "n004_asym", "note": "004", "line": 39,
        "quote": "一个简单的例子是\"非对称的成对交互\"",
        "title": {
            "en": "One head is already asymmetric",
            "zh": "一个头本身就是非对称的",
        },
        "true": {
            "en": "Note 004's example of what needs several heads, an asymmetric pairwise interaction, is "
                  "something one head already does: with $W^Q$ ≠ $W^K$, how much i attends to j ($s_{ij}$) "
                  "differs from how much j attends to i ($s_{ji}$).",
            "zh": "笔记 004 举的“需要多个头”的例子——非对称的成对交互——一个头就能做到：$W^Q$ ≠ $W^K$ 时，i 对 j 的分数 $s_{ij}$ 与 j 对 i 的分数 "
                  "$s_{ji}$ 不同。",
        },
        "evidence": {
            "en": "Now (head 1): $s_{{ij}}$ − $s_{{ji}}$ reaches {gap}.",
            "zh": "当前设置（头 1）：$s_{{ij}}$ − $s_{{ji}}$ 最大为 {gap}。",
        },
        "page": "note004", "computation": "mha_core.note004.kernel_view",
    },
    {
        "id": "n004_nonlinear", "note": "004", "line": 39,
        "quote": "多个头可以通过各自的非线性变换组合出更丰富的交互模式",
        "title": {
            "en": "The heads have no non-linear transformations of their own",
            "zh": "各个头并没有各自的非线性变换",
        },
        "true": {
            "en": "The projections x ↦ x $W_i^Q$, x $W_i^K$, x $W_i^V$ are linear, and the score $s_{ab}$ = "
                  "$(x_a W_i^Q)(x_b W_i^K)^\\top$ = $x_a M_i x_b^\\top$ is a bilinear form of the two tokens, "
                  "with $M_i$ = $W_i^Q (W_i^K)^\\top$ of rank ≤ $d_k$. The one non-linear step is the softmax, "
                  "the same function in every head. What differs from head to head is the matrices ($M_i$, "
                  "$W_i^V$, $W^O_i$), not a non-linearity.",
            "zh": "投影 x ↦ x $W_i^Q$、x $W_i^K$、x $W_i^V$ 都是线性的；分数 $s_{ab}$ = $(x_a W_i^Q)(x_b W_i^K)^\\top$ = "
                  "$x_a M_i x_b^\\top$ 是两个词元的双线性型，其中 $M_i$ = $W_i^Q (W_i^K)^\\top$ 的秩 ≤ $d_k$。唯一的非线性步骤是 "
                  "softmax，每个头用的都是同一个函数。各头之间不同的是矩阵（$M_i$、$W_i^V$、$W^O_i$），而不是非线性变换。",
        },
        "evidence": {
            "en": "Now: |(x + x′) $W_i^Q$ − (x $W_i^Q$ + x′ $W_i^Q$)| ≤ {proj} for every head; $x_a M_i "
                  "x_b^\\top$ equals the score to {bil}, with $M_i$ of rank ≤ {rank}; the softmax is not "
                  "additive (off by up to {soft}).",
            "zh": "当前设置：对每个头，|(x + x′) $W_i^Q$ − (x $W_i^Q$ + x′ $W_i^Q$)| ≤ {proj}；$x_a M_i x_b^\\top$ 与分数相差不超过 "
                  "{bil}，$M_i$ 的秩 ≤ {rank}；softmax 不满足可加性（最多相差 {soft}）。",
        },
        "page": "note004", "computation": "mha_core.note004.linearity_check",
    },
    {
        "id": "n004_basis", "note": "004", "line": 44,
        "quote": "基函数展开的理论保证告诉我们，如果基函数集合足够丰富，任意连续函数都可以用这些基函数的线性组合来逼近",
        "title": {
            "en": "One layer of h heads is not a universal basis expansion",
            "zh": "一层 h 个头并不是万能的基函数展开",
        },
        "true": {
            "en": "The output is indeed $\\sum_i \\mathrm{head}_i W^O_i$, h terms. But h is small and fixed and "
                  "every term comes from the same family of attention heads, so the guarantee for rich sets of "
                  "basis functions says nothing about one layer. Universal approximation has been shown for "
                  "stacks of attention and feed-forward layers (Yun et al., ICLR 2020), not for one attention "
                  "layer.",
            "zh": "输出确实是 $\\sum_i \\mathrm{head}_i W^O_i$，共 h 项。但 h 很小且固定，每一项都来自同一类注意力头，关于"
                  "“足够丰富的基函数集合”的保证对一层注意力并不适用。万能逼近性已对注意力层与前馈层的堆叠给出证明（Yun 等，ICLR 2020），而不是对单独一层注意力。",
        },
        "evidence": {
            "en": "Now: the output is the sum of h = {h} terms (largest error {gap}).",
            "zh": "当前设置：输出是 h = {h} 项之和（最大误差 {gap}）。",
        },
        "page": "note004", "computation": "mha_core.why.head_contributions",
    },
    {
        "id": "n004_rho", "note": "004", "line": 52,
        "quote": "如果两个头学习到相似的特征，它们的输出表示会高度相关，$\\rho_{ij}$接近1",
        "title": {
            "en": "$\\rho_{ij}$ near 1 does not mean the heads say the same thing",
            "zh": "$\\rho_{ij}$ 接近 1 并不表示两个头说的是同一件事",
        },
        "true": {
            "en": "$\\rho_{ij}$ compares $\\mathrm{head}_i$ and $\\mathrm{head}_j$ coordinate by coordinate, but "
                  "each head's value coordinates are arbitrary: $W_j^V$ → $W_j^V$ R, $W^O_j$ → $R^\\top\\ W^O_j$ "
                  "(R orthogonal) leaves the layer's output exactly the same and moves $\\rho_{ij}$. Compare "
                  "what the heads add to the output instead: the cosine of $\\mathrm{head}_i\\ W^O_i$ and "
                  "$\\mathrm{head}_j\\ W^O_j$, which do not move.",
            "zh": "$\\rho_{ij}$ 按坐标逐一比较 $\\mathrm{head}_i$ 与 $\\mathrm{head}_j$，但每个头的值坐标是任意的：$W_j^V$ → $W_j^V$ "
                  "R、$W^O_j$ → $R^\\top\\ W^O_j$（R 正交）使层的输出完全不变，$\\rho_{ij}$ 却会改变。应比较各头加到输出上的部分："
                  "$\\mathrm{head}_i\\ W^O_i$ 与 $\\mathrm{head}_j\\ W^O_j$ 的余弦，它不会改变。",
        },
        "evidence": {
            "en": "Now: rotating head 2 alone moves $\\rho_{{12}}$ anywhere from {lo} to {hi} (now {now}); the "
                  "layer's output does not change.",
            "zh": "当前设置：只旋转头 2，$\\rho_{{12}}$ 可以取 {lo} 到 {hi} 之间的任意值（现在为 {now}）；层的输出不变。",
        },
        "page": "heads", "computation": "mha_core.note004.rotation_demo, rho_extremes",
    },
    {
        "id": "n004_lowcorr", "note": "004", "line": 52,
        "quote": "实验观察表明，训练良好的Transformer中不同头的输出表示往往具有较低的相关性，这意味着各个头确实学习到了互补的信息",
        "title": {
            "en": "Low correlation does not show that the heads learned complementary things",
            "zh": "相关性低并不能说明各个头学到了互补的信息",
        },
        "true": {
            "en": "The inference fails: on the real model of the page linked, heads with random, untrained weights "
                  "of the same shapes score at least as low as the trained ones on the same sentence, so a low "
                  "correlation by itself says nothing about what training did (and $\\rho_{ij}$, the note's "
                  "own measure, depends on arbitrary coordinates: compare the contributions $\\mathrm{head}_i\\ "
                  "W^O_i$ instead). Whether heads are complementary is a question of what the model loses "
                  "without them, and head-pruning studies find much redundancy: Michel et al. (NeurIPS 2019, "
                  "“Are Sixteen Heads Really Better than One?”) remove many heads at test time with little loss; "
                  "Voita et al. (ACL 2019) prune most encoder heads with a small BLEU drop.",
            "zh": "这个推论不成立：在链接页面的真实模型上，同样形状、随机的、未经训练的头，在同一句话上的得分至少和训练后的头一样低，所以相关性低本身并不能说明训练做了什么（而且笔记自己的度量 $\\rho_{ij}$ 依赖于任意的坐标：应改为比较各头的贡献 "
                  "$\\mathrm{head}_i\\ W^O_i$）。各个头是否互补，要看去掉它们时模型损失多少，而剪枝研究发现头之间有大量冗余：Michel 等（NeurIPS 2019，“Are "
                  "Sixteen Heads Really Better than One?”）在测试时去掉许多头而性能几乎不降；Voita 等（ACL 2019）剪掉编码器的大部分头，BLEU 只略有下降"
                  "。",
        },
        "evidence": {
            "en": "Now (all-MiniLM-L6-v2 on its default sentence): mean |cos| between different heads' "
                  "contributions, per layer, is {lo}–{hi} for the trained heads and {rlo}–{rhi} for random heads "
                  "of the same shapes on the same input.",
            "zh": "当前（all-MiniLM-L6-v2，默认句子）：不同头的贡献之间的平均 |cos|，按层计算，训练后的头为 {lo}–{hi}，同样形状、同样输入的随机头为 {rlo}–{rhi}。",
        },
        "page": "minilm", "computation": "explorer.baselines.real_heads_baseline (mha_core.contribution_similarity)",
    },
    {
        "id": "n004_optima", "note": "004", "line": 53,
        "quote": "不同的头从不同的随机起点开始优化，逐渐收敛到不同的局部最优解",
        "title": {
            "en": "The heads do not converge to optima of their own",
            "zh": "各个头并不各自收敛到自己的最优解",
        },
        "true": {
            "en": "The heads are not optimised one by one: training minimises one loss of all the layer's weights "
                  "together, and reaches at best one stationary point of the whole network, not one local "
                  "optimum per head. What the random start does is break the symmetry: heads that start from the "
                  "same weights get the same gradients at every step and stay the same; heads that start from "
                  "different weights get different gradients and can come to differ.",
            "zh": "各个头并不是一个一个分别优化的：训练是对这一层全部权重的同一个损失一起求最小值，最多到达整个网络的一个驻点，而不是每个头各一个局部最优解。"
                  "随机起点的作用是对称性破缺：从同样的权重出发的头，每一步得到的梯度都相同，因此始终相同；从不同权重出发的头得到不同的梯度，才可能变得不同。",
        },
        "evidence": {
            "en": "Now: with every head started from head 1's weights, the heads' gradients differ by at most "
                  "{same} (rounding); with the current weights, by up to {own}.",
            "zh": "当前设置：让每个头都从头 1 的权重出发，各头的梯度最多相差 {same}（舍入误差）；用当前的权重，最多相差 {own}。",
        },
        "page": "note004", "computation": "mha_core.note004.symmetric_start; training.symmetry.symmetry_breaking",
    },
    {
        "id": "n004_symmetric", "note": "004", "line": 53,
        "quote": "相同的架构从对称的初始状态出发，最终学习到不对称的解",
        "title": {
            "en": "A symmetric start stays symmetric",
            "zh": "对称的起点始终保持对称",
        },
        "true": {
            "en": "Under gradient descent, heads that start from the same weights (every head's $W_i^Q$, $W_i^K$, "
                  "$W_i^V$ and $W^O_i$ equal) receive the same gradient at every step and stay the same: a symmetric "
                  "initial state does not end in an asymmetric solution. Symmetry breaking in a network works the "
                  "other way round: the random initialisation gives the interchangeable heads different starting "
                  "weights, hence different gradients; noise that differs between heads, such as dropout, can do it "
                  "too. The note's own “different random starting points” is the mechanism (what it says about "
                  "optima: ⟦errata:n004_optima⟧).",
            "zh": "在梯度下降中，从同样的权重出发的头（各头的 $W_i^Q$、$W_i^K$、$W_i^V$ 和 $W^O_i$ 都相同）每一步得到的梯度都相同，因此始终相同："
                  "对称的初始状态不会最终学到不对称的解。神经网络中的对称性破缺恰恰相反：随机初始化让这些可以互换的头从不同的权重出发，因而得到不同的梯度；"
                  "各头不同的噪声（例如 dropout）也能做到这一点。笔记自己说的“不同的随机起点”才是真正的机制（关于最优解的说法见 "
                  "⟦errata:n004_optima⟧）。",
        },
        "evidence": {
            "en": "Now: with every head started from head 1's weights, the heads' gradients differ by at most "
                  "{same} (rounding); with the current weights, by up to {own}.",
            "zh": "当前设置：让每个头都从头 1 的权重出发，各头的梯度最多相差 {same}（舍入误差）；用当前的权重，最多相差 {own}。",
        },
        "page": "note004", "computation": "mha_core.note004.symmetric_start",
    },
    {
        "id": "n004_gpt3", "note": "004", "line": 54, "kind": "clarification",
        "quote": "而GPT-3则增加了头数到96个",
        "title": {
            "en": "GPT-3's 96 heads are larger heads too",
            "zh": "GPT-3 有 96 个头，每个头的维度也更大",
        },
        "true": {
            "en": "The note is right that GPT-3 has 96 heads; read beside the trade-off of the paragraph, it needs "
                  "a second half. That trade-off is at fixed $d_\\text{model}$: more heads, smaller heads. GPT-3 "
                  "175B has $d_\\text{model}$ = 12 288 and 96 heads of $d_k$ = 128, larger than the "
                  "Transformer's 64 (Brown et al. 2020, table 2.1): more heads and larger heads, because "
                  "$d_\\text{model}$ grew 24-fold. It is not an instance of the trade-off at one "
                  "$d_\\text{model}$.",
            "zh": "笔记说 GPT-3 有 96 个头，这没有错；但放在这一段的权衡旁边读，还需要补上另一半。这一段的权衡是在 $d_\\text{model}$ 固定时："
                  "头越多，每个头的维度越小。GPT-3 175B 的 $d_\\text{model}$ = 12 288，有 96 个头，$d_k$ = 128，比 Transformer 的 64 "
                  "更大（Brown 等 2020，表 2.1）：头更多，每个头的维度也更大，因为 $d_\\text{model}$ 增大到了 24 倍。这不是同一个 "
                  "$d_\\text{model}$ 下的权衡。",
        },
        "evidence": {
            "en": "Computed from the published sizes: the Transformer {t_d} / {t_h} = $d_k$ {t_dk}; GPT-3 175B "
                  "{g_d} / {g_h} = $d_k$ {g_dk}. At GPT-3's $d_\\text{{model}}$, heads of $d_k$ = {t_dk} would "
                  "number {h_same}.",
            "zh": "由公开的尺寸计算：Transformer {t_d} / {t_h} = $d_k$ {t_dk}；GPT-3 175B {g_d} / {g_h} = $d_k$ {g_dk}。在 "
                  "GPT-3 的 $d_\\text{{model}}$ 下，$d_k$ = {t_dk} 的头会有 {h_same} 个。",
        },
        "page": "why", "computation": "explorer.models.REAL_MODELS",
    },
    {
        "id": "n004_free", "note": "004", "line": 58,
        "quote": "而不增加计算成本",
        "title": {
            "en": "More heads are not free",
            "zh": "更多的头并不是免费的",
        },
        "true": {
            "en": "The parameters (4 $d_\\text{model}^2$) and the multiplications of the matrix products are the "
                  "same for every h. But the softmax takes one exponential per score, h·L·$L_k$, and every L × L "
                  "tensor holds h·L·$L_k$ numbers: both grow h-fold.",
            "zh": "参数量（4 $d_\\text{model}^2$）和矩阵乘法的乘法次数对任何 h 都一样。但 softmax 对每个分数做一次指数运算，共 h·L·$L_k$ 次，每个 L × L 张量"
                  "也有 h·L·$L_k$ 个数：两者都随 h 成倍增长。",
        },
        "evidence": {
            "en": "Now (L = {L}): {mults} multiplications for every h; {e1} exponentials at h = 1, {eh} at h = "
                  "{h}.",
            "zh": "当前设置（L = {L}）：每个 h 都是 {mults} 次乘法；h = 1 时 {e1} 次指数运算，h = {h} 时 {eh} 次。",
        },
        "page": "note004", "computation": "mha_core.note004.cost_by_heads, time_by_heads",
    },
    {
        "id": "n004_typo", "note": "004", "line": 52,
        "quote": "如果两个头学习到正交的特理",
        "title": {
            "en": "特理 for 特征",
            "zh": "“特理”应为“特征”",
        },
        "true": {
            "en": "A typo: “orthogonal features” is 正交的特征.",
            "zh": "笔误：应为“正交的特征”。",
        },
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
    "errata.clarification": {
        "en": "A clarification: the note's words are right, and need the rest of the picture",
        "zh": "补充说明：笔记原文没有错，但需要补上另一半",
    },
    "errata.the_note": {"en": "The note (line {line})", "zh": "笔记原文（第 {line} 行）"},
    "errata.what_is_true": {"en": "What is true", "zh": "正确的是"},
    "errata.live": {"en": "Live", "zh": "实时计算"},
    "errata.see": {"en": "Shown on", "zh": "演示页面"},
    "errata.filter": {"en": "Notes", "zh": "笔记"},
    "errata.count": {"en": "{n} entries.", "zh": "共 {n} 条。"},
    "errata.linked": {"en": "The entry the link points to", "zh": "链接所指的这一条"},
    "errata.here": {"en": "Where the notes are wrong about this page ({n})", "zh": "与本页相关的笔记勘误（{n} 条）"},
}
for _e in ERRATA:
    STRINGS[f"errata.{_e['id']}.title"] = _e["title"]
    STRINGS[f"errata.{_e['id']}.true"] = _e["true"]
    if "evidence" in _e:
        STRINGS[f"errata.{_e['id']}.evidence"] = _e["evidence"]
