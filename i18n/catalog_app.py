"""Strings of the app frame, sidebar and pages. Each entry: {"en": ..., "zh": ...}.

Strings formatted with arguments use str.format: literal braces (LaTeX) are doubled there.
"""

STRINGS: dict[str, dict[str, str]] = {
    "app.title": {"en": "Multi-head attention explorer", "zh": "多头注意力探索器"},
    # ---- pages
    "page.home": {"en": "Overview", "zh": "总览"},
    "page.inputs": {"en": "Inputs", "zh": "输入"},
    "page.steps": {"en": "Step by step", "zh": "逐步计算"},
    "page.heads": {"en": "Heads", "zh": "各个头"},
    "page.positional": {"en": "Positional encoding", "zh": "位置编码"},
    "page.worked": {"en": "Worked example", "zh": "算例演算"},
    "page.quiz": {"en": "Predict, then reveal", "zh": "先预测，再揭晓"},
    "page.lab": {"en": "Training lab", "zh": "训练实验室"},
    "page.why": {"en": "Why: scaling, cost, parameters", "zh": "原理：缩放、计算开销与参数量"},
    "page.subspaces": {
        "en": "Why: subspaces, Wᴼ, scoring",
        "zh": "原理：子空间、Wᴼ 与评分函数",
    },
    "page.note004": {"en": "Why multi-head, tested", "zh": "多头为何有效：逐条检验"},
    "page.errata": {"en": "Where the notes are wrong", "zh": "笔记勘误"},
    "page.minilm": {"en": "A real model's heads", "zh": "真实模型的注意力头"},
    # ---- sidebar
    "sb.preset": {"en": "Preset", "zh": "预设"},
    "preset.en": {"en": "English sentence", "zh": "英文句子"},
    "preset.zh": {"en": "Chinese sentence", "zh": "中文句子"},
    "preset.worked": {"en": "Worked example (note 001: d_model=4, h=2)", "zh": "算例（笔记 001：d_model=4，h=2）"},
    "preset.paper": {"en": "The paper's size (d_model=512, h=8)", "zh": "论文配置（d_model=512，h=8）"},
    "preset.custom": {"en": "Custom", "zh": "自定义"},
    "sb.worked_locked": {
        "en": "The worked example fixes X and the weights (d_model=4, h=2). Choose another preset to change them.",
        "zh": "算例固定了 X 和权重（d_model=4，h=2）。选择其他预设即可修改。",
    },
    "sb.text": {"en": "Input sentence (queries)", "zh": "输入句子（查询）"},
    "sb.text_help": {
        "en": "English is split into words and punctuation, Chinese into single characters. At most {limit} tokens.",
        "zh": "英文按单词和标点切分，中文按单字切分。最多 {limit} 个词元。",
    },
    "sb.cross": {"en": "Cross-attention", "zh": "交叉注意力"},
    "sb.cross_help": {
        "en": "Queries come from the sentence above, keys and values from a second sentence (encoder-decoder attention).",
        "zh": "查询来自上面的句子，键和值来自第二个句子（编码器-解码器注意力）。",
    },
    "sb.text_kv": {"en": "Second sentence (keys and values)", "zh": "第二个句子（键和值）"},
    "sb.d_model": {"en": "d_model", "zh": "d_model"},
    "sb.d_model_help": {"en": "Width of every token vector, 1 to {limit}.", "zh": "每个词元向量的维度，1 到 {limit}。"},
    "sb.n_heads": {"en": "Number of heads h", "zh": "头数 h"},
    "sb.n_heads_help": {
        "en": "h must divide $d_\\text{{model}}$ ($d_k$ = $d_\\text{{model}}$ / h). 1 to {limit}.",
        "zh": "h 必须整除 $d_\\text{{model}}$（$d_k$ = $d_\\text{{model}}$ / h）。1 到 {limit}。",
    },
    "sb.seed": {"en": "Weight seed", "zh": "权重随机种子"},
    "sb.seed_help": {
        "en": "The random weights $W^Q$, $W^K$, $W^V$, $W^O$ are drawn from this seed: the same seed gives the "
              "same numbers.",
        "zh": "随机权重 $W^Q$、$W^K$、$W^V$、$W^O$ 由该种子生成：相同种子得到相同数值。",
    },
    "sb.scale": {"en": "Scale by 1/√d_k", "zh": "除以 √d_k 缩放"},
    "sb.scale_help": {
        "en": "Switch off to see why the factor exists: unscaled scores grow with $d_k$ and the softmax "
              "saturates.",
        "zh": "关闭后可看到缩放因子的作用：未缩放的分数随 $d_k$ 增大，softmax 趋于饱和。",
    },
    "sb.add_pe": {"en": "Add positional encoding", "zh": "加入位置编码"},
    "sb.add_pe_help": {"en": "Use X + P as the layer input instead of X.", "zh": "以 X + P 代替 X 作为层的输入。"},
    "sb.mask": {"en": "Mask", "zh": "掩码"},
    "mask.none": {"en": "none", "zh": "无"},
    "mask.causal": {"en": "causal", "zh": "因果"},
    "mask.padding": {"en": "padding", "zh": "填充"},
    "sb.mask_help": {
        "en": "Causal: a token may not attend to later tokens. Padding: a batch of this sentence and a second, "
        "shorter or longer one; the shorter is filled with [PAD], which every query ignores. Chosen tokens: the "
        "key tokens you pick are ignored by every query.",
        "zh": "因果：词元不能关注其后的词元。填充：本句与第二个（更短或更长的）句子组成一个批量，"
        "较短的用 [PAD] 补齐，所有查询都忽略 [PAD]。选定的词元：所有查询都忽略你选中的键词元。",
    },
    "sb.padded": {"en": "Key tokens to mask (chosen tokens)", "zh": "要掩蔽的键词元（选定的词元）"},
    "sb.padded_help": {
        "en": "A query whose keys are all masked gets weights 0 and output 0 (not NaN).",
        "zh": "若某查询的所有键都被掩蔽，其权重为 0、输出为 0（而不是 NaN）。",
    },
    "sb.large": {"en": "Large fonts (projector)", "zh": "大字体（投影仪）"},
    "sb.large_help": {"en": "Bigger text and figures for the back row.", "zh": "更大的文字和图，方便后排观看。"},
    "sb.limits": {
        "en": "Limits: {tokens} tokens, d_model ≤ {d_model}, h ≤ {heads}.",
        "zh": "上限：{tokens} 个词元，d_model ≤ {d_model}，h ≤ {heads}。",
    },
    "msg.showing_last_good": {
        "en": "The settings in the sidebar cannot be computed (see the message there); showing the last valid result.",
        "zh": "侧边栏中的设置无法计算（见侧边栏提示）；当前显示上一次有效的结果。",
    },
    "msg.url_rejected": {
        "en": "This link contained values that are not valid settings ({names}); they were replaced by defaults.",
        "zh": "该链接中含有无效的设置（{names}），已替换为默认值。",
    },
    # ---- problems (one message each, shown in the sidebar)
    "problem.empty_text": {
        "en": "The {which} has no tokens. Type at least one word or character.",
        "zh": "{which}没有任何词元。请至少输入一个单词或汉字。",
    },
    "problem.too_many_chars": {
        "en": "The {which} has {n} characters; the limit is {limit}.",
        "zh": "{which}有 {n} 个字符，上限为 {limit}。",
    },
    "problem.too_many_tokens": {
        "en": "The {which} has {n} tokens; the limit is {limit} so that every page stays responsive.",
        "zh": "{which}有 {n} 个词元，上限为 {limit}，以保证每个页面响应迅速。",
    },
    "problem.out_of_range": {
        "en": "{name} = {value} is outside the allowed range {low} to {high}.",
        "zh": "{name} = {value} 超出允许范围 {low} 到 {high}。",
    },
    "problem.not_divisible": {
        "en": "d_model = {d_model} is not divisible by h = {n_heads}, so d_k = d_model / h is not a whole number. "
        "Try h = {heads} or d_model = {d_models}.",
        "zh": "d_model = {d_model} 不能被 h = {n_heads} 整除，d_k = d_model / h 不是整数。"
        "可以试试 h = {heads} 或 d_model = {d_models}。",
    },
    "problem.bad_choice": {"en": "{name} = {value} is not a valid choice.", "zh": "{name} = {value} 不是有效选项。"},
    "problem.not_a_number": {
        "en": "“{value}” is not a number. Enter a number such as 0.5 or -2.",
        "zh": "“{value}”不是数字。请输入数字，例如 0.5 或 -2。",
    },
    "problem.not_finite": {
        "en": "{value} is not a finite number. Enter an ordinary number.",
        "zh": "{value} 不是有限数。请输入普通数字。",
    },
    "problem.too_large_value": {
        "en": "{value} is too large: edited values must lie between -{limit} and {limit}.",
        "zh": "{value} 过大：编辑的数值须在 -{limit} 到 {limit} 之间。",
    },
    "which.query": {"en": "input sentence", "zh": "输入句子"},
    "which.key_value": {"en": "second sentence (keys and values)", "zh": "第二个句子（键和值）"},
    "name.d_model": {"en": "d_model", "zh": "d_model"},
    "name.n_heads": {"en": "h", "zh": "h"},
    "name.seed": {"en": "seed", "zh": "种子"},
    "name.mask": {"en": "mask", "zh": "掩码"},
    "name.base": {"en": "base", "zh": "底数"},
    "name.padded": {"en": "masked tokens", "zh": "被掩蔽的词元"},
    "name.matrix": {"en": "matrix", "zh": "矩阵"},
    # ---- shared labels
    "axis.token": {"en": "token", "zh": "词元"},
    "axis.dimension": {"en": "dimension", "zh": "维度"},
    "axis.value": {"en": "value", "zh": "数值"},
    "axis.row": {"en": "row", "zh": "行"},
    "axis.column": {"en": "column", "zh": "列"},
    "axis.head": {"en": "head", "zh": "头"},
    "common.head_n": {"en": "head {n}", "zh": "头 {n}"},
    "mat.w_q": {"en": "W^Q (d_model × d_model)", "zh": "W^Q（d_model × d_model）"},
    "mat.w_o": {"en": "W^O (d_model × d_model)", "zh": "W^O（d_model × d_model）"},
    # ---- page: home
    "home.title": {"en": "Overview: multi-head attention, every number visible", "zh": "总览：多头注意力，每一个数字都看得见"},
    "home.intro": {
        "en": "Type a sentence, choose $d_\\text{model}$ and the number of heads h, add a mask, and follow every "
              "tensor of one multi-head attention layer: the per-head Q, K, V, the scaled scores, the softmax "
              "weights, each head's output, the concatenation and the $W^O$ projection. All numbers are computed "
              "live by the app's own core, which is tested against PyTorch's `torch.nn.MultiheadAttention`. The "
              "settings are in the sidebar and in the address bar: copy the link to share exactly what you see.",
        "zh": "输入一句话，选择 $d_\\text{model}$ 和头数 h，加上掩码，就能跟踪一个多头注意力层中的每一个张量：每个头的 Q、K、V，缩放后的分数，softmax 权重，每个头的输出，拼接结果"
              "以及 $W^O$ 投影。所有数字都由本应用自己的核心实时计算，并与 PyTorch 的 `torch.nn.MultiheadAttention` 对照测试。设置位于侧边栏和地址栏中：复制链接即可"
              "分享你看到的完全相同的内容。",
    },
    "home.flow": {
        "en": "The pipeline now: h = {h} heads, d_model = {d}, d_k = {dk}, L = {L} tokens",
        "zh": "当前流程：h = {h} 个头，d_model = {d}，d_k = {dk}，L = {L} 个词元",
    },
    "home.flow_input": {"en": "input", "zh": "输入"},
    "home.flow_head": {"en": "head", "zh": "头"},
    "home.flow_concat": {"en": "Concat", "zh": "拼接"},
    "home.flow_output": {"en": "output", "zh": "输出"},
    "home.flow_softmax": {"en": "softmax", "zh": "softmax"},
    "home.where": {"en": "Where to look", "zh": "从哪里看起"},
    "home.where_inputs": {
        "en": "Tokens, embeddings X, positional encoding P; edit X and the weights.",
        "zh": "词元、嵌入 X、位置编码 P；可编辑 X 和权重。",
    },
    "home.where_steps": {
        "en": "The nine steps from X to the output, each with formula, shapes and numbers.",
        "zh": "从 X 到输出的九个步骤，每一步都有公式、形状和数值。",
    },
    "home.where_heads": {
        "en": "All heads side by side, one token's attention in every head, head similarity.",
        "zh": "并排查看所有头、一个词元在各个头中的注意力、头之间的相似度。",
    },
    "home.where_positional": {
        "en": "Sine and cosine curves, wavelengths, similarity between positions.",
        "zh": "正弦与余弦曲线、波长、位置之间的相似度。",
    },
    "home.errata_text": {
        "en": "The app always shows computed numbers, never the notes'. It lists {n} places where the notes are "
              "wrong, each with the live computation that shows it.",
        "zh": "本应用始终显示计算得到的数值，从不照抄笔记。它列出了笔记的 {n} 条勘误，每一处都附有证明它的实时计算。",
    },
    # ---- page: inputs
    "inputs.title": {"en": "Inputs: tokens, embeddings, positions", "zh": "输入：词元、嵌入与位置"},
    "inputs.intro": {
        "en": "The sentence is split into tokens; each token becomes a row of the embedding matrix **X** (seeded "
              "random numbers: the same word always gets the same row). Without positions, attention does not "
              "see the order: swap two tokens and their two output rows swap, nothing else changes (a causal "
              "mask, which depends on positions, is the exception; the Positional encoding page swaps two tokens "
              "and compares). So the positional encoding **P** is added: the layer input is **X + P**.",
        "zh": "句子被切分成词元；每个词元成为嵌入矩阵 **X** 的一行（带种子的随机数：同一个词总是得到同一行）。没有位置信息时，注意力看不到顺序：对调两个词元，它们的两个输出行也随之对调，其余不变（因果掩码"
              "依赖位置，是例外；“位置编码”页面对调两个词元并作了比较）。因此要加上位置编码 **P**：层的输入是 **X + P**。",
    },
    "inputs.tokens": {"en": "Tokens (L = {n})", "zh": "词元（L = {n}）"},
    "inputs.kv_tokens": {"en": "Key/value tokens (L_k = {n})", "zh": "键/值词元（L_k = {n}）"},
    "inputs.token": {"en": "token", "zh": "词元"},
    "inputs.tab_x": {"en": "X (embeddings)", "zh": "X（嵌入）"},
    "inputs.tab_p": {"en": "P (positional encoding)", "zh": "P（位置编码）"},
    "inputs.tab_x_in": {"en": "X + P (layer input)", "zh": "X + P（层的输入）"},
    "inputs.latex_x": {"en": r"X \in \mathbb{R}^{L \times d_{model}}", "zh": r"X \in \mathbb{R}^{L \times d_{model}}"},
    "inputs.latex_p": {
        "en": r"P_{i,2j} = \sin(i / 10000^{2j/d}),\quad P_{i,2j+1} = \cos(i / 10000^{2j/d})",
        "zh": r"P_{i,2j} = \sin(i / 10000^{2j/d}),\quad P_{i,2j+1} = \cos(i / 10000^{2j/d})",
    },
    "inputs.latex_x_in": {"en": r"X_{in} = X + P", "zh": r"X_{in} = X + P"},
    "inputs.caption_x": {"en": "{L} tokens × {d} dimensions.", "zh": "{L} 个词元 × {d} 个维度。"},
    "inputs.caption_p": {
        "en": "Row i encodes position i; it does not depend on the token.",
        "zh": "第 i 行编码位置 i，与词元本身无关。",
    },
    "inputs.caption_x_in": {
        "en": "What the attention layer receives ({L} × {d}).",
        "zh": "注意力层实际接收的输入（{L} × {d}）。",
    },
    "inputs.pe_off": {
        "en": "Positional encoding is switched off in the sidebar: the layer input is X itself.",
        "zh": "侧边栏中已关闭位置编码：层的输入就是 X 本身。",
    },
    "inputs.edit_x": {"en": "Edit X cell by cell", "zh": "逐格编辑 X"},
    "inputs.edit_x_open": {"en": "Show the editor", "zh": "显示编辑器"},
    "inputs.edit_x_help": {
        "en": "Double-click a cell and type a number; every page recomputes from the edited X. Edits are kept until "
        "the sentence or d_model changes.",
        "zh": "双击单元格输入数字；所有页面都会根据修改后的 X 重新计算。修改会保留，直到句子或 d_model 改变。",
    },
    "inputs.edit_x_too_big": {
        "en": "X is editable for d_model ≤ {limit}; lower d_model in the sidebar to edit it.",
        "zh": "d_model ≤ {limit} 时才可编辑 X；请在侧边栏调小 d_model。",
    },
    "inputs.worked_fixed": {
        "en": "In the worked example X is the note's matrix and stays fixed.",
        "zh": "在算例中 X 是笔记给出的矩阵，保持不变。",
    },
    "inputs.reset_x": {"en": "Undo all edits of X", "zh": "撤销对 X 的全部修改"},
    "inputs.weights": {"en": "Weights", "zh": "权重"},
    "inputs.weights_intro": {
        "en": "Four {d} × {d} matrices $W^Q$, $W^K$, $W^V$, $W^O$, drawn from seed {seed} (no bias, as in the "
              "notes' formulas). Random weights give fairly even attention; trained heads specialise (note 004).",
        "zh": "四个 {d} × {d} 的矩阵 $W^Q$、$W^K$、$W^V$、$W^O$，由种子 {seed} 生成（与笔记公式一致，无偏置）。随机权重下注意力较为平均；训练后的头会各有专长（笔记 "
              "004）。",
    },
    "inputs.weights_worked": {
        "en": "Note 001 gives X, $W_1^Q$, $W_2^Q$ and $W^O$; it leaves out $W_i^K$ and $W_i^V$ "
              "(⟦errata:n001_kv⟧), so the app chose small signed values for them (shown below and on the "
              "worked-example page).",
        "zh": "笔记 001 给出了 X、$W_1^Q$、$W_2^Q$ 和 $W^O$，但没有给出 $W_i^K$ 和 "
              "$W_i^V$（⟦errata:n001_kv⟧），因此本应用为它们选定了一些较小的正负数值（见下方及算例页面）。",
    },
    "inputs.reseed": {"en": "New random weights", "zh": "重新随机生成权重"},
    "inputs.edit_w_help": {
        "en": "Small sizes: edit the weights cell by cell (rows: input dimension, columns: output dimension).",
        "zh": "尺寸较小时可逐格编辑权重（行：输入维度；列：输出维度）。",
    },
    "inputs.edit_w_too_big": {
        "en": "Weights are editable for $d_\\text{{model}}$ ≤ {limit}. Shown here: $W^Q$ and $W^O$.",
        "zh": "$d_\\text{{model}}$ ≤ {limit} 时才可编辑权重。此处显示 $W^Q$ 和 $W^O$。",
    },
    "inputs.reset_w": {"en": "Undo all edits of the weights", "zh": "撤销对权重的全部修改"},
    # ---- page: step by step
    "steps.title": {"en": "Step by step", "zh": "逐步计算"},
    "steps.intro": {
        "en": "The whole pipeline for the current setting: h = {h} heads, d_model = {d}, d_k = d_model / h = {dk}, "
        "L = {L} query tokens, L_k = {Lk} key tokens. Hover any cell for its value.",
        "zh": "当前设置下的完整流程：h = {h} 个头，d_model = {d}，d_k = d_model / h = {dk}，"
        "L = {L} 个查询词元，L_k = {Lk} 个键词元。鼠标悬停可查看每个格子的数值。",
    },
    "steps.numbers_head": {"en": "Show the numbers of head", "zh": "显示数值的头"},
    "steps.input.title": {"en": "Input", "zh": "输入"},
    "steps.input.latex": {"en": r"X \in \mathbb{R}^{L \times d_{model}}", "zh": r"X \in \mathbb{R}^{L \times d_{model}}"},
    "steps.input.text": {
        "en": "One row per token: {L} × {d}.",
        "zh": "每个词元一行：{L} × {d}。",
    },
    "steps.proj.title": {"en": "Projections Q, K, V", "zh": "投影得到 Q、K、V"},
    "steps.proj.latex": {
        "en": r"Q = XW^Q,\; K = XW^K,\; V = XW^V \qquad Q_i = XW_i^Q,\; W_i^Q \in \mathbb{R}^{d_{model} \times d_k}",
        "zh": r"Q = XW^Q,\; K = XW^K,\; V = XW^V \qquad Q_i = XW_i^Q,\; W_i^Q \in \mathbb{R}^{d_{model} \times d_k}",
    },
    "steps.proj.text": {
        "en": "Two views of the same numbers. Fused (notes 002, 004): one {d} × {d} matrix $W^Q$. Per head "
              "(notes 000, 001): h = {h} independent {d} × {dk} matrices $W_i^Q$. They are the same thing: "
              "$W_i^Q$ is columns (i−1)·$d_k$ … i·$d_k$ − 1 of $W^Q$, i.e. $W^Q$ = [$W_1^Q$ | … | $W_h^Q$] side "
              "by side (⟦errata:n000_unified⟧), not a block-diagonal matrix: every input dimension feeds every "
              "head (⟦errata:n004_blockdiag⟧).",
        "zh": "同一组数值的两种视图。融合视图（笔记 002、004）：一个 {d} × {d} 的矩阵 $W^Q$。分头视图（笔记 000、001）：h = {h} 个独立的 {d} × {dk} 矩阵 "
              "$W_i^Q$。二者完全等价：$W_i^Q$ 就是 $W^Q$ 的第 (i−1)·$d_k$ … i·$d_k$ − 1 列，即 $W^Q$ = [$W_1^Q$ | … | $W_h^Q$] 横"
              "向拼接（⟦errata:n000_unified⟧），而不是分块对角矩阵：每个输入维度都会影响每个头（⟦errata:n004_blockdiag⟧）。",
    },
    "steps.proj.view": {"en": "Show the projections", "zh": "投影的显示方式"},
    "steps.proj.fused": {"en": "Fused (d_model × d_model)", "zh": "融合（d_model × d_model）"},
    "steps.proj.per_head": {"en": "Per head (h × L × d_k)", "zh": "分头（h × L × d_k）"},
    "steps.proj.fused_caption": {
        "en": "Columns 0…{dk}−1 belong to head 1, the next {dk} to head 2, and so on.",
        "zh": "第 0…{dk}−1 列属于头 1，接下来的 {dk} 列属于头 2，依此类推。",
    },
    "steps.split.title": {"en": "Split into heads", "zh": "拆分为多个头"},
    "steps.split.latex": {
        "en": r"[B, L, d_{model}] \to [B, L, h, d_k] \to [B, h, L, d_k]",
        "zh": r"[B, L, d_{model}] \to [B, L, h, d_k] \to [B, h, L, d_k]",
    },
    "steps.split.text": {
        "en": "A reshape and a transpose, no arithmetic: h = {h} heads of width $d_k$ = {dk}. Every tensor and "
              "its shape (note 002's table, for the current setting, from a real run):",
        "zh": "只是重塑（reshape）和转置，没有任何计算：h = {h} 个头，每个头的维度 $d_k$ = {dk}。各张量及其形状（笔记 002 的表格，按当前设置，取自一次实际运行）：",
    },
    "steps.split.batch": {"en": "Batch size B for the table", "zh": "表格中的批量大小 B"},
    "steps.split.batch_help": {
        "en": "The app computes one sentence (B = 1). Set B (up to {max}) to run the core on a batch of B random "
              "sentences of this length and read every shape from that run, e.g. B = 32 as in note 002. The "
              "weights do not depend on B.",
        "zh": "本应用只计算一句话（B = 1）。设置 B（最多 {max}）后，核心会在 B 个同样长度的随机句子组成的批量上运行一次，各张量的形状都读自这次运行，例如笔记 002 中的 B = 32。权重与 "
              "B 无关。",
    },
    "steps.col_tensor": {"en": "tensor", "zh": "张量"},
    "steps.col_shape": {"en": "shape", "zh": "形状"},
    "steps.col_now": {"en": "now", "zh": "当前"},
    "steps.scores.title": {"en": "Scaled scores", "zh": "缩放后的分数"},
    "steps.scores.latex": {"en": r"S_i = \frac{Q_i K_i^\top}{\sqrt{d_k}}", "zh": r"S_i = \frac{Q_i K_i^\top}{\sqrt{d_k}}"},
    "steps.scores.text": {
        "en": "Each cell is the dot product of a query row and a key row, times 1/√{dk} = {factor}. "
        "Rows: queries, columns: keys.",
        "zh": "每个格子是一行查询与一行键的点积，再乘以 1/√{dk} = {factor}。行：查询；列：键。",
    },
    "steps.scores.unscaled": {
        "en": "Scaling is off: these are raw $Q_i\\ K_i^\\top$. Their spread grows with $d_k$ and the softmax "
              "saturates.",
        "zh": "已关闭缩放：这是原始的 $Q_i\\ K_i^\\top$。其数值范围随 $d_k$ 增大，softmax 会趋于饱和。",
    },
    "steps.mask.title": {"en": "Mask", "zh": "掩码"},
    "steps.mask.latex": {
        "en": r"S_i[q, k] \leftarrow -\infty \ \text{where key } k \text{ is masked for query } q",
        "zh": r"S_i[q, k] \leftarrow -\infty \ \text{（对查询 } q \text{ 掩蔽键 } k \text{ 时）}",
    },
    "steps.mask.text": {
        "en": "A masked score becomes −∞, so its weight after the softmax is exactly 0.",
        "zh": "被掩蔽的分数变为 −∞，经过 softmax 后其权重恰好为 0。",
    },
    "steps.mask.none": {"en": "No mask is selected: every query may attend to every key.", "zh": "未选择掩码：每个查询都可以关注所有键。"},
    "steps.mask.causal": {
        "en": "Causal mask: query i may only attend to keys 0…i (empty cells are −∞).",
        "zh": "因果掩码：查询 i 只能关注键 0…i（空白格为 −∞）。",
    },
    "steps.mask.padding": {
        "en": "Padding mask: the [PAD] keys of each batch item are −∞ for every query (empty cells).",
        "zh": "填充掩码：批量中每个句子的 [PAD] 键对所有查询都是 −∞（空白格）。",
    },
    "steps.softmax.title": {"en": "Softmax: attention weights", "zh": "Softmax：注意力权重"},
    "steps.softmax.latex": {
        "en": r"A_i = \mathrm{softmax}(S_i), \quad A_i[q,k] = \frac{e^{S_i[q,k]}}{\sum_{k'} e^{S_i[q,k']}}",
        "zh": r"A_i = \mathrm{softmax}(S_i), \quad A_i[q,k] = \frac{e^{S_i[q,k]}}{\sum_{k'} e^{S_i[q,k']}}",
    },
    "steps.softmax.text": {
        "en": "Along each row (one query) the weights are ≥ 0 and sum to 1: how much each key contributes.",
        "zh": "每一行（一个查询）的权重都 ≥ 0 且和为 1：表示每个键的贡献份额。",
    },
    "steps.av.title": {"en": "Weighted sum of values", "zh": "对值加权求和"},
    "steps.av.latex": {"en": r"\mathrm{head}_i = A_i V_i", "zh": r"\mathrm{head}_i = A_i V_i"},
    "steps.av.text": {
        "en": "Each head's output row is a weighted average of its value rows: L × $d_k$ = L × {dk} per head.",
        "zh": "每个头的输出行是其值向量的加权平均：每个头 L × $d_k$ = L × {dk}。",
    },
    "steps.concat.title": {"en": "Concatenate the heads", "zh": "拼接所有头"},
    "steps.concat.latex": {
        "en": r"\mathrm{Concat}(\mathrm{head}_1, \dots, \mathrm{head}_h) \in \mathbb{R}^{L \times h d_k}",
        "zh": r"\mathrm{Concat}(\mathrm{head}_1, \dots, \mathrm{head}_h) \in \mathbb{R}^{L \times h d_k}",
    },
    "steps.concat.text": {
        "en": "The h = {h} outputs of width {dk} side by side: h · $d_k$ = {d} = $d_\\text{{model}}$ again.",
        "zh": "把 h = {h} 个维度为 {dk} 的输出横向拼接：h · $d_k$ = {d}，重新等于 $d_\\text{{model}}$。",
    },
    "steps.out.title": {
        "en": "Output projection $W^O$",
        "zh": "输出投影 $W^O$",
    },
    "steps.out.latex": {
        "en": r"\mathrm{Output} = \mathrm{Concat}\, W^O = \sum_{i=1}^{h} \mathrm{head}_i W^O_i",
        "zh": r"\mathrm{Output} = \mathrm{Concat}\, W^O = \sum_{i=1}^{h} \mathrm{head}_i W^O_i",
    },
    "steps.out.text": {
        "en": "$W^O$ is (h·$d_v$) × $d_\\text{{model}}$ = {d} × {d}. It mixes the heads linearly: the output is "
              "the sum of each head times its own block of rows $W^O_i$ (no extra nonlinearity here: "
              "⟦errata:n001_f⟧).",
        "zh": "$W^O$ 的形状为 (h·$d_v$) × $d_\\text{{model}}$ = {d} × {d}。它把各个头线性地混合：输出等于每个头乘以 $W^O$ 中对应的行块 $W^O_i$ 之"
              "和（此处没有额外的非线性：⟦errata:n001_f⟧）。",
    },
    # ---- page: heads
    "heads.title": {"en": "Heads", "zh": "各个头"},
    "heads.intro": {
        "en": "All h = {h} heads side by side. Each head works in its own $d_k$ = {dk}-dimensional subspace with "
              "its own $W_i^Q$, $W_i^K$, $W_i^V$.",
        "zh": "并排显示全部 h = {h} 个头。每个头在自己的 $d_k$ = {dk} 维子空间中计算，有各自的 $W_i^Q$、$W_i^K$、$W_i^V$。",
    },
    "heads.quantity": {"en": "Show", "zh": "显示"},
    "qty.weights": {"en": "weights A_i", "zh": "权重 A_i"},
    "qty.scores": {"en": "scores", "zh": "分数"},
    "qty.masked_scores": {
        "en": "masked scores",
        "zh": "掩蔽后的分数",
    },
    "qty.q": {"en": "Q_i", "zh": "Q_i"},
    "qty.k": {"en": "K_i", "zh": "K_i"},
    "qty.v": {"en": "V_i", "zh": "V_i"},
    "qty.head_outputs": {"en": "head outputs", "zh": "头的输出"},
    "qty.weights.help": {
        "en": "softmax($Q_i K_i^\\top / \\sqrt{d_k}$): rows are queries, columns keys; each row sums to 1.",
        "zh": "softmax($Q_i K_i^\\top / \\sqrt{d_k}$)：行是查询，列是键；每行之和为 1。",
    },
    "qty.scores.help": {
        "en": "$Q_i K_i^\\top / \\sqrt{d_k}$ before the mask.",
        "zh": "加掩码之前的 $Q_i K_i^\\top / \\sqrt{d_k}$。",
    },
    "qty.masked_scores.help": {
        "en": "Scores after the mask; masked cells (−∞) are left empty.",
        "zh": "加掩码之后的分数；被掩蔽的格子（−∞）留空。",
    },
    "qty.q.help": {
        "en": "Queries of each head: L × $d_k$.",
        "zh": "每个头的查询：L × $d_k$。",
    },
    "qty.k.help": {
        "en": "Keys of each head: $L_k$ × $d_k$.",
        "zh": "每个头的键：$L_k$ × $d_k$。",
    },
    "qty.v.help": {
        "en": "Values of each head: $L_k$ × $d_k$.",
        "zh": "每个头的值：$L_k$ × $d_k$。",
    },
    "qty.head_outputs.help": {
        "en": "$\\mathrm{head}_i$ = $A_i\\ V_i$: L × $d_k$.",
        "zh": "$\\mathrm{head}_i$ = $A_i\\ V_i$：L × $d_k$。",
    },
    "heads.shared_scale": {"en": "One colour scale for all heads", "zh": "所有头共用一个色标"},
    "heads.shared_help": {
        "en": "Off: each head gets its own colour range (hover still shows the true values).",
        "zh": "关闭时每个头使用各自的颜色范围（悬停仍显示真实数值）。",
    },
    "heads.one_query": {"en": "One query token in every head", "zh": "同一个查询词元在各个头中的注意力"},
    "heads.pick_query": {"en": "Query token", "zh": "查询词元"},
    "heads.lines": {"en": "Token to token", "zh": "词元到词元的连线"},
    "heads.lines_heads": {"en": "Heads to draw", "zh": "要绘制的头"},
    "heads.lines_all": {"en": "Lines from every query (not only the chosen one)", "zh": "显示所有查询的连线（不仅是所选词元）"},
    "heads.entropy": {"en": "Entropy of each row of weights", "zh": "每行权重的熵"},
    "heads.entropy_text": {
        "en": "In nats: 0 = all weight on one key, $\\ln L_k$ = perfectly even.",
        "zh": "单位为奈特（nat）：0 表示全部权重集中在一个键上，$\\ln L_k$ 表示完全均匀。",
    },
    # ---- page: positional encoding
    "pe.title": {"en": "Positional encoding: sines and cosines", "zh": "位置编码：正弦与余弦"},
    "pe.intro": {
        "en": "Each pair of columns (2j, 2j+1) is a sine and a cosine of the position with wavelength 2π·b^(2j/d): "
        "the first columns oscillate fast, the last ones very slowly (note 003). These controls only affect this "
        "page.",
        "zh": "每一对列 (2j, 2j+1) 是位置的正弦和余弦，波长为 2π·b^(2j/d)：前面的列变化很快，后面的列变化很慢"
        "（笔记 003）。这些控件只影响本页。",
    },
    "pe.length": {"en": "Positions", "zh": "位置数"},
    "pe.d_model": {"en": "d_model", "zh": "d_model"},
    "pe.base": {"en": "Base b", "zh": "底数 b"},
    "pe.limit": {"en": "At most {n}.", "zh": "最多 {n}。"},
    "pe.dims": {"en": "Dimensions to plot", "zh": "要绘制的维度"},
    "pe.pick_dims": {"en": "Pick at least one dimension to see its curve.", "zh": "至少选择一个维度以查看曲线。"},
    "pe.similarity": {"en": "Similarity between positions: P Pᵀ", "zh": "位置之间的相似度：P Pᵀ"},
    "pe.similarity_text": {
        "en": "For an even $d_\\text{{model}}$ the dot product of two encodings is $\\sum_j "
              "\\cos((i-k)\\,\\omega_j)$: it depends only on the distance i − k, not on where the two positions "
              "are. It is largest at distance 0, but it does not fall steadily with distance: along row 0 it "
              "rises again at {rises} of {steps} steps.",
        "zh": "$d_\\text{{model}}$ 为偶数时，两个位置编码的点积是 $\\sum_j \\cos((i-k)\\,\\omega_j)$：它只取决于距离 i − "
              "k，而与两个位置的绝对位置无关。距离为 0 时最大，但它并不随距离单调下降：沿第 0 行，{steps} 步中有 {rises} 步又回升。",
    },
}
STRINGS.update({
    "sb.present": {"en": "Presentation mode", "zh": "演示模式"},
    "sb.present_help": {
        "en": "For the projector: large fonts and figures, sidebar folded away, and the step-by-step page reveals one "
        "step at a time.",
        "zh": "用于投影仪：大字体和大图，收起侧边栏，逐步计算页面每次只展示一个步骤。",
    },
    "chart.failed": {
        "en": "This chart could not be drawn: the browser did not load plotly.js from the app's static folder.",
        "zh": "无法绘制此图：浏览器未能从应用的 static 目录加载 plotly.js。",
    },
    "io.title": {"en": "Share & export", "zh": "分享与导出"},
    "io.link_help": {
        "en": "The address bar always holds the whole setting: copy the link and every student sees the same numbers.",
        "zh": "地址栏始终包含完整设置：复制链接，每位学生都会看到完全相同的数字。",
    },
    "io.download_settings": {"en": "Settings (JSON)", "zh": "设置（JSON）"},
    "io.upload_settings": {"en": "Load settings (JSON)", "zh": "载入设置（JSON）"},
    "io.upload_help": {
        "en": "A file downloaded with the button above. It is checked field by field before it is used.",
        "zh": "用上方按钮下载的文件。使用前会逐项检查。",
    },
    "io.download_npz": {"en": "Whole trace (NumPy .npz)", "zh": "完整计算过程（NumPy .npz）"},
    "io.npz_help": {
        "en": "Every tensor of the current computation; np.load(file) reads it (no pickle needed).",
        "zh": "当前计算中的所有张量；用 np.load(file) 读取（无需 pickle）。",
    },
    "io.loaded": {"en": "Settings loaded.", "zh": "设置已载入。"},
    "io.too_big": {"en": "The file is larger than {limit} KB; a settings file is much smaller.", "zh": "文件超过 {limit} KB；设置文件应当小得多。"},
    "io.not_json": {"en": "The file is not valid JSON.", "zh": "该文件不是有效的 JSON。"},
    "io.not_object": {"en": "The file does not contain a settings object.", "zh": "该文件中没有设置对象。"},
    "io.wrong_format": {"en": "This is not a settings file of this app.", "zh": "这不是本应用的设置文件。"},
    "io.wrong_version": {"en": "The settings file has an unknown version.", "zh": "设置文件的版本未知。"},
    "io.unknown_field": {"en": "The settings file has a field this app does not know.", "zh": "设置文件中有本应用不认识的字段。"},
    "io.bad_field": {"en": "The field “{field}” in the settings file has a wrong value.", "zh": "设置文件中的字段“{field}”取值有误。"},
    "io.invalid": {"en": "The settings in the file cannot be used:", "zh": "文件中的设置无法使用："},
})
STRINGS.update({
    "steps.prev": {"en": "Previous", "zh": "上一步"},
    "steps.next": {"en": "Next step", "zh": "下一步"},
    "steps.progress": {"en": "Step {n} of {total}", "zh": "第 {n} 步，共 {total} 步"},
})
STRINGS.update({
    "nav.explore": {"en": "Explore", "zh": "探索"},
    "nav.classroom": {"en": "Classroom", "zh": "课堂"},
    "nav.beyond": {"en": "Why it works & beyond", "zh": "原理与拓展"},
})
