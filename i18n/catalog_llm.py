"""Strings of the section "From the notes to LLMs" (llm.*: decoding with a KV cache, shared K/V heads, where positions
go, long context; fig.llm.*: its figures; quiz.<kind>.* and live.kind.<kind> of its quiz kinds). English and
Simplified Chinese side by side; the glossary's words (i18n/glossary.py): 键值缓存, 分组查询注意力, 多查询注意力,
旋转位置编码, 滑动窗口, 在线 softmax, 累计最大值 / 累计和."""

STRINGS: dict[str, dict[str, str]] = {
    # ----- navigation and page titles
    "nav.llm": {"en": "From the notes to LLMs", "zh": "从笔记到大语言模型"},
    "page.decoding": {"en": "Decoding step by step", "zh": "逐步解码"},
    "page.sharing": {"en": "Heads that share keys and values", "zh": "共享键和值的头"},
    "page.positions": {"en": "Where positions go", "zh": "位置信息放在哪里"},
    "page.longcontext": {"en": "Long context", "zh": "长上下文"},
    # ----- shared words
    "llm.head": {"en": "Head", "zh": "头"},
    "llm.head_kv": {"en": "head {i} · K/V {j}", "zh": "头 {i} · K/V {j}"},
    "llm.queries": {"en": "query", "zh": "查询"},
    "llm.keys": {"en": "key", "zh": "键"},
    "llm.layers": {"en": "Layers", "zh": "层数"},
    "llm.col_layers": {"en": "layers", "zh": "层数"},
    "llm.col_source": {"en": "source", "zh": "来源"},
    # ----- decoding step by step
    "llm.decode.title": {"en": "Decoding step by step", "zh": "逐步解码"},
    "llm.decode.intro": {
        "en": ("A decoder (GPT, Llama, Qwen) writes text one token at a time. Token t attends only to tokens 0…t "
               "(the causal mask), so nothing computed for an earlier token changes when a new one arrives. The "
               "decoder therefore keeps every layer's keys and values, the **KV cache**, and each step computes one "
               "new query row, one new K row and one new V row per layer. Below: the sentence of the sidebar fed "
               "one token at a time, then a few tokens the decoder generates itself."),
        "zh": ("解码器（GPT、Llama、Qwen）逐个生成词元。词元 t 只关注词元 0…t（因果掩码），所以新词元到来时，为先前"
               "词元算出的任何东西都不会改变。于是解码器保留每一层的键和值，即**键值缓存**（KV cache），每一步在每层"
               "只计算一个新的查询行、一个新的 K 行和一个新的 V 行。下面：侧边栏中的句子逐个词元送入，之后解码器再"
               "自己生成几个词元。"),
    },
    "llm.decode.n_new": {"en": "Tokens to generate after the sentence", "zh": "句子之后生成的词元数"},
    "llm.decode.step": {"en": "Step t (tokens read so far)", "zh": "第 t 步（已读入的词元数）"},
    "llm.decode.layer": {"en": "Layer", "zh": "层"},
    "llm.decode.empty": {
        "en": "The sentence has no tokens to decode: type one in the sidebar.",
        "zh": "句子中没有可解码的词元：请在侧边栏输入一句话。",
    },
    "llm.decode.seeded": {"en": "a seeded, untrained decoder", "zh": "一个随机初始化、未经训练的解码器"},
    "llm.decode.model": {
        "en": "Decoder: {name}; {layers} layers, h = {h} query heads, g = {g} K/V heads, d_k = {dk}, d_model = {d}, RoPE.",
        "zh": "解码器：{name}；{layers} 层，h = {h} 个查询头，g = {g} 个 K/V 头，d_k = {dk}，d_model = {d}，旋转位置编码。",
    },
    "llm.decode.legend": {
        "en": "(plain: the sentence; *italics*: generated; **[bold]**: the token of this step)",
        "zh": "（正体：句子；*斜体*：生成的词元；**[粗体]**：本步的词元）",
    },
    "llm.decode.guess": {"en": "Its next token: “{token}”", "zh": "它预测的下一个词元：“{token}”"},
    "llm.decode.guess_seeded": {
        "en": ("Its next token: “{token}”. The weights are seeded, not trained, so the words it picks mean nothing; its "
               "attention, its cache and its costs are computed exactly as a trained decoder's."),
        "zh": ("它预测的下一个词元：“{token}”。权重是随机初始化的，没有经过训练，所以选出的词没有意义；但它的注意力、"
               "键值缓存和计算开销与训练过的解码器完全一样地计算。"),
    },
    "llm.decode.rows_title": {"en": "Step {t}: one new query row per head", "zh": "第 {t} 步：每个头新增一个查询行"},
    "llm.decode.rows_text": {
        "en": ("Layer {layer}, the attention weights of every step so far: row s was computed at step s + 1, when "
               "token s arrived, and never again. The framed row is this step's: the new query against all {t} keys "
               "in the cache. Grey cells are the future, hidden by the causal mask."),
        "zh": ("第 {layer} 层，到目前为止每一步的注意力权重：第 s 行在第 s + 1 步（词元 s 到来时）算出，此后不再计算。"
               "带框的行是本步的：新查询对缓存中全部 {t} 个键。灰色格子是未来，被因果掩码掩蔽。"),
    },
    "llm.decode.cache_title": {"en": "The K cache after {n} tokens", "zh": "读入 {n} 个词元后的 K 缓存"},
    "llm.decode.cache_text": {
        "en": ("One K row per token for each of the g = {g} K/V heads (each shared by {h} / {g} query heads), d_k = "
               "{dk} numbers wide; the V cache has the same shape. This step appended the framed row; the rows above "
               "it are exactly the ones stored at earlier steps."),
        "zh": ("每个词元在 g = {g} 个 K/V 头（每个由 {h} / {g} 个查询头共享）中各有一行 K，宽 d_k = {dk} 个数；V 缓存"
               "形状相同。本步追加了带框的那一行；它上面的各行与先前各步存入的完全相同。"),
    },
    "llm.decode.k_title": {
        "en": "K cache of layer {layer}: one row per token, the {g} K/V heads side by side",
        "zh": "第 {layer} 层的 K 缓存：每个词元一行，{g} 个 K/V 头并排",
    },
    "llm.decode.cost_title": {"en": "What the cache saves, counted", "zh": "缓存省下了什么：逐项计数"},
    "llm.decode.cost_text": {
        "en": ("Step {t}, all layers, matrix FLOPs (2 per multiply-add): with the cache the decoder projects one token "
               "and scores one query against {t} keys: **{cached}** FLOPs. Without it, it runs the whole forward again "
               "over the {t} tokens: **{full}** FLOPs, {ratio} times as many (t tokens to project and t × t scores "
               "instead of 1 and t). The cache now holds **{bytes}** bytes."),
        "zh": ("第 {t} 步，所有层，矩阵运算的浮点运算次数（每次乘加计 2 次）：有缓存时，解码器只投影一个词元，用一个查询"
               "对 {t} 个键打分：**{cached}** 次。没有缓存时，它要对这 {t} 个词元把整个前向计算重做一遍：**{full}** 次，"
               "是前者的 {ratio} 倍（要投影 t 个词元、算 t × t 个分数，而不是 1 个和 t 个）。此时缓存占 **{bytes}** 字节。"),
    },
    "llm.decode.latex": {
        "en": (r"\begin{{aligned}} \text{{KV cache}} &= 2\,N\,g\,d_k\,L\,b \\ "
               r"&= 2 \cdot {layers} \cdot {g} \cdot {dk} \cdot {L} \cdot {b} = {total} \end{{aligned}}"),
        "zh": (r"\begin{{aligned}} \text{{键值缓存}} &= 2\,N\,g\,d_k\,L\,b \\ "
               r"&= 2 \cdot {layers} \cdot {g} \cdot {dk} \cdot {L} \cdot {b} = {total} \end{{aligned}}"),
    },
    "llm.decode.latex_names": {
        "en": "N = {layers} layers, g = {g} K/V heads, d_k = {dk}, L = {L} tokens, b = {b} bytes per number.",
        "zh": "N = {layers} 层，g = {g} 个 K/V 头，d_k = {dk}，L = {L} 个词元，每个数 b = {b} 字节。",
    },
    "llm.decode.real_scale": {
        "en": "The same formula at the sizes of real models: the page “Heads that share keys and values”.",
        "zh": "用同一公式计算真实模型的规模：见“共享键和值的头”一页。",
    },
    # ----- heads that share keys and values
    "llm.share.title": {"en": "Heads that share keys and values", "zh": "共享键和值的头"},
    "llm.share.intro": {
        "en": ("In the notes' multi-head attention every head has its own W_i^K and W_i^V. Multi-query attention "
               "(Shazeer 2019) keeps one K/V head for all h query heads; grouped-query attention (Ainslie et al. 2023; "
               "Llama 2 70B, Mistral, Qwen2) keeps g of them, each shared by h / g query heads. There are still h "
               "queries and h attention maps: only W^K, W^V and the KV cache shrink, by h / g."),
        "zh": ("在笔记的多头注意力中，每个头都有自己的 W_i^K 和 W_i^V。多查询注意力（Shazeer 2019）让全部 h 个查询头"
               "共用一个 K/V 头；分组查询注意力（Ainslie 等 2023；Llama 2 70B、Mistral、Qwen2）保留 g 个 K/V 头，每个由 "
               "h / g 个查询头共享。查询仍是 h 个，注意力图也仍是 h 张：变小的只有 W^K、W^V 和键值缓存，缩小为 1/(h / g)。"),
    },
    "llm.share.g": {"en": "g, the number of K/V heads (h = {h} query heads)", "zh": "g：K/V 头的个数（h = {h} 个查询头）"},
    "llm.share.kind_mha": {
        "en": "g = h = {h}: the notes' multi-head attention, every query head has its own K and V.",
        "zh": "g = h = {h}：笔记中的多头注意力，每个查询头都有自己的 K 和 V。",
    },
    "llm.share.kind_gqa": {
        "en": "g = {g}: grouped-query attention, each K/V head shared by {r} query heads.",
        "zh": "g = {g}：分组查询注意力，每个 K/V 头由 {r} 个查询头共享。",
    },
    "llm.share.kind_mqa": {
        "en": "g = 1: multi-query attention, all {h} query heads read the same K and V.",
        "zh": "g = 1：多查询注意力，全部 {h} 个查询头读同一组 K 和 V。",
    },
    "llm.share.params_title": {"en": "Parameters", "zh": "参数量"},
    "llm.share.params_text": {
        "en": "Weights of one layer: {mha} with every head's own K and V, {now} now ({share} of them).",
        "zh": "一层的权重数：每个头各有 K 和 V 时为 {mha}，现在为 {now}（前者的 {share}）。",
    },
    "llm.share.col_per_kv": {"en": "query heads per K/V head", "zh": "每个 K/V 头对应的查询头数"},
    "llm.share.col_weights": {"en": "all weights", "zh": "全部权重"},
    "llm.share.col_cache": {"en": "KV cache per token, this layer (bytes, float32)", "zh": "每个词元的键值缓存，本层（字节，float32）"},
    "llm.share.maps_title": {"en": "What sharing does to the attention maps", "zh": "共享对注意力图的影响"},
    "llm.share.maps_text": {
        "en": ("The sentence and layer of the sidebar, causal, with g = {g}. The shared layer is made from the "
               "multi-head one as the grouped-query paper converts a trained model: each group's W^K and W^V are "
               "averaged. The {r} heads of a group then score against the same keys, yet their maps still differ, "
               "because each keeps its own W_i^Q. Without training again, the maps move; how much, per head, below."),
        "zh": ("侧边栏中的句子和层，因果掩码，g = {g}。共享的层按分组查询注意力论文转换已训练模型的方法由多头层得到："
               "把每组的 W^K 和 W^V 取平均。于是同组的 {r} 个头用同样的键打分，但它们的注意力图仍然不同，因为每个头"
               "保留自己的 W_i^Q。不重新训练时，注意力图会移动；每个头移动多少，见下图。"),
    },
    "llm.share.change_caption": {
        "en": "Mean change of a weight over the visible cells: up to {top} for one head, {mean} on average.",
        "zh": "可见格子上权重的平均变化：单个头最多 {top}，平均 {mean}。",
    },
    "llm.share.real_title": {"en": "The KV cache of real models", "zh": "真实模型的键值缓存"},
    "llm.share.real_text": {
        "en": ("Published sizes (sources in the last column) put into 2 × layers × g × d_k × L × 2 bytes (16-bit "
               "numbers): per token, at the model's context length, and what it would be if every query head kept "
               "its own K and V (g = h)."),
        "zh": ("把公开的模型规模（来源见最后一列）代入 2 × 层数 × g × d_k × L × 2 字节（16 位数）：每个词元、模型上下文"
               "长度下，以及每个查询头各有自己的 K 和 V（g = h）时的大小。"),
    },
    "llm.share.col_model": {"en": "model", "zh": "模型"},
    "llm.share.col_kib_token": {"en": "KiB per token", "zh": "每词元 KiB"},
    "llm.share.col_context": {"en": "context (tokens)", "zh": "上下文（词元）"},
    "llm.share.col_gib": {"en": "GiB at that context", "zh": "该上下文下 GiB"},
    "llm.share.col_gib_mha": {"en": "GiB if g = h", "zh": "若 g = h 时 GiB"},
    "llm.share.real_caption": {
        "en": "For one sequence; a server answering many requests at once keeps one cache per sequence.",
        "zh": "以上是一个序列的缓存；同时处理多个请求的服务器要为每个序列各保留一份。",
    },
    # ----- where positions go
    "llm.pos.title": {"en": "Where positions go", "zh": "位置信息放在哪里"},
    "llm.pos.intro": {
        "en": ("The notes add a sinusoidal P to X before the layer (page “Positional encoding”). Today's decoders "
               "mostly put positions into the scores instead. RoPE (rotary position embedding, Su et al. 2021; Llama, "
               "Mistral, Qwen) turns each pair of coordinates of q and k by an angle proportional to the position, so "
               "q_m · k_n depends on m − n only. ALiBi (Press et al. 2022; BLOOM) adds −m_i (i − j) to head i's "
               "scores. Below: the sentence and weights of the sidebar, causal, the three ways."),
        "zh": ("笔记在进入层之前把正弦位置编码 P 加到 X 上（见“位置编码”一页）。如今的解码器大多把位置放进分数里。"
               "旋转位置编码（RoPE，Su 等 2021；Llama、Mistral、Qwen）把 q 和 k 的每对坐标旋转一个与位置成正比的角度，"
               "于是 q_m · k_n 只依赖 m − n。ALiBi（Press 等 2022；BLOOM）在头 i 的分数上加 −m_i (i − j)。下面：侧边栏"
               "的句子和权重，因果掩码，三种方式。"),
    },
    "llm.pos.shift": {"en": "Move the sentence to positions s, s + 1, …: s =", "zh": "把句子移到位置 s, s + 1, …：s ="},
    "llm.pos.rope_odd": {
        "en": "RoPE turns pairs of coordinates: it needs an even d_k, and this setting has d_k = {dk}.",
        "zh": "旋转位置编码旋转成对的坐标：需要 d_k 为偶数，而当前设置 d_k = {dk}。",
    },
    "llm.pos.name_sinusoidal": {"en": "Sinusoidal, added to X", "zh": "正弦位置编码，加到 X 上"},
    "llm.pos.name_rope": {"en": "RoPE, turns Q and K", "zh": "旋转位置编码，旋转 Q 和 K"},
    "llm.pos.name_alibi": {"en": "ALiBi, added to the scores", "zh": "ALiBi，加到分数上"},
    "llm.pos.where_sinusoidal": {"en": "X + P goes into W^Q, W^K and W^V.", "zh": "X + P 进入 W^Q、W^K 和 W^V。"},
    "llm.pos.where_rope": {"en": "Q and K turned by position; V untouched.", "zh": "Q 和 K 按位置旋转；V 不变。"},
    "llm.pos.where_alibi": {"en": "No position in X, Q or K: a penalty on the scores.", "zh": "X、Q、K 中都没有位置：只是分数上的惩罚项。"},
    "llm.pos.shift_title": {"en": "Move the sentence by s = {s}", "zh": "把句子平移 s = {s}"},
    "llm.pos.shift_text": {
        "en": ("The same {L} tokens at positions {s}, {s} + 1, … instead of 0, 1, …, computed again. The largest "
               "change of any visible score:"),
        "zh": "同样的 {L} 个词元放在位置 {s}, {s} + 1, … 而不是 0, 1, …，重新计算。任一可见分数的最大变化：",
    },
    "llm.pos.col_method": {"en": "positions", "zh": "位置方式"},
    "llm.pos.col_change": {"en": "largest change of a score", "zh": "分数的最大变化"},
    "llm.pos.col_why": {"en": "why", "zh": "原因"},
    "llm.pos.verdict_sinusoidal": {
        "en": "changes: X + P is a new input, so every score is new",
        "zh": "会变：X + P 是新的输入，所以每个分数都变了",
    },
    "llm.pos.verdict_rope": {
        "en": "the same up to rounding: the scores depend on m − n only",
        "zh": "除舍入误差外不变：分数只依赖 m − n",
    },
    "llm.pos.verdict_alibi": {
        "en": "exactly the same: the penalty depends on i − j only",
        "zh": "完全不变：惩罚项只依赖 i − j",
    },
    "llm.pos.verdict_none": {"en": "s = 0: nothing moved", "zh": "s = 0：没有平移"},
    "llm.pos.alibi_title": {"en": "ALiBi: a penalty per head for distance", "zh": "ALiBi：每个头对距离的惩罚"},
    "llm.pos.alibi_text": {
        "en": ("Head i adds −m_i · (i − j) to the score of a key i − j positions back: a fixed price per step back, "
               "its own slope m_i for each head (the paper's geometric sequence). With h = {h}: m = {first} for "
               "head 1, {last} for head {h}. A steep head mostly reads near tokens; a flat one still reaches far."),
        "zh": ("头 i 给往回 i − j 个位置的键的分数加上 −m_i · (i − j)：每往回一步付固定的代价，每个头有自己的斜率 m_i"
               "（论文中的几何数列）。h = {h} 时：头 1 的 m = {first}，头 {h} 的 m = {last}。陡的头主要读近处的词元；"
               "平缓的头仍能看到远处。"),
    },
    "llm.pos.beyond_title": {"en": "Beyond the trained length", "zh": "超出训练长度之后"},
    "llm.pos.trained": {"en": "Trained length (positions seen in training)", "zh": "训练长度（训练中见过的位置数）"},
    "llm.pos.beyond_text": {
        "en": ("RoPE with d_k = {dk}: pair j turns once every 2π · 10000^(2j/d_k) positions. Trained on {L} "
               "positions, **{unseen} of the {pairs} pairs** never completed a full turn: beyond position {L} they "
               "reach angles the model never saw in training. This is why RoPE models are adapted before reading "
               "longer texts (e.g. position interpolation, Chen et al. 2023)."),
        "zh": ("d_k = {dk} 的旋转位置编码：第 j 对坐标每 2π · 10000^(2j/d_k) 个位置转一整圈。在 {L} 个位置上训练时，"
               "**{pairs} 对中有 {unseen} 对**从未转满一圈：超过位置 {L} 后，它们会转到训练中从未见过的角度。这就是"
               "旋转位置编码的模型在读更长文本之前要先做调整的原因（例如位置插值，Chen 等 2023）。"),
    },
    "llm.pos.beyond_alibi": {
        "en": ("ALiBi has no angle to run out of: the penalty at distance {twice} is twice the one at {L}, on the same "
               "straight line. Its paper is titled “Train Short, Test Long”."),
        "zh": "ALiBi 没有会“用完”的角度：距离 {twice} 处的惩罚正好是 {L} 处的两倍，在同一条直线上。它的论文题为"
              "《Train Short, Test Long》（训练短，测试长）。",
    },
    # ----- long context
    "llm.long.title": {"en": "Long context", "zh": "长上下文"},
    "llm.long.intro": {
        "en": ("A layer's scores are L × L per head: long texts make attention costly in memory and time. Two of "
               "today's answers: a causal sliding window (Mistral 7B: each token attends to its last 4,096 tokens), "
               "and FlashAttention's tiling (Dao et al. 2022), which gives the same result up to rounding without "
               "ever holding the L × L matrix."),
        "zh": ("一层的分数每个头都是 L × L：长文本让注意力在内存和时间上都很昂贵。如今的两种应对：因果滑动窗口"
               "（Mistral 7B：每个词元只关注它之前的 4,096 个词元），以及 FlashAttention 的分块计算（Dao 等 2022），"
               "它不保存 L × L 矩阵，结果与原来相同（仅差舍入误差）。"),
    },
    "llm.long.window_title": {"en": "Sliding windows, stacked", "zh": "滑动窗口的层层叠加"},
    "llm.long.length": {"en": "Sequence length L", "zh": "序列长度 L"},
    "llm.long.window": {"en": "Window w (keys each query sees)", "zh": "窗口 w（每个查询看到的键数）"},
    "llm.long.reach_text": {
        "en": ("One layer with a window of w = {w} keys reaches w − 1 tokens back. Stacked, each layer reads what the "
               "layer below gathered, so {n} layers reach n (w − 1) = **{reach}** tokens back (the last row above). "
               "Mistral 7B's window of 4,096 tokens over its 32 layers reaches {mistral} tokens back: the “about "
               "131K tokens” of the Mistral paper."),
        "zh": ("窗口为 w = {w} 个键的一层能往回看 w − 1 个词元。层层叠加时，每一层读取下一层已汇集的信息，所以 {n} 层"
               "能往回看 n (w − 1) = **{reach}** 个词元（上图最后一行）。Mistral 7B 的窗口为 4,096 个词元，共 32 层，"
               "能往回看 {mistral} 个词元：即 Mistral 论文所说的“约 131K 个词元”。"),
    },
    "llm.long.memory_title": {"en": "L² memory against tiling", "zh": "L² 的内存与分块计算"},
    "llm.long.block": {"en": "Block size b of the tiles", "zh": "分块大小 b"},
    "llm.long.col_full": {"en": "full L × L scores (MiB)", "zh": "完整 L × L 分数（MiB）"},
    "llm.long.col_tiled": {"en": "tiled (MiB)", "zh": "分块（MiB）"},
    "llm.long.col_ratio": {"en": "ratio", "zh": "倍数"},
    "llm.long.memory_caption": {
        "en": ("Bytes of the h = {h} score matrices of one layer (float32, one sequence) against what tiling keeps: "
               "one block of b = {b} scores per query row, plus a running max and a running sum per row. The ratio "
               "is L / (b + 2): the full matrix grows with L², tiling with L."),
        "zh": ("一层 h = {h} 个分数矩阵的字节数（float32，一个序列），对比分块计算保留的内容：每个查询行一块 b = {b} 个"
               "分数，加上每行一个累计最大值和一个累计和。倍数为 L / (b + 2)：完整矩阵随 L² 增长，分块随 L 增长。"),
    },
    "llm.long.tiling_title": {"en": "Online softmax, block by block", "zh": "在线 softmax，逐块计算"},
    "llm.long.tile": {"en": "Keys per block", "zh": "每块的键数"},
    "llm.long.tiling_text": {
        "en": ("The query {query} reads its keys in {n} blocks of {b}. After each block it keeps only m (the running "
               "max: the largest score so far) and l (the running sum of e^(s − m) so far); when a block brings a "
               "larger m′, the sum and the output so far are rescaled by e^(m − m′). After the last block m = {m} "
               "and l = {l}, the softmax's denominator. Over every row of this head, tiled and plain softmax "
               "attention differ by at most {gap}: rounding."),
        "zh": ("查询 {query} 把它的键分成 {n} 块、每块 {b} 个来读。每读完一块只保留 m（累计最大值：到目前为止最大的"
               "分数）和 l（到目前为止 e^(s − m) 的累计和）；某一块带来更大的 m′ 时，已有的和与输出都乘上 e^(m − m′)"
               " 重新缩放。读完最后一块时 m = {m}，l = {l}，即 softmax 的分母。在这个头的所有行上，分块计算与普通 "
               "softmax 注意力最多相差 {gap}：只是舍入误差。"),
    },
    # ----- figures
    "fig.llm.flops_title": {"en": "Matrix FLOPs of each step", "zh": "每一步的矩阵浮点运算次数"},
    "fig.llm.bytes_title": {"en": "KV cache after each step", "zh": "每一步之后的键值缓存"},
    "fig.llm.recompute": {"en": "without cache (recompute all)", "zh": "无缓存（全部重算）"},
    "fig.llm.cached": {"en": "with KV cache", "zh": "有键值缓存"},
    "fig.llm.cache_bytes": {"en": "cache bytes", "zh": "缓存字节数"},
    "fig.llm.step": {"en": "step t (tokens read)", "zh": "第 t 步（已读入词元数）"},
    "fig.llm.flops": {"en": "FLOPs", "zh": "浮点运算次数"},
    "fig.llm.bytes": {"en": "bytes", "zh": "字节"},
    "fig.llm.kv_head": {"en": "K/V head {j}", "zh": "K/V 头 {j}"},
    "fig.llm.change_title": {
        "en": "How far each head's map moved when its K and V were shared",
        "zh": "共享 K 和 V 后每个头的注意力图移动了多少",
    },
    "fig.llm.change_axis": {"en": "mean |Δ weight|", "zh": "平均 |Δ 权重|"},
    "fig.llm.alibi_head": {"en": "head {n} (m = {m})", "zh": "头 {n}（m = {m}）"},
    "fig.llm.trained_length": {"en": "trained length", "zh": "训练长度"},
    "fig.llm.alibi_title": {"en": "ALiBi's bias −m_i · d by distance d", "zh": "ALiBi 的偏置 −m_i · d 随距离 d 的变化"},
    "fig.llm.distance": {"en": "distance back i − j", "zh": "往回的距离 i − j"},
    "fig.llm.bias": {"en": "bias added to the score", "zh": "加到分数上的偏置"},
    "fig.llm.pairs_seen": {"en": "a full turn within the trained length", "zh": "在训练长度内转满一圈"},
    "fig.llm.pairs_unseen": {"en": "never a full turn in training", "zh": "训练中从未转满一圈"},
    "fig.llm.wave_title": {"en": "RoPE: positions per full turn of each pair", "zh": "旋转位置编码：每对坐标转一整圈所需的位置数"},
    "fig.llm.pair": {"en": "pair j", "zh": "第 j 对"},
    "fig.llm.wavelength": {"en": "wavelength (positions)", "zh": "波长（位置数）"},
    "fig.llm.scores_max": {"en": "Scores of one query row and the running max m", "zh": "一个查询行的分数与累计最大值 m"},
    "fig.llm.sum_title": {"en": "Running sum l after each block", "zh": "每块之后的累计和 l"},
    "fig.llm.score": {"en": "score", "zh": "分数"},
    "fig.llm.running_max": {"en": "running max m", "zh": "累计最大值 m"},
    "fig.llm.running_sum": {"en": "running sum l", "zh": "累计和 l"},
    "fig.llm.keys": {"en": "key", "zh": "键"},
    "fig.llm.query": {"en": "query", "zh": "查询"},
    "fig.llm.cache_cols": {"en": "K/V head · coordinate of d_k", "zh": "K/V 头 · d_k 中的坐标"},
    "fig.llm.layer": {"en": "layer", "zh": "层"},
    "fig.llm.reach_title": {
        "en": "Which keys reach each query within {n} layers, and through which layer first",
        "zh": "{n} 层之内哪些键能到达每个查询，最早经过哪一层",
    },
    "fig.llm.reach_note": {
        "en": "number: the first layer that brings the key to the query · grey: not within these layers (or the future)",
        "zh": "数字：最早把该键带给该查询的层 · 灰色：这些层之内到不了（或是未来）",
    },
}
