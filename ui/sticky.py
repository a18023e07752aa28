"""Choices that must survive every rerun and page switch although their widgets are not bound to the URL.

Streamlit can give a widget a new identity after the first run (when the page becomes known), and a
widget that is not bound to the URL then falls back to its default. These choices are therefore kept
in a plain session-state copy as well and put back into the widget state before the widget is drawn.
"""

from __future__ import annotations

import streamlit as st

STICKY: tuple[str, ...] = ("lang", "preset", "mask", "padded", "source", "theme")


def _copy(key: str) -> str:
    return f"_sticky_{key}"


def set_choice(key: str, value: object) -> None:
    """Set a sticky choice programmatically (a preset, a loaded file, a link)."""
    st.session_state[key] = value
    st.session_state[_copy(key)] = value


def remember(key: str) -> None:
    """on_change of a sticky widget: keep its new value."""
    if key in st.session_state:
        st.session_state[_copy(key)] = st.session_state[key]


def restore() -> None:
    """Start of a run: give every sticky widget back its remembered value."""
    for key in STICKY:
        if _copy(key) in st.session_state:
            st.session_state[key] = st.session_state[_copy(key)]


def restore_keys(keys: tuple[str, ...]) -> None:
    """Before a page draws its own widgets: put back the values they had when the user left the page
    (Streamlit drops the state of widgets that a run does not draw, so a page switch forgets them)."""
    for key in keys:
        if key not in st.session_state and _copy(key) in st.session_state:
            st.session_state[key] = st.session_state[_copy(key)]


def remember_keys(keys: tuple[str, ...]) -> None:
    """After a page has drawn its widgets: keep their values for restore_keys."""
    for key in keys:
        if key in st.session_state:
            st.session_state[_copy(key)] = st.session_state[key]
