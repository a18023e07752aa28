"""Presentation mode of /steps: one step per 1280 x 720 screen, a compact bar with Previous/Next and the step
number at the top, the keys of a presentation clicker, and the step in the link (`step=3`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import streamlit as st

from ui.a11y import move_focus_to
from ui.context import Context
from ui.steps_view import STEP_KEYS, StepsView

STEP_STATE = "step_index"  # 0-based, in session state; the URL's `step` is 1-based
PREV_KEY, NEXT_KEY = "step_prev", "step_next"
INFO_KEY = "step_info"  # the bar's "Step n of 9 · title": the focus goes there after Previous/Next
# Presentation: less empty space above the content, so a step and its chart share one screen.
_COMPACT_CSS = (
    "<style>.stMainBlockContainer { padding-top: 4rem !important; padding-bottom: 1rem !important; }"
    "</style>"
)


@st.cache_resource(show_spinner=False)
def _keys_component():
    js = Path(__file__).with_name("keys.js").read_text(encoding="utf-8")
    return st.components.v2.component("mha_keys", js=js, isolate_styles=False)


def url_step() -> int | None:
    """The 0-based step the link names (`step=1` .. `step=9`), or None."""
    raw = str(st.query_params.get("step", ""))
    if raw.isascii() and raw.isdecimal() and 1 <= int(raw) <= len(STEP_KEYS):
        return int(raw) - 1
    return None


def current_step() -> int:
    """The step shown now: the session's, else the link's, else the first."""
    if STEP_STATE not in st.session_state:
        st.session_state[STEP_STATE] = url_step() or 0
    return min(max(int(st.session_state[STEP_STATE]), 0), len(STEP_KEYS) - 1)


def _go(current: int, delta: int) -> None:
    st.session_state[STEP_STATE] = min(max(current + delta, 0), len(STEP_KEYS) - 1)
    move_focus_to(INFO_KEY)  # a screen reader reads the new step; Tab reaches Next, Shift+Tab Previous


def key_listener(scroll_to: str = "") -> None:
    """The clicker keys (and, with scroll_to, one scroll to an anchor); draws nothing visible."""
    data = {"next": NEXT_KEY, "prev": PREV_KEY, "scroll": scroll_to} if not scroll_to else {"scroll": scroll_to}
    _keys_component()(data=data, key="present_keys")


def clicker(key: str, on_press: Callable[[], None]) -> list[tuple[int, int]]:
    """A live class's clicker keys, counted (ui/keys.js): every press so far, as [(number, +1 or -1), ...] (the last
    50). `on_press` runs, before the next run, whenever presses came in; the caller applies those it has not yet."""
    result = _keys_component()(data={"count": True}, key=key, on_presses_change=on_press)
    raw = getattr(result, "presses", None) or {}
    presses = raw.get("list", []) if isinstance(raw, dict) else []
    return [(int(n), int(d)) for n, d in presses if isinstance(n, int) and d in (1, -1)][-50:]


def pressed(key: str) -> list[tuple[int, int]]:
    """In `clicker`'s on_press: the presses the browser sent (the component's state, read before it is drawn)."""
    raw = (st.session_state.get(key) or {}).get("presses") if isinstance(st.session_state.get(key), dict) else None
    presses = raw.get("list", []) if isinstance(raw, dict) else []
    return [(int(n), int(d)) for n, d in presses if isinstance(n, int) and d in (1, -1)][-50:]


def present_steps(ctx: Context) -> None:
    """One step, its bar on top; the step number is written to the URL. On a live class's screens (ctx.screen) the
    step is the class's: no Previous/Next (a phone follows, the projector's clicker keys move the class)."""
    tr = ctx.t
    last = len(STEP_KEYS) - 1
    current = current_step()
    view = StepsView(ctx, numbers_head=int(st.session_state.get("numbers_head", 0) or 0), compact=True)
    if ctx.screen:
        st.markdown(f"**{tr('steps.progress', n=current + 1, total=last + 1)} · {view.title(STEP_KEYS[current])}**")
        view.draw(current)
        return
    st.html(_COMPACT_CSS)
    st.query_params["step"] = str(current + 1)
    prev_col, info_col, next_col = st.columns([1.4, 5, 1.4], vertical_alignment="center")
    prev_col.button(tr("steps.prev"), key=PREV_KEY, on_click=_go, args=(current, -1), disabled=current == 0,
                    icon=":material/arrow_back:", width="stretch")  # fmt: skip
    info_col.container(key=INFO_KEY).markdown(
        f"**{tr('steps.progress', n=current + 1, total=last + 1)} · {view.title(STEP_KEYS[current])}**")
    next_col.button(tr("steps.next"), key=NEXT_KEY, on_click=_go, args=(current, 1), disabled=current == last,
                    icon=":material/arrow_forward:", type="primary", width="stretch")  # fmt: skip
    with next_col:
        key_listener()
    view.draw(current)
