"""Strings of the lessons on the pages "From the notes to LLMs": the printable handout's figures of those pages
(lessons/handout_llm.py; their columns reuse the pages' own words, llm.* and fig.llm.*) and the lesson bar's line
under a checkpoint that names its own sizes. English and Simplified Chinese side by side."""

STRINGS: dict[str, dict[str, str]] = {
    "lesson.checkpoint_own_sizes": {
        "en": "This question names every size it uses (a published model's or its own), whatever this stop's setting.",
        "zh": "这道题写明了它用到的所有规模（公开模型的或题目自己给出的），与这一站的设置无关。",
    },
    "handout.llm.decode_setting": {
        "en": "Setting: “{sentence}” ({L} tokens), fed to the decoder one token at a time, then {n} tokens it "
              "generates. {decoder}",
        "zh": "设置：“{sentence}”（{L} 个词元）逐个词元送入解码器，之后它再生成 {n} 个词元。{decoder}",
    },
    "handout.llm.decode_weights": {
        "en": "Layer {layer}: the attention weights of every step, one row per step (grey: the future, masked)",
        "zh": "第 {layer} 层：每一步的注意力权重，每步一行（灰色：未来，被掩蔽）",
    },
    "handout.llm.decode_caption": {
        "en": ("Row s was computed once, at step s + 1, when token s arrived; the last row is the page's last step. "
               "The heads of a K/V group read the same cached keys."),
        "zh": "第 s 行只在第 s + 1 步（词元 s 到来时）算过一次；最后一行就是页面上的最后一步。同一 K/V 组的头读的是同样的缓存键。",
    },
    "handout.llm.generated": {"en": "{token} (generated)", "zh": "{token}（生成）"},
    "handout.llm.col_token": {"en": "token read", "zh": "读入的词元"},
    "handout.llm.decode_cost": {
        "en": "What each step costs, counted: matrix FLOPs of all layers (2 per multiply-add), the KV cache in bytes",
        "zh": "每一步的开销，逐项计数：所有层的矩阵浮点运算次数（每次乘加计 2 次），以及键值缓存的字节数",
    },
    "handout.llm.share_maps": {
        "en": "Attention weights with g = {g} shared K/V heads (h = {h} query heads, causal), one tile per query head",
        "zh": "g = {g} 个共享 K/V 头时的注意力权重（h = {h} 个查询头，因果掩码），每个查询头一张小图",
    },
    "handout.llm.col_bias": {"en": "bias at d = {d}", "zh": "d = {d} 时的偏置"},
    "handout.llm.col_unseen": {"en": "pairs never turned (of {pairs})", "zh": "从未转满一圈的坐标对（共 {pairs} 对）"},
    "handout.llm.reach_title": {
        "en": "Stacked causal windows of w = {w} keys: the keys that reach the last query ({query}), layer by layer",
        "zh": "层层叠加的 w = {w} 个键的因果窗口：逐层看能到达最后一个查询（{query}）的键",
    },
    "handout.llm.within": {"en": "after layer {n}", "zh": "第 {n} 层之后"},
    "handout.llm.reach_caption": {
        "en": "Dark (1): the key reaches the last token's output within that many layers; light (0): not yet.",
        "zh": "深色（1）：在这么多层之内，该键能到达最后一个词元的输出；浅色（0）：还到不了。",
    },
    "handout.llm.row_scores": {
        "en": "The scores of the query {query} (head {head}), one per key",
        "zh": "查询 {query} 的分数（头 {head}），每个键一个",
    },
    "handout.llm.col_block": {"en": "block (keys)", "zh": "块（键）"},
    "handout.llm.col_block_max": {"en": "largest score in the block", "zh": "块内最大的分数"},
}
