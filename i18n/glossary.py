"""One vocabulary: the English and Simplified Chinese word for each term the app uses, following the d2l zh
textbook (《动手学深度学习》, d2l-zh) where it has one. tests/test_glossary.py scans every catalogue module in i18n/
and fails when a string uses a forbidden variant, or when an English string uses a term whose Chinese is missing.
The glossary page (app_pages/glossary.py) is drawn from this same list.

Each Term: en, zh (the words to use); forbidden_zh / forbidden_en: regular expressions of variants that must not
appear; en_trigger: when it matches the English string, the Chinese one must contain zh (or one of zh_any);
d2l: the word d2l-zh uses, when it has one ("" when it has none); note / note_zh: a remark for the page, English
and Chinese; avoid: the variants to show on the page (forbidden_zh holds regular expressions).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Term:
    en: str
    zh: str
    forbidden_zh: tuple[str, ...] = ()
    forbidden_en: tuple[str, ...] = ()
    en_trigger: str | None = None
    zh_any: tuple[str, ...] = ()  # accepted instead of zh when en_trigger matches
    note: str = ""
    note_zh: str = ""
    d2l: str = ""
    avoid: tuple[str, ...] = ()


GLOSSARY: tuple[Term, ...] = (
    Term("token", "词元", forbidden_zh=("令牌", "标记符", "记号"), en_trigger=r"\btokens?\b(?!i[sz])",
         zh_any=("分词",), d2l="词元", avoid=("令牌", "标记符", "记号"),
         note="to tokenize: 词元化 / 分词", note_zh="tokenize：词元化 / 分词"),
    Term("query / key / value", "查询 / 键 / 值", forbidden_zh=("询问", "关键字向量", "键向量值"), d2l="查询 / 键 / 值",
         avoid=("询问", "关键字向量")),
    Term("attention weights", "注意力权重", forbidden_zh=("注意力系数", "注意力分数权重"),
         en_trigger=r"\battention weights\b", d2l="注意力权重", avoid=("注意力系数",)),
    Term("attention scores", "注意力分数", forbidden_zh=("注意力得分",), d2l="注意力分数", avoid=("注意力得分",)),
    Term("scaled dot-product attention", "缩放点积注意力",
         forbidden_zh=("缩放点乘注意力", "比例点积注意力", "点积缩放注意力"),
         en_trigger=r"scaled dot-product attention", d2l="缩放点积注意力", avoid=("缩放点乘注意力", "比例点积注意力")),
    Term("additive attention", "加性注意力", forbidden_zh=("可加性注意力", "相加注意力"),
         en_trigger=r"\badditive attention\b", d2l="加性注意力",
         avoid=("可加性注意力",)),
    Term("attention pooling", "注意力汇聚", forbidden_zh=("注意力池化",), d2l="注意力汇聚", avoid=("注意力池化",)),
    Term("scoring function", "评分函数", forbidden_zh=("打分函数", "得分函数", "评分方程"),
         en_trigger=r"\bscoring function", d2l="评分函数", avoid=("打分函数", "得分函数")),
    Term("multi-head attention", "多头注意力", forbidden_zh=("多头关注", "多注意力头机制"), d2l="多头注意力"),
    Term("head", "头", forbidden_zh=("注意力头部",), d2l="头", avoid=("注意力头部",)),
    Term("self-attention", "自注意力", forbidden_zh=("自我注意力", "自身注意力"), d2l="自注意力",
         avoid=("自我注意力",)),
    Term("cross-attention (encoder-decoder attention)", "交叉注意力（编码器-解码器注意力）",
         forbidden_zh=("互注意力", "跨注意力", "编码器–解码器"), forbidden_en=("encoder–decoder",),
         avoid=("互注意力", "跨注意力"), note="encoder-decoder with a hyphen, in both languages",
         note_zh="编码器-解码器：两种语言都用连字符"),
    Term("positional encoding", "位置编码", forbidden_zh=("位置编号", "位置码"), en_trigger=r"\bpositional encoding\b",
         d2l="位置编码", avoid=("位置编号", "位置码")),
    Term("layer normalization (LayerNorm)", "层规范化", forbidden_zh=("层归一化", "层标准化", "层正则化"),
         en_trigger=r"\bLayerNorm\b(?!\()|\blayer norm", d2l="层规范化", avoid=("层归一化", "层标准化")),
    Term("residual connection", "残差连接", forbidden_zh=("残余连接", "残差链接"), d2l="残差连接"),
    Term("concatenation (Concat)", "拼接", forbidden_zh=("连结", "串联"), d2l="连结", avoid=("连结", "串联"),
         note="the notes write 拼接; d2l-zh writes 连结", note_zh="笔记写作“拼接”；d2l-zh 写作“连结”"),
    Term("mask (the matrix, the setting)", "掩码",
         note="causal mask 因果掩码, padding mask 填充掩码", note_zh="因果掩码、填充掩码"),
    Term("to mask / masked", "掩蔽",
         forbidden_zh=("屏蔽", "遮住", "遮挡", "被掩码", "遮盖", "因果掩蔽", "填充掩蔽", "掩码后", "(不加|没有|无)掩蔽",
                       "忽略了掩蔽", "掩蔽依赖"),
         en_trigger=r"\bmask(ed|ing|s)?\b", zh_any=("掩码",), d2l="掩蔽",
         avoid=("屏蔽", "遮挡", "被掩码", "掩码后的", "因果掩蔽"),
         note="the act: a masked key, masked scores; the mask itself is 掩码",
         note_zh="动作：被掩蔽的键、掩蔽后的分数；掩码本身是名词"),
    Term("fused view (one d_model × d_model W)", "融合视图", forbidden_zh=("拼接视图", "堆叠视图", "融合视角"),
         forbidden_en=(r"\b[Ss]tacked view\b",), avoid=("融合视角", "堆叠视图"),
         note="'stacked' is the word of note 004's erratum",
         note_zh="“堆叠”是笔记 004 那条错误用的词"),
    Term("per-head view (h matrices d_model × d_k)", "分头视图", forbidden_zh=("分头视角", "按头的视角"),
         avoid=("分头视角",)),
    Term("principal angle (between subspaces)", "主角度", forbidden_zh=(r"主角(?!度)",), en_trigger=r"principal angle",
         avoid=("主角",), note="主角 alone reads as “protagonist”", note_zh="单说“主角”会被读成“主人公”"),
    Term("not necessarily orthogonal", "不一定正交", forbidden_zh=("并不正交", "不是正交的"),
         forbidden_en=(r"\bnot orthogonal\b", r"\baren't orthogonal\b", r"\bare not orthogonal\b"),
         avoid=("并不正交",)),
    Term("embedding", "嵌入", forbidden_zh=("嵌入向量表示",), d2l="嵌入"),
    Term("batch / batch size", "批量 / 批量大小", forbidden_zh=("批次",), en_trigger=r"(?<!\{)\bbatch",
         zh_any=("批量",), d2l="批量大小", avoid=("批次",), note="one word for a batch and for its size",
         note_zh="批量和批量大小用同一个词"),
    Term("dimension (d_model, d_k: the size of a vector, of one head)", "维度",
         forbidden_zh=(r"(?<!卷积核)宽", "窄"), avoid=("宽度", "窄头"),
         note="a head's d_k is its dimension (note 004: 头维度); width is only a convolution kernel's",
         note_zh="一个头的 d_k 是它的维度（笔记 004：头维度）；“宽度”只用于卷积核"),
    Term("errata (where the notes are wrong)", "勘误", forbidden_zh=("笔记中的错误", "错误页"),
         en_trigger=r"(?<![⟦:])\berrat(?:a|um)\b(?!:)", avoid=("笔记中的错误",), note="the page: 笔记勘误",
         note_zh="页面名称：笔记勘误"),
    Term("overview (the home page)", "总览", forbidden_zh=("概览",), en_trigger=r"\b[Oo]verview\b",
         avoid=("概览",)),
    Term("projector (in a classroom)", "投影仪", forbidden_zh=(r"（投影）", r"用于投影[：，]"),
         en_trigger=r"\bprojector\b", note="a projection (W^Q, W^O) is 投影",
         note_zh="W^Q、W^O 这样的 projection 是“投影”"),
    Term("lecture notes", "笔记", forbidden_zh=("讲义",), en_trigger=r"\b[Nn]otes? \d{3}|\blecture notes?\b",
         avoid=("讲义",)),
    Term("nat (unit of entropy)", "奈特", forbidden_zh=(r"\bnats?\b",), en_trigger=r"\bnats?\b"),
    Term("reshape (the tensor operation)", "重塑", forbidden_zh=(r"(?<![.`\w])reshape(?![(\w])",),
         note="PyTorch code such as .reshape(B, L, d) stays as code", note_zh="代码 .reshape(B, L, d) 保持原样"),
    Term("value (a number in a cell)", "数值",
         note="值 alone is the V of query/key/value; a cell's number is 数值", note_zh="单说“值”指查询/键/值中的 V"),
    Term("Mercer kernel", "Mercer 核", en_trigger=r"\bMercer kernel", note="symmetric, positive semi-definite",
         note_zh="对称且半正定"),
    Term("multiple kernel learning", "多核学习", en_trigger=r"\bmultiple kernel learning\b"),
    Term("symmetry breaking", "对称性破缺", forbidden_zh=("对称破缺",), en_trigger=r"\b[Ss]ymmetry breaking\b"),
    Term("permutation-equivariant", "对排列等变", en_trigger=r"\bpermutation-equivariant\b",
         zh_any=("对排列是等变的",)),
)

# ----- today's decoders (the section "From the notes to LLMs", i18n/catalog_llm.py): d2l-zh has none of these
# words; these are the usual Chinese ones (键值缓存 for KV cache, as 键/值 for key/value).
GLOSSARY += (
    Term("KV cache", "键值缓存", forbidden_zh=("KV快取", "键-值缓存", "键值快取", "KV 快取"),
         en_trigger=r"\bKV cache\b", note="key/value are 键/值 (d2l), so the cache of both is 键值缓存"),
    Term("grouped-query attention", "分组查询注意力",
         forbidden_zh=("分组询问注意力", "(?<!分)组查询注意力", "群组查询注意力"), en_trigger=r"\bgrouped-query\b"),
    Term("multi-query attention", "多查询注意力", forbidden_zh=("多询问注意力", "多重查询注意力"),
         en_trigger=r"\bmulti-query\b"),
    Term("rotary position embedding (RoPE)", "旋转位置编码",
         forbidden_zh=("旋转位置嵌入", "旋转式位置编码", "旋转位置编码器"), en_trigger=r"\b[Rr]otary\b",
         note="编码 as in 位置编码 (d2l), one word for the idea of positions"),
    Term("sliding window", "滑动窗口", forbidden_zh=("滑窗(?!口)", "滑移窗口"), en_trigger=r"\bsliding window"),
    Term("online softmax", "在线 softmax", forbidden_zh=("线上 ?softmax",), en_trigger=r"\b[Oo]nline softmax\b",
         zh_any=("在线softmax",)),
    Term("running max / running sum (online softmax)", "累计最大值 / 累计和",
         forbidden_zh=("运行最大值", "运行和", "滚动最大值"), en_trigger=r"\brunning (max|sum)\b",
         zh_any=("累计最大值", "累计和")),
)

# A cell's value: these English strings must be translated as 数值, never as a bare 值.
CELL_VALUE_EN = ("value", "Value", "values", "Values")

# The symbols of the notes and the app, for the glossary page: (LaTeX, English, Chinese).
NOTATION: tuple[tuple[str, str, str], ...] = (
    (r"X \in \mathbb{R}^{L \times d_{\text{model}}}", "the layer input, one row per token", "层的输入，每个词元一行"),
    (r"L,\ L_k", "number of query tokens, of key/value tokens (T in note 002, n in notes 001, 003)",
     "查询词元数、键/值词元数（笔记 002 记作 T，笔记 001、003 记作 n）"),
    (r"B", "batch size (N in note 000)", "批量大小（笔记 000 记作 N）"),
    (r"d_{\text{model}},\ h,\ d_k = d_{\text{model}}/h", "model width, number of heads, width of one head",
     "模型维度、头数、每个头的维度"),
    (r"W^Q,\ W^K,\ W^V \in \mathbb{R}^{d_{\text{model}} \times d_{\text{model}}}", "the fused projections",
     "融合的投影矩阵"),
    (r"W_i^Q = W^Q[:,\ (i-1)d_k : i\,d_k]", "head i's projection: a column block of W^Q",
     "第 i 个头的投影：W^Q 的一个列块"),
    (r"Q_i = X W_i^Q,\ K_i,\ V_i", "head i's queries, keys, values", "第 i 个头的查询、键、值"),
    (r"S_i = Q_i K_i^\top / \sqrt{d_k}", "head i's scaled attention scores", "第 i 个头缩放后的注意力分数"),
    (r"A_i = \mathrm{softmax}(S_i)", "head i's attention weights (each row sums to 1)",
     "第 i 个头的注意力权重（每行之和为 1）"),
    (r"\mathrm{head}_i = A_i V_i", "head i's output", "第 i 个头的输出"),
    (r"W^O = \begin{bmatrix} W^O_1 \\ \vdots \\ W^O_h \end{bmatrix}", "the output projection, cut into row blocks",
     "输出投影，按行切成块"),
    (r"Y = \mathrm{Concat}(\mathrm{head}_1, \dots, \mathrm{head}_h)\, W^O = \sum_i \mathrm{head}_i W^O_i",
     "the layer's output", "层的输出"),
    (r"W_i^{(q)} = (W_i^Q)^\top,\ q = x^\top", "note 003 / d2l: the same with column vectors",
     "笔记 003 / d2l：同样的计算，用列向量书写"),
)
