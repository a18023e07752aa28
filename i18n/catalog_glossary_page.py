"""Strings of the glossary page (app_pages/glossary.py): the vocabulary of i18n/glossary.py, English and Chinese."""

STRINGS: dict[str, dict[str, str]] = {
    "page.glossary": {"en": "Glossary", "zh": "术语表"},
    "glossary.title": {"en": "Glossary: one word per idea, English ↔ 中文", "zh": "术语表：一个概念一个词，English ↔ 中文"},
    "glossary.intro": {
        "en": "The words this app uses, in English and in Chinese, following the Chinese edition of Dive into Deep "
              "Learning (d2l-zh, 《动手学深度学习》) where it has a word. Every text of the app is checked against this "
              "list; the column “not used” names variants you may meet elsewhere that the app avoids.",
        "zh": "本应用使用的词，英文与中文对照；凡是《动手学深度学习》（d2l-zh）有译法的，都采用它的译法。应用中的每一段文字都按这份"
              "列表检查；“不使用”一栏列出你在别处可能见到、而本应用不用的说法。",
    },
    "glossary.col_en": {"en": "English", "zh": "英文"},
    "glossary.col_zh": {"en": "Chinese", "zh": "中文"},
    "glossary.col_d2l": {"en": "d2l-zh", "zh": "d2l-zh"},
    "glossary.col_avoid": {"en": "not used", "zh": "不使用"},
    "glossary.col_note": {"en": "note", "zh": "说明"},
    "glossary.variants": {"en": "Variants the app does not use, and notes", "zh": "本应用不使用的说法与说明"},
    "glossary.notation": {"en": "Symbols", "zh": "符号"},
    "glossary.notation_text": {
        "en": "The symbols of the notes and of this app (rows are tokens, as in notes 000, 001, 002 and 004).",
        "zh": "笔记和本应用中的符号（行对应词元，与笔记 000、001、002、004 一致）。",
    },
    "glossary.col_symbol": {"en": "symbol", "zh": "符号"},
    "glossary.col_meaning": {"en": "meaning", "zh": "含义"},
    "glossary.search": {"en": "Find a word (English or Chinese)", "zh": "查找（英文或中文）"},
    "glossary.none": {"en": "No entry contains “{q}”.", "zh": "没有包含“{q}”的条目。"},
}
