"""Lessons: the self-paced lesson page and bar, the printed handout, and the messages about a bad lesson file.
The lessons' own texts are not here: they are data, in lessons/*.toml (English and Chinese side by side)."""

STRINGS: dict[str, dict[str, str]] = {
    # ---- where a problem is
    "lesson.err.where_line": {"en": "{file}, line {line}: ", "zh": "{file} 第 {line} 行："},
    "lesson.err.where": {"en": "{file}: ", "zh": "{file}："},
    "lesson.err.in_stop": {"en": "stop {stop}: ", "zh": "第 {stop} 站："},
    # ---- what is wrong
    "lesson.err.too_big": {
        "en": "the file is larger than {limit} KB; a lesson is much smaller.",
        "zh": "文件超过 {limit} KB；一节课的文件应当小得多。",
    },
    "lesson.err.encoding": {
        "en": "the file is not UTF-8 text. Save it as UTF-8.",
        "zh": "文件不是 UTF-8 文本。请以 UTF-8 编码保存。",
    },
    "lesson.err.unreadable": {"en": "the file cannot be read.", "zh": "无法读取该文件。"},
    "lesson.err.toml": {
        "en": "this is not valid TOML ({detail}).",
        "zh": "这不是有效的 TOML（{detail}）。",
    },
    "lesson.err.type": {
        "en": "“{field}” should be {expected}.",
        "zh": "“{field}”应当是{expected}。",
    },
    "lesson.err.unknown_key": {
        "en": "“{field}” is not a known field here. Allowed here: {allowed}.",
        "zh": "此处不能有“{field}”这个字段。此处允许的字段：{allowed}。",
    },
    "lesson.err.missing": {"en": "“{field}” is missing.", "zh": "缺少“{field}”。"},
    "lesson.err.missing_lang": {
        "en": "“{field}” has no {language} text. Every text needs en and zh.",
        "zh": "“{field}”缺少{language}文本。每段文字都需要 en 和 zh 两种语言。",
    },
    "lesson.err.empty_text": {"en": "the {language} text of “{field}” is empty.", "zh": "“{field}”的{language}文本为空。"},
    "lesson.err.too_long": {
        "en": "a text of “{field}” is longer than {limit} characters.",
        "zh": "“{field}”的文本超过 {limit} 个字符。",
    },
    "lesson.err.latex": {
        "en": "“{field}” contains “$”: lesson texts are markdown without LaTeX (the printed handout has no formula renderer). Write d_k, Q Kᵀ, √d_k as plain text.",
        "zh": "“{field}”中含有“$”：课程文本是不含 LaTeX 的 markdown（打印材料无法渲染公式）。请把 d_k、Q Kᵀ、√d_k 写成普通文本。",
    },
    "lesson.err.unknown_erratum": {
        "en": "“{field}” cites the erratum “{erratum}”, which the app does not have. Errata: {allowed}.",
        "zh": "“{field}”引用了勘误“{erratum}”，但应用中没有这条勘误。现有勘误：{allowed}。",
    },
    "lesson.err.unknown_page_cited": {
        "en": "“{field}” cites the page “{page}”, which the app does not have. Pages: {allowed}.",
        "zh": "“{field}”引用了页面“{page}”，但应用中没有这个页面。现有页面：{allowed}。",
    },
    "lesson.err.copied_title": {
        "en": "“{field}” names {what} by its title (“{title}”): cite it by key, as {marker}, and the reader gets "
              "its current title as a link.",
        "zh": "“{field}”用标题（“{title}”）指代{what}：请用键引用，写作 {marker}，读者会看到它当前的标题和链接。",
    },
    "lesson.err.uncited": {
        "en": "“{field}” points to the errata (“{words}”) without citing one: cite the entry ({erratum}) or the page "
              "({page}) by key.",
        "zh": "“{field}”提到勘误（“{words}”）却没有引用：请按键引用具体的勘误（{erratum}）或勘误页面（{page}）。",
    },
    "lesson.what.page": {"en": "a page", "zh": "一个页面"},
    "lesson.what.erratum": {"en": "an erratum", "zh": "一条勘误"},
    "lesson.err.bad_id": {
        "en": "the id “{value}” should be 1 to 32 lowercase letters, digits and hyphens.",
        "zh": "标识“{value}”应由 1 到 32 个小写字母、数字和连字符组成。",
    },
    "lesson.err.duplicate_stop": {
        "en": "the stop id “{id}” is used twice in this lesson.",
        "zh": "站点标识“{id}”在本课中出现了两次。",
    },
    "lesson.err.duplicate_lesson": {
        "en": "the lesson id “{id}” is already taken by {other}; this file was not loaded.",
        "zh": "课程标识“{id}”已被 {other} 使用；本文件未载入。",
    },
    "lesson.err.unknown_page": {
        "en": "there is no page “{page}”. Pages: {pages}.",
        "zh": "没有名为“{page}”的页面。可用页面：{pages}。",
    },
    "lesson.err.minutes": {
        "en": "minutes = {value} should be more than 0 and at most {high}.",
        "zh": "minutes = {value} 应大于 0 且不超过 {high}。",
    },
    "lesson.err.step_page": {
        "en": "a step belongs to the page “steps”, not “{page}”.",
        "zh": "step 只适用于页面“steps”，不适用于“{page}”。",
    },
    "lesson.err.step_range": {
        "en": "step = {step} should be between 1 and {high}.",
        "zh": "step = {step} 应在 1 到 {high} 之间。",
    },
    "lesson.err.unknown_setting": {
        "en": "“{field}” is not a setting. Settings: {allowed}.",
        "zh": "“{field}”不是一项设置。可用设置：{allowed}。",
    },
    "lesson.err.setting_type": {
        "en": "the setting “{field}” should be {expected}.",
        "zh": "设置“{field}”应当是{expected}。",
    },
    "lesson.err.setting_choice": {
        "en": "the setting “{field}” = “{value}” is not one of: {choices}.",
        "zh": "设置“{field}” = “{value}”不在可选值之中：{choices}。",
    },
    "lesson.err.bad_setting": {
        "en": "the settings cannot be used: {problem}",
        "zh": "这些设置无法使用：{problem}",
    },
    "lesson.err.worked_fixed": {
        "en": "the worked example (preset “worked”) has fixed sizes and inputs: “{field}” cannot be changed there.",
        "zh": "算例（预设“worked”）的尺寸和输入是固定的：不能在此修改“{field}”。",
    },
    "lesson.err.unknown_kind": {
        "en": "there is no quiz kind “{kind}”. Kinds: {kinds}.",
        "zh": "题库中没有“{kind}”这类题目。可用类型：{kinds}。",
    },
    "lesson.err.kind_unfit": {
        "en": "the quiz kind “{kind}” has no question on this stop's setting (a mask question needs that mask, a “which key” question a clear winner). Choose another kind or change the stop's settings.",
        "zh": "在本站的设置下，“{kind}”类题目出不了题（掩码题需要相应的掩码，“哪个键”题需要有明显胜出的键）。请换一种题型，或修改本站的设置。",
    },
    "lesson.err.seed_range": {
        "en": "seed = {seed} should be between 0 and {high}.",
        "zh": "seed = {seed} 应在 0 到 {high} 之间。",
    },
    "lesson.err.no_stops": {"en": "the lesson has no stops.", "zh": "本课没有任何站点。"},
    "lesson.err.no_objectives": {"en": "the lesson has no objectives.", "zh": "本课没有列出学习目标。"},
    "lesson.err.too_many_stops": {
        "en": "the lesson has more than {limit} stops.",
        "zh": "本课的站点超过 {limit} 个。",
    },
    "lesson.lang.en": {"en": "English (en)", "zh": "英文（en）"},
    "lesson.lang.zh": {"en": "Chinese (zh)", "zh": "中文（zh）"},
    # ---- types, as the messages above name them
    "lesson.type.string": {"en": "a text in quotes", "zh": "带引号的文本"},
    "lesson.type.int": {"en": "a whole number", "zh": "整数"},
    "lesson.type.number": {"en": "a number", "zh": "数字"},
    "lesson.type.bool": {"en": "true or false", "zh": "true 或 false"},
    "lesson.type.table": {"en": "a table { ... }", "zh": "表 { ... }"},
    "lesson.type.list": {"en": "a list [ ... ]", "zh": "列表 [ ... ]"},
    "lesson.type.text": {
        "en": "a table with an English and a Chinese text: { en = \"...\", zh = \"...\" }",
        "zh": "包含英文和中文文本的表：{ en = \"...\", zh = \"...\" }",
    },
    # ---- the lesson page (app_pages/lesson.py) and the lesson bar around a stop's page (ui/lesson_bar.py)
    "page.lesson": {"en": "Lessons", "zh": "课程"},
    "lesson.title": {"en": "Lessons", "zh": "课程"},
    "lesson.title_of": {"en": "Lessons: {title}", "zh": "课程：{title}"},
    "lesson.intro": {
        "en": "A lesson walks you through the app's pages in order, each stop at its own setting, with what to look at and a checkpoint question now and then. Your place and your answers stay in the link: a reload, or the link opened later, brings you back.",
        "zh": "每节课按顺序带你浏览本应用的页面，每一站都有自己的设置，并说明要看什么，不时还有一道检查题。你的进度和答案都保存在链接里：刷新页面或之后再打开这个链接，都会回到原处。",
    },
    "lesson.unknown": {
        "en": "There is no lesson “{id}”. Choose one below.",
        "zh": "没有名为“{id}”的课程。请在下方选择一节课。",
    },
    "lesson.facts": {
        "en": "{stops} stops · about {minutes} minutes · {questions} checkpoint questions",
        "zh": "{stops} 站 · 约 {minutes} 分钟 · {questions} 道检查题",
    },
    "lesson.open": {"en": "Open the lesson", "zh": "打开这节课"},
    "lesson.file_errors": {"en": "Lesson files that could not be loaded ({n})", "zh": "无法载入的课程文件（{n} 个）"},
    "lesson.objectives": {"en": "You will be able to", "zh": "学完本课你将能够"},
    "lesson.where": {
        "en": "You were at stop {n} of {total}. Checkpoints revealed: {done} of {asked}, {right} right.",
        "zh": "你上次停在第 {n} 站（共 {total} 站）。已揭晓的检查题：{done} / {asked}，答对 {right} 道。",
    },
    "lesson.start": {"en": "Start at stop 1", "zh": "从第 1 站开始"},
    "lesson.continue": {"en": "Continue at stop {n}", "zh": "从第 {n} 站继续"},
    "lesson.outline": {"en": "Outline", "zh": "课程大纲"},
    "lesson.col.stop": {"en": "stop", "zh": "站点"},
    "lesson.col.page": {"en": "page", "zh": "页面"},
    "lesson.col.minutes": {"en": "minutes", "zh": "分钟"},
    "lesson.col.checkpoint": {"en": "checkpoint", "zh": "检查题"},
    "lesson.mark.open": {"en": "not answered yet", "zh": "尚未作答"},
    "lesson.mark.revealed": {"en": "revealed, not right", "zh": "已揭晓，未答对"},
    "lesson.mark.right": {"en": "right", "zh": "答对"},
    "lesson.jump": {"en": "Go to a stop", "zh": "跳到某一站"},
    "lesson.go": {"en": "Go", "zh": "前往"},
    "lesson.all": {"en": "All lessons", "zh": "全部课程"},
    "lesson.handout": {"en": "Printable handout", "zh": "打印材料"},
    "lesson.handout_help": {
        "en": "One HTML file that works offline: every stop with its setting and figure, the checkpoint questions, and the answer key on a page of its own. Open it in a browser and print it, or save it as PDF.",
        "zh": "一个可离线使用的 HTML 文件：每一站的设置和图、检查题，以及单独成页的参考答案。用浏览器打开后即可打印，或另存为 PDF。",
    },
    "lesson.handout_notes": {"en": "Teacher's copy (with the speaker notes)", "zh": "教师版（含授课备注）"},
    "lesson.download": {"en": "Handout in {language}", "zh": "{language}版打印材料"},
    "lesson.stop_of": {"en": "stop {n} of {total} · {minutes} min", "zh": "第 {n} 站 / 共 {total} 站 · {minutes} 分钟"},
    "lesson.prev": {"en": "Previous stop", "zh": "上一站"},
    "lesson.next": {"en": "Next stop", "zh": "下一站"},
    "lesson.finish": {"en": "Finish", "zh": "完成"},
    "lesson.elsewhere": {
        "en": "This stop is on the page “{page}”. You are exploring another page; your place in the lesson is kept.",
        "zh": "这一站位于“{page}”页面。你正在浏览其他页面；课程进度会被保留。",
    },
    "lesson.back_to_stop": {"en": "Back to the stop ({page})", "zh": "回到这一站（{page}）"},
    "lesson.changed": {
        "en": "You changed the setting. The text of this stop is about its own setting.",
        "zh": "你修改了设置。这一站的说明针对的是它自己的设置。",
    },
    "lesson.restore": {"en": "Back to the stop's setting", "zh": "恢复这一站的设置"},
    "lesson.checkpoint_below": {
        "en": "This stop has a checkpoint question at the end of the page: [go to it](#checkpoint).",
        "zh": "这一站在页面末尾有一道检查题：[前往作答](#checkpoint)。",
    },
    "lesson.checkpoint": {"en": "Checkpoint", "zh": "检查题"},
    "lesson.checkpoint_n": {"en": "Checkpoint {n} of {total}", "zh": "检查题 {n} / {total}"},
    "lesson.checkpoint_setting": {
        "en": "Asked on this stop's setting: d_model = {d}, h = {h}, mask: {mask}.",
        "zh": "按这一站的设置出题：d_model = {d}，h = {h}，掩码：{mask}。",
    },
    # ---- the printable handout (lessons/handout.py)
    "handout.facts": {
        "en": "{stops} stops · {minutes} minutes · {questions} checkpoint questions",
        "zh": "{stops} 站 · {minutes} 分钟 · {questions} 道检查题",
    },
    "handout.teacher_copy": {"en": "Teacher's copy, with speaker notes", "zh": "教师版，含授课备注"},
    "handout.name": {"en": "Name:", "zh": "姓名："},
    "handout.objectives": {"en": "You will be able to", "zh": "学完本课你将能够"},
    "handout.stop": {"en": "Stop {n}: {title}", "zh": "第 {n} 站：{title}"},
    "handout.minutes": {"en": "({m} min)", "zh": "（{m} 分钟）"},
    "handout.page": {"en": "Page: {page}", "zh": "页面：{page}"},
    "handout.step": {"en": "step {n}", "zh": "第 {n} 步"},
    "handout.setting": {
        "en": "Setting: “{sentence}” (L = {L} tokens), d_model = {d}, h = {h}, d_k = {dk}, mask: {mask}, {pe}.",
        "zh": "设置：“{sentence}”（L = {L} 个词元），d_model = {d}，h = {h}，d_k = {dk}，掩码：{mask}，{pe}。",
    },
    "handout.pe_on": {"en": "positional encoding added", "zh": "已加位置编码"},
    "handout.pe_off": {"en": "no positional encoding", "zh": "未加位置编码"},
    "handout.same_figure": {"en": "The figure is the one of stop {n}.", "zh": "图与第 {n} 站相同。"},
    "handout.checkpoint": {"en": "Checkpoint {n}", "zh": "检查题 {n}"},
    "handout.answer": {"en": "Your answer:", "zh": "你的答案："},
    "handout.notes": {"en": "Speaker notes. ", "zh": "授课备注。"},
    "handout.key": {"en": "Answer key", "zh": "参考答案"},
    "handout.stop_ref": {"en": " (stop {n}): ", "zh": "（第 {n} 站）："},
    "handout.footer": {
        "en": "From the multi-head attention explorer: every number and figure is computed by the app at the stop's setting (seeded random weights).",
        "zh": "出自多头注意力探索器：所有数字和图都由应用按各站的设置计算得出（权重为固定种子的随机数）。",
    },
    "handout.col.tensor": {"en": "tensor", "zh": "张量"},
    "handout.col.shape": {"en": "shape", "zh": "形状"},
    "handout.col.here": {"en": "here", "zh": "本例"},
    "handout.col.params": {"en": "weights (4 d_model²)", "zh": "权重数（4 d_model²）"},
    "handout.col.max_rank": {"en": "largest rank of S_i", "zh": "S_i 的最大秩"},
    "handout.col.reachable": {"en": "keys that can win", "zh": "可能胜出的键数"},
    "handout.col.mults": {"en": "multiplications", "zh": "乘法次数"},
    "handout.col.exps": {"en": "exponentials", "zh": "指数运算次数"},
    "handout.col.bytes": {"en": "bytes of the scores", "zh": "注意力分数的字节数"},
    "handout.fig.x_in": {"en": "The layer's input X (+ P), one row per token", "zh": "层的输入 X（+ P），每个词元一行"},
    "handout.fig.q": {"en": "Q_i = X W_i^Q, one tile per head", "zh": "Q_i = X W_i^Q，每个头一张小图"},
    "handout.fig.scores": {"en": "Scaled scores S_i = Q_i K_iᵀ / √d_k (rows: queries, columns: keys)", "zh": "缩放后的注意力分数 S_i = Q_i K_iᵀ / √d_k（行：查询，列：键）"},
    "handout.fig.masked": {"en": "Masked scores: −∞ where a key is masked (grey cells)", "zh": "掩蔽后的注意力分数：被掩蔽的键为 −∞（灰色格子）"},
    "handout.fig.weights": {"en": "Attention weights A_i = softmax(S_i): each row sums to 1", "zh": "注意力权重 A_i = softmax(S_i)：每行之和为 1"},
    "handout.fig.head_outputs": {"en": "Each head's output head_i = A_i V_i", "zh": "每个头的输出 head_i = A_i V_i"},
    "handout.fig.concat": {"en": "Concat(head_1, …, head_h)", "zh": "Concat(head_1, …, head_h)"},
    "handout.fig.output": {"en": "The output Concat W^O", "zh": "输出 Concat W^O"},
    "handout.fig.pe": {"en": "Positional encoding P ({n} positions × {d} dimensions)", "zh": "位置编码 P（{n} 个位置 × {d} 个维度）"},
    "handout.fig.contributions": {"en": "Each head's contribution head_i W^O_i", "zh": "每个头的贡献 head_i W^O_i"},
    "handout.fig.w_q": {"en": "W^Q (d_model × d_model): columns 0 … {dk} − 1 are W_1^Q, the next {dk} are W_2^Q, …", "zh": "W^Q（d_model × d_model）：第 0 … {dk} − 1 列是 W_1^Q，接下来的 {dk} 列是 W_2^Q，依此类推"},
    "handout.axis.input": {"en": "rows: input dimension", "zh": "行：输入维度"},
    "handout.axis.query": {"en": "columns: query dimension of all heads", "zh": "列：所有头的查询维度"},
    "handout.axis.position": {"en": "rows: position", "zh": "行：位置"},
    "handout.axis.dimension": {"en": "columns: dimension", "zh": "列：维度"},
}
