"""Strings used inside figures: axis titles, hover text, legends.

Plain text only (figures escape them); `{name}` fields are filled by `t(key, lang, name=...)`.
"""

STRINGS: dict[str, dict[str, str]] = {
    # generic
    "fig.row": {"en": "row", "zh": "行"},
    "fig.column": {"en": "column", "zh": "列"},
    "fig.value": {"en": "value", "zh": "数值"},
    "fig.masked": {"en": "masked (−∞)", "zh": "已掩蔽（−∞）"},
    # heads
    "fig.head": {"en": "head", "zh": "头"},
    "fig.head_n": {"en": "head {n}", "zh": "头 {n}"},
    "fig.tile_range": {"en": "{lo} … {hi}", "zh": "{lo} … {hi}"},
    "fig.per_head_scale_note": {
        "en": "colours: each head on its own scale (its range is under its title)",
        "zh": "颜色：每个头使用自己的色标（范围见各头标题下方）",
    },
    # attention
    "fig.query": {"en": "query", "zh": "查询"},
    "fig.key": {"en": "key", "zh": "键"},
    "fig.queries": {"en": "queries", "zh": "查询"},
    "fig.keys": {"en": "keys", "zh": "键"},
    "fig.key_token": {"en": "key token", "zh": "键词元"},
    "fig.weight": {"en": "weight", "zh": "权重"},
    "fig.query_bars.title": {
        "en": "Where query {query} looks, in every head",
        "zh": "查询 {query} 在每个头中关注哪里",
    },
    "fig.attention_lines.title": {
        "en": "Attention from queries (left) to keys (right)",
        "zh": "从查询（左）到键（右）的注意力",
    },
    "fig.attention_lines.title_one": {
        "en": "Attention of query {query} (left) to the keys (right)",
        "zh": "查询 {query}（左）对各个键（右）的注意力",
    },
    "fig.attention_lines.note": {
        "en": "line strength ∝ weight; weights below {min} not drawn",
        "zh": "线条深浅 ∝ 权重；小于 {min} 的权重不画",
    },
    # positional encoding
    "fig.position": {"en": "position", "zh": "位置"},
    "fig.dimension": {"en": "dimension", "zh": "维度"},
    "fig.dim_sin": {"en": "dim {i} (sin)", "zh": "维度 {i}（sin）"},
    "fig.dim_cos": {"en": "dim {i} (cos)", "zh": "维度 {i}（cos）"},
    "fig.pe_value": {"en": "PE value", "zh": "位置编码值"},
    "fig.pe_curves.title": {
        "en": "Positional encoding: value against position",
        "zh": "位置编码：数值随位置的变化",
    },
    "fig.pe_heatmap.title": {
        "en": "Positional encoding P (positions × dimensions)",
        "zh": "位置编码矩阵 P（位置 × 维度）",
    },
    "fig.pair_index": {"en": "pair index j (dimensions 2j, 2j+1)", "zh": "维度对序号 j（维度 2j、2j+1）"},
    "fig.wavelength": {"en": "wavelength (positions)", "zh": "波长（位置数）"},
    "fig.wavelength.title": {
        "en": "Wavelength of each sin/cos pair (log scale)",
        "zh": "每对 sin/cos 的波长（对数刻度）",
    },
    "fig.dims_pair": {"en": "dims {a}, {b}", "zh": "维度 {a}、{b}"},
    "fig.dot_product": {"en": "dot product", "zh": "点积"},
    "fig.pe_similarity.title": {
        "en": "Similarity of positions: P Pᵀ",
        "zh": "位置之间的相似度：P Pᵀ",
    },
    "fig.why.spread": {"en": "Spread (std) of raw q·k", "zh": "原始 q·k 的离散程度（标准差）"},
    "fig.why.spread_name": {"en": "std of q·k", "zh": "q·k 的标准差"},
    "fig.why.entropy": {"en": "Softmax entropy per row (nats)", "zh": "每行 softmax 的熵（奈特）"},
    "fig.why.max_weight": {"en": "Largest weight in a row", "zh": "一行中最大的权重"},
    "fig.why.grad": {"en": "Softmax gradient size ‖∂A/∂S‖", "zh": "softmax 梯度大小 ‖∂A/∂S‖"},
    "fig.why.scaled": {"en": "scaled by 1/√d_k", "zh": "除以 √d_k"},
    "fig.why.raw": {"en": "not scaled", "zh": "不缩放"},
    "fig.why.uniform": {"en": "uniform (log n)", "zh": "均匀（log n）"},
    "fig.why.counted": {"en": "Multiplications, counted", "zh": "乘法次数（计数）"},
    "fig.why.measured": {"en": "Time of our core, measured", "zh": "本应用核心的实测时间"},
    "fig.why.quadratic": {"en": "QKᵀ, scale, AV (∝ L²)", "zh": "QKᵀ、缩放、AV（∝ L²）"},
    "fig.why.linear": {"en": "projections (∝ L)", "zh": "投影（∝ L）"},
    "fig.why.total": {"en": "total", "zh": "合计"},
    "fig.why.ms": {"en": "measured time", "zh": "实测时间"},
    "fig.why.not_measured": {"en": "press “Measure” to time the core", "zh": "点击“测量”为核心计时"},
    "fig.why.length": {"en": "sequence length L", "zh": "序列长度 L"},
    "fig.why.mults": {"en": "multiplications", "zh": "乘法次数"},
    "fig.why.params_title": {"en": "Parameters of one layer against h", "zh": "一层的参数量与 h 的关系"},
    "fig.why.h": {"en": "number of heads h", "zh": "头数 h"},
    "fig.why.params": {"en": "parameters", "zh": "参数量"},
    "fig.why.fused_title": {
        "en": "Fused W^Q: column block i (d_k = {dk} columns) is W_i^Q, h = {h}",
        "zh": "融合的 W^Q：第 i 个列块（d_k = {dk} 列）就是 W_i^Q，h = {h}",
    },
    "fig.why.input_dim": {"en": "input dimension", "zh": "输入维度"},
    "fig.why.output_dim": {"en": "output column", "zh": "输出列"},
}
