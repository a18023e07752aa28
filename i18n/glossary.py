"""One vocabulary: the English and Simplified Chinese word for each term the app uses, following the d2l zh
textbook (《动手学深度学习》) where it has one. tests/test_glossary.py scans every catalogue module in i18n/ and
fails when a string uses a forbidden variant, or when an English string uses a term whose Chinese is missing.

Each Term: en, zh (the words to use); forbidden_zh / forbidden_en: regular expressions of variants that must not
appear; en_trigger: when it matches the English string, the Chinese one must contain zh (or one of zh_any).
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


GLOSSARY: tuple[Term, ...] = (
    Term("token", "词元", forbidden_zh=("令牌", "标记符", "记号"), en_trigger=r"\btokens?\b(?!i[sz])",
         zh_any=("分词",), note="d2l: 词元 (tokenize: 词元化 / 分词)"),
    Term("query / key / value", "查询 / 键 / 值", forbidden_zh=("询问", "关键字向量", "键向量值")),
    Term("attention weights", "注意力权重", forbidden_zh=("注意力系数", "注意力分数权重"),
         en_trigger=r"\battention weights\b"),
    Term("attention scores", "注意力分数", forbidden_zh=("注意力得分",)),
    Term("scaled dot-product attention", "缩放点积注意力",
         forbidden_zh=("缩放点乘注意力", "比例点积注意力", "点积缩放注意力"),
         en_trigger=r"scaled dot-product attention"),
    Term("additive attention", "加性注意力", forbidden_zh=("可加性注意力", "相加注意力"),
         en_trigger=r"\badditive attention\b"),
    Term("positional encoding", "位置编码", forbidden_zh=("位置编号", "位置码"), en_trigger=r"\bpositional encoding\b"),
    Term("layer normalization (LayerNorm)", "层规范化", forbidden_zh=("层归一化", "层标准化", "层正则化"),
         en_trigger=r"\bLayerNorm\b(?!\()|\blayer norm", note="d2l: 层规范化"),
    Term("scoring function", "评分函数", forbidden_zh=("打分函数", "得分函数", "评分方程"),
         en_trigger=r"\bscoring function"),
    Term("attention pooling", "注意力汇聚", forbidden_zh=("注意力池化",)),
    Term("to mask / masked", "掩蔽", forbidden_zh=("屏蔽", "遮住", "遮挡", "被掩码", "遮盖"),
         en_trigger=r"\bmask(ed|ing|s)?\b", zh_any=("掩码",), note="d2l: 掩蔽 (verb); the mask itself: 掩码"),
    Term("projector (in a classroom)", "投影仪", forbidden_zh=(r"（投影）", r"用于投影[：，]"),
         en_trigger=r"\bprojector\b"),
    Term("lecture notes", "笔记", forbidden_zh=("讲义",), en_trigger=r"\b[Nn]otes? \d{3}|\blecture notes?\b"),
    Term("nat (unit of entropy)", "奈特", forbidden_zh=(r"\bnats?\b",), en_trigger=r"\bnats?\b"),
    Term("reshape (the tensor operation)", "重塑", forbidden_zh=(r"(?<![.`\w])reshape(?![(\w])",),
         note="PyTorch code such as .reshape(B, L, d) stays as code"),
    Term("value (a number in a cell)", "数值", note="值 alone is the V of query/key/value; a cell's number is 数值"),
    Term("not necessarily orthogonal", "不一定正交", forbidden_zh=("并不正交", "不是正交的"),
         forbidden_en=(r"\bnot orthogonal\b", r"\baren't orthogonal\b", r"\bare not orthogonal\b")),
    Term("fused view (one d_model × d_model W)", "融合视图", forbidden_zh=("拼接视图", "堆叠视图"),
         forbidden_en=(r"\b[Ss]tacked view\b",), note="'stacked' is the word of note 004's erratum"),
    Term("head", "头", forbidden_zh=("注意力头部",)),
    Term("cross-attention", "交叉注意力", forbidden_zh=("互注意力", "跨注意力")),
    Term("self-attention", "自注意力", forbidden_zh=("自我注意力", "自身注意力")),
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
