"""The URL as the shareable setting.

Most settings widgets are bound to the URL by Streamlit (`bind="query-params"`). Choices whose labels
are translated (language, preset, mask) and the padded tokens are kept in the URL here instead, as
language-neutral codes, so a link made in Chinese opens the same setting in English. On the first run
of a session every parameter is checked; a tampered or out-of-range one is reported and ignored.
"""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

from explorer import Settings, apply_preset, links
from explorer.links import CHOICES, parse_int
from ui import sticky
from ui.lesson_state import URL_PARAMS as LESSON_PARAMS
from ui.quiz_state import URL_PARAMS as QUIZ_PARAMS
from ui.streamlit_guard import DROPPED_PARAM

_LOADED = "_url_loaded"
_REJECTED = "_url_rejected"
_DROPPED = "_url_dropped"  # how many parameters a link had that Streamlit did not read at all
_FILL = "_url_preset_fill"
DEFAULTS = Settings()

# the link's parameters and their checks live in explorer/links.py (a notebook reads links with them too)
LIVE_PARAMS = ("join", "me", "room", "screen", "invite", "as")  # the live class's (classroom/ checks them)
# checked where they are read: ui.quiz_state, ui.lesson_state, the live class, the erratum a citation links to
# (app_pages/errata.py shows a known id first), ui.streamlit_guard's mark of a link Streamlit did not read (load_once)
ELSEWHERE = frozenset((*QUIZ_PARAMS, *LESSON_PARAMS, *LIVE_PARAMS, "erratum", DROPPED_PARAM))


def check_params(params: dict[str, str]) -> tuple[dict[str, object], list[str]]:
    """(accepted values for the hand-synced keys, names of rejected parameters). Pure: testable."""
    return links.check_params(params, ELSEWHERE)


def load_once() -> None:
    """First run of a session: take the hand-synced settings from the URL, note rejected parameters."""
    if st.session_state.get(_LOADED):
        return
    st.session_state[_LOADED] = True
    params = {k: st.query_params.get(k) for k in st.query_params}
    dropped = parse_int(str(params.get(DROPPED_PARAM, "")))
    if dropped is not None:  # Streamlit read nothing of a link with more than 1,000 parameters
        st.session_state[_DROPPED] = dropped
        del st.query_params[DROPPED_PARAM]
    accepted, rejected = check_params(params)
    for name, value in accepted.items():
        sticky.set_choice(name, value)
    preset = accepted.get("preset")
    fill: dict[str, object] = {}
    if preset and preset != "custom":  # a preset in a link brings its own sizes unless the link says otherwise
        filled = apply_preset(DEFAULTS, str(preset))
        for name in ("text", "d_model", "n_heads", "add_pe", "mask", "cross"):
            if name not in params:
                value = getattr(filled, name)
                if name in sticky.STICKY:
                    sticky.set_choice(name, value)
                    continue
                st.session_state[name] = value
                fill[name] = value
        st.session_state[_FILL] = fill
    for name in rejected:  # out of the URL, so that no widget bound to it reads the bad value ("１２" as 12)
        if name != "?":
            if name in st.query_params:
                del st.query_params[name]
            _forget_initial_value(name)
    st.session_state[_REJECTED] = sorted(set(rejected))[:12]


def _forget_initial_value(name: str) -> None:
    """Streamlit seeds a widget bound to the URL from the URL as the page was loaded, not from st.query_params,
    and its own parse of a 5,000-digit number raises (OverflowError) and of "１２" gives 12. There is no public
    way to drop a value from that snapshot: this uses Streamlit 1.67's private one (tests/test_bounded.py
    checks that a tampered link still shows our message and no error, so a change upstream is caught)."""
    ctx = get_script_run_ctx()
    if ctx is None:
        return
    with ctx.session_state.query_params() as qp:
        initial = getattr(qp, "_initial_query_params", None)
        if isinstance(initial, dict):
            initial.pop(name, None)


def keep_preset_fill() -> None:
    """Every run: give the URL-bound widgets that a link's preset filled their value again, as long as the
    user has not changed them. Streamlit gives a widget a new identity after the first run, and a bound
    widget with a new identity reads the URL, where the preset's sizes are not (and st.query_params cannot
    put them there): without this, the first click anywhere turned the paper's d_model 512 back into 64."""
    fill = st.session_state.get(_FILL)
    if not fill:
        return
    for name, value in list(fill.items()):
        if st.session_state.get(name) == value:
            st.session_state[name] = value
        else:  # the user changed it: their value wins from now on
            del fill[name]


def rejected_params() -> list[str]:
    return st.session_state.get(_REJECTED, [])


def dropped_link() -> int | None:
    """How many parameters the opening link had when Streamlit read none of them (too many), else None."""
    return st.session_state.get(_DROPPED)


def sync(values: dict[str, object]) -> None:
    """Write the hand-synced settings to the URL (a default value leaves the URL clean)."""
    for name, value in values.items():
        default = CHOICES[name][1] if name in CHOICES else []
        text = ",".join(str(i) for i in value) if isinstance(value, (list, tuple)) else str(value)
        if value == default or (isinstance(value, (list, tuple)) and not value):
            if name in st.query_params:
                del st.query_params[name]
        elif st.query_params.get(name) != text:
            st.query_params[name] = text
