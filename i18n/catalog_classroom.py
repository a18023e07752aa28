"""Strings of the classroom pages: the worked example of note 001 and the predict-then-reveal quiz.

Strings formatted with arguments use str.format: they take LaTeX with braces as an argument. Inline LaTeX
($...$) with braces only appears in strings used without arguments.
"""

STRINGS: dict[str, dict[str, str]] = {
    # ---- page: worked example (note 001)
    "worked.page_title": {"en": "Worked example", "zh": "算例演算"},
    "worked.title": {"en": "Worked example: note 001, number by number", "zh": "算例演算：笔记 001，逐个数字算一遍"},
    "worked.intro": {
        "en": "Every multiplication of one multi-head attention layer with real numbers, in the order you would do "
        "it by hand. All numbers are computed by the app's attention core; where the note printed something else, "
        "both are shown.",
        "zh": "用真实数字展示多头注意力层中的每一次矩阵乘法，顺序与手算一致。所有数值都由本应用的注意力核心计算；"
        "凡是笔记印出的数值与计算结果不同之处，两者都会列出。",
    },
    "worked.setting": {
        "en": "This page always shows the note's setting: $d_\\text{model}$ = 4, h = 2, so $d_k$ = $d_v$ = 2; "
              "two tokens x₁, x₂; **no positional encoding**, scores **divided by $\\sqrt{d_k}$ = √2**, **no "
              "mask**. The sidebar does not change it (choose the worked-example preset there to see these "
              "numbers on the other pages).",
        "zh": "本页始终采用笔记的设置：$d_\\text{model}$ = 4，h = 2，因此 $d_k$ = $d_v$ = 2；两个词元 x₁、x₂；**不加位置编码**，分数**除以 "
              "$\\sqrt{d_k}$ = √2**，**不使用掩码**。侧边栏不会改变本页（在侧边栏选择“算例”预设，即可在其他页面查看同样的数值）。",
    },
    "worked.more_decimals": {"en": "Show more decimals", "zh": "显示更多小数位"},
    "worked.more_decimals_help": {
        "en": "Computed numbers with 4 decimals instead of 2 (the given matrices keep 2).",
        "zh": "计算结果显示 4 位小数而不是 2 位（题目给出的矩阵仍为 2 位）。",
    },
    "worked.step": {"en": "Step {n} · {title}", "zh": "第 {n} 步 · {title}"},
    "worked.inputs.title": {"en": "The input X and the weights", "zh": "输入 X 与权重"},
    "worked.inputs.text": {
        "en": "From note 001: the input X (one row per token), the query weights $W_1^Q$, $W_2^Q$ and the output weights $W^O$.",
        "zh": "来自笔记 001：输入 X（每个词元一行）、查询权重 $W_1^Q$、$W_2^Q$ 以及输出权重 $W^O$。",
    },
    "worked.chosen": {
        "en": "Note 001 leaves out the key and value weights $W_i^K$ and $W_i^V$ (⟦errata:n001_kv⟧). **The app "
              "chose the ones below** (small, signed, all different). They are not from the note: another choice "
              "changes every number from step 3 on.",
        "zh": "笔记 001 没有给出键和值的权重 $W_i^K$、$W_i^V$（⟦errata:n001_kv⟧）。**下面这些是本应用选定的**（较小、有正有负、互不相同），并非来自笔记：换一组取值，第 "
              "3 步之后的所有数字都会改变。",
    },
    "worked.q.title": {"en": "Queries $Q_i = X W_i^Q$", "zh": "查询 $Q_i = X W_i^Q$"},
    "worked.q.text": {
        "en": "Each entry is a row of $X$ times a column of $W_i^Q$: four products, added up.",
        "zh": "每个元素都是 $X$ 的一行乘以 $W_i^Q$ 的一列：四个乘积相加。",
    },
    "worked.erratum": {
        "en": "**The note's arithmetic is off here.** Note 001 prints ${note}$, but multiplying its own X and "
              "weights gives the matrix above. For example row {row}, column {col}: ${expansion}$, not "
              "${note_value}$. The steps below use the computed values (⟦errata:n001_q⟧).",
        "zh": "**笔记在这里算错了。** 笔记 001 写的是 ${note}$，但用它自己给出的 X 与权重相乘，得到的是上面的矩阵。例如第 {row} 行第 {col} 列："
              "${expansion}$，而不是 ${note_value}$。后面的步骤都使用计算得到的数值（⟦errata:n001_q⟧）。",
    },
    "worked.k.title": {"en": "Keys $K_i = X W_i^K$", "zh": "键 $K_i = X W_i^K$"},
    "worked.v.title": {"en": "Values $V_i = X W_i^V$", "zh": "值 $V_i = X W_i^V$"},
    "worked.kv.text": {
        "en": "The same multiplication with the weights the app chose (step 1).",
        "zh": "同样的乘法，使用本应用选定的权重（见第 1 步）。",
    },
    "worked.qk.title": {"en": "Scores $Q_i K_i^\\top$", "zh": "分数 $Q_i K_i^\\top$"},
    "worked.qk.text": {
        "en": "Entry (a, b) is the dot product of query row a with key row b: how well token a's question matches "
        "token b's key.",
        "zh": "第 (a, b) 个元素是第 a 行查询与第 b 行键的点积：词元 a 的“问题”与词元 b 的“键”有多匹配。",
    },
    "worked.scale.title": {"en": "Divide by $\\sqrt{d_k} = \\sqrt{2}$", "zh": "除以 $\\sqrt{d_k} = \\sqrt{2}$"},
    "worked.scale.text": {
        "en": "√2 ≈ 1.414. Dividing keeps the spread of the scores from growing with $d_k$, which would push the "
              "softmax towards saturation.",
        "zh": "√2 ≈ 1.414。除以它可以防止分数的离散程度随 $d_k$ 增大，否则 softmax 会趋于饱和。",
    },
    "worked.softmax.title": {"en": "Softmax, row by row", "zh": "逐行 softmax"},
    "worked.softmax.text": {
        "en": "For each row: take e to the power of every entry, add them up, divide each by the sum. Redo one row by "
        "hand:",
        "zh": "对每一行：对每个元素取 e 的幂，求和，再用每个值除以总和。手算一行试试：",
    },
    "worked.softmax_row": {"en": "Row to redo by hand", "zh": "要手算的行"},
    "worked.softmax_row_option": {
        "en": "head {head}, row {row} (query {token})",
        "zh": "头 {head}，第 {row} 行（查询 {token}）",
    },
    "worked.softmax_check": {
        "en": "The weights of a row add up to 1 (here {total}): each row of $A_i$ is a probability distribution over "
        "the keys.",
        "zh": "一行的权重之和为 1（此处为 {total}）：$A_i$ 的每一行都是在所有键上的概率分布。",
    },
    "worked.av.title": {
        "en": "Head outputs $\\mathrm{head}_i = A_i V_i$",
        "zh": "各头输出 $\\mathrm{head}_i = A_i V_i$",
    },
    "worked.av.text": {
        "en": "Each output row is a weighted average of the rows of $V_i$, with that row of $A_i$ as the weights.",
        "zh": "输出的每一行都是 $V_i$ 各行的加权平均，权重就是 $A_i$ 的对应行。",
    },
    "worked.concat.title": {"en": "Concatenate the heads", "zh": "拼接各头"},
    "worked.concat.text": {
        "en": "head₁ and head₂ side by side: 2 × (2 · 2) = 2 × 4, back to $d_\\text{model}$ columns.",
        "zh": "把 head₁ 和 head₂ 左右并排：2 × (2 · 2) = 2 × 4，回到 $d_\\text{model}$ 列。",
    },
    "worked.out.title": {"en": "Output $= \\mathrm{Concat}\\, W^O$", "zh": "输出 $= \\mathrm{Concat}\\, W^O$"},
    "worked.out.text": {
        "en": "The output projection mixes the heads: every output column uses every column of every head.",
        "zh": "输出投影把各头混合起来：每个输出列都用到了每个头的每一列。",
    },
    "worked.sum.title": {"en": "The same output as a sum over heads", "zh": "同一输出：各头贡献之和"},
    "worked.sum.text": {
        "en": "Split $W^O$ by rows: $W^O_1$ is rows 1–2 (they meet the columns of $\\mathrm{head}_1$ in the "
              "product), $W^O_2$ is rows 3–4. Then $\\mathrm{Concat}\\, W^O = \\mathrm{head}_1 W^O_1 + "
              "\\mathrm{head}_2 W^O_2$: each head adds its own contribution. This is the note's $\\sum_i "
              "\\mathrm{head}_i W^O_i$, a plain sum (no extra function $f$: ⟦errata:n001_f⟧).",
        "zh": "把 $W^O$ 按行切开：$W^O_1$ 是第 1–2 行（乘积中与 $\\mathrm{head}_1$ 的列相乘），$W^O_2$ 是第 3–4 行。于是 "
              "$\\mathrm{Concat}\\, W^O = \\mathrm{head}_1 W^O_1 + \\mathrm{head}_2 W^O_2$：每个头各自加上自己的贡献。这就是笔记中的 "
              "$\\sum_i \\mathrm{head}_i W^O_i$，只是简单求和（没有额外的函数 $f$：⟦errata:n001_f⟧）。",
    },
    "worked.done": {
        "en": "That is the whole layer. The Step by step page shows the same numbers as heatmaps when the "
        "worked-example preset is chosen in the sidebar.",
        "zh": "整个层就算完了。在侧边栏选择“算例”预设后，“逐步计算”页面会以热力图显示同样的数值。",
    },
}
