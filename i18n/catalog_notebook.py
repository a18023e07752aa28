"""Strings of the notebook display (mha_notebook): a trace's steps, any model's heads, links to and from the app.

Plain text only (the display escapes it); `{name}` fields are filled by `t(key, lang, name=...)`.
"""

STRINGS: dict[str, dict[str, str]] = {
    # the page around the charts
    "nb.drawing": {
        "en": "The chart is drawn here when the notebook runs its JavaScript (a trusted notebook; run the cell again "
              "if it stays empty).",
        "zh": "笔记本运行其 JavaScript 时（受信任的笔记本），图会画在这里；若一直空白，请重新运行这个单元格。",
    },
    "nb.no_plotly": {
        "en": "plotly.js is not on this page: the output that brought it was cleared. Show the view again, or set "
              "mha_notebook.BUNDLE.every_view = True.",
        "zh": "此页面上没有 plotly.js：带有它的输出已被清除。请再次显示此视图，或设置 mha_notebook.BUNDLE.every_view = True。",
    },
    "nb.failed": {"en": "This chart could not be drawn.", "zh": "此图无法绘制。"},
    "nb.download_svg": {"en": "Download as SVG", "zh": "下载为 SVG"},
    "nb.csv_too_big": {
        "en": "The numbers of “{title}” are too many for a link here: read them from the view's arrays.",
        "zh": "“{title}”的数值太多，无法在此提供链接：请从视图的数组中读取。",
    },
    # a trace
    "nb.trace.title": {"en": "Multi-head attention, step by step", "zh": "多头注意力，逐步计算"},
    "nb.trace.sizes": {
        "en": "h = {h} heads of d_k = {dk}, d_model = {d}: {lq} queries, {lk} keys.",
        "zh": "h = {h} 个头，每个 d_k = {dk}，d_model = {d}：{lq} 个查询，{lk} 个键。",
    },
    "nb.trace.batch": {
        "en": "A batch of {b}: item {item} is shown (show(trace, batch=…) picks another).",
        "zh": "批量大小为 {b}：显示第 {item} 项（show(trace, batch=…) 可选其他项）。",
    },
    "nb.trace.gqa": {
        "en": "Grouped-query attention: g = {g} K/V heads, each shared by {r} query heads ({groups}).",
        "zh": "分组查询注意力：g = {g} 个 K/V 头，每个由 {r} 个查询头共享（{groups}）。",
    },
    "nb.trace.mqa": {
        "en": "Multi-query attention: one K/V head shared by all {h} query heads.",
        "zh": "多查询注意力：所有 {h} 个查询头共享一个 K/V 头。",
    },
    "nb.trace.group": {"en": "K/V {j}: heads {heads}", "zh": "K/V {j}：头 {heads}"},
    "nb.trace.masked": {
        "en": "{n} of {total} query–key pairs are masked (hatched in the maps; their weight is 0).",
        "zh": "{total} 个查询–键对中有 {n} 个被掩蔽（图中以斜线标出，其权重为 0）。",
    },
    "nb.trace.cache": {
        "en": "{lq} new queries against all {lk} keys so far (a KV cache keeps the earlier keys and values).",
        "zh": "{lq} 个新查询对比迄今为止的全部 {lk} 个键（键值缓存保存了之前的键和值）。",
    },
    "nb.trace.setting": {"en": "This setting in the app (README's first command serves it there):",
                         "zh": "在应用中打开此设置（README 的第一条命令在此地址运行应用）："},
    "nb.trace.rejected": {
        "en": "The link's parameters {names} are not valid and were left out, as the app leaves them out.",
        "zh": "链接参数 {names} 无效，已被忽略（与应用的处理相同）。",
    },
    "nb.scores": {"en": "Scores S_i = Q_i K_iᵀ / √d_k, per head", "zh": "每个头的分数 S_i = Q_i K_iᵀ / √d_k"},
    "nb.scores_unscaled": {"en": "Scores S_i = Q_i K_iᵀ (not scaled), per head",
                           "zh": "每个头的分数 S_i = Q_i K_iᵀ（未缩放）"},
    "nb.scores.text": {
        "en": "Each cell: how well a query row matches a key row, before the softmax and after the mask (and ALiBi's "
              "bias, when the layer has it). Its own colour scale, centred on 0.",
        "zh": "每个格子：查询行与键行的匹配程度，在 softmax 之前、掩码之后（若该层使用 ALiBi，也已加上其偏置）。色标以 0 为中心。",
    },
    "nb.weights": {"en": "Attention weights A_i = softmax(S_i), per head", "zh": "每个头的注意力权重 A_i = softmax(S_i)"},
    "nb.weights.text": {
        "en": "Each row sums to 1: how a query spreads its attention over the keys.",
        "zh": "每一行之和为 1：一个查询如何把注意力分配到各个键上。",
    },
    "nb.heads": {"en": "Head outputs head_i = A_i V_i", "zh": "每个头的输出 head_i = A_i V_i"},
    "nb.heads.text": {
        "en": "Each head's weighted average of its values: one row per query, d_k = {dk} columns.",
        "zh": "每个头对其值的加权平均：每个查询一行，共 d_k = {dk} 列。",
    },
    "nb.concat": {"en": "Concatenation Concat(head_1, …, head_h)", "zh": "拼接 Concat(head_1, …, head_h)"},
    "nb.concat.text": {
        "en": "The h = {h} head outputs side by side: h · d_k = {d} = d_model columns.",
        "zh": "把 h = {h} 个头的输出横向拼接：h · d_k = {d} = d_model 列。",
    },
    "nb.w_o": {"en": "Output projection W^O", "zh": "输出投影 W^O"},
    "nb.w_o.text": {
        "en": "d_model × d_model; rows (i−1)·d_k … i·d_k − 1 (counted from 0) are head i's block W^O_i.",
        "zh": "d_model × d_model；第 (i−1)·d_k 到 i·d_k − 1 行（从 0 开始数）是头 i 的块 W^O_i。",
    },
    "nb.output": {"en": "Output = Concat W^O", "zh": "输出 = Concat W^O"},
    "nb.output.text": {
        "en": "What the layer passes on: the sum over heads of head_i W^O_i (plus b^O when the layer has biases).",
        "zh": "该层传出的结果：各个头的 head_i W^O_i 之和（若该层有偏置，再加 b^O）。",
    },
    "nb.lines": {"en": "Token to token, every head", "zh": "词元到词元，所有头"},
    "nb.lines.text": {
        "en": "A line from a query (left) to a key (right) per head; stronger for a larger weight. Click a head in the "
              "legend to hide it.",
        "zh": "每个头从查询（左）到键（右）画一条线，权重越大线越粗。点击图例中的头可隐藏它。",
    },
    "nb.axis.dim": {"en": "dimension", "zh": "维度"},
    # any model's heads
    "nb.model.title": {
        "en": "Attention of {layers} layers × {h} heads, {n} tokens",
        "zh": "{layers} 层 × {h} 个头的注意力，{n} 个词元",
    },
    "nb.model.gqa": {
        "en": "Grouped-query attention: {g} K/V heads, each shared by {r} query heads (tiles say which).",
        "zh": "分组查询注意力：{g} 个 K/V 头，每个由 {r} 个查询头共享（见各图块的标题）。",
    },
    "nb.model.generated": {
        "en": "Tokens {first}–{last} were generated one at a time (a KV cache): their rows are the steps of the "
              "generation.",
        "zh": "词元 {first}–{last} 是逐个生成的（键值缓存）：它们的行就是生成的各个步骤。",
    },
    "nb.model.subset": {
        "en": "Layers {layers} and heads {heads} are shown (head_view(..., layers=…, heads=…) picks others).",
        "zh": "显示第 {layers} 层和第 {heads} 个头（head_view(..., layers=…, heads=…) 可选其他）。",
    },
    "nb.grid": {"en": "Every head of every layer", "zh": "每一层的每一个头"},
    "nb.grid.text": {
        "en": "One map per head: rows are queries, columns keys. Hover a cell for its weight.",
        "zh": "每个头一张图：行是查询，列是键。鼠标悬停在格子上可看到权重。",
    },
    "nb.tile": {"en": "L{layer} H{head}", "zh": "层{layer} 头{head}"},
    "nb.tile_kv": {"en": "L{layer} H{head} · K/V {kv}", "zh": "层{layer} 头{head} · K/V {kv}"},
    "nb.head": {"en": "Layer {layer}, head {head}", "zh": "第 {layer} 层，头 {head}"},
    "nb.head.text": {
        "en": "This head's weights with every token named (head_view(..., layer=…, head=…) picks another head).",
        "zh": "这个头的权重，标出每个词元（head_view(..., layer=…, head=…) 可选其他头）。",
    },
    "nb.model.lines": {"en": "Layer {layer}, head {head}: token to token",
                       "zh": "第 {layer} 层，头 {head}：词元到词元"},
    # the app's command (ui/launch.py)
    "launch.needs_app": {
        "en": "mha-explorer runs the app, which needs its packages: pip install 'mha-explorer[app]' (README).",
        "zh": "mha-explorer 运行应用，需要应用的依赖包：pip install 'mha-explorer[app]'（见 README）。",
    },
    # links and errors
    "nb.error.setting": {
        "en": "This setting cannot be computed: {problems}",
        "zh": "无法计算此设置：{problems}",
    },
    "nb.error.not_a_setting": {
        "en": "This trace was not made from a setting of the app, so no link opens it there. Make it with "
              "mha_notebook.explore(...) (or open_link) to get a link.",
        "zh": "此轨迹不是由应用的设置生成的，因此没有链接能在应用中打开它。请用 mha_notebook.explore(...)（或 open_link）生成，以获得链接。",
    },
    "nb.error.not_in_app": {
        "en": "The app would open this setting with other values of {fields} (the worked example fixes its sentence "
              "and sizes, the real model its sizes and self-attention, chosen tokens lie within the sentence, the "
              "second sentences count only with their switch): give the values the app uses.",
        "zh": "应用会以不同的 {fields} 打开此设置（算例固定句子和尺寸，真实模型固定尺寸并只用自注意力，所选词元必须在句子之内，"
              "第二个句子只在其开关打开时有效）：请给出应用使用的值。",
    },
    "nb.error.unknown_setting": {
        "en": "{name} is not a setting of the app; its settings are: {names}.",
        "zh": "{name} 不是应用的设置；应用的设置有：{names}。",
    },
    "nb.error.attention": {
        "en": "Attention weights must be a tuple of (batch, heads, queries, keys) arrays, one per layer (a model's "
              "output_attentions), a tuple of generation steps of such tuples, AttentionTraces, or one array of "
              "2 to 5 dimensions; got {got}.",
        "zh": "注意力权重必须是每层一个 (批量, 头, 查询, 键) 数组组成的元组（模型的 output_attentions）、由这样的元组组成的生成步骤元组、"
              "AttentionTrace，或一个 2 到 5 维的数组；实际得到 {got}。",
    },
    "nb.error.tokens": {
        "en": "{n} tokens were given for {length} rows of attention: give at least one token per row.",
        "zh": "为 {length} 行注意力只给了 {n} 个词元：每一行至少需要一个词元。",
    },
    "nb.error.too_big": {
        "en": "{cells} cells are too many to draw at once (at most {limit}): pick layers=… and heads=…, or fewer "
              "tokens.",
        "zh": "{cells} 个格子太多，无法一次画出（最多 {limit} 个）：请用 layers=… 和 heads=… 选择，或减少词元。",
    },
    "nb.error.pick": {
        "en": "{name} = {value} is out of range: 1 … {high} (counted from 1, as the tiles are).",
        "zh": "{name} = {value} 超出范围：1 … {high}（与图块一样从 1 开始计数）。",
    },
}
