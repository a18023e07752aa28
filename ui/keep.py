"""Page choices that survive a visit to another page and a language switch.

Streamlit drops the state of a widget that a run does not draw (another page), so its choice falls back to
the default when the page comes back; and a radio or selectbox whose options stay the same but whose
translated labels change can keep showing the old language's label. A kept widget therefore gets a key of
its language (a fresh widget per language, showing the new labels) and its value lives in a plain
session-state copy that no page switch deletes (the same idea as ui/sticky.py, for page-local choices). The
copies share one session-state key (STORE), as ui/sticky.py's do: every key costs every keyed widget a little.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

STORE = "_kept"  # name -> remembered choice
CHECKS = "_kept_checks"  # name -> the `valid` test its kept() was given


def _copies() -> dict[str, object]:
    return st.session_state.setdefault(STORE, {})


def widget_key(name: str, lang: str | None = None) -> str:
    return f"{name}__{lang}" if lang else name


def kept(name: str, default: object, lang: str | None = None,
         valid: Callable[[object], bool] | None = None) -> str:  # fmt: skip
    """Before drawing the widget: put the remembered choice (or `default`) into its state; returns its key.
    Draw it with that key, without a value/index/default argument, and `on_change=remember, args=(name, key)`.
    `valid` rejects a remembered value the current setting cannot show (a query beyond the sentence)."""
    key = widget_key(name, lang)
    if valid is not None:
        st.session_state.setdefault(CHECKS, {})[name] = valid
    copies = _copies()
    value = st.session_state.get(key, copies.get(name, default))
    if valid is not None and not valid(value):
        value = default
    st.session_state[key] = value
    copies[name] = value
    return key


def remember(name: str, key: str) -> None:
    """on_change of a kept widget. A value its `valid` test refuses (a forged message: Streamlit hands a select box a
    string that is none of its options) is not remembered, and the widget gets the remembered choice back."""
    if key not in st.session_state:
        return
    check = st.session_state.get(CHECKS, {}).get(name)
    if check is not None and not check(st.session_state[key]):
        if name in _copies():
            st.session_state[key] = _copies()[name]
        return
    _copies()[name] = st.session_state[key]


def value(name: str, default: object = None) -> object:
    """The remembered choice, also on a run that does not draw its widget."""
    return _copies().get(name, default)


def forget_all() -> None:
    """Every kept choice back to its default (reset): the copies and the widgets' own states."""
    names = list(_copies())
    st.session_state[STORE] = {}
    for key in list(st.session_state):
        key = str(key)
        if any(key == n or key.startswith(f"{n}__") for n in names):
            del st.session_state[key]
