"""Strings of presentation mode, the student link, theme, reset and print (issue 23)."""

STRINGS: dict[str, dict[str, str]] = {
    "present.more": {"en": "More: the full text and the numbers", "zh": "更多：完整说明与数值"},
    "share.student_link": {"en": "Copy the student link", "zh": "复制学生链接"},
    "share.student_link_help": {
        "en": "The same numbers and step for the students, in this language, without presentation mode. "
        "Copy it with the button at its right.",
        "zh": "给学生的链接：相同的数值和步骤，使用当前语言，不含演示模式。用右侧的按钮复制。",
    },
    "worked.core_weights": {
        "en": "The app's softmax of the unrounded scores, for comparison: {weights}",
        "zh": "应用用未舍入的分数算出的 softmax，供对照：{weights}",
    },
}
