"""Strings of the app frame, sidebar and pages."""

STRINGS: dict[str, dict[str, str]] = {
    "app.title": {"en": "Multi-head attention explorer", "zh": "多头注意力探索器"},
}
