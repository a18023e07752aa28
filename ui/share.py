"""The student link: the teacher's setting and step, the teacher's language pinned, no presentation settings.

A student's phone must not open a 770 px projector heatmap (present/large dropped), nor switch to the phone's
own language when the teacher's is English (lang is always written), and it opens at the step on the screen.
"""

from __future__ import annotations

from urllib.parse import urlencode, urlsplit, urlunsplit

import streamlit as st

from explorer import Settings

DEFAULTS = Settings()
# the widget-bound settings a link carries (ui/sidebar.py binds them to the URL under these names)
BOUND = ("text", "cross", "text_kv", "d_model", "n_heads", "seed", "scale", "add_pe", "layer", "text_pad")
WORKED_FIXED = ("text", "cross", "text_kv", "d_model", "n_heads")  # the worked preset sets these itself


def _text(value: object) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def student_query(settings: Settings, lang: str, step: int | None = None) -> dict[str, str]:
    """The query parameters of the student link (pure: testable). `step` is 1-based, None when not on /steps."""
    query: dict[str, str] = {"lang": lang}
    if settings.preset != DEFAULTS.preset:
        query["preset"] = settings.preset
    for name in BOUND:
        if settings.preset == "worked" and name in WORKED_FIXED:
            continue
        if (name == "text_kv" and not settings.cross) or (name == "text_pad" and settings.mask != "padding"):
            continue
        if name == "layer" and not settings.real:
            continue
        value = getattr(settings, name)
        if value != getattr(DEFAULTS, name) or settings.preset not in ("custom", DEFAULTS.preset):
            # a preset in a link fills its own sizes unless the link says otherwise: say it always
            query[name] = _text(value)
    if settings.weight_source != DEFAULTS.weight_source:
        query["source"] = settings.weight_source
    if settings.mask != DEFAULTS.mask:
        query["mask"] = settings.mask
    if settings.padded:
        query["padded"] = ",".join(str(i) for i in settings.padded)
    if step is not None:
        query["step"] = str(step)
    return query


def student_link(page_url: str, settings: Settings, lang: str, step: int | None = None) -> str:
    """`page_url` (its own query dropped) with the student query."""
    parts = urlsplit(page_url)
    return urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(student_query(settings, lang, step)), ""))


def student_link_panel(tr, settings: Settings, lang: str) -> None:
    """Inside the share expander: the link as copyable text (st.code has a copy button; no clipboard permission)."""
    url = st.context.url or ""
    on_steps = urlsplit(url).path.rstrip("/").endswith("/steps")
    step = None
    if on_steps and "step_index" in st.session_state:
        step = int(st.session_state["step_index"]) + 1
    elif on_steps and str(st.query_params.get("step", "")).isdecimal():
        step = int(st.query_params["step"])
    st.markdown(f"**{tr('share.student_link')}**", help=tr("share.student_link_help"))
    st.code(student_link(url, settings, lang, step), language=None, wrap_lines=True)
