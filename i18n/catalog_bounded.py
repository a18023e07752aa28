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
}
