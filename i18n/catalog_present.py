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
    "screen.theme": {"en": "Screen", "zh": "屏幕"},
    "screen.theme_help": {
        "en": "Follow the browser's light or dark preference, or choose: dark (high contrast) suits a dim room "
        "with a projector. The page reloads once to switch.",
        "zh": "跟随浏览器的浅色或深色偏好，或自行选择：深色（高对比度）适合较暗的投影仪教室。切换时页面会重新加载一次。",
    },
    "screen.auto": {"en": "Browser", "zh": "跟随浏览器"},
    "screen.light": {"en": "Light", "zh": "浅色"},
    "screen.dark": {"en": "Dark", "zh": "深色"},
    "screen.reset": {"en": "Reset to defaults", "zh": "恢复默认设置"},
    "screen.reset_help": {
        "en": "Every setting, edited cell and page choice back to its default (the language, screen and presentation "
        "mode stay).",
        "zh": "把所有设置、修改过的格子和页面选择恢复为默认值（语言、屏幕和演示模式保持不变）。",
    },
}
