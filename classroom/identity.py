"""Who is asking: one browser (a secret it keeps), at one network address.

The browser's secret is made and kept by `identity.js` (local storage, and a cookie for the next page load); the
server keeps only its SHA-256 (`browser_id`). A student's seat and a teacher's screen are bound to it, so a link with
someone else's `me=` id opened in another browser gets a seat of its own, and a browser can hold only a few seats.

The address (`address`): the client's network address as `network.addresses` reads it behind the proxies the
deployment trusts (`MHA_TRUSTED_PROXIES`); '' for this machine without a proxy.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import streamlit as st
from streamlit.errors import StreamlitDuplicateElementKey

from liveclass import Client
from network import TRUSTED_ENV, client_address

COOKIE = "mha_client"
BROWSER = "_live_browser"  # session key: the browser's id (hash of its secret), once known


def _valid_secret(secret: object) -> bool:
    return (isinstance(secret, str) and 22 <= len(secret) <= 64 and secret.isascii()
            and all(c.isalnum() or c in "-_" for c in secret))  # fmt: skip


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode("ascii")).hexdigest()


@st.cache_resource(show_spinner=False)
def _component():
    js = Path(__file__).with_name("identity.js").read_text(encoding="utf-8")
    return st.components.v2.component("mha_identity", js=js, isolate_styles=False)


def _take(secret: object) -> str:
    if _valid_secret(secret):
        st.session_state[BROWSER] = hash_secret(str(secret))
    return st.session_state.get(BROWSER, "")


def browser_id() -> str:
    """This browser's id, '' until it is known: from the cookie of the page's first request (a browser that has been
    here before), else from identity.js once it has answered (ask_browser)."""
    known = st.session_state.get(BROWSER)
    if known:
        return known
    try:
        cookie = st.context.cookies.get(COOKIE)
    except Exception:  # no browser context (AppTest)
        cookie = None
    return _take(cookie)


def ask_browser(later: bool = False) -> str:
    """browser_id(), and while it is unknown, the small element that asks the browser (its answer reruns the app).
    `later`: only its place this run (a first screen, ui/first_screen.py: that rerun would end it before its chart)."""
    known = browser_id()
    if known:
        return known
    if later:
        st.empty()  # the element comes in the same place in the next run: the page after it keeps its places
        return ""
    try:
        result = _component()(data={"cookie": COOKIE}, key="live_identity", on_secret_change=lambda: None)
    except StreamlitDuplicateElementKey:  # already asked in this run (the join box and a join link, say)
        return ""
    return _take(getattr(result, "secret", None))


def address() -> str:
    """This connection's client address (see client_address); '' in tests and for this machine."""
    try:
        peer = st.context.ip_address
        forwarded = st.context.headers.get_all("X-Forwarded-For")
    except Exception:  # no browser context (AppTest)
        return ""
    return client_address(peer, forwarded, os.environ.get(TRUSTED_ENV, ""))


def client() -> Client:
    """This browser at this address, as the room store counts clients."""
    return Client(browser_id(), address())
