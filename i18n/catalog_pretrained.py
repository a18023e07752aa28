"""Strings of the pretrained-model page (all-MiniLM-L6-v2 through our own attention core)."""

STRINGS: dict[str, dict[str, str]] = {
    "minilm.title": {"en": "A real model's heads: all-MiniLM-L6-v2", "zh": "真实模型的注意力头：all-MiniLM-L6-v2"},
    "minilm.intro": {
        "en": "Random weights give bland, almost uniform attention. A trained model's heads specialise (note "
              "004). This is all-MiniLM-L6-v2, a small BERT-style encoder: {layers} layers × {heads} heads, "
              "$d_\\text{{model}}$ = {d}, $d_k$ = {dk}. Its real weights are loaded from the installed package "
              "(nothing is downloaded) and every layer's attention is computed by this app's own core; the tests "
              "check every weight against Hugging Face transformers to within 10⁻⁵.",
        "zh": "随机权重得到的注意力平淡、几乎均匀；训练过的模型的头会各有分工（笔记 004）。这里是 all-MiniLM-L6-v2，一个小型 BERT 式编码器：{layers} 层 × {heads} 个"
              "头，$d_\\text{{model}}$ = {d}，$d_k$ = {dk}。它的真实权重从已安装的软件包读取（不联网下载），每一层的注意力都由本应用自己的核心计算；测试逐一核对每个权重，与 "
              "Hugging Face transformers 的差距在 10⁻⁵ 以内。",
    },
    "minilm.missing": {
        "en": ("The pretrained model is not installed ({detail}). Install it with `{command}` (the app's "
               "requirements-weights.txt names it) and reload this page. The other pages work without it."),
        "zh": ("预训练模型尚未安装（{detail}）。请用 `{command}` 安装（本应用的 requirements-weights.txt 列出了它），"
               "然后重新加载本页。其他页面不受影响。"),
    },
    "minilm.broken": {
        "en": "The pretrained model could not be read ({detail}). Reinstall it with `{command}`.",
        "zh": "无法读取预训练模型（{detail}）。请用 `{command}` 重新安装。",
    },
    "minilm.sentence": {"en": "Sentence for the model", "zh": "输入模型的句子"},
    "minilm.sentence_help": {
        "en": "Split into WordPiece tokens; [CLS] is added in front and [SEP] at the end. Up to {n} tokens are shown.",
        "zh": "按 WordPiece 切分；句首加 [CLS]，句尾加 [SEP]。最多显示 {n} 个词元。",
    },
    "minilm.default_text": {
        "en": "The cat sat on the mat because it was tired.",
        "zh": "The cat sat on the mat because it was tired.",
    },
    "minilm.unk": {
        "en": ("{n} of the {total} tokens are [UNK]: this model's vocabulary is English, so most Chinese characters "
               "and rare symbols are unknown to it. Try an English sentence to see its heads at work."),
        "zh": ("{total} 个词元中有 {n} 个是 [UNK]：这个模型的词表是英文的，大多数汉字和少见符号它都不认识。"
               "输入一个英文句子，才能看到它的各个头如何分工。"),
    },
    "minilm.empty": {
        "en": "The sentence is empty: type a few words. Still showing the last sentence.",
        "zh": "句子为空：请输入几个词。仍显示上一个句子。",
    },
    "minilm.truncated": {
        "en": "The sentence has {n} tokens; the first {shown} are shown (the final [SEP] is kept).",
        "zh": "这个句子有 {n} 个词元；只显示前 {shown} 个（保留末尾的 [SEP]）。",
    },
    "minilm.tokens": {"en": "Tokens: {tokens}", "zh": "词元：{tokens}"},
    "minilm.overview": {"en": "Every layer, every head", "zh": "所有层、所有头"},
    "minilm.overview_text": {
        "en": ("{n} attention maps, one per layer and head (rows: queries, columns: keys, each row sums to 1). "
               "Look for diagonals (previous or next token), a bright first column ([CLS]) or last column ([SEP])."),
        "zh": ("共 {n} 张注意力图，每层每个头一张（行：查询，列：键，每行之和为 1）。留意对角线（前一个或后一个词元）、"
               "明亮的第一列（[CLS]）或最后一列（[SEP]）。"),
    },
    "minilm.tile": {"en": "L{layer} H{head}", "zh": "层{layer} 头{head}"},
    "minilm.types": {"en": "Recognisable head types, measured", "zh": "可辨认的头类型（实测）"},
    "minilm.types_text": {
        "en": "For each head, the mean attention weight its queries put on one pattern: 1 means every query "
              "looks only there, a uniform head scores 1/L = {uniform}. The strongest head of each type, beside "
              "the strongest of {n} random heads of the same shapes on the same input (a baseline: without it no "
              "score says “specialised”):",
        "zh": "对每个头，计算其所有查询落在某种模式上的平均注意力权重：1 表示每个查询只看那里，均匀的头得分为 1/L = {uniform}。每种类型得分最高的头，旁边是 {n} 个同样形状、同样输入的随机头"
              "中得分最高者（基线：没有它，任何得分都说明不了“分工”）：",
    },
    "minilm.pattern.previous": {"en": "previous token", "zh": "前一个词元"},
    "minilm.pattern.next": {"en": "next token", "zh": "后一个词元"},
    "minilm.pattern.cls": {"en": "attends to [CLS]", "zh": "关注 [CLS]"},
    "minilm.pattern.sep": {"en": "attends to [SEP]", "zh": "关注 [SEP]"},
    "minilm.pattern.self": {"en": "same token (itself)", "zh": "同一词元（自身）"},
    "minilm.col_type": {"en": "head type", "zh": "头类型"},
    "minilm.col_head": {"en": "strongest head", "zh": "得分最高的头"},
    "minilm.col_score": {"en": "score", "zh": "得分"},
    "minilm.score": {"en": "score", "zh": "得分"},
    "minilm.layer": {"en": "layer", "zh": "层"},
    "minilm.head": {"en": "head", "zh": "头"},
    "minilm.one_head": {"en": "One head up close", "zh": "细看一个头"},
    "minilm.pick_layer": {"en": "Layer", "zh": "层"},
    "minilm.pick_head": {"en": "Head", "zh": "头"},
    "minilm.lines": {"en": "Token to token", "zh": "词元到词元"},
    "minilm.steps": {"en": "Its pipeline, step by step, with the real Q, K, V", "zh": "它的计算流程（真实的 Q、K、V）"},
    "minilm.steps_text": {
        "en": "The layer's input X (L × {d}) times this head's columns of the real $W^Q$, $W^K$, $W^V$ (plus "
              "biases) gives $Q_i$, $K_i$, $V_i$ (L × {dk}); then $S_i$ = $Q_i\\ K_i^\\top$ / √{dk}, $A_i$ = "
              "softmax($S_i$), $\\mathrm{{head}}_i$ = $A_i\\ V_i$.",
        "zh": "该层输入 X（L × {d}）乘以真实 $W^Q$、$W^K$、$W^V$ 中属于这个头的列（加偏置），得到 $Q_i$、$K_i$、$V_i$（L × {dk}）；然后 $S_i$ = "
              "$Q_i\\ K_i^\\top$ / √{dk}，$A_i$ = softmax($S_i$)，$\\mathrm{{head}}_i$ = $A_i\\ V_i$。",
    },
    "minilm.scores_title": {"en": "scaled scores S_i", "zh": "缩放后的分数 S_i"},
    "minilm.weights_title": {"en": "weights A_i", "zh": "权重 A_i"},
    "minilm.output_title": {"en": "head output A_i V_i", "zh": "头输出 A_i V_i"},
}
