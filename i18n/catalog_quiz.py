"""Strings of the quiz: the page (app_pages/quiz.py) and every question kind of explorer/quiz_bank.py.

Keys: `quiz.<kind>.prompt*` (the question), `.explain*` (shown after reveal), `.opt_*` (an option's label),
`.why_*` (that option's own explanation), `.trap_*` (the slip behind a typical wrong typed answer).
"""

STRINGS: dict[str, dict[str, str]] = {
    # ---- the page
    "quiz.page_title": {"en": "Predict, then reveal", "zh": "先预测，再揭晓"},
    "quiz.title": {"en": "Predict, then reveal", "zh": "先预测，再揭晓"},
    "quiz.intro": {
        "en": "Questions from the lecture notes and the current setting. Answer (pick an option or type a number or "
        "a shape), then press **Reveal**. Every answer has its own explanation.",
        "zh": "题目来自笔记和当前设置。先作答（选择一个选项，或输入一个数或形状），再点 **揭晓**。每个答案都有各自的解释。",
    },
    "quiz.setting": {
        "en": "Current setting: L = {L} query tokens, L_k = {Lk} key tokens, d_model = {d}, h = {h}, mask: "
              "{mask}.",
        "zh": "当前设置：L = {L} 个查询词元，L_k = {Lk} 个键词元，d_model = {d}，h = {h}，掩码：{mask}。",
    },
    "quiz.set": {
        "en": "Question set {seed}. The link carries it: a class that opens the same link gets the same questions. "
        "The address bar also carries your answers (a reload keeps them): share the class link below instead.",
        "zh": "题组 {seed}。链接带有题组编号：打开同一链接的全班同学会得到相同的题目。地址栏还带有你的答案（刷新后仍保留）："
        "请分享下面的班级链接。",
    },
    "quiz.class_link": {
        "en": "Link for the class: these questions, without your answers",
        "zh": "给全班的链接：相同的题目，不含你的答案",
    },
    "quiz.new": {"en": "New questions", "zh": "换一组题"},
    "quiz.question": {"en": "Question {n}", "zh": "第 {n} 题"},
    "quiz.reveal": {"en": "Reveal", "zh": "揭晓"},
    "quiz.right": {"en": "Right: {answer}.", "zh": "答对了：{answer}。"},
    "quiz.wrong": {"en": "Not this one. The answer is {answer}.", "zh": "不对。正确答案是 {answer}。"},
    "quiz.no_pick": {"en": "No answer given. The answer is {answer}.", "zh": "没有作答。正确答案是 {answer}。"},
    "quiz.unreadable": {
        "en": "“{given}” is not a {what} I can read. The answer is {answer}.",
        "zh": "无法识别“{given}”为{what}。正确答案是 {answer}。",
    },
    "quiz.what.number": {"en": "number", "zh": "数"},
    "quiz.what.shape": {"en": "shape", "zh": "形状"},
    "quiz.your_answer": {"en": "Your answer: {given}", "zh": "你的答案：{given}"},
    "quiz.type.number": {"en": "Your number (e.g. 0.25)", "zh": "你的答案（数，例如 0.25）"},
    "quiz.type.shape": {"en": "Your shape (e.g. 6 × 8, or 6x8)", "zh": "你的答案（形状，例如 6 × 8 或 6x8）"},
    "quiz.tolerance": {"en": "Within ± {tol} counts as right.", "zh": "误差在 ± {tol} 以内算对。"},
    "quiz.others": {"en": "Why the other options are wrong", "zh": "其他选项为什么不对"},
    "quiz.score": {
        "en": "Revealed: {revealed} of {total} · right: {right}",
        "zh": "已揭晓：{revealed}/{total} · 答对：{right}",
    },
    # ---- d_k (typed number)
    "quiz.d_k.prompt": {
        "en": "$d_\\text{{model}}$ = {d} and h = {h} heads. Type $d_k$, the width of each head.",
        "zh": "$d_\\text{{model}}$ = {d}，h = {h} 个头。请输入每个头的维度 $d_k$。",
    },
    "quiz.d_k.explain": {
        "en": "Each head reads all $d_\\text{{model}}$ = {d} input dimensions and projects them to $d_k$ = "
              "$d_\\text{{model}}$ / h = {d} / {h} = {dk} dimensions, so that the h outputs side by side are "
              "$d_\\text{{model}}$ wide again.",
        "zh": "每个头都读取全部 $d_\\text{{model}}$ = {d} 个输入维度，并把它们投影到 $d_k$ = $d_\\text{{model}}$ / h = {d} / {h} = "
              "{dk} 维，这样 h 个输出横向拼接后又是 $d_\\text{{model}}$ 维。",
    },
    "quiz.d_k.trap_mult": {
        "en": "That is $d_\\text{{model}}$ · h. Each head's output has $d_\\text{{model}}$ / h dimensions, so that "
              "the h outputs side by side have $d_\\text{{model}}$ again: divide. (What each head reads: "
              "⟦errata:n000_split⟧.)",
        "zh": "这是 $d_\\text{{model}}$ · h。每个头的输出有 $d_\\text{{model}}$ / h 维，h 个输出横向拼接后才又是 $d_\\text{{model}}$ "
              "维：应当相除。（每个头读取什么：⟦errata:n000_split⟧。）",
    },
    "quiz.d_k.trap_d": {
        "en": "That is $d_\\text{{model}}$ itself, the width of all heads together (after the concatenation).",
        "zh": "这是 $d_\\text{{model}}$ 本身，即所有头合起来（拼接之后）的维度。",
    },
    "quiz.d_k.trap_h": {"en": "That is the number of heads, not their width.", "zh": "这是头数，而不是每个头的维度。"},
    # ---- shape of a tensor of this setting (typed shape)
    "quiz.shape.prompt": {
        "en": "In this setting (L = {L} tokens, $d_\\text{{model}}$ = {d}, h = {h}), type the shape of {name} "
              "(i: one head).",
        "zh": "在当前设置中（L = {L} 个词元，$d_\\text{{model}}$ = {d}，h = {h}），请输入 {name} 的形状（i 表示某一个头）。",
    },
    "quiz.shape.prompt_cross": {
        "en": "In this setting (cross-attention: L = {L} queries, $L_k$ = {Lk} keys and values, "
              "$d_\\text{{model}}$ = {d}, h = {h}), type the shape of {name}.",
        "zh": "在当前设置中（交叉注意力：L = {L} 个查询，$L_k$ = {Lk} 个键和值，$d_\\text{{model}}$ = {d}，h = {h}），请输入 {name} 的形状。",
    },
    "quiz.shape.why_q_i": {
        "en": "$Q_i$ = X $W_i^Q$: (L × $d_\\text{{model}}$)($d_\\text{{model}}$ × $d_k$) = {shape}, with $d_k$ = "
              "{d} / {h} = {dk}.",
        "zh": "$Q_i$ = X $W_i^Q$：(L × $d_\\text{{model}}$)($d_\\text{{model}}$ × $d_k$) = {shape}，其中 $d_k$ = {d} "
              "/ {h} = {dk}。",
    },
    "quiz.shape.why_k_t": {
        "en": "$K_i$ has one row per key, $L_k$ × $d_k$; transposed it is $d_k$ × $L_k$ = {shape}, ready for "
              "$Q_i\\ K_i^\\top$.",
        "zh": "$K_i$ 每个键一行，形状 $L_k$ × $d_k$；转置后为 $d_k$ × $L_k$ = {shape}，正好用于 $Q_i\\ K_i^\\top$。",
    },
    "quiz.shape.why_a_i": {
        "en": "$A_i$ = softmax($Q_i K_i^\\top / \\sqrt{{d_k}}$) has one row per query and one column per key: L "
              "× $L_k$ = {shape}.",
        "zh": "$A_i$ = softmax($Q_i K_i^\\top / \\sqrt{{d_k}}$) 每个查询一行、每个键一列：L × $L_k$ = {shape}。",
    },
    "quiz.shape.why_head_i": {
        "en": "$\\mathrm{{head}}_i$ = $A_i\\ V_i$: (L × $L_k$)($L_k$ × $d_k$) = {shape}.",
        "zh": "$\\mathrm{{head}}_i$ = $A_i\\ V_i$：(L × $L_k$)($L_k$ × $d_k$) = {shape}。",
    },
    "quiz.shape.why_concat": {
        "en": "{h} heads of L × $d_k$ side by side: L × (h · $d_k$) = {shape}, back to $d_\\text{{model}}$ "
              "columns.",
        "zh": "{h} 个 L × $d_k$ 的头左右并排：L × (h · $d_k$) = {shape}，回到 $d_\\text{{model}}$ 列。",
    },
    "quiz.shape.why_w_q_i": {
        "en": "$W_i^Q$ maps a $d_\\text{{model}}$-wide token to a $d_k$-wide query: $d_\\text{{model}}$ × $d_k$ "
              "= {shape}.",
        "zh": "$W_i^Q$ 把 $d_\\text{{model}}$ 维的词元映射为 $d_k$ 维的查询：$d_\\text{{model}}$ × $d_k$ = {shape}。",
    },
    "quiz.shape.why_w_o": {
        "en": "$W^O$ takes the concatenation (h · $d_k$ = $d_\\text{{model}}$ wide) back to $d_\\text{{model}}$: "
              "{shape}.",
        "zh": "$W^O$ 把拼接结果（h · $d_k$ = $d_\\text{{model}}$ 维）映射回 $d_\\text{{model}}$：{shape}。",
    },
    "quiz.shape.trap_transposed": {
        "en": "Right numbers, wrong order: that is the transpose. Rows come first.",
        "zh": "数字对了，顺序反了：这是转置。先写行数。",
    },
    "quiz.shape.trap_dk": {
        "en": "$d_\\text{{model}}$ ({d}) and $d_k$ ({dk}) are swapped: one head works in $d_k$ dimensions; "
              "$d_\\text{{model}}$ is all heads together.",
        "zh": "$d_\\text{{model}}$（{d}）和 $d_k$（{dk}）弄混了：一个头在 $d_k$ 维中计算；$d_\\text{{model}}$ 是所有头合起来的维度。",
    },
    "quiz.shape.trap_heads": {
        "en": "That is all {h} heads stacked; the question asks for one matrix.",
        "zh": "这是 {h} 个头堆叠在一起的形状；题目问的是一个矩阵。",
    },
    # ---- parameter count (typed number)
    "quiz.params.prompt": {
        "en": "A multi-head attention layer with $d_\\text{{model}}$ = {d}, h = {h} heads and no biases. Type "
              "how many weights $W^Q$, $W^K$, $W^V$ and $W^O$ hold together.",
        "zh": "一个多头注意力层，$d_\\text{{model}}$ = {d}，h = {h} 个头，无偏置。请输入 $W^Q$、$W^K$、$W^V$ 和 $W^O$ 共有多少个权重。",
    },
    "quiz.params.explain": {
        "en": "Each head's $W_i^Q$ is $d_\\text{{model}}$ × $d_k$; h of them make h · {d} · {dk} = {per} = "
              "$d_\\text{{model}}^2$. The same for $W^K$ and $W^V$, and $W^O$ is $d_\\text{{model}}$ × "
              "$d_\\text{{model}}$: 4 · $d_\\text{{model}}^2$ = {total}, whatever h is (note 004).",
        "zh": "每个头的 $W_i^Q$ 是 $d_\\text{{model}}$ × $d_k$；h 个合起来是 h · {d} · {dk} = {per} = "
              "$d_\\text{{model}}^2$。$W^K$、$W^V$ 同理，$W^O$ 是 $d_\\text{{model}}$ × $d_\\text{{model}}$：共 4 · "
              "$d_\\text{{model}}^2$ = {total}，与 h 无关（笔记 004）。",
    },
    "quiz.params.trap_3d2": {
        "en": "3 · $d_\\text{{model}}^2$ counts $W^Q$, $W^K$ and $W^V$ only; this layer also has $W^O$, another "
              "$d_\\text{{model}}^2$ (note 001's table makes the same slip: ⟦errata:n001_params⟧).",
        "zh": "3 · $d_\\text{{model}}^2$ 只算了 $W^Q$、$W^K$ 和 $W^V$；这一层还有 $W^O$，又是 $d_\\text{{model}}^2$ 个权重（笔记 001 "
              "的表格犯了同样的错误：⟦errata:n001_params⟧）。",
    },
    "quiz.params.trap_per_head": {
        "en": "That gives every one of the {h} heads full $d_\\text{{model}}$ × $d_\\text{{model}}$ matrices. "
              "Each head's matrices are only $d_\\text{{model}}$ × $d_k$.",
        "zh": "这相当于 {h} 个头每个都有完整的 $d_\\text{{model}}$ × $d_\\text{{model}}$ 矩阵。实际上每个头的矩阵只有 $d_\\text{{model}}$ × "
              "$d_k$。",
    },
    "quiz.params.trap_one_head": {
        "en": "That counts one head's $W_i^Q$, $W_i^K$, $W_i^V$ and a $d_\\text{{model}}$ × $d_k$ slice: "
              "multiply by the h heads.",
        "zh": "这只算了一个头的 $W_i^Q$、$W_i^K$、$W_i^V$ 和一块 $d_\\text{{model}}$ × $d_k$：还要乘以头数 h。",
    },
    "quiz.params.trap_bias": {
        "en": "That includes four bias vectors; this layer has none.",
        "zh": "这包括了四个偏置向量；这一层没有偏置。",
    },
    # ---- does h change the parameter count (choice)
    "quiz.heads_params.prompt_d": {
        "en": "$d_\\text{{model}}$ = {d} stays fixed, and the layer goes from h = {h1} to h = {h2} heads ($d_k$ "
              "= $d_\\text{{model}}$ / h). It had {p1} weights. How many now?",
        "zh": "$d_\\text{{model}}$ = {d} 保持不变，头数从 h = {h1} 变为 h = {h2}（$d_k$ = $d_\\text{{model}}$ / h）。原来有 {p1} "
              "个权重，现在有多少？",
    },
    "quiz.heads_params.prompt_dk": {
        "en": "Each head keeps $d_k$ = {dk}, and the layer goes from h = {h1} to h = {h2} heads, so "
              "$d_\\text{{model}}$ = h · $d_k$ changes. It had {p1} weights. How many now?",
        "zh": "每个头保持 $d_k$ = {dk}，头数从 h = {h1} 变为 h = {h2}，因此 $d_\\text{{model}}$ = h · $d_k$ 也随之改变。原来有 {p1} 个权重，"
              "现在有多少？",
    },
    "quiz.heads_params.explain_d": {
        "en": "With $d_\\text{{model}}$ fixed the count is 4 · $d_\\text{{model}}^2$ = {p2} for any h: changing h only changes each head's dimension $d_k$ = $d_\\text{{model}}$ / h (note 004).",
        "zh": "$d_\\text{{model}}$ 不变时，对任何 h 参数量都是 4 · $d_\\text{{model}}^2$ = {p2}：改变 h 只改变每个头的维度 $d_k$ = $d_\\text{{model}}$ / h（笔记 004）。",
    },
    "quiz.heads_params.explain_dk": {
        "en": "$d_\\text{{model}}$ = h · $d_k$ goes from {h1} · {dk} to {h2} · {dk}, and the count is 4 · "
              "$d_\\text{{model}}^2$: {p1} → {p2}.",
        "zh": "$d_\\text{{model}}$ = h · $d_k$ 从 {h1} · {dk} 变为 {h2} · {dk}，参数量为 4 · $d_\\text{{model}}^2$：{p1} "
              "→ {p2}。",
    },
    "quiz.heads_params.opt_same": {"en": "{p} (unchanged)", "zh": "{p}（不变）"},
    "quiz.heads_params.opt_linear": {"en": "{p} (× h₂/h₁)", "zh": "{p}（× h₂/h₁）"},
    "quiz.heads_params.opt_square": {"en": "{p} (× (h₂/h₁)²)", "zh": "{p}（× (h₂/h₁)²）"},
    "quiz.heads_params.opt_inverse": {"en": "{p} (÷ h₂/h₁)", "zh": "{p}（÷ h₂/h₁）"},
    "quiz.heads_params.why_same_d": {
        "en": "Right: h · $d_\\text{{model}}$ · ($d_\\text{{model}}$ / h) = $d_\\text{{model}}^2$ per matrix, "
              "whatever h.",
        "zh": "对：每个矩阵 h · $d_\\text{{model}}$ · ($d_\\text{{model}}$ / h) = $d_\\text{{model}}^2$，与 h 无关。",
    },
    "quiz.heads_params.why_same_dk": {
        "en": "That would hold with $d_\\text{{model}}$ fixed; here $d_\\text{{model}}$ = h · $d_k$ changes with h.",
        "zh": "若 $d_\\text{{model}}$ 固定才如此；这里 $d_\\text{{model}}$ = h · $d_k$ 随 h 变化。",
    },
    "quiz.heads_params.why_linear_d": {
        "en": "The layer keeps its four matrices whatever h is: changing h only changes each head's dimension ($d_k$ = $d_\\text{{model}}$ / h), and h · $d_\\text{{model}}$ · $d_k$ stays $d_\\text{{model}}^2$.",
        "zh": "无论 h 是多少，这一层都只有四个矩阵：改变 h 只改变每个头的维度（$d_k$ = $d_\\text{{model}}$ / h），h · $d_\\text{{model}}$ · $d_k$ 始终等于 $d_\\text{{model}}^2$。",
    },
    "quiz.heads_params.why_linear_dk": {
        "en": "Not only the number of heads changes: the input width $d_\\text{{model}}$ = h · $d_k$ changes with it, and the count goes with $d_\\text{{model}}^2$.",
        "zh": "变的不只是头数，输入维度 $d_\\text{{model}}$ = h · $d_k$ 也随之改变：参数量随 $d_\\text{{model}}^2$ 变化。",
    },
    "quiz.heads_params.why_square_d": {
        "en": "Only when $d_\\text{{model}}$ changes with h. Here $d_\\text{{model}}$ is fixed.",
        "zh": "只有当 $d_\\text{{model}}$ 随 h 改变时才如此。这里 $d_\\text{{model}}$ 是固定的。",
    },
    "quiz.heads_params.why_square_dk": {
        "en": "Right: $d_\\text{{model}}$ changes by the factor h₂/h₁ = {r}, and 4 · $d_\\text{{model}}^2$ by its square.",
        "zh": "对：$d_\\text{{model}}$ 变为原来的 h₂/h₁ = {r} 倍，4 · $d_\\text{{model}}^2$ 变为其平方倍。",
    },
    "quiz.heads_params.why_inverse_d": {
        "en": "The number of heads and their dimension change in opposite directions and cancel: h · $d_\\text{{model}}$ · ($d_\\text{{model}}$ / h) stays $d_\\text{{model}}^2$ per matrix.",
        "zh": "头数和每个头的维度朝相反方向变化，正好抵消：每个矩阵 h · $d_\\text{{model}}$ · ($d_\\text{{model}}$ / h) 始终是 $d_\\text{{model}}^2$。",
    },
    "quiz.heads_params.why_inverse_dk": {
        "en": "With $d_k$ fixed, $d_\\text{{model}}$ = h · $d_k$ moves with h, in the same direction: the count follows (h₂/h₁)², it is not divided by h₂/h₁.",
        "zh": "$d_k$ 固定时，$d_\\text{{model}}$ = h · $d_k$ 与 h 同向变化：参数量按 (h₂/h₁)² 变化，而不是除以 h₂/h₁。",
    },
    # ---- one softmax weight by hand (typed number)
    "quiz.softmax_weight.prompt": {
        "en": "Head {head}, query {query}. Its scaled scores against the keys it sees are {scores}. Type the "
        "attention weight on key {kv} (softmax, 2 decimals).",
        "zh": "头 {head}，查询 {query}。它对可见键的缩放分数为 {scores}。请输入键 {kv} 上的注意力权重（softmax，保留 2 位小数）。",
    },
    "quiz.softmax_weight.prompt_unscaled": {
        "en": "Head {head}, query {query}. Scaling is off, so its scores against the keys it sees are the raw "
        "$Q_i K_i^\\top$: {scores}. Type the attention weight on key {kv} (softmax, 2 decimals).",
        "zh": "头 {head}，查询 {query}。缩放已关闭，所以它对可见键的分数就是原始的 $Q_i K_i^\\top$：{scores}。请输入键 {kv} "
        "上的注意力权重（softmax，保留 2 位小数）。",
    },
    "quiz.softmax_weight.prompt_made_up": {
        "en": "A query's scaled scores against three keys are {scores}. Type the attention weight on key {kv} "
        "(softmax, 2 decimals).",
        "zh": "某个查询对三个键的缩放分数为 {scores}。请输入键 {kv} 上的注意力权重（softmax，保留 2 位小数）。",
    },
    "quiz.softmax_weight.explain": {
        "en": "Exponentiate every score: {exps}. The weight on {kv} is its share: {top} / (sum) = {answer}.",
        "zh": "对每个分数取指数：{exps}。{kv} 上的权重是它所占的比例：{top} / （总和）= {answer}。",
    },
    "quiz.softmax_weight.trap_uniform": {
        "en": "That is 1 / (number of keys): softmax gives equal weights only when all scores are equal.",
        "zh": "这是 1 /（键的个数）：只有所有分数相等时 softmax 才给出相等的权重。",
    },
    "quiz.softmax_weight.trap_unnormalised": {
        "en": "That is $e^\\text{{score}}$ alone: divide by the sum of $e^\\text{{score}}$ over all the keys.",
        "zh": "这只是 $e^\\text{{分数}}$：还要除以所有键的 $e^\\text{{分数}}$ 之和。",
    },
    "quiz.softmax_weight.trap_ratio": {
        "en": "That divides the score by the sum of the scores: softmax exponentiates first.",
        "zh": "这是用分数除以分数之和：softmax 要先取指数。",
    },
    # ---- one scaled score by hand (typed number)
    "quiz.score_by_hand.prompt": {
        "en": "Head {head}: the query {query} has q = {q} and the key {kv} has k = {k} ($d_k$ = {dk}). Type the "
              "scaled score q · k / $\\sqrt{{d_k}}$ (2 decimals).",
        "zh": "头 {head}：查询 {query} 的 q = {q}，键 {kv} 的 k = {k}（$d_k$ = {dk}）。请输入缩放分数 q · k / $\\sqrt{{d_k}}$（保留 2 "
              "位小数）。",
    },
    "quiz.score_by_hand.prompt_made_up": {
        "en": "A head with $d_k$ = {dk}: q = {q}, k = {k}. Type the scaled score q · k / $\\sqrt{{d_k}}$ (2 "
              "decimals).",
        "zh": "一个 $d_k$ = {dk} 的头：q = {q}，k = {k}。请输入缩放分数 q · k / $\\sqrt{{d_k}}$（保留 2 位小数）。",
    },
    "quiz.score_by_hand.explain": {
        "en": "q · k = {products} = {dot}; divided by √{dk}: {answer}.",
        "zh": "q · k = {products} = {dot}；除以 √{dk}：{answer}。",
    },
    "quiz.score_by_hand.trap_unscaled": {
        "en": "That is q · k before the scaling: divide by $\\sqrt{{d_k}}$.",
        "zh": "这是缩放之前的 q · k：还要除以 $\\sqrt{{d_k}}$。",
    },
    "quiz.score_by_hand.trap_by_dk": {
        "en": "That divides by $d_k$; the scaling divides by its square root, $\\sqrt{{d_k}}$.",
        "zh": "这是除以 $d_k$；缩放除的是它的平方根 $\\sqrt{{d_k}}$。",
    },
    "quiz.score_by_hand.trap_times": {
        "en": "That multiplies by $\\sqrt{{d_k}}$; the scaling divides.",
        "zh": "这是乘以 $\\sqrt{{d_k}}$；缩放是除法。",
    },
    # ---- argmax (choice, only with a clear winner)
    "quiz.argmax.prompt": {
        "en": "In head {head}, which key does the query {query} attend to most?",
        "zh": "在头 {head} 中，查询 {query} 最关注哪个键？",
    },
    "quiz.argmax.explain": {
        "en": "Row {query} of head {head}'s weights: the largest is {weight}, on {best}, clearly ahead of the others.",
        "zh": "头 {head} 的权重中查询 {query} 这一行：最大的是 {weight}，在 {best} 上，明显领先其他键。",
    },
    "quiz.argmax.why_right": {
        "en": "Right: {best} gets {weight}, the largest weight of the row.",
        "zh": "对：{best} 得到 {weight}，是这一行最大的权重。",
    },
    "quiz.argmax.why_wrong": {
        "en": "{kv} gets {w}, less than {best} with {weight}.",
        "zh": "{kv} 只得到 {w}，少于 {best} 的 {weight}。",
    },
    # ---- masks (choice)
    "quiz.mask_causal.prompt": {
        "en": "With the causal mask, which keys can the query {query} see?",
        "zh": "使用因果掩码时，查询 {query} 能看到哪些键？",
    },
    "quiz.mask_causal.explain": {
        "en": "A causal mask hides every key after the query's own position: {query} sees {n_visible} of {len_k} "
              "keys ({keys}), itself included.",
        "zh": "因果掩码掩蔽查询自身位置之后的所有键：{query} 能看到 {len_k} 个键中的 {n_visible} 个（{keys}），包括它自己。",
    },
    "quiz.mask_causal.why_right": {
        "en": "Right: every key up to and including {query}.",
        "zh": "对：直到 {query}（含）为止的所有键。",
    },
    "quiz.mask_causal.why_before": {
        "en": "This leaves out {query} itself: the diagonal is not masked, a token sees itself.",
        "zh": "这漏掉了 {query} 自己：对角线不被掩蔽，词元能看到自己。",
    },
    "quiz.mask_causal.explain_cross": {
        "en": "A causal mask hides every key after the query's own position: {query} sees {n_visible} of {len_k} "
              "keys ({keys}), up to and including the key at its own position (in cross-attention that key is a "
              "token of the other sentence).",
        "zh": "因果掩码掩蔽查询自身位置之后的所有键：{query} 能看到 {len_k} 个键中的 {n_visible} 个（{keys}），直到并包括与它位置相同的那个键"
              "（在交叉注意力中，这个键是另一个句子的词元）。",
    },
    "quiz.mask_causal.why_right_cross": {
        "en": "Right: every key up to and including the position of {query}.",
        "zh": "对：直到 {query} 所在位置（含）为止的所有键。",
    },
    "quiz.mask_causal.why_before_cross": {
        "en": "This misses the key at the query's own position: the causal mask hides only the keys after it.",
        "zh": "这漏掉了与查询位置相同的那个键：因果掩码只掩蔽它之后的键。",
    },
    "quiz.mask_causal.why_self_cross": {
        "en": "Not only the key at the query's position: every earlier key is visible too.",
        "zh": "不只是与查询位置相同的那个键：之前的所有键也都可见。",
    },
    "quiz.mask_causal.why_after": {
        "en": "This is the future, the part the causal mask hides.",
        "zh": "这是“未来”，正是因果掩码掩蔽的部分。",
    },
    "quiz.mask_causal.why_all": {
        "en": "That is attention without a mask.",
        "zh": "这是没有掩码时的情况。",
    },
    "quiz.mask_causal.why_future": {
        "en": "These are exactly the keys that are hidden.",
        "zh": "这些恰恰是被掩蔽的键。",
    },
    "quiz.mask_causal.why_self": {
        "en": "Not only itself: every earlier key is visible too.",
        "zh": "不只是它自己：之前的所有键也都可见。",
    },
    "quiz.mask_padding.prompt": {
        "en": "With this padding mask, which keys can the query {query} see?",
        "zh": "使用当前的填充掩码时，查询 {query} 能看到哪些键？",
    },
    "quiz.mask_padding.explain": {
        "en": "A padding mask hides the padded keys from every query: {query} sees {n_visible} of {len_k} keys "
              "({keys}).",
        "zh": "填充掩码对所有查询都掩蔽被填充的键：{query} 能看到 {len_k} 个键中的 {n_visible} 个（{keys}）。",
    },
    "quiz.mask_padding.why_right": {
        "en": "Right: every key that is not padding.",
        "zh": "对：所有不是填充的键。",
    },
    "quiz.mask_padding.why_all": {
        "en": "That ignores the mask: the padded keys are hidden.",
        "zh": "这忽略了掩码：被填充的键是看不到的。",
    },
    "quiz.mask_padding.why_padded": {
        "en": "These are the padded keys, the ones hidden.",
        "zh": "这些是被填充的键，也就是被掩蔽的键。",
    },
    "quiz.mask_padding.why_causal": {
        "en": "That is a causal mask; a padding mask hides the same keys from every query, earlier or later.",
        "zh": "这是因果掩码；填充掩码对每个查询掩蔽的都是同样的键，不分前后。",
    },
    "quiz.mask_padding.why_self": {
        "en": "A query sees every key that is not padding, not only itself.",
        "zh": "查询能看到所有非填充的键，而不只是它自己。",
    },
    # ---- cross-attention shape (typed shape)
    "quiz.cross_shape.prompt": {
        "en": "Cross-attention: the queries come from a sentence of {Lq} tokens, the keys and values from another "
        "of {Lk} tokens. Type the shape of one head's weights A.",
        "zh": "交叉注意力：查询来自一个 {Lq} 个词元的句子，键和值来自另一个 {Lk} 个词元的句子。请输入一个头的注意力权重 A 的形状。",
    },
    "quiz.cross_shape.explain": {
        "en": "A = softmax($QK^\\top / \\sqrt{{d_k}}$): one row per query, one column per key: {Lq} × {Lk} (note "
              "003).",
        "zh": "A = softmax($QK^\\top / \\sqrt{{d_k}}$)：每个查询一行、每个键一列：{Lq} × {Lk}（笔记 003）。",
    },
    "quiz.cross_shape.trap_transposed": {
        "en": "Rows are queries, columns keys: this is the transpose.",
        "zh": "行对应查询、列对应键：这是转置。",
    },
    "quiz.cross_shape.trap_self": {
        "en": "That is self-attention's square shape; here the keys come from the other sentence.",
        "zh": "这是自注意力的方阵形状；这里的键来自另一个句子。",
    },
    "quiz.cross_shape.trap_keys": {
        "en": "That would be the keys attending to themselves; the rows are the queries.",
        "zh": "那是键对自身的注意力；行应当是查询。",
    },
    "quiz.cross_shape.trap_dk": {
        "en": "That is the shape of Q (or of the head output), not of the weights.",
        "zh": "这是 Q（或头输出）的形状，不是注意力权重的形状。",
    },
    # ---- multiplications of this setting (typed number)
    "quiz.qk_mults.prompt_one": {
        "en": "L = {L} queries, $L_k$ = {Lk} keys, $d_\\text{{model}}$ = {d}, h = {h}. Type how many scalar "
              "multiplications {step} takes in ONE head.",
        "zh": "L = {L} 个查询，$L_k$ = {Lk} 个键，$d_\\text{{model}}$ = {d}，h = {h}。请输入一个头中 {step} 需要多少次标量乘法。",
    },
    "quiz.qk_mults.prompt_all": {
        "en": "L = {L} queries, $L_k$ = {Lk} keys, $d_\\text{{model}}$ = {d}, h = {h}. Type how many scalar "
              "multiplications {step} takes over ALL heads.",
        "zh": "L = {L} 个查询，$L_k$ = {Lk} 个键，$d_\\text{{model}}$ = {d}，h = {h}。请输入所有头的 {step} 共需要多少次标量乘法。",
    },
    "quiz.qk_mults.explain_one": {
        "en": "{step} in one head: L · $L_k$ entries, each a sum of $d_k$ products: {L} · {Lk} · {dk} = {total}.",
        "zh": "一个头的 {step}：L · $L_k$ 个元素，每个是 $d_k$ 个乘积之和：{L} · {Lk} · {dk} = {total}。",
    },
    "quiz.qk_mults.explain_all": {
        "en": "{step}: L · $L_k$ · $d_k$ per head, times h: L · $L_k$ · $d_\\text{{model}}$ = {L} · {Lk} · {d} = "
              "{total}, the same as one head of width $d_\\text{{model}}$ (note 001).",
        "zh": "{step}：每个头 L · $L_k$ · $d_k$，乘以 h：L · $L_k$ · $d_\\text{{model}}$ = {L} · {Lk} · {d} = "
              "{total}，与维度为 $d_\\text{{model}}$ 的单头相同（笔记 001）。",
    },
    "quiz.qk_mults.trap_dh": {
        "en": "That multiplies by $d_\\text{{model}}$ and by h: each head works in $d_k$ = $d_\\text{{model}}$ / "
              "h dimensions only.",
        "zh": "这既乘了 $d_\\text{{model}}$ 又乘了 h：每个头只在 $d_k$ = $d_\\text{{model}}$ / h 维中计算。",
    },
    "quiz.qk_mults.trap_one": {"en": "That is one head only.", "zh": "这只是一个头的。"},
    "quiz.qk_mults.trap_all": {"en": "That is all heads together.", "zh": "这是所有头合起来的。"},
    "quiz.qk_mults.trap_entries": {
        "en": "That counts the entries of the result; each entry is itself a sum of products.",
        "zh": "这是结果矩阵的元素个数；每个元素本身是若干乘积之和。",
    },
    # ---- how a cost grows (typed number)
    "quiz.cost_scaling.prompt_L": {
        "en": "The sequence length L becomes {k} times longer ($d_\\text{{model}}$ and h stay). The multiplications of "
              "{step} become how many times as many? Type the factor.",
        "zh": "序列长度 L 变为原来的 {k} 倍（$d_\\text{{model}}$ 和 h 不变）。{step} 的乘法次数变为原来的多少倍？请输入倍数。",
    },
    "quiz.cost_scaling.prompt_d": {
        "en": "$d_\\text{{model}}$ becomes {k} times larger (L and h stay). The multiplications of {step} become "
              "how many times as many? Type the factor.",
        "zh": "$d_\\text{{model}}$ 变为原来的 {k} 倍（L 和 h 不变）。{step} 的乘法次数变为原来的多少倍？请输入倍数。",
    },
    "quiz.cost_scaling.explain_qk_L": {
        "en": "{step} costs L · L · $d_\\text{{model}}$: L appears twice, so × {k}² = {answer}. This is "
              "attention's quadratic cost.",
        "zh": "{step} 的代价是 L · L · $d_\\text{{model}}$：L 出现两次，所以 × {k}² = {answer}。这就是注意力的平方代价。",
    },
    "quiz.cost_scaling.explain_av_L": {
        "en": "{step} costs L · L · $d_\\text{{model}}$ (weights times values): L twice, × {k}² = {answer}.",
        "zh": "{step} 的代价是 L · L · $d_\\text{{model}}$（权重乘以值）：L 出现两次，× {k}² = {answer}。",
    },
    "quiz.cost_scaling.explain_proj_L": {
        "en": "{step} costs L · $d_\\text{{model}}$ · $d_\\text{{model}}$: L once, × {k}.",
        "zh": "{step} 的代价是 L · $d_\\text{{model}}$ · $d_\\text{{model}}$：L 只出现一次，× {k}。",
    },
    "quiz.cost_scaling.explain_qk_d": {
        "en": "{step} costs L · L · $d_\\text{{model}}$: $d_\\text{{model}}$ once, × {k}.",
        "zh": "{step} 的代价是 L · L · $d_\\text{{model}}$：$d_\\text{{model}}$ 只出现一次，× {k}。",
    },
    "quiz.cost_scaling.explain_av_d": {
        "en": "{step} costs L · L · $d_\\text{{model}}$: $d_\\text{{model}}$ once, × {k}.",
        "zh": "{step} 的代价是 L · L · $d_\\text{{model}}$：$d_\\text{{model}}$ 只出现一次，× {k}。",
    },
    "quiz.cost_scaling.explain_proj_d": {
        "en": "{step} costs L · $d_\\text{{model}}$ · $d_\\text{{model}}$: $d_\\text{{model}}$ twice, × {k}² = "
              "{answer}.",
        "zh": "{step} 的代价是 L · $d_\\text{{model}}$ · $d_\\text{{model}}$：$d_\\text{{model}}$ 出现两次，× {k}² = "
              "{answer}。",
    },
    "quiz.cost_scaling.trap_linear": {
        "en": "Linear growth: true when the size appears once in the count; here it appears twice.",
        "zh": "线性增长：只有当该尺寸在计数中只出现一次时才对；这里它出现了两次。",
    },
    "quiz.cost_scaling.trap_square": {
        "en": "Quadratic growth: true when the size appears twice in the count; here it appears once.",
        "zh": "平方增长：只有当该尺寸在计数中出现两次时才对；这里它只出现一次。",
    },
    "quiz.cost_scaling.trap_cube": {
        "en": "No count of attention has a size three times over.",
        "zh": "注意力的计数中没有哪个尺寸出现三次。",
    },
    "quiz.cost_scaling.trap_same": {
        "en": "The count does depend on this size.",
        "zh": "这个计数确实依赖于该尺寸。",
    },
    # ---- entropy with growing d_k (choice)
    "quiz.entropy_scaling.prompt_off": {
        "en": "Scaling OFF (scores are Q $K^\\top$, not divided by $\\sqrt{{d_k}}$). Queries and keys have "
              "random entries of variance 1, {n} keys. $d_k$ grows from {a} to {b}. What happens to the entropy "
              "of the attention rows?",
        "zh": "关闭缩放（分数为 Q $K^\\top$，不除以 $\\sqrt{{d_k}}$）。查询和键的元素是方差为 1 的随机数，共 {n} 个键。$d_k$ 从 {a} 增大到 "
              "{b}。注意力权重各行的熵会怎样？",
    },
    "quiz.entropy_scaling.prompt_on": {
        "en": "Scaling ON (scores are $QK^\\top / \\sqrt{{d_k}}$). Queries and keys have random entries of "
              "variance 1, {n} keys. $d_k$ grows from {a} to {b}. What happens to the entropy of the attention "
              "rows?",
        "zh": "开启缩放（分数为 $QK^\\top / \\sqrt{{d_k}}$）。查询和键的元素是方差为 1 的随机数，共 {n} 个键。$d_k$ 从 {a} 增大到 {b}。注意力权重各行的熵会怎样？",
    },
    "quiz.entropy_scaling.explain_off": {
        "en": "A dot product of $d_k$ terms has variance $d_k$: from {a} to {b} the scores spread √({b}/{a}) times wider, the softmax puts more of each row's weight on its largest score, and the entropy falls; as $d_k$ keeps growing the rows approach one-hot, the entropy 0 and the softmax's gradients vanish (note 002).",
        "zh": "$d_k$ 项的点积方差为 $d_k$：从 {a} 到 {b}，分数的分布范围扩大到 √({b}/{a}) 倍，softmax 把每行更多的权重放在最大的分数上，熵随之下降；$d_k$ 继续增大时，各行趋近 one-hot，熵趋近 0，softmax 的梯度趋于消失（笔记 002）。",
    },
    "quiz.entropy_scaling.explain_on": {
        "en": "Dividing by $\\sqrt{{d_k}}$ keeps the variance of the scores at 1 for any $d_k$, so the weights "
              "look alike at {a} and {b}: that is why the scaling is there.",
        "zh": "除以 $\\sqrt{{d_k}}$ 使分数的方差对任何 $d_k$ 都保持为 1，因此 $d_k$ = {a} 和 {b} 时的权重分布相似：这正是缩放的目的。",
    },
    "quiz.entropy_scaling.opt_falls": {
        "en": "It falls: each row concentrates its weight on fewer keys",
        "zh": "下降：每行把权重集中到更少的键上",
    },
    "quiz.entropy_scaling.opt_rises": {
        "en": "It rises towards ln {n}: the weights spread out",
        "zh": "升向 ln {n}：权重变得分散",
    },
    "quiz.entropy_scaling.opt_same": {"en": "It stays about the same", "zh": "大致保持不变"},
    "quiz.entropy_scaling.opt_uniform": {
        "en": "It becomes exactly ln {n}: all weights equal",
        "zh": "恰好变为 ln {n}：所有权重相等",
    },
    "quiz.entropy_scaling.why_falls_off": {
        "en": "Right: unscaled scores grow like $\\sqrt{{d_k}}$, and the softmax makes the rows peakier (one-hot in the limit).",
        "zh": "对：未缩放的分数按 $\\sqrt{{d_k}}$ 增长，softmax 使各行更尖锐（极限情况下成为 one-hot）。",
    },
    "quiz.entropy_scaling.why_falls_on": {
        "en": "That happens without the scaling; dividing by $\\sqrt{{d_k}}$ prevents it.",
        "zh": "没有缩放时才会这样；除以 $\\sqrt{{d_k}}$ 正是为了防止它。",
    },
    "quiz.entropy_scaling.why_rises_off": {
        "en": "The opposite: larger scores make softmax sharper, not flatter.",
        "zh": "恰好相反：分数越大，softmax 越尖锐，而不是越平坦。",
    },
    "quiz.entropy_scaling.why_rises_on": {
        "en": "With the scaling the spread of the scores does not change with $d_k$, so the weights do not "
              "flatten.",
        "zh": "有缩放时分数的分布范围不随 $d_k$ 变化，权重不会变平。",
    },
    "quiz.entropy_scaling.why_same_off": {
        "en": "It would, with the scaling. Without it the scores' variance grows with $d_k$.",
        "zh": "有缩放时才会如此。没有缩放，分数的方差随 $d_k$ 增长。",
    },
    "quiz.entropy_scaling.why_same_on": {
        "en": "Right: the scaled scores keep variance 1 whatever $d_k$ is.",
        "zh": "对：缩放后的分数无论 $d_k$ 多大都保持方差 1。",
    },
    "quiz.entropy_scaling.why_uniform_off": {
        "en": "Equal weights need equal scores; larger random scores are further from equal.",
        "zh": "权重相等需要分数相等；更大的随机分数离相等更远。",
    },
    "quiz.entropy_scaling.why_uniform_on": {
        "en": "Equal weights need equal scores; random queries and keys do not give them.",
        "zh": "权重相等需要分数相等；随机的查询和键不会给出相等的分数。",
    },
    # ---- permutation (choice)
    "quiz.permutation.prompt_plain": {
        "en": "Self-attention WITHOUT positional encoding and without a mask, on a sentence of {n} tokens. Swap "
              "the tokens {a} and {b} in the input. What happens to the output?",
        "zh": "不加位置编码、不加掩码的自注意力，句子有 {n} 个词元。把输入中的词元 {a} 和 {b} 对调。输出会怎样？",
    },
    "quiz.permutation.prompt_pe": {
        "en": "Self-attention WITH sinusoidal positional encoding added to the input, no mask, {n} tokens. Swap "
              "the tokens {a} and {b} (the encodings stay at their positions). What happens to the output?",
        "zh": "输入加上正弦位置编码的自注意力，不加掩码，{n} 个词元。把词元 {a} 和 {b} 对调（位置编码留在原位置）。输出会怎样？",
    },
    "quiz.permutation.prompt_causal": {
        "en": "Self-attention without positional encoding but WITH a causal mask, {n} tokens. Swap the tokens "
              "{a} and {b}. What happens to the output?",
        "zh": "不加位置编码但加因果掩码的自注意力，{n} 个词元。把词元 {a} 和 {b} 对调。输出会怎样？",
    },
    "quiz.permutation.explain_plain": {
        "en": "Attention without positions treats its keys as a set: every output row depends on its own token and "
        "on the set of all tokens. Swapping two inputs swaps the two output rows and changes nothing else.",
        "zh": "没有位置信息时，注意力把键当作一个集合：每个输出行只取决于自身词元和全部词元构成的集合。对调两个输入只会对调两个"
        "输出行，其余不变。",
    },
    "quiz.permutation.explain_pe": {
        "en": "The positional encoding stays with the position, so {a} and {b} now enter with other vectors "
        "(token + another position): every row sees changed keys and values, and the output changes beyond a swap. "
        "This is why the encoding is added.",
        "zh": "位置编码跟随位置不动，因此 {a} 和 {b} 带着不同的向量（词元 + 另一个位置）进入：每一行看到的键和值都变了，输出的"
        "变化不只是对调。这正是加位置编码的原因。",
    },
    "quiz.permutation.explain_causal": {
        "en": "A causal mask makes position matter: a row between {a} and {b} could see {a} before the swap and "
              "now sees {b}, so it changes too; rows before {a} and after {b} see the same set and stay the same.",
        "zh": "因果掩码使位置变得重要：位于 {a} 和 {b} 之间的行，对调前能看到 {a}，对调后看到的是 {b}，所以也变了；{a} 之前和 {b} 之后的行看到的集合相同，保持不变。",
    },
    "quiz.permutation.opt_swap": {
        "en": "Output rows {a} and {b} swap; nothing else changes",
        "zh": "输出的第 {a} 行与第 {b} 行对调，其余不变",
    },
    "quiz.permutation.opt_same": {"en": "The output does not change at all", "zh": "输出完全不变"},
    "quiz.permutation.opt_only_ab": {
        "en": "Only rows {a} and {b} get new values (not a plain swap); other rows stay",
        "zh": "只有第 {a} 行和第 {b} 行得到新值（不是简单对调），其他行不变",
    },
    "quiz.permutation.opt_other": {
        "en": "Other rows change too, beyond a swap of rows {a} and {b}",
        "zh": "除了第 {a}、{b} 行之外，其他行也会改变",
    },
    "quiz.permutation.why_swap_plain": {
        "en": "Right: without positions, attention is permutation-equivariant.",
        "zh": "对：没有位置信息时，注意力对排列是等变的。",
    },
    "quiz.permutation.why_swap_pe": {
        "en": "That holds without positional encoding; with it the tokens carry their positions.",
        "zh": "没有位置编码时才如此；加上位置编码后词元带有位置信息。",
    },
    "quiz.permutation.why_swap_causal": {
        "en": "The mask depends on positions: a row between {a} and {b} sees a different set after the swap.",
        "zh": "掩码依赖于位置：{a} 与 {b} 之间的行在对调后看到的集合不同。",
    },
    "quiz.permutation.why_same_plain": {
        "en": "Rows {a} and {b} belong to different tokens now: the two rows trade places.",
        "zh": "第 {a} 行和第 {b} 行现在属于不同的词元：两行会交换位置。",
    },
    "quiz.permutation.why_same_pe": {
        "en": "With positional encoding the order matters; the output changes.",
        "zh": "有位置编码时顺序很重要；输出会改变。",
    },
    "quiz.permutation.why_same_causal": {
        "en": "With a causal mask the order matters; the output changes.",
        "zh": "有因果掩码时顺序很重要；输出会改变。",
    },
    "quiz.permutation.why_only_ab_plain": {
        "en": "Without positions the new rows are exactly the old ones, swapped.",
        "zh": "没有位置信息时，新的两行恰好是旧的两行对调。",
    },
    "quiz.permutation.why_only_ab_pe": {
        "en": "Every row attends to {a} and {b}, whose inputs changed: every row can change.",
        "zh": "每一行都关注 {a} 和 {b}，而它们的输入变了：每一行都可能改变。",
    },
    "quiz.permutation.why_only_ab_causal": {
        "en": "The rows between {a} and {b} change too: they could see {a} and now see {b}.",
        "zh": "{a} 与 {b} 之间的行也会变：它们原来看到 {a}，现在看到 {b}。",
    },
    "quiz.permutation.why_other_plain": {
        "en": "Every other row sees the same set of keys and values, so it stays.",
        "zh": "其他每一行看到的键和值的集合都相同，所以不变。",
    },
    "quiz.permutation.why_other_pe": {
        "en": "Right: token + position changes for {a} and {b}, and every row sees them.",
        "zh": "对：{a} 和 {b} 的“词元 + 位置”变了，而每一行都能看到它们。",
    },
    "quiz.permutation.why_other_causal": {
        "en": "Right: the causal mask makes the rows between {a} and {b} see a different set.",
        "zh": "对：因果掩码使 {a} 与 {b} 之间的行看到不同的集合。",
    },
    # ---- positional encoding wavelength (typed number)
    "quiz.pe_wavelength.prompt": {
        "en": "Sinusoidal positional encoding, $d_\\text{{model}}$ = {d}, base {base}: dimensions {i0} and {i1} "
              "are sin and cos(pos / {base}^(2·{j}/{d})). Type their wavelength in positions (1 decimal).",
        "zh": "正弦位置编码，$d_\\text{{model}}$ = {d}，底数 {base}：第 {i0}、{i1} 维为 sin 和 cos(pos / "
              "{base}^(2·{j}/{d}))。请输入它们的波长（以位置计，保留 1 位小数）。",
    },
    "quiz.pe_wavelength.explain": {
        "en": "The angle grows by 1 / {base}^(2·{j}/{d}) = 1 / {freq} per position; a full turn is 2π, so the "
        "wavelength is 2π · {freq} = {answer} positions (note 003).",
        "zh": "角度每个位置增加 1 / {base}^(2·{j}/{d}) = 1 / {freq}；转一整圈是 2π，所以波长为 2π · {freq} = {answer} "
        "个位置（笔记 003）。",
    },
    "quiz.pe_wavelength.trap_no_2pi": {
        "en": "That is {base}^(2j/d) alone: one full period of sin is 2π, multiply by it.",
        "zh": "这只是 {base}^(2j/d)：sin 的一个完整周期是 2π，还要乘以 2π。",
    },
    "quiz.pe_wavelength.trap_j": {
        "en": "The exponent is 2j/$d_\\text{{model}}$ (the pair's first dimension over $d_\\text{{model}}$), not "
              "j/$d_\\text{{model}}$.",
        "zh": "指数是 2j/$d_\\text{{model}}$（这一对的第一个维度除以 $d_\\text{{model}}$），而不是 j/$d_\\text{{model}}$。",
    },
    "quiz.pe_wavelength.trap_cos": {
        "en": "The cos dimension 2j+1 uses the same frequency as its sin partner 2j: the exponent is 2j/d, not (2j+1)/d.",
        "zh": "cos 维（2j+1）与其配对的 sin 维（2j）使用相同的频率：指数是 2j/d，而不是 (2j+1)/d。",
    },
    # ---- note 001's Q entries (typed number)
    "quiz.note001_entry.prompt": {
        "en": "Note 001's worked example: row {r} of X is {row} and column {c} of $W_{{{head}}}^Q$ is {col}. The "
              "note writes $Q_{{{head}}}[{r},{c}]$ = {note}. Compute the entry yourself and type it.",
        "zh": "笔记 001 的算例：X 的第 {r} 行是 {row}，$W_{{{head}}}^Q$ 的第 {c} 列是 {col}。笔记写 $Q_{{{head}}}[{r},{c}]$ = "
              "{note}。请自己计算这个元素并输入。",
    },
    "quiz.note001_entry.explain": {
        "en": "$Q_{{{head}}}[{r},{c}]$ = {products} = {answer}, not the note's {note} (⟦errata:n001_q⟧; "
              "⟦page:worked⟧ computes both matrices).",
        "zh": "$Q_{{{head}}}[{r},{c}]$ = {products} = {answer}，而不是笔记的 {note}（⟦errata:n001_q⟧；⟦page:worked⟧ "
              "给出了两个矩阵的计算结果）。",
    },
    "quiz.note001_entry.trap_note": {
        "en": "{note} is the note's number (⟦errata:n001_q⟧): multiply the row by the column yourself.",
        "zh": "{note} 是笔记中的数（⟦errata:n001_q⟧）：请自己把这一行和这一列相乘。",
    },
    # ---- spot the note's error (choice)
    "quiz.note_error.prompt": {
        "en": "Three of these statements from the lecture notes are true. Which one is wrong?",
        "zh": "下面几条出自笔记的说法中有三条是对的。哪一条是错的？",
    },
    "quiz.note_error.explain": {
        "en": "Not every shape, count or claim of the notes holds, even where it looks routine: compare each "
              "statement with the numbers the app computes. ⟦page:errata⟧ lists every such place.",
        "zh": "笔记中的形状、计数和论断并非都成立，即使看起来理所当然也一样：每一条都要与本应用计算出的数值对照。⟦page:errata⟧ 列出了每一处。",
    },
    "quiz.note_error.claim_q1": {
        "en": "Note 001: Q_1 = X W_1^Q = [[0.85, −0.05], [−0.29, 0.74]]",
        "zh": "笔记 001：Q_1 = X W_1^Q = [[0.85, −0.05], [−0.29, 0.74]]",
    },
    "quiz.note_error.claim_params3": {
        "en": "Note 001: multi-head attention has 3 d_model² parameters, the same as single-head",
        "zh": "笔记 001：多头注意力有 3 d_model² 个参数，与单头相同",
    },
    "quiz.note_error.claim_orthogonal": {
        "en": "Note 001: the h heads are h orthogonal subspaces",
        "zh": "笔记 001：h 个头是 h 个正交子空间",
    },
    "quiz.note_error.claim_blockdiag": {
        "en": "Note 004: Q^all = X · BlockDiag(W_1^Q, …, W_h^Q): each input dimension feeds only one head",
        "zh": "笔记 004：Q^all = X · BlockDiag(W_1^Q, …, W_h^Q)：每个输入维度只贡献给一个头",
    },
    "quiz.note_error.claim_dk": {
        "en": "Notes 001/002: d_k = d_v = d_model / h (64 for d_model = 512, h = 8)",
        "zh": "笔记 001/002：d_k = d_v = d_model / h（d_model = 512、h = 8 时为 64）",
    },
    "quiz.note_error.claim_cost": {
        "en": "Note 001: over all heads, Q Kᵀ costs O(n² d_model), the same as one head of width d_model",
        "zh": "笔记 001：所有头合起来，Q Kᵀ 的计算量为 O(n² d_model)，与维度为 d_model 的单头相同",
    },
    "quiz.note_error.claim_wo": {
        "en": "Notes 002/004: W^O ∈ ℝ^(h·d_v × d_model)",
        "zh": "笔记 002/004：W^O ∈ ℝ^(h·d_v × d_model)",
    },
    "quiz.note_error.claim_scores": {
        "en": "Note 002: the scores of a batch have shape B × h × T × T (32 × 8 × 20 × 20)",
        "zh": "笔记 002：一个批量的分数形状为 B × h × T × T（32 × 8 × 20 × 20）",
    },
    "quiz.note_error.claim_free": {
        "en": "Note 004: the parameter count 4 d_model² does not depend on h",
        "zh": "笔记 004：参数量 4 d_model² 与 h 无关",
    },
    "quiz.note_error.claim_scale": {
        "en": "Note 002: the factor √d_k keeps large dot products from making the gradients vanish",
        "zh": "笔记 002：缩放因子 √d_k 用于防止点积过大导致梯度消失",
    },
    "quiz.note_error.why_q1": {
        "en": "Wrong: ⟦errata:n001_q⟧.",
        "zh": "错：⟦errata:n001_q⟧。",
    },
    "quiz.note_error.why_params3": {
        "en": "Wrong: ⟦errata:n001_params⟧.",
        "zh": "错：⟦errata:n001_params⟧。",
    },
    "quiz.note_error.why_orthogonal": {
        "en": "Wrong: ⟦errata:n001_orth⟧.",
        "zh": "错：⟦errata:n001_orth⟧。",
    },
    "quiz.note_error.why_blockdiag": {
        "en": "Wrong: ⟦errata:n004_blockdiag⟧.",
        "zh": "错：⟦errata:n004_blockdiag⟧。",
    },
    "quiz.note_error.why_dk": {
        "en": "True: $d_k$ = $d_\\text{{model}}$ / h = 512 / 8 = 64 is the dimension of each head's output (what a "
              "head reads: ⟦errata:n000_split⟧).",
        "zh": "对：$d_k$ = $d_\\text{{model}}$ / h = 512 / 8 = 64 是每个头输出的维度（一个头读取什么：⟦errata:n000_split⟧）。",
    },
    "quiz.note_error.why_cost": {
        "en": "True: h heads of L · L · $d_k$ multiplications each make L · L · $d_\\text{{model}}$.",
        "zh": "对：h 个头各 L · L · $d_k$ 次乘法，合计 L · L · $d_\\text{{model}}$。",
    },
    "quiz.note_error.why_wo": {
        "en": "True: $W^O$ takes the h · $d_v$ = $d_\\text{{model}}$ concatenated columns back to "
              "$d_\\text{{model}}$.",
        "zh": "对：$W^O$ 把拼接后的 h · $d_v$ = $d_\\text{{model}}$ 列映射回 $d_\\text{{model}}$。",
    },
    "quiz.note_error.why_scores": {
        "en": "True: one T × T score matrix per head and per sequence.",
        "zh": "对：每个序列的每个头各有一个 T × T 的分数矩阵。",
    },
    "quiz.note_error.why_free": {
        "en": "True: h · $d_\\text{{model}}$ · ($d_\\text{{model}}$ / h) = $d_\\text{{model}}^2$ per matrix, "
              "four matrices.",
        "zh": "对：每个矩阵 h · $d_\\text{{model}}$ · ($d_\\text{{model}}$ / h) = $d_\\text{{model}}^2$，共四个矩阵。",
    },
    "quiz.note_error.why_scale": {
        "en": "True: with unit-variance entries q·k has variance $d_k$, so the dot products still grow with $d_k$; "
              "the scaled score q·k / $\\sqrt{{d_k}}$ keeps variance 1, so the softmax does not saturate, where its "
              "gradients would vanish.",
        "zh": "对：各元素方差为 1 时，q·k 的方差为 $d_k$，点积仍随 $d_k$ 增大；缩放后的分数 q·k / $\\sqrt{{d_k}}$ 方差保持为 1，softmax "
              "不会饱和，而饱和时它的梯度会趋于消失。",
    },
    # ---- the stacked W^Q (typed shape)
    "quiz.stacked_wq.prompt": {
        "en": "$d_\\text{{model}}$ = {d}, h = {h}, so each $W_i^Q$ is {d} × {dk}. $Q^\\text{{all}}$ = X $W^Q$ computes all "
              "heads' queries at once (X is L × {d}). Type the shape of $W^Q$.",
        "zh": "$d_\\text{{model}}$ = {d}，h = {h}，所以每个 $W_i^Q$ 是 {d} × {dk}。$Q^\\text{{all}}$ = X $W^Q$ 一次算出所有头的查询（X 为 L × "
              "{d}）。请输入 $W^Q$ 的形状。",
    },
    "quiz.stacked_wq.explain": {
        "en": "$W^Q$ = [$W_1^Q$ | … | $W_h^Q$]: {h} blocks of {d} × {dk} side by side, {d} × {d} (note 004 stacks "
              "them otherwise: ⟦errata:n004_stack⟧).",
        "zh": "$W^Q$ = [$W_1^Q$ | … | $W_h^Q$]：{h} 块 {d} × {dk} 左右并排，共 {d} × {d}（笔记 004 "
              "的堆叠方式不同：⟦errata:n004_stack⟧）。",
    },
    "quiz.stacked_wq.trap_blockdiag": {
        "en": "That is the shape of note 004's BlockDiag($W_1^Q$, …, $W_h^Q$) (⟦errata:n004_blockdiag⟧): it would "
              "need X to be h · $d_\\text{{model}}$ = {h} · {d} wide.",
        "zh": "这是笔记 004 的 BlockDiag($W_1^Q$, …, $W_h^Q$) 的形状（⟦errata:n004_blockdiag⟧）：它要求 X 有 h · "
              "$d_\\text{{model}}$ = {h} · {d} 维。",
    },
    "quiz.stacked_wq.trap_one": {
        "en": "That is one head's $W_i^Q$; $W^Q$ holds all heads.",
        "zh": "这是一个头的 $W_i^Q$；$W^Q$ 包含所有头。",
    },
    "quiz.stacked_wq.trap_stack": {
        "en": "A stack of {h} matrices is the per-head view; as one matrix multiplying X it is {d} × ({h} · "
              "{dk}).",
        "zh": "{h} 个矩阵堆叠是分头视图；作为与 X 相乘的一个矩阵，它是 {d} × ({h} · {dk})。",
    },
    # ---- note 002's shapes (typed shape)
    "quiz.note002_shape.prompt_q": {
        "en": "Note 002's flow: B = {B} sequences, T = {T} tokens, $d_\\text{{model}}$ = {d}, h = {h}. Type the "
              "shape of Q = X $W^Q$ (one fused $W^Q$, before splitting into heads).",
        "zh": "笔记 002 的流程：B = {B} 个序列，T = {T} 个词元，$d_\\text{{model}}$ = {d}，h = {h}。请输入 Q = X $W^Q$ 的形状（一个融合的 "
              "$W^Q$，拆分成头之前）。",
    },
    "quiz.note002_shape.prompt_q_split": {
        "en": "Note 002's flow: B = {B}, T = {T}, $d_\\text{{model}}$ = {d}, h = {h}. Type the shape of Q after "
              "the reshape and transpose into heads.",
        "zh": "笔记 002 的流程：B = {B}，T = {T}，$d_\\text{{model}}$ = {d}，h = {h}。请输入 Q 经重塑（reshape）和转置拆分成头之后的形状。",
    },
    "quiz.note002_shape.prompt_scores": {
        "en": "Note 002's flow: B = {B}, T = {T}, $d_\\text{{model}}$ = {d}, h = {h}. Type the shape of the "
              "scores $QK^\\top / \\sqrt{{d_k}}$ of all heads.",
        "zh": "笔记 002 的流程：B = {B}，T = {T}，$d_\\text{{model}}$ = {d}，h = {h}。请输入所有头的分数 $QK^\\top / \\sqrt{{d_k}}$ "
              "的形状。",
    },
    "quiz.note002_shape.prompt_head_out": {
        "en": "Note 002's flow: B = {B}, T = {T}, $d_\\text{{model}}$ = {d}, h = {h}. Type the shape of the "
              "heads' outputs (weights · V), before the concatenation.",
        "zh": "笔记 002 的流程：B = {B}，T = {T}，$d_\\text{{model}}$ = {d}，h = {h}。请输入各头输出（权重 · V）在拼接之前的形状。",
    },
    "quiz.note002_shape.prompt_concat": {
        "en": "Note 002's flow: B = {B}, T = {T}, $d_\\text{{model}}$ = {d}, h = {h}. Type the shape of the "
              "concatenation of the heads.",
        "zh": "笔记 002 的流程：B = {B}，T = {T}，$d_\\text{{model}}$ = {d}，h = {h}。请输入各头拼接后的形状。",
    },
    "quiz.note002_shape.why_q": {
        "en": "A $d_\\text{{model}}$ × $d_\\text{{model}}\\ W^Q$ keeps the width: B × T × $d_\\text{{model}}$ = "
              "{shape}.",
        "zh": "$d_\\text{{model}}$ × $d_\\text{{model}}$ 的 $W^Q$ 保持维度不变：B × T × $d_\\text{{model}}$ = {shape}。",
    },
    "quiz.note002_shape.why_q_split": {
        "en": "[B, T, $d_\\text{{model}}$] → [B, T, h, $d_k$] → transpose(1, 2) → [B, h, T, $d_k$] = {shape}, "
              "$d_k$ = {d} / {h} = {dk}.",
        "zh": "[B, T, $d_\\text{{model}}$] → [B, T, h, $d_k$] → transpose(1, 2) → [B, h, T, $d_k$] = "
              "{shape}，$d_k$ = {d} / {h} = {dk}。",
    },
    "quiz.note002_shape.why_scores": {
        "en": "One T × T matrix per sequence and per head: B × h × T × T = {shape}.",
        "zh": "每个序列、每个头各一个 T × T 矩阵：B × h × T × T = {shape}。",
    },
    "quiz.note002_shape.why_head_out": {
        "en": "(T × T)(T × $d_k$) per sequence and head: B × h × T × $d_k$ = {shape}, all heads (one head alone: "
              "⟦errata:n002_head⟧).",
        "zh": "每个序列、每个头 (T × T)(T × $d_k$)：B × h × T × $d_k$ = {shape}，这是全部的头（单独一个头：⟦errata:n002_head⟧）。",
    },
    "quiz.note002_shape.why_concat": {
        "en": "transpose(1, 2) then reshape(B, T, h · $d_k$): {shape}.",
        "zh": "先 transpose(1, 2) 再 reshape(B, T, h · $d_k$)：{shape}。",
    },
    "quiz.note002_shape.trap_no_transpose": {
        "en": "That is the reshape before the transpose: the heads come second, [B, h, T, $d_k$].",
        "zh": "这是转置之前重塑（reshape）的结果：头这一维应排在第二位，[B, h, T, $d_k$]。",
    },
    "quiz.note002_shape.trap_scores": {
        "en": "That is the shape of the scores (and of the weights).",
        "zh": "这是分数（以及注意力权重）的形状。",
    },
    "quiz.note002_shape.trap_no_heads": {
        "en": "The heads' dimension is missing: every head has its own T × T scores.",
        "zh": "少了头这一维：每个头都有自己的 T × T 分数。",
    },
    "quiz.note002_shape.trap_split": {
        "en": "That is Q, K or V split into heads (and the heads' outputs).",
        "zh": "这是拆分成头之后的 Q、K 或 V（以及各头输出）的形状。",
    },
    "quiz.note002_shape.trap_no_batch": {
        "en": "The batch dimension B is missing.",
        "zh": "少了批量这一维 B。",
    },
}
