"""Strings of presentation mode, the student link, theme, reset and print (issue 23)."""

STRINGS: dict[str, dict[str, str]] = {
    "present.more": {"en": "More: the full text and the numbers", "zh": "更多：完整说明与数值"},
}
