"""Strings of the trained tiny decoder on the decoding page (training/checkpoint.py, explorer/decoding.py)."""

STRINGS: dict[str, dict[str, str]] = {
    "decoder.name": {
        "en": "a tiny decoder trained on the course's five notes and the app's own texts, English and Chinese (training lab)",
        "zh": "一个在课程的五份笔记和本应用自己的中英文文字上训练的微型解码器（训练实验室）",
    },
    "decoder.heads_title": {"en": "Which heads found a job (measured)", "zh": "哪些头找到了分工（测量所得）"},
    "decoder.heads_text": {
        "en": ("Two measures for every head of layer {layer}, on the trained decoder and, in brackets, on the same "
               "decoder before training (its random initial weights). **Previous token**: the mean weight a query puts "
               "on the token just before it, over text the decoder never trained on. **Induction**: a random run of "
               "{n} tokens read twice; the mean weight a query of the second copy puts on the token that followed its "
               "earlier copy. 1 means the head does exactly that job; a head that spreads its weight evenly scores "
               "{uniform_prev} and {uniform_ind}. A head is labelled when it scores at least {at} and at least {ratio} "
               "times the best untrained head."),
        "zh": ("第 {layer} 层每个头的两项度量：训练后的解码器，以及括号里训练前（随机初始权重）的同一个解码器。"
               "**前一词元**：在解码器从未训练过的文本上，查询落在它前面那个词元上的平均权重。**归纳**：把 {n} 个"
               "随机词元连续读两遍，第二遍中的查询落在“它第一次出现时后面那个词元”上的平均权重。1 表示这个头恰好"
               "做这件事；把权重平均分散开的头得分为 {uniform_prev} 和 {uniform_ind}。得分至少为 {at}、且至少是"
               "未训练时最高的头的 {ratio} 倍的头，才会被标注。"),
    },
    "decoder.composition": {
        "en": ("How the induction heads find the earlier copy: layer {w_layer}'s head {w_head}, the previous-token head, "
               "writes “the token before me” into every position, and the induction heads' keys read it "
               "(K-composition). Measured: take that head's contribution out of the input of layer {layer}'s keys "
               "only, and the induction scores of heads {heads} fall from {before} to {keys}; take it out of their "
               "queries only, and they stay at {queries}."),
        "zh": ("归纳头如何找到先前的那一份：第 {w_layer} 层的头 {w_head}（前一词元头）把“我前面的那个词元”写进每个位置，"
               "归纳头的键读取它（K 组合）。测量结果：只从第 {layer} 层键的输入中去掉这个头的贡献，头 {heads} 的归纳"
               "得分从 {before} 降到 {keys}；只从查询的输入中去掉，它们仍为 {queries}。"),
    },
    "decoder.sep": {"en": ", ", "zh": "、"},
    "decoder.col_head": {"en": "head", "zh": "头"},
    "decoder.col_previous": {"en": "previous token (untrained)", "zh": "前一词元（未训练）"},
    "decoder.col_induction": {"en": "induction (untrained)", "zh": "归纳（未训练）"},
    "decoder.col_label": {"en": "label", "zh": "标注"},
    "decoder.label.previous": {"en": "previous-token head", "zh": "前一词元头"},
    "decoder.label.induction": {"en": "induction head", "zh": "归纳头"},
    "decoder.label.none": {"en": "–", "zh": "–"},
}
