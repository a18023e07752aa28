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
}
