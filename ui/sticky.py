"""Choices that must survive every rerun and page switch although their widgets are not bound to the URL.

Streamlit can give a widget a new identity after the first run (when the page becomes known), and a
widget that is not bound to the URL then falls back to its default. These choices are therefore kept
in a plain session-state copy as well and put back into the widget state before the widget is drawn.
The copies live in one dict (one session-state key, STORE): Streamlit's keyed widgets read every session-state
key on every run (`filtered_state`), so each extra key costs every widget of every run a little.
"""

from __future__ import annotations

import streamlit as st

STICKY: tuple[str, ...] = ("lang", "preset", "mask", "padded", "source", "theme")


STORE = "_sticky"  # widget key -> remembered value


def _copies() -> dict[str, object]:
    return st.session_state.setdefault(STORE, {})


def set_choice(key: str, value: object) -> None:
    """Set a sticky choice programmatically (a preset, a loaded file, a link)."""
    st.session_state[key] = value
    _copies()[key] = value


def remember(key: str) -> None:
    """on_change of a sticky widget: keep its new value."""
    if key in st.session_state:
        _copies()[key] = st.session_state[key]


def restore() -> None:
    """Start of a run: give every sticky widget back its remembered value."""
    copies = _copies()
    for key in STICKY:
        if key in copies:
            st.session_state[key] = copies[key]


def restore_keys(keys: tuple[str, ...]) -> None:
    """Before a page draws its own widgets: put back the values they had when the user left the page
    (Streamlit drops the state of widgets that a run does not draw, so a page switch forgets them)."""
    copies = _copies()
    for key in keys:
        if key not in st.session_state and key in copies:
            st.session_state[key] = copies[key]


def remember_keys(keys: tuple[str, ...]) -> None:
    """After a page has drawn its widgets: keep their values for restore_keys."""
    copies = _copies()
    for key in keys:
        if key in st.session_state:
            copies[key] = st.session_state[key]
