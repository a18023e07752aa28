"""Strings of issue 24 (bounded memory, fair share, tampered input, editor messages)."""

from __future__ import annotations

STRINGS: dict[str, dict[str, str]] = {
    # ---- figures drawn at the resolution of the screen (figures/resolution.py)
    "fig.reduced": {
        "en": "Reduced to what the screen can show: {what} (hover shows block means)",
        "zh": "已按屏幕分辨率缩减：{what}（悬停显示块平均值）",
    },
    "fig.reduced_cols": {
        "en": "each cell is the mean of {k} adjacent columns ({n} → {m})",
        "zh": "每格为相邻 {k} 列的平均值（{n} → {m}）",
    },
    "fig.reduced_rows": {
        "en": "each cell is the mean of {k} adjacent rows ({n} → {m})",
        "zh": "每格为相邻 {k} 行的平均值（{n} → {m}）",
    },
    # ---- fair share (ui/fair.py)
    "busy.queued": {
        "en": "Busy: other users are drawing large charts. Your chart is queued and will appear here.",
        "zh": "服务器繁忙：其他用户正在绘制大型图表。你的图表已排队，稍后将显示在这里。",
    },
    "busy.queued_for": {
        "en": "Busy: your chart is queued ({seconds} s so far, {ahead} ahead of it). It will appear here.",
        "zh": "服务器繁忙：你的图表正在排队（已等待 {seconds} 秒，前面还有 {ahead} 个）。稍后将显示在这里。",
    },
    # ---- tampered input (explorer/settings_io.py)
    "io.number_too_long": {
        "en": "A number in the settings file has thousands of digits; no setting needs more than a few.",
        "zh": "设置文件中的某个数字长达数千位；任何设置都不需要这么多位数。",
    },
    # ---- the X and weight editors (ui/editing.py)
    "edit.cell": {
        "en": "Row {row}, column {col}: {problem} The cell keeps its last good value.",
        "zh": "行 {row}、列 {col}：{problem}该单元格保留上一个有效值。",
    },
    "edit.empty": {
        "en": "the cell was emptied; type a number such as 0.5 or -2.",
        "zh": "单元格被清空了；请输入数字，例如 0.5 或 -2。",
    },
    "edit.not_a_number": {
        "en": "“{value}” is not a number; type a number such as 0.5 or -2.",
        "zh": "“{value}”不是数字；请输入数字，例如 0.5 或 -2。",
    },
    "edit.not_finite": {
        "en": "“{value}” is not a finite number; type an ordinary number such as 0.5 or -2.",
        "zh": "“{value}”不是有限数；请输入普通数字，例如 0.5 或 -2。",
    },
    "edit.too_large": {
        "en": "{value} is too large: values must lie between -{limit} and {limit}.",
        "zh": "{value} 过大：数值须在 -{limit} 到 {limit} 之间。",
    },
    "edit.too_long": {
        "en": "“{value}” ({n} characters) is too long for a value: values must lie between -{limit} and {limit}.",
        "zh": "“{value}”（{n} 个字符）太长，不是可用的数值：数值须在 -{limit} 到 {limit} 之间。",
    },
    "edit.full_width": {
        "en": "“{value}” is written with full-width characters; type it with half-width ones, e.g. {plain}.",
        "zh": "“{value}”使用了全角字符；请切换到半角输入，例如 {plain}。",
    },
    # ---- training lab (app_pages/lab.py)
    "busy.one_other_training": {
        "en": "1 other training is running on this server: trainings take turns, so yours is slower.",
        "zh": "服务器上还有另外 1 个训练在进行：各个训练轮流使用 CPU，所以你的会慢一些。",
    },
    # ---- Streamlit's own texts (ui/streamlit_text.py)
    "nav.not_found_title": {"en": "Page not found", "zh": "找不到页面"},
    "nav.not_found": {
        "en": "There is no page “{page}” in this app. Pick a page in the sidebar, or start from the overview.",
        "zh": "本应用中没有名为“{page}”的页面。请在侧边栏中选择页面，或从总览开始。",
    },
    "nav.go_home": {"en": "Go to the overview", "zh": "前往总览"},
    "io.upload_limit": {
        "en": "Drag a settings file (.json) here or browse for one; at most {mb} MB.",
        "zh": "将设置文件（.json）拖到这里，或点击按钮选择文件；最大 {mb} MB。",
    },
}
