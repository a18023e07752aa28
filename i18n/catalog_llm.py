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
        "en": "A decoder (GPT, Llama, Qwen) writes text one token at a time. Token t attends only to tokens 0…t "
              "(the causal mask), so nothing computed for an earlier token changes when a new one arrives. The "
              "decoder therefore keeps every layer's keys and values, the **KV cache**, and each step computes one "
              "new query row, one new K row and one new V row per layer. A real decoder reads its prompt in one "
              "parallel pass (the prefill) and fills the cache at once; below, the sentence of the sidebar is fed "
              "one token at a time instead, so that the cache can be watched growing (the numbers are the same), "
              "then the decoder generates a few tokens itself.",
        "zh": "解码器（GPT、Llama、Qwen）逐个生成词元。词元 t 只关注词元 "
              "0…t（因果掩码），所以新词元到来时，为先前词元算出的任何东西都不会改变。于是解码器保留每一层的键和值，即**键值缓存**（KV cache），每一步在每层只计算一个新的查询行、一个新的 K "
              "行和一个新的 V 行。真正的解码器用一次并行计算读完整个提示（预填充），一次填满缓存；下面则把侧边栏中的句子逐个词元送入，以便看到缓存一步步增长（数字完全相同），之后解码器再自己生成几个词元。",
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
        "en": "Decoder: {name}; {layers} layers, h = {h} query heads, g = {g} K/V heads, dₖ = {dk}, d_model = {d}, RoPE.",
        "zh": "解码器：{name}；{layers} 层，h = {h} 个查询头，g = {g} 个 K/V 头，dₖ = {dk}，d_model = {d}，旋转位置编码。",
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
        "en": ("One K row per token for each of the g = {g} K/V heads (each shared by {h} / {g} query heads), $d_k$ = "
               "{dk} numbers wide; the V cache has the same shape. This step appended the framed row; the rows above "
               "it are exactly the ones stored at earlier steps."),
        "zh": ("每个词元在 g = {g} 个 K/V 头（每个由 {h} / {g} 个查询头共享）中各有一行 K，每行 $d_k$ = {dk} 个数；V 缓存"
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
        "en": (r"\begin{{aligned}} \text{{{cache}}} &= 2\,N\,g\,d_k\,L\,b \\ "
               r"&= 2 \cdot {layers} \cdot {g} \cdot {dk} \cdot {L} \cdot {b} = {total} \end{{aligned}}"),
        "zh": (r"\begin{{aligned}} \text{{{cache}}} &= 2\,N\,g\,d_k\,L\,b \\ "
               r"&= 2 \cdot {layers} \cdot {g} \cdot {dk} \cdot {L} \cdot {b} = {total} \end{{aligned}}"),
    },
    "llm.decode.kv_word": {"en": "KV cache", "zh": "键值缓存"},
    "llm.decode.latex_names": {
        "en": "N = {layers} layers, g = {g} K/V heads, $d_k$ = {dk}, L = {L} tokens, b = {b} bytes per number.",
        "zh": "N = {layers} 层，g = {g} 个 K/V 头，$d_k$ = {dk}，L = {L} 个词元，每个数 b = {b} 字节。",
    },
    "llm.decode.real_scale": {
        "en": "The same formula at the sizes of real models: the page “Heads that share keys and values”.",
        "zh": "用同一公式计算真实模型的规模：见“共享键和值的头”一页。",
    },
    # ----- heads that share keys and values
    "llm.share.title": {"en": "Heads that share keys and values", "zh": "共享键和值的头"},
    "llm.share.intro": {
        "en": ("In the notes' multi-head attention every head has its own $W_i^K$ and $W_i^V$. Multi-query attention "
               "(Shazeer 2019) keeps one K/V head for all h query heads; grouped-query attention (Ainslie et al. 2023; "
               "Llama 2 70B, Mistral, Qwen2) keeps g of them, each shared by h / g query heads. There are still h "
               "queries and h attention maps: only $W^K$, $W^V$ and the KV cache shrink, by h / g."),
        "zh": ("在笔记的多头注意力中，每个头都有自己的 $W_i^K$ 和 $W_i^V$。多查询注意力（Shazeer 2019）让全部 h 个查询头"
               "共用一个 K/V 头；分组查询注意力（Ainslie 等 2023；Llama 2 70B、Mistral、Qwen2）保留 g 个 K/V 头，每个由 "
               "h / g 个查询头共享。查询仍是 h 个，注意力图也仍是 h 张：变小的只有 $W^K$、$W^V$ 和键值缓存，缩小到原来的 g / h。"),
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
               "multi-head one as the grouped-query paper converts a trained model: each group's $W^K$ and $W^V$ are "
               "averaged. The {r} heads of a group then score against the same keys, yet their maps still differ, "
               "because each keeps its own $W_i^Q$. Without training again, the maps move; how much, per head, below."),
        "zh": ("侧边栏中的句子和层，因果掩码，g = {g}。共享的层按分组查询注意力论文转换已训练模型的方法由多头层得到："
               "把每组的 $W^K$ 和 $W^V$ 取平均。于是同组的 {r} 个头用同样的键打分，但它们的注意力图仍然不同，因为每个头"
               "保留自己的 $W_i^Q$。不重新训练时，注意力图会移动；每个头移动多少，见下图。"),
    },
    "llm.share.change_caption": {
        "en": "Mean change of a weight over the visible cells: up to {top} for one head, {mean} on average.",
        "zh": "可见格子上权重的平均变化：单个头最多 {top}，平均 {mean}。",
    },
    "llm.share.real_title": {"en": "The KV cache of real models", "zh": "真实模型的键值缓存"},
    "llm.share.real_text": {
        "en": ("Published sizes (sources in the last column) put into 2 × layers × g × $d_k$ × L × 2 bytes (16-bit "
               "numbers): per token; at the model's context length, with L the tokens the cache holds there (all of "
               "them, or only the last w for a model whose layers attend to a sliding window of w keys: Mistral's "
               "rolling buffer cache); and what that would be if every query head kept its own K and V (g = h). "
               "Gemma-2B keeps one K/V head for all its query heads: multi-query attention."),
        "zh": ("把公开的模型规模（来源见最后一列）代入 2 × 层数 × g × $d_k$ × L × 2 字节（16 位数）：每个词元；模型上下文"
               "长度下，L 是此时缓存中保存的词元数（全部词元；若模型的各层只关注 w 个键的滑动窗口，则只保存最后 w 个："
               "Mistral 的滚动缓冲区缓存）；以及每个查询头各有自己的 K 和 V（g = h）时的大小。Gemma-2B 的全部查询头"
               "共用一个 K/V 头：多查询注意力。"),
    },
    "llm.share.col_model": {"en": "model", "zh": "模型"},
    "llm.share.col_kib_token": {"en": "KiB per token", "zh": "每词元 KiB"},
    "llm.share.col_context": {"en": "context (tokens)", "zh": "上下文（词元）"},
    "llm.share.col_cached": {"en": "tokens cached", "zh": "缓存的词元数"},
    "llm.share.col_gib": {"en": "GiB at that context", "zh": "该上下文下 GiB"},
    "llm.share.col_gib_mha": {"en": "GiB if g = h", "zh": "若 g = h 时 GiB"},
    "llm.share.real_caption": {
        "en": "For one sequence; a server answering many requests at once keeps one cache per sequence.",
        "zh": "以上是一个序列的缓存；同时处理多个请求的服务器要为每个序列各保留一份。",
    },
    # ----- where positions go
    "llm.pos.title": {"en": "Where positions go", "zh": "位置信息放在哪里"},
    "llm.pos.intro": {
        "en": "The notes add a sinusoidal P to X before the layer (⟦page:positional⟧). Today's decoders mostly put "
              "positions into the scores instead. RoPE (rotary position embedding, Su et al. 2021; Llama, Mistral, "
              "Qwen) turns each pair of coordinates of q and k by an angle proportional to the position, so $q_m "
              "\\cdot k_n$ depends on the positions m and n only through m − n. ALiBi (Press et al. 2022; BLOOM) "
              "gives each head a its own slope $m_a$ and adds $−m_a\\,(i − j)$ to that head's score of query i and "
              "key j. Below: the sentence and weights of the sidebar, causal, the three ways.",
        "zh": "笔记在进入层之前把正弦位置编码 P 加到 X 上（⟦page:positional⟧）。如今的解码器大多把位置放进分数里。旋转位置编码（RoPE，Su 等 "
              "2021；Llama、Mistral、Qwen）把 q 和 k 的每对坐标旋转一个与位置成正比的角度，于是 $q_m \\cdot k_n$ 对位置 m、n 的依赖只通过 m − "
              "n。ALiBi（Press 等 2022；BLOOM）给每个头 a 一个自己的斜率 $m_a$，并在该头查询 i 对键 j 的分数上加 $−m_a\\,(i − "
              "j)$。下面：侧边栏的句子和权重，因果掩码，三种方式。",
    },
    "llm.pos.shift": {"en": "Move the sentence to positions s, s + 1, …: s =", "zh": "把句子移到位置 s, s + 1, …：s ="},
    "llm.pos.rope_odd": {
        "en": "RoPE turns pairs of coordinates: it needs an even $d_k$, and this setting has $d_k$ = {dk}.",
        "zh": "旋转位置编码旋转成对的坐标：需要 $d_k$ 为偶数，而当前设置 $d_k$ = {dk}。",
    },
    "llm.pos.name_sinusoidal": {"en": "Sinusoidal, added to X", "zh": "正弦位置编码，加到 X 上"},
    "llm.pos.name_rope": {"en": "RoPE, turns Q and K", "zh": "旋转位置编码，旋转 Q 和 K"},
    "llm.pos.name_alibi": {"en": "ALiBi, added to the scores", "zh": "ALiBi，加到分数上"},
    "llm.pos.maps_title": {"en": "Head {head}: three ways to give positions", "zh": "头 {head}：三种给出位置的方式"},
    "llm.pos.short_sinusoidal": {"en": "sinusoidal", "zh": "正弦位置编码"},
    "llm.pos.short_rope": {"en": "RoPE", "zh": "旋转位置编码"},
    "llm.pos.short_alibi": {"en": "ALiBi", "zh": "ALiBi"},
    "llm.pos.where_item": {"en": "**{name}**: {where}", "zh": "**{name}**：{where}"},
    "llm.pos.where_sinusoidal": {"en": "X + P goes into $W^Q$, $W^K$ and $W^V$.", "zh": "X + P 进入 $W^Q$、$W^K$ 和 $W^V$。"},
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
        "en": "changes: X + P is a new input, so the scores change",
        "zh": "会变：X + P 是新的输入，所以分数会变",
    },
    "llm.pos.verdict_rope": {
        "en": "the same up to rounding: the scores depend on the positions only through m − n",
        "zh": "除舍入误差外不变：分数对位置的依赖只通过 m − n",
    },
    "llm.pos.verdict_alibi": {
        "en": "exactly the same: the penalty depends on the positions only through i − j",
        "zh": "完全不变：惩罚项对位置的依赖只通过 i − j",
    },
    "llm.pos.verdict_none": {"en": "s = 0: nothing moved", "zh": "s = 0：没有平移"},
    "llm.pos.alibi_title": {"en": "ALiBi: a penalty per head for distance", "zh": "ALiBi：每个头对距离的惩罚"},
    "llm.pos.alibi_text": {
        "en": "Head a adds $−m_a \\cdot (i − j)$ to its score of query i and key j, a key i − j positions back: a "
              "fixed price per step back, its own slope $m_a$ for each head (the paper's geometric sequence). With "
              "h = {h}: m = {first} for head 1, {last} for head {h}. A steep head mostly reads near tokens; a flat "
              "one still reaches far.",
        "zh": "头 a 在它的查询 i 对键 j（往回 i − j 个位置的键）的分数上加 $−m_a \\cdot (i − j)$：每往回一步付固定的代价，每个头有自己的斜率 $m_a$（论文中的几何数列）。h "
              "= {h} 时：头 1 的 m = {first}，头 {h} 的 m = {last}。陡的头主要读近处的词元；平缓的头仍能看到远处。",
    },
    "llm.pos.beyond_title": {"en": "Beyond the trained length", "zh": "超出训练长度之后"},
    "llm.pos.trained": {"en": "Trained length (positions seen in training)", "zh": "训练长度（训练中见过的位置数）"},
    "llm.pos.beyond_text": {
        "en": ("RoPE with $d_k$ = {dk}: pair j turns once every $2π \\cdot 10000^{{2j/d_k}}$ positions. Trained on {L} "
               "positions, **{unseen} of the {pairs} pairs** never completed a full turn: beyond position {L} they "
               "reach angles the model never saw in training. This is why RoPE models are adapted before reading "
               "longer texts (e.g. position interpolation, Chen et al. 2023)."),
        "zh": ("$d_k$ = {dk} 的旋转位置编码：第 j 对坐标每 $2π \\cdot 10000^{{2j/d_k}}$ 个位置转一整圈。在 {L} 个位置上训练时，"
               "**{pairs} 对中有 {unseen} 对**从未转满一圈：超过位置 {L} 后，它们会转到训练中从未见过的角度。这就是"
               "旋转位置编码的模型在读更长文本之前要先做调整的原因（例如位置插值，Chen 等 2023）。"),
    },
    "llm.pos.beyond_alibi": {
        "en": "ALiBi has no angle to run out of: the penalty at distance {twice} is twice the one at {L}, on the "
              "same straight line. Its paper (“Train Short, Test Long”) trains models on short texts and reports "
              "that they stay stable on texts longer than those they were trained on.",
        "zh": "ALiBi 没有会“用完”的角度：距离 {twice} 处的惩罚正好是 {L} 处的两倍，在同一条直线上。它的论文（《Train Short, Test "
              "Long》）在短文本上训练模型，报告这些模型在比训练时更长的文本上依然稳定。",
    },
    # ----- long context
    "llm.long.title": {"en": "Long context", "zh": "长上下文"},
    "llm.long.intro": {
        "en": "A layer's scores are L × L per head: long texts make attention costly in memory and time. Two of "
              "today's answers: a causal sliding window (Mistral 7B: each token attends to a window of {mw} tokens, "
              "itself and the {before} before it), and FlashAttention's tiling (Dao et al. 2022), which gives the "
              "same result up to rounding without ever holding the L × L matrix. Neither changes how a decoder "
              "starts: it reads the prompt in one parallel pass (the prefill, all of the prompt's scores at once), "
              "then writes one token at a time with its KV cache.",
        "zh": "一层的分数每个头都是 L × L：长文本让注意力在内存和时间上都很昂贵。如今的两种应对：因果滑动窗口（Mistral 7B：每个词元关注一个 {mw} 个词元的窗口，即它自己和它之前的 "
              "{before} 个词元），以及 FlashAttention 的分块计算（Dao 等 2022），它不保存 L × L "
              "矩阵，结果与原来相同（仅差舍入误差）。两者都不改变解码器的开头：它先用一次并行计算读完整个提示（预填充，一次算出提示的全部分数），再借助键值缓存逐个写出词元。",
    },
    "llm.long.window_title": {"en": "Sliding windows, stacked", "zh": "滑动窗口的层层叠加"},
    "llm.long.length": {"en": "Sequence length L", "zh": "序列长度 L"},
    "llm.long.window": {"en": "Window w (keys each query sees)", "zh": "窗口 w（每个查询看到的键数）"},
    "llm.long.reach_text": {
        "en": "One layer with a window of w = {w} keys reaches w − 1 tokens back. Stacked, each layer reads what "
              "the layer below gathered, so {n} layers reach n (w − 1) = **{reach}** tokens back (the last row "
              "above). Mistral 7B's window of {mw} tokens over its {ml} layers reaches {mistral} tokens back: the "
              "“about 131K tokens” of the Mistral paper.",
        "zh": "窗口为 w = {w} 个键的一层能往回看 w − 1 个词元。层层叠加时，每一层读取下一层已汇集的信息，所以 {n} 层能往回看 n (w − 1) = **{reach}** "
              "个词元（上图最后一行）。Mistral 7B 的窗口为 {mw} 个词元，共 {ml} 层，能往回看 {mistral} 个词元：即 Mistral 论文所说的“约 131K 个词元”。",
    },
    "llm.long.memory_title": {"en": "L² memory against tiling", "zh": "L² 的内存与分块计算"},
    "llm.long.block": {"en": "Block size b of the tiles", "zh": "分块大小 b"},
    "llm.long.col_full": {"en": "full L × L scores (MiB)", "zh": "完整 L × L 分数（MiB）"},
    "llm.long.col_tiled": {"en": "tiled (MiB)", "zh": "分块（MiB）"},
    "llm.long.col_ratio": {"en": "ratio", "zh": "倍数"},
    "llm.long.memory_caption": {
        "en": "Bytes of the h = {h} score matrices of one layer (float32, one sequence) against what tiling keeps: "
              "one block of b = {b} scores per query row, plus a running max and a running sum per row. The ratio "
              "is L / (b + 2): the full matrix grows with L², tiling with L. Tiling saves memory, not arithmetic: "
              "every one of the L² scores is still computed, with the same multiplications.",
        "zh": "一层 h = {h} 个分数矩阵的字节数（float32，一个序列），对比分块计算保留的内容：每个查询行一块 b = {b} 个分数，加上每行一个累计最大值和一个累计和。倍数为 L / (b + "
              "2)：完整矩阵随 L² 增长，分块随 L 增长。分块省的是内存，不是算术：L² 个分数每一个仍要计算，乘法次数不变。",
    },
    "llm.long.tiling_title": {"en": "Online softmax, block by block", "zh": "在线 softmax，逐块计算"},
    "llm.long.tile": {"en": "Keys per block", "zh": "每块的键数"},
    "llm.long.tiling_text": {
        "en": ("The query {query} reads its keys in {n} blocks of {b}. After each block it keeps only m (the running "
               "max: the largest score so far) and l (the running sum of $e^{{s − m}}$ so far); when a block brings a "
               "larger m′, the sum and the output so far are rescaled by $e^{{m − m'}}$. After the last block m = {m} "
               "and l = {l}, the softmax's denominator. Over every row of this head, tiled and plain softmax "
               "attention differ by at most {gap}: rounding."),
        "zh": ("查询 {query} 把它的键分成 {n} 块、每块 {b} 个来读。每读完一块只保留 m（累计最大值：到目前为止最大的"
               "分数）和 l（到目前为止 $e^{{s − m}}$ 的累计和）；某一块带来更大的 m′ 时，已有的和与输出都乘上 $e^{{m − m'}}$"
               " 重新缩放。读完最后一块时 m = {m}，l = {l}，即 softmax 的分母。在这个头的所有行上，分块计算与普通 "
               "softmax 注意力最多相差 {gap}：只是舍入误差。"),
    },
    # ----- quiz kinds (explorer/quiz_llm.py) and their names in the live class
    "live.kind.kv_cache_mib": {"en": "Size of a KV cache", "zh": "键值缓存的大小"},
    "live.kind.gqa_params": {"en": "Weights with shared K/V heads", "zh": "共享 K/V 头时的权重数"},
    "live.kind.gqa_group": {"en": "Which K/V head a query head reads", "zh": "查询头读哪个 K/V 头"},
    "live.kind.cache_step_scores": {"en": "Scores of one cached decoding step", "zh": "有缓存时一步解码的分数个数"},
    "live.kind.recompute_ratio": {"en": "What recomputing costs without a cache", "zh": "没有缓存时重算的代价"},
    "live.kind.rope_shift": {"en": "Move the sentence: which scores change?", "zh": "平移句子：哪些分数会变？"},
    "live.kind.alibi_slope": {"en": "ALiBi's penalty for a distance", "zh": "ALiBi 对某个距离的惩罚"},
    "live.kind.window_reach": {"en": "How far stacked windows reach", "zh": "叠加的窗口能看多远"},
    "live.kind.online_softmax": {"en": "Online softmax: the running sum", "zh": "在线 softmax：累计和"},
    "quiz.kv_cache_mib.prompt_mib": {
        "en": ("{model}: {layers} layers, g = {g} K/V heads (h = {h} query heads), $d_k$ = {dk}, numbers of 2 bytes. "
               "Type how many MiB its KV cache holds for one sequence of L = {L} tokens (1 MiB = 2²⁰ bytes)."),
        "zh": ("{model}：{layers} 层，g = {g} 个 K/V 头（h = {h} 个查询头），$d_k$ = {dk}，每个数 2 字节。请输入一个长为 "
               "L = {L} 个词元的序列的键值缓存有多少 MiB（1 MiB = 2²⁰ 字节）。"),
    },
    "quiz.kv_cache_mib.prompt_bytes": {
        "en": ("A tiny decoder: {layers} layers, g = {g} K/V heads (h = {h} query heads), $d_k$ = {dk}, numbers of 2 "
               "bytes. Type how many bytes its KV cache holds after L = {L} tokens."),
        "zh": ("一个很小的解码器：{layers} 层，g = {g} 个 K/V 头（h = {h} 个查询头），$d_k$ = {dk}，每个数 2 字节。请输入"
               "读入 L = {L} 个词元后它的键值缓存有多少字节。"),
    },
    "quiz.kv_cache_mib.explain_mib": {
        "en": ("2 (K and V) × {layers} layers × g = {g} × $d_k$ = {dk} × L = {L} × 2 bytes = {answer} MiB. Only the g "
               "K/V heads are kept, not the h query heads."),
        "zh": "2（K 和 V）× {layers} 层 × g = {g} × $d_k$ = {dk} × L = {L} × 2 字节 = {answer} MiB。缓存只保存 g 个 K/V 头，而不是 h 个查询头。",
    },
    "quiz.kv_cache_mib.explain_bytes": {
        "en": "2 (K and V) × {layers} layers × g = {g} × $d_k$ = {dk} × L = {L} × 2 bytes = {answer} bytes.",
        "zh": "2（K 和 V）× {layers} 层 × g = {g} × $d_k$ = {dk} × L = {L} × 2 字节 = {answer} 字节。",
    },
    "quiz.kv_cache_mib.trap_one_of_kv": {
        "en": "That counts K or V: the cache keeps both, twice as much.",
        "zh": "这只算了 K 或 V 之一：缓存两者都保存，是它的两倍。",
    },
    "quiz.kv_cache_mib.trap_h": {
        "en": "That keeps all h = {h} heads' K and V; the model shares them: only g = {g} K/V heads are cached.",
        "zh": "这是按 h = {h} 个头各存 K 和 V 算的；该模型共享它们：只缓存 g = {g} 个 K/V 头。",
    },
    "quiz.kv_cache_mib.trap_layers": {
        "en": "That is one layer; each of the {layers} layers keeps its own cache.",
        "zh": "这只是一层；{layers} 层中每层都有自己的缓存。",
    },
    "quiz.kv_cache_mib.trap_float32": {
        "en": "That counts 4 bytes per number; the numbers here have 2 bytes (16-bit).",
        "zh": "这是按每个数 4 字节算的；这里每个数是 2 字节（16 位）。",
    },
    "quiz.gqa_params.prompt": {
        "en": ("An attention layer with $d_\\text{{model}}$ = {d}, h = {h} query heads and g = {g} shared K/V heads, no biases. "
               "Type how many weights $W^Q$, $W^K$, $W^V$ and $W^O$ hold together."),
        "zh": ("一个注意力层，$d_\\text{{model}}$ = {d}，h = {h} 个查询头，g = {g} 个共享的 K/V 头，无偏置。请输入 $W^Q$、$W^K$、$W^V$ 和 "
               "$W^O$ 共有多少个权重。"),
    },
    "quiz.gqa_params.explain": {
        "en": ("$W^Q$ and $W^O$ stay $d_\\text{{model}}$ × $d_\\text{{model}}$: 2 · {d2}. $W^K$ and $W^V$ are $d_\\text{{model}}$ × "
               "$g \\cdot d_k$ each ($d_k$ = {d} / {h} = {dk}): 2 · {kv}. Together $2d^2 + 2\\,d\\,g\\,d_k$ = {total}."),
        "zh": ("$W^Q$ 和 $W^O$ 仍是 $d_\\text{{model}}$ × $d_\\text{{model}}$：2 · {d2}。$W^K$ 和 $W^V$ 各为 $d_\\text{{model}}$ × "
               "$g \\cdot d_k$（$d_k$ = {d} / {h} = {dk}）：2 · {kv}。合计 $2d^2 + 2\\,d\\,g\\,d_k$ = {total}。"),
    },
    "quiz.gqa_params.trap_mha": {
        "en": ("4 $d_\\text{{model}}^2$ is multi-head attention with every head's own K and V; here $W^K$ and $W^V$ are "
               "smaller."),
        "zh": "4 $d_\\text{{model}}^2$ 是每个头各有 K 和 V 的多头注意力；这里 $W^K$ 和 $W^V$ 更小。",
    },
    "quiz.gqa_params.trap_no_dk": {
        "en": "Each K/V head is $d_k$ wide: $W^K$ is $d_\\text{{model}}$ × $g \\cdot d_k$, not $d_\\text{{model}}$ × g.",
        "zh": "每个 K/V 头的维度是 $d_k$：$W^K$ 是 $d_\\text{{model}}$ × $g \\cdot d_k$，而不是 $d_\\text{{model}}$ × g。",
    },
    "quiz.gqa_params.trap_no_wo": {
        "en": "$W^O$ is still there: $d_\\text{{model}}$ × $d_\\text{{model}}$ after the concatenation.",
        "zh": "$W^O$ 仍然存在：拼接之后的 $d_\\text{{model}}$ × $d_\\text{{model}}$。",
    },
    "quiz.gqa_params.trap_one_of_kv": {
        "en": "Both $W^K$ and $W^V$ shrink; count both.",
        "zh": "$W^K$ 和 $W^V$ 都变小了；两者都要算。",
    },
    "quiz.gqa_group.prompt": {
        "en": ("h = {h} query heads share g = {g} K/V heads, {r} query heads per K/V head, in order (as Llama's "
               "repeat_kv). Which K/V head does query head {i} read? (heads counted from 1)"),
        "zh": "h = {h} 个查询头按顺序共享 g = {g} 个 K/V 头，每个 K/V 头对应 {r} 个查询头（与 Llama 的 repeat_kv 相同）。查询头 {i} 读哪个 K/V 头？（头从 1 开始编号）",
    },
    "quiz.gqa_group.explain": {
        "en": "Query heads 1…{r} read K/V head 1, the next {r} K/V head 2, and so on: head {i} reads K/V head {j}.",
        "zh": "查询头 1…{r} 读 K/V 头 1，接下来的 {r} 个读 K/V 头 2，依此类推：头 {i} 读 K/V 头 {j}。",
    },
    "quiz.gqa_group.opt": {"en": "K/V head {j}", "zh": "K/V 头 {j}"},
    "quiz.gqa_group.why_right": {
        "en": "Right: K/V head {j} serves query heads {first}…{last}.",
        "zh": "正确：K/V 头 {j} 服务查询头 {first}…{last}。",
    },
    "quiz.gqa_group.why_wrong": {
        "en": "K/V head {j} serves query heads {first}…{last}, a block in order, not every g-th head.",
        "zh": "K/V 头 {j} 服务查询头 {first}…{last}：按顺序连成一块，而不是每隔 g 个取一个。",
    },
    "quiz.cache_step_scores.prompt": {
        "en": ("A decoder with a KV cache has read {t} tokens and now reads token {n}. Type how many attention scores "
               "one head computes in this step."),
        "zh": "一个带键值缓存的解码器已读入 {t} 个词元，现在读入第 {n} 个。请输入这一步中一个头计算多少个注意力分数。",
    },
    "quiz.cache_step_scores.explain": {
        "en": ("One new query row against every key in the cache, its own included: 1 × {n} = {n} scores. The "
               "earlier rows were computed at earlier steps and are not computed again."),
        "zh": "一个新的查询行对缓存中的每个键（包括它自己）：1 × {n} = {n} 个分数。先前的行在先前各步已经算过，不再重算。",
    },
    "quiz.cache_step_scores.trap_square": {
        "en": "That is the whole {n} × {n} matrix, what a decoder without a cache computes again at every step.",
        "zh": "这是整个 {n} × {n} 矩阵，即没有缓存的解码器每一步都要重算的量。",
    },
    "quiz.cache_step_scores.trap_self": {
        "en": "The new token also attends to itself: the causal mask keeps keys 0…t, its own included.",
        "zh": "新词元也关注它自己：因果掩码保留键 0…t，包括它自己。",
    },
    "quiz.cache_step_scores.trap_triangle": {
        "en": "That is every visible score of all rows so far; the earlier rows are not computed again.",
        "zh": "这是到目前为止所有行的全部可见分数；先前的行不再重算。",
    },
    "quiz.recompute_ratio.prompt": {
        "en": ("Without a KV cache a decoder runs the whole causal forward again over all {t} tokens to get token "
               "{t}'s output (projecting every token, the full Q Kᵀ and A V). With the cache it projects one token "
               "and scores one query. Type how many times the matrix FLOPs of the cached step the recomputation costs."),
        "zh": ("没有键值缓存时，解码器为了得到第 {t} 个词元的输出，要对全部 {t} 个词元把整个因果前向计算重做一遍（投影每个"
               "词元，完整的 Q Kᵀ 和 A V）。有缓存时只投影一个词元、用一个查询打分。请输入重算的矩阵浮点运算次数是有缓存"
               "那一步的多少倍。"),
    },
    "quiz.recompute_ratio.explain": {
        "en": ("The cached step costs P + A·t (one row projected, one row of t scores); the recomputation t·P + A·t² "
               "= t (P + A·t): exactly t = {t} times as much."),
        "zh": "有缓存的一步花费 P + A·t（投影一行，一行 t 个分数）；重算花费 t·P + A·t² = t (P + A·t)：正好是 t = {t} 倍。",
    },
    "quiz.recompute_ratio.trap_square": {
        "en": "Only the scores grow as t²; the projections grow as t, and so does the cached step's scoring.",
        "zh": "只有分数按 t² 增长；投影按 t 增长，有缓存那一步的打分也按 t 增长。",
    },
    "quiz.recompute_ratio.trap_half": {
        "en": "A dense forward computes the full t × t matrix and masks it afterwards: nothing is halved.",
        "zh": "稠密的前向计算先算完整的 t × t 矩阵再掩蔽：没有省掉一半。",
    },
    "quiz.recompute_ratio.trap_same": {
        "en": "The recomputation projects t tokens instead of one: it costs more.",
        "zh": "重算要投影 t 个词元而不是一个：代价更大。",
    },
    "quiz.rope_shift.prompt_sinusoidal": {
        "en": ("Positions by a sinusoidal P added to X (the notes). Every token's position grows by {s} (the whole "
               "sentence moves later). Which attention scores change?"),
        "zh": "位置由加到 X 上的正弦 P 给出（笔记的做法）。句子中每个词元都往后移 {s} 个位置。哪些注意力分数会变？",
    },
    "quiz.rope_shift.prompt_rope": {
        "en": ("Positions by RoPE (Q and K turned by position, as in Llama). Every token's position grows by "
               "{s} (the whole sentence moves later). Which attention scores change?"),
        "zh": "位置由旋转位置编码给出（Q 和 K 按位置旋转，如 Llama）。句子中每个词元都往后移 {s} 个位置。哪些注意力分数会变？",
    },
    "quiz.rope_shift.prompt_alibi": {
        "en": "Positions by ALiBi (head a adds $−m_a\\,(i − j)$ to its score of query i and key j, as in BLOOM). "
              "Every token's position grows by {s} (the whole sentence moves later). Which attention scores change?",
        "zh": "位置由 ALiBi 给出（头 a 在查询 i 对键 j 的分数上加 $−m_a\\,(i − j)$，如 BLOOM）。句子中每个词元都往后移 {s} 个位置。哪些注意力分数会变？",
    },
    "quiz.rope_shift.explain_sinusoidal": {
        "en": "X + P changes with the positions, so Q, K and every score can change.",
        "zh": "X + P 随位置而变，所以 Q、K 和每个分数都可能变。",
    },
    "quiz.rope_shift.explain_rope": {
        "en": "$q_m \\cdot k_n$ after turning by m and n depends on the positions only through m − n: moving both "
              "keeps every score (up to rounding).",
        "zh": "按 m 和 n 旋转后的 $q_m \\cdot k_n$ 对位置的依赖只通过 m − n：两者一起平移，每个分数都不变（除舍入误差外）。",
    },
    "quiz.rope_shift.explain_alibi": {
        "en": "The penalty $−m_a\\,(i − j)$ depends on the positions only through the distance, and X, Q, K carry "
              "no position: nothing changes.",
        "zh": "惩罚项 $−m_a\\,(i − j)$ 对位置的依赖只通过距离，而 X、Q、K 不含位置：什么都不变。",
    },
    "quiz.rope_shift.opt_none": {"en": "none (up to rounding)", "zh": "都不变（除舍入误差外）"},
    "quiz.rope_shift.opt_all": {"en": "every score can change", "zh": "每个分数都可能变"},
    "quiz.rope_shift.opt_first_row": {"en": "only the first token's row", "zh": "只有第一个词元的那一行"},
    "quiz.rope_shift.opt_grow": {"en": "every score grows by {s}", "zh": "每个分数都增加 {s}"},
    "quiz.rope_shift.why_none_sinusoidal": {"en": "P is added to X: new positions, new inputs.", "zh": "P 加在 X 上：位置变了，输入也变了。"},
    "quiz.rope_shift.why_all_sinusoidal": {"en": "Right: X + P is a new input.", "zh": "正确：X + P 是新的输入。"},
    "quiz.rope_shift.why_first_row_sinusoidal": {"en": "Every token moved, not only the first.", "zh": "每个词元都移动了，不只是第一个。"},
    "quiz.rope_shift.why_grow_sinusoidal": {
        "en": "The positions enter through sines and cosines, not as a number added to the scores.",
        "zh": "位置通过正弦和余弦进入，而不是作为一个数加到分数上。",
    },
    "quiz.rope_shift.why_none_rope": {
        "en": "Right: the scores depend on the positions only through m − n.",
        "zh": "正确：分数对位置的依赖只通过 m − n。",
    },
    "quiz.rope_shift.why_all_rope": {
        "en": "Q and K do turn, but by the same extra angle: their dot products stay.",
        "zh": "Q 和 K 确实转了，但多转的角度相同：它们的点积不变。",
    },
    "quiz.rope_shift.why_first_row_rope": {"en": "No row is special: every pair keeps its distance.", "zh": "没有哪一行特殊：每一对的距离都不变。"},
    "quiz.rope_shift.why_grow_rope": {"en": "A turn adds nothing to a dot product of two turned vectors.", "zh": "同时旋转两个向量不会给点积加上任何东西。"},
    "quiz.rope_shift.why_none_alibi": {
        "en": "Right: the penalty depends on the positions only through i − j.",
        "zh": "正确：惩罚项对位置的依赖只通过 i − j。",
    },
    "quiz.rope_shift.why_all_alibi": {
        "en": "ALiBi puts no position into X, Q or K, and i − j is the same after the move.",
        "zh": "ALiBi 不把位置放进 X、Q 或 K，而平移后 i − j 不变。",
    },
    "quiz.rope_shift.why_first_row_alibi": {"en": "No row is special: every distance stays.", "zh": "没有哪一行特殊：每个距离都不变。"},
    "quiz.rope_shift.why_grow_alibi": {"en": "The bias uses i − j, not i or j alone.", "zh": "偏置用的是 i − j，而不是单独的 i 或 j。"},
    "quiz.alibi_slope.prompt": {
        "en": "ALiBi with h = {h} heads gives head a the slope $m_a = 2^{{−8a/h}}$ (head {i}: m = {m}) and adds "
              "$−m_a \\cdot d$ to its score of a key d positions back. Type what head {i} adds to the score of a "
              "key d = {d} positions back.",
        "zh": "h = {h} 个头的 ALiBi 给头 a 的斜率为 $m_a = 2^{{−8a/h}}$（头 {i}：m = {m}），并在它对往回 d 个位置的键的分数上加 $−m_a \\cdot "
              "d$。请输入头 {i} 给往回 d = {d} 个位置的键的分数加上多少。",
    },
    "quiz.alibi_slope.explain": {
        "en": "−m · d = −{m} · {d} = {answer}: a fixed price per step back, its own slope per head.",
        "zh": "−m · d = −{m} · {d} = {answer}：每往回一步付固定的代价，每个头有自己的斜率。",
    },
    "quiz.alibi_slope.trap_sign": {
        "en": "The bias is a penalty: far keys lose score, so it is negative.",
        "zh": "偏置是惩罚：越远的键分数越低，所以它是负数。",
    },
    "quiz.alibi_slope.trap_no_d": {"en": "That is one step back; multiply by the distance.", "zh": "这是往回一步的值；要乘以距离。"},
    "quiz.alibi_slope.trap_reversed": {
        "en": "That is the slope of head {h} + 1 − {i}: head 1 has the steepest slope, $2^{{−8/h}}$.",
        "zh": "这是头 {h} + 1 − {i} 的斜率：头 1 的斜率最陡，为 $2^{{−8/h}}$。",
    },
    "quiz.window_reach.prompt": {
        "en": ("Every layer attends to a causal window of w = {w} keys (the token itself and the w − 1 before it). "
               "After {n} such layers, type how many tokens back the last token's output can draw information from."),
        "zh": "每一层都关注 w = {w} 个键的因果窗口（词元自己和它之前的 w − 1 个）。经过 {n} 层这样的层之后，请输入最后一个词元的输出最多能从往回多少个词元处获取信息。",
    },
    "quiz.window_reach.explain": {
        "en": "Each layer reaches w − 1 further back through what the layer below gathered: n (w − 1) = {n} · {w_minus} = {answer}.",
        "zh": "每一层借助下一层已汇集的信息再往回多看 w − 1 个：n (w − 1) = {n} · {w_minus} = {answer}。",
    },
    "quiz.window_reach.trap_nw": {
        "en": "A window of w keys includes the token itself: it reaches w − 1 back, not w.",
        "zh": "w 个键的窗口包括词元自己：它往回看 w − 1 个，而不是 w 个。",
    },
    "quiz.window_reach.trap_one_layer": {
        "en": "That is one layer; the next layer reads tokens that already gathered from further back.",
        "zh": "这只是一层；下一层读到的词元已经汇集了更远处的信息。",
    },
    "quiz.window_reach.trap_power": {
        "en": "The reach adds up layer by layer (w − 1 each); it does not multiply.",
        "zh": "可达范围逐层相加（每层 w − 1），而不是相乘。",
    },
    "quiz.online_softmax.prompt": {
        "en": ("Online softmax (FlashAttention). After the first block of keys a row has running max m = {m1} and "
               "running sum l = {l1} (the sum of $e^{{s − m}}$). The second block's largest score is {b2}, and its sum of "
               "$e^{{s − {b2_sub}}}$ is {e2}. Type l after the second block (two decimals)."),
        "zh": ("在线 softmax（FlashAttention）。读完第一块键后，某一行的累计最大值 m = {m1}，累计和 l = {l1}（$e^{{s − m}}$ "
               "的和）。第二块中最大的分数是 {b2}，它的 $e^{{s − {b2_sub}}}$ 之和为 {e2}。请输入读完第二块后的 l（保留两位小数）。"),
    },
    "quiz.online_softmax.explain": {
        "en": ("The new max is m = {m}. Both sums move to it: l = {l1} · $e^{{{m1} − {m_sub}}}$ + {e2} · $e^{{{b2} − {m_sub}}}$ = "
               "{answer}."),
        "zh": "新的最大值 m = {m}。两个和都换算到它：l = {l1} · $e^{{{m1} − {m_sub}}}$ + {e2} · $e^{{{b2} − {m_sub}}}$ = {answer}。",
    },
    "quiz.online_softmax.trap_no_rescale": {
        "en": "The two sums are relative to different maxima: rescale to the new max before adding.",
        "zh": "两个和相对于不同的最大值：相加之前先换算到新的最大值。",
    },
    "quiz.online_softmax.trap_sign": {
        "en": "Rescale by $e^{{m_\\text{{old}} − m_\\text{{new}}}}$, which is at most 1: the new max makes the old terms smaller.",
        "zh": "乘的是 $e^{{m_\\text{{old}} − m_\\text{{new}}}}$，它不超过 1：新的最大值让旧的各项变小。",
    },
    "quiz.online_softmax.trap_max": {"en": "l is a sum over all keys so far, not the larger of two.", "zh": "l 是到目前为止所有键的和，而不是两者中较大的那个。"},
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
    "fig.llm.alibi_title": {
        "en": "ALiBi's bias −mₐ · d by distance d",
        "zh": "ALiBi 的偏置 −mₐ · d 随距离 d 的变化",
    },
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
    "fig.llm.cache_cols": {"en": "K/V head · coordinate of dₖ", "zh": "K/V 头 · dₖ 中的坐标"},
    "fig.llm.layer": {"en": "layer", "zh": "层"},
    "fig.llm.reach_title": {
        "en": "Which keys reach each query within {n} layers, and through which layer first",
        "zh": "{n} 层之内哪些键能到达每个查询，最早经过哪一层",
    },
    "llm.long.reach_note": {
        "en": "number: the first layer that brings the key to the query · grey: not within these layers (or the future)",
        "zh": "数字：最早把该键带给该查询的层 · 灰色：这些层之内到不了（或是未来）",
    },
}
