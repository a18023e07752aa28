"""Strings of head similarity (contributions and note 004's ρ_ij with the rotation demo), the page "Why multi-head,
tested" (note 004's arguments computed) and its figures. Literal braces in formatted strings are doubled."""

STRINGS: dict[str, dict[str, str]] = {
    # ---- head similarity (heads, subspaces, lab, real model)
    "hs.title": {"en": "How alike are the heads?", "zh": "各个头有多相似？"},
    "hs.text": {
        "en": "Each head adds one term, $\\mathrm{head}_i\\ W^O_i$, to the layer's output, and all these terms "
              "live in the same $d_\\text{model}$-dimensional space. Their cosine compares what two heads "
              "actually contribute: near 1, they push the output the same way; near 0, in unrelated directions; "
              "near −1, they cancel.",
        "zh": "每个头向层的输出加上一项 $\\mathrm{head}_i\\ W^O_i$，这些项都位于同一个 $d_\\text{model}$ 维空间中。它们之间的余弦比较的是两个头实际贡献了什么：接近 "
              "1 表示它们把输出推向同一方向；接近 0 表示方向无关；接近 −1 表示相互抵消。",
    },
    "hs.fig": {"en": "cos(head_i W^O_i, head_j W^O_j)", "zh": "cos(head_i W^O_i, head_j W^O_j)"},
    "hs.range": {
        "en": "Between different heads: from {lo} to {hi}, mean |cos| = {mean}. The baseline, random heads of "
              "the same shapes on the same input: mean |cos| = {rlo}–{rhi}.",
        "zh": "不同头之间：从 {lo} 到 {hi}，平均 |cos| = {mean}。基线，即同样形状、同样输入的随机头：平均 |cos| = {rlo}–{rhi}。",
    },
    "hs.rho_title": {
        "en": "Note 004's $\\rho_{ij}$, and why it is not the measure here",
        "zh": "笔记 004 的 $\\rho_{ij}$，以及这里为什么不用它",
    },
    "hs.rho_text": {
        "en": "Note 004 compares the head outputs themselves. But $\\mathrm{head}_i$ lives in head i's own $d_k$ "
              "value coordinates, and those are arbitrary: turning head j's value space by any orthogonal R "
              "($W_j^V$ → $W_j^V$ R, $W^O_j$ → $R^\\top\\ W^O_j$) gives exactly the same layer, yet changes "
              "$\\rho_{ij}$ (⟦errata:n004_rho⟧). Turn a head and watch: the output stays, ρ moves, the cosine of "
              "the contributions stays.",
        "zh": "笔记 004 直接比较各头的输出。但 $\\mathrm{head}_i$ 位于头 i 自己的 $d_k$ 维值坐标中，而这些坐标是任意的：用任意正交矩阵 R 旋转头 j 的值空间（"
              "$W_j^V$ → $W_j^V$ R，$W^O_j$ → $R^\\top\\ W^O_j$），得到的层完全相同，$\\rho_{ij}$ 却会改变（"
              "⟦errata:n004_rho⟧）。旋转一个头看看：输出不变，ρ 改变，贡献之间的余弦不变。",
    },
    "hs.turn": {"en": "Turn the value space of head", "zh": "旋转哪个头的值空间"},
    "hs.pair": {"en": "Compare with head", "zh": "与之比较的头"},
    "hs.mode": {"en": "Rotation R", "zh": "旋转 R"},
    "hs.mode.angle": {"en": "by an angle", "zh": "按角度"},
    "hs.mode.max": {"en": "the R that makes ρ largest", "zh": "使 ρ 最大的 R"},
    "hs.mode.min": {"en": "the R that makes ρ smallest", "zh": "使 ρ 最小的 R"},
    "hs.angle": {"en": "Angle (degrees)", "zh": "角度（度）"},
    "hs.one_head": {"en": "With a single head there is nothing to compare.", "zh": "只有一个头时没有可比较的对象。"},
    "hs.result": {
        "en": "Head {j} turned. Largest change of the layer's output: **{gap}** (its entries reach {scale}). "
              "ρ between heads {i} and {j}: **{before} → {after}**. Cosine of their contributions: **{cb} → {ca}**. "
              "Turning head {j} alone, ρ can take any value from {lo} to {hi}.",
        "zh": "已旋转头 {j}。层输出的最大变化：**{gap}**（输出元素最大为 {scale}）。头 {i} 与头 {j} 的 ρ：**{before} → {after}**。"
              "它们贡献之间的余弦：**{cb} → {ca}**。只旋转头 {j}，ρ 可以取 {lo} 到 {hi} 之间的任意值。",
    },
    "hs.rho_before": {"en": "ρ_ij as computed", "zh": "ρ_ij（原始）"},
    "hs.rho_after": {"en": "ρ_ij after turning head {j}", "zh": "旋转头 {j} 之后的 ρ_ij"},
    "minilm.contrib": {"en": "How alike are this layer's heads?", "zh": "这一层的各个头有多相似？"},
    "minilm.contrib_text": {
        "en": "The cosine of what each pair of heads of layer {layer} adds to the output ($\\mathrm{{head}}_i\\ "
              "W^O_i$) on this sentence: mean |cos| between different heads {mean}, the largest {hi}. A low "
              "value alone does not show specialisation: random heads of the same shapes, on the same input, "
              "give a mean |cos| of {rlo}–{rhi} (⟦errata:n004_lowcorr⟧).",
        "zh": "第 {layer} 层每两个头在这句话上加到输出的部分（$\\mathrm{{head}}_i\\ W^O_i$）之间的余弦：不同头之间的平均 |cos| 为 {mean}，最大为 "
              "{hi}。数值低本身并不说明分工：同样形状、同样输入的随机头，平均 |cos| 为 {rlo}–{rhi}（⟦errata:n004_lowcorr⟧）。",
    },
    # ---- page: why multi-head, tested (note 004)
    "n4.intro": {
        "en": "Note 004 argues why several heads beat one. Each argument is computed here on the current setting "
              "($d_\\text{{model}}$ = {d}, h = {h}, L = {L} tokens). Where the note overclaims, ⟦page:errata⟧ says "
              "so.",
        "zh": "笔记 004 论证了多个头为什么胜过一个头。这里在当前设置（$d_\\text{{model}}$ = {d}，h = {h}，L = {L} "
              "个词元）上逐条计算。笔记说过头的地方，⟦page:errata⟧ 中有说明。",
    },
    "n4.rank.title": {"en": "1. Each head is a low-rank bottleneck", "zh": "1. 每个头都是一个低秩瓶颈"},
    "n4.rank.text": {
        "en": "A head's scores $S_i$ = $Q_i K_i^\\top / \\sqrt{{d_k}}$ multiply an L × $d_k$ matrix by a $d_k$ × "
              "L one, so rank($S_i$) ≤ $d_k$. With $d_\\text{{model}}$ fixed, more heads means smaller $d_k$ = "
              "$d_\\text{{model}}$ / h. For every h that divides $d_\\text{{model}}$ = {d}, the figure runs this "
              "sentence through one layer of seeded weights and counts: the largest score rank of a head; how "
              "many keys could be a query's most attended one (a key can win only if it is a corner of the keys' "
              "convex hull in $d_k$ dimensions; at $d_k$ = 1 only the largest and the smallest key can ever "
              "win); and how many keys this sentence's queries actually pick.",
        "zh": "一个头的分数 $S_i$ = $Q_i K_i^\\top / \\sqrt{{d_k}}$ 是 L × $d_k$ 矩阵乘以 $d_k$ × L 矩阵，所以 rank($S_i$) ≤ "
              "$d_k$。$d_\\text{{model}}$ 固定时，头越多，$d_k$ = $d_\\text{{model}}$ / h 越小。对每个整除 $d_\\text{{model}}$ = "
              "{d} 的 h，图中用一层随机种子权重处理这句话并统计：各头分数矩阵的最大秩；有多少个键可能成为某个查询最关注的键（只有位于 $d_k$ 维空间中各键凸包顶点上的键才可能胜出；$d_k$ = 1 "
              "时只有最大和最小的键能胜出）；以及这句话的查询实际选中了多少个不同的键。",
    },
    "n4.rank.now": {
        "en": "Now (h = {h}, $d_k$ = {dk}): the heads' score ranks are {ranks}, at most min($d_k$, L) = {bound}.",
        "zh": "当前（h = {h}，$d_k$ = {dk}）：各头分数矩阵的秩为 {ranks}，不超过 min($d_k$, L) = {bound}。",
    },
    "n4.basis.title": {"en": "2. The output is a sum of one term per head", "zh": "2. 输出是每个头一项之和"},
    "n4.basis.text": {
        "en": "Concat($\\mathrm{head}_1$, …, $\\mathrm{head}_h$) $W^O$ = $\\sum_i \\mathrm{head}_i W^O_i$: each "
              "head adds one term in $d_\\text{model}$ space and the output is their plain sum. The bars are the "
              "terms for one token, stacked per dimension; the black marks are the output, where they add up to. "
              "Note 004 calls the heads “basis functions”: ⟦errata:n004_basis⟧.",
        "zh": "Concat($\\mathrm{head}_1$, …, $\\mathrm{head}_h$) $W^O$ = $\\sum_i \\mathrm{head}_i W^O_i$：每个头在 "
              "$d_\\text{model}$ 空间中加上一项，输出就是它们的直接相加。柱形是一个词元的各项，按维度堆叠；黑色短线是输出，即它们相加的结果。笔记 004 把各个头称为"
              "“基函数”：⟦errata:n004_basis⟧。",
    },
    "n4.basis.pick": {"en": "Token", "zh": "词元"},
    "n4.basis.gap": {
        "en": "Largest |$\\sum_i \\mathrm{{head}}_i W^O_i$ − output| here: {gap}.",
        "zh": "这里 |$\\sum_i \\mathrm{{head}}_i W^O_i$ − 输出| 的最大值：{gap}。",
    },
    "n4.basis.dims": {"en": "The first {n} of {d} dimensions are drawn.", "zh": "只画出 {d} 个维度中的前 {n} 个。"},
    "n4.kernel.title": {"en": "3. exp(q·k) as a similarity: not symmetric", "zh": "3. 把 exp(q·k) 看作相似度：并不对称"},
    "n4.kernel.text": {
        "en": "Note 004 reads a head as a kernel k($x_i$, $x_j$) = exp($q_i$·$k_j$ / $\\sqrt{d_k}$). A head is "
              "indeed a kernel smoother (its weights are Nadaraya–Watson weights); the kernel methods the note "
              "goes on to use need a Mercer kernel, symmetric and positive semi-definite (⟦errata:n004_kernel⟧). "
              "Here the head's $q_i$ = $x_i\\ W^Q$ and $k_j$ = $x_j\\ W^K$ come from two independent matrices, so "
              "$s_{ij}$ ≠ $s_{ji}$: compare S with $S^\\top$ (one head already gives asymmetric pairs: ⟦errata:n004_asym⟧). "
              "With $W^K$ = $W^Q$ (right) S is symmetric and exp(S) positive semi-definite.",
        "zh": "笔记 004 把一个头看作核函数 k($x_i$, $x_j$) = exp($q_i$·$k_j$ / $\\sqrt{d_k}$)。一个头确实是核平滑器（它的权重就是 "
              "Nadaraya–Watson 权重）；笔记接着使用的核方法需要 Mercer 核，即对称且半正定（⟦errata:n004_kernel⟧）。这里该头的 $q_i$ = $x_i\\ "
              "W^Q$、$k_j$ = $x_j\\ W^K$ 来自两个相互独立的矩阵，所以 $s_{ij}$ ≠ $s_{ji}$：对比 S 与 "
              "$S^\\top$（一个头就已经给出非对称的成对关系：⟦errata:n004_asym⟧）。取 $W^K$ = $W^Q$ 时（右图），S 是对称的，exp(S) 是半正定的。",
    },
    "n4.kernel.head": {"en": "Head", "zh": "头"},
    "n4.kernel.numbers": {
        "en": "Head {n}: |S − $S^\\top$| / |S| = {asym}; the largest gap is $s_{{ij}}$ − $s_{{ji}}$ = {gap} for {a} "
              "→ {b}. Smallest eigenvalue of exp(S)'s symmetric part, over its largest: {eig}; with $W^K$ = $W^Q$: "
              "{tied}; with $W^K$ = 2 $W^Q$: {double} (both ≥ 0, as a Mercer kernel needs: ⟦errata:n004_kernel⟧).",
        "zh": "头 {n}：|S − $S^\\top$| / |S| = {asym}；最大差 $s_{{ij}}$ − $s_{{ji}}$ = {gap}，出现在 {a} → {b}。exp(S) "
              "对称部分的最小特征值与最大特征值之比：{eig}；取 $W^K$ = $W^Q$ 时为 {tied}；取 $W^K$ = 2 $W^Q$ 时为 {double}（两者都 ≥ 0，Mercer "
              "核要求如此：⟦errata:n004_kernel⟧）。",
    },
    "n4.kernel.s": {"en": "S", "zh": "S"},
    "n4.kernel.st": {"en": "Sᵀ", "zh": "Sᵀ"},
    "n4.kernel.tied": {"en": "W^K := W^Q: Q Qᵀ/√d_k", "zh": "W^K := W^Q：Q Qᵀ/√d_k"},
    "n4.incl.title": {"en": "4. Does the multi-head class contain the single-head one?", "zh": "4. 多头函数类包含单头函数类吗？"},
    "n4.incl.text": {
        "en": "Note 004 says one can prove that $F_h$ (h heads) strictly contains $F_1$ (one head). That works if "
              "each of the h heads may be as wide as the single head ($d_k$ = $d_\\text{{model}}$): keep one "
              "head and set the other $W^O_i$ to 0. At fixed $d_\\text{{model}}$ each head has $d_k$ = "
              "$d_\\text{{model}}$ / h, and the softmax forgives only a constant added to each row (rank + 1): a "
              "head of width $d_k$ can give the single head's weights only if rank(S) ≤ $d_k$ + 1. Checked on "
              "this sentence against a seeded single head of width {d}:",
        "zh": "笔记 004 说可以证明 $F_h$（h 个头）严格包含 $F_1$（一个头）。如果 h 个头中每个头的维度都可以和单头一样大（$d_k$ = "
              "$d_\\text{{model}}$），这成立：保留一个头，其余 $W^O_i$ 取 0。$d_\\text{{model}}$ 固定时，每个头 $d_k$ = "
              "$d_\\text{{model}}$ / h，而 softmax 只容许每行加上一个常数（秩最多加 1）：维度为 $d_k$ 的头只有在 rank(S) ≤ $d_k$ + 1 时才能给出单头的注"
              "意力权重。下面用这句话和一个维度为 {d} 的随机种子单头来检验：",
    },
    "n4.incl.col_rank1": {"en": "rank of the single head's S", "zh": "单头 S 的秩"},
    "n4.incl.col_rankh": {"en": "largest rank of a head", "zh": "一个头的最大秩"},
    "n4.incl.col_ok": {"en": "can a head give its weights?", "zh": "某个头能给出其权重吗？"},
    "n4.yes": {"en": "yes", "zh": "能"},
    "n4.no": {"en": "no", "zh": "不能"},
    "n4.incl.fails": {
        "en": "From h = {h0} on, no single head of the h-head layer can produce the single head's attention "
              "weights on this sentence: the construction behind the claim fails at fixed $d_\\text{{model}}$. "
              "This does not show that the h heads together cannot give the same output; the note's inclusion is "
              "unproven either way (⟦errata:n004_fh⟧).",
        "zh": "从 h = {h0} 起，在这句话上，h 头层中没有任何一个头能给出单头的注意力权重：这个论断背后的构造在 $d_\\text{{model}}$ 固定时不成立。这并不说明 h 个头合起来不能给出"
              "同样的输出；笔记的包含关系无论哪个方向都没有被证明（⟦errata:n004_fh⟧）。",
    },
    "n4.incl.holds": {
        "en": "On this short sentence (L = {L}) every h still passes: the bound bites once L > $d_k$ + 1. Try a "
              "longer sentence or more heads.",
        "zh": "在这句短句（L = {L}）上每个 h 都还能通过：只有当 L > $d_k$ + 1 时这个界才起作用。试试更长的句子或更多的头。",
    },
    "n4.cost.title": {"en": "5. “Multi-head costs nothing extra”?", "zh": "5. “多头不增加计算成本”？"},
    "n4.cost.text": {
        "en": "Note 004 says the heads come free. The parameters (4 $d_\\text{{model}}^2$) and the "
              "multiplications of the matrix products (the four projections, $QK^\\top$ and AV) are indeed the "
              "same for every h. But the softmax takes one exponential per score, h·L·$L_k$, and every L × L "
              "tensor (scores, weights) holds h·L·$L_k$ numbers: both grow h-fold (⟦errata:n004_free⟧). What "
              "that costs in time depends on the machine (⟦errata:n000_mult⟧). Counted for L = {L}, "
              "$d_\\text{{model}}$ = {d}:",
        "zh": "笔记 004 说多个头是“免费”的。参数量（4 $d_\\text{{model}}^2$）和矩阵乘法（四个投影、$QK^\\top$ 和 AV）的乘法次数对任何 h 确实都一样。但 "
              "softmax 对每个分数做一次指数运算，共 h·L·$L_k$ 次；每个 L × L 张量（分数、权重）也有 h·L·$L_k$ 个数：两者都随 h 成倍增长（"
              "⟦errata:n004_free⟧）。这在时间上代价多大取决于机器（⟦errata:n000_mult⟧）。按 L = {L}、$d_\\text{{model}}$ = {d} 计数：",
    },
    "n4.cost.col_mults": {"en": "multiplications", "zh": "乘法次数"},
    "n4.cost.col_exps": {"en": "exponentials", "zh": "指数运算次数"},
    "n4.cost.col_bytes": {"en": "bytes of one L × L tensor", "zh": "一个 L × L 张量的字节数"},
    "n4.cost.length": {"en": "Length L for the timing", "zh": "计时用的长度 L"},
    "n4.cost.measure": {"en": "Measure", "zh": "测量"},
    "n4.cost.measuring": {"en": "Timing every h …", "zh": "正在为每个 h 计时……"},
    "n4.cost.timed": {
        "en": "Measured at L = {L}: h = {h1} takes {t1} ms, h = {h2} takes {t2} ms ({x}×), with the same "
              "multiplications.",
        "zh": "在 L = {L} 下实测：h = {h1} 用时 {t1} 毫秒，h = {h2} 用时 {t2} 毫秒（{x} 倍），乘法次数相同。",
    },
    # ---- figures
    "fig.n4.bottleneck_title": {"en": "The h vs d_k trade-off, at d_model fixed", "zh": "d_model 固定时 h 与 d_k 的权衡"},
    "fig.n4.rank": {"en": "largest score rank of a head", "zh": "一个头分数矩阵的最大秩"},
    "fig.n4.reachable": {"en": "keys that can be most attended", "zh": "可能成为最受关注的键数"},
    "fig.n4.distinct": {"en": "most attended keys in this sentence", "zh": "本句中最受关注的不同键数"},
    "fig.n4.n_keys": {"en": "{n} keys", "zh": "{n} 个键"},
    "fig.n4.h_dk": {"en": "h (d_k)", "zh": "h（d_k）"},
    "fig.n4.count": {"en": "count (mean over heads)", "zh": "个数（各头平均）"},
    "fig.n4.output": {"en": "output", "zh": "输出"},
    "fig.n4.basis_title": {"en": "Output row of {token} = Σ_i head_i W^O_i", "zh": "{token} 的输出行 = Σ_i head_i W^O_i"},
    "fig.n4.counted": {"en": "counted, relative to h = 1", "zh": "计数，相对于 h = 1"},
    "fig.n4.measured": {"en": "measured time of one forward pass", "zh": "一次前向计算的实测时间"},
    "fig.n4.mults": {"en": "multiplications", "zh": "乘法次数"},
    "fig.n4.exps": {"en": "exponentials", "zh": "指数运算次数"},
    "fig.n4.bytes": {"en": "bytes of one L × L tensor", "zh": "一个 L × L 张量的字节数"},
    "fig.n4.relative": {"en": "× the count at h = 1", "zh": "相对 h = 1 的倍数"},
}
