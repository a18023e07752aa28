"""Who is asking: one browser (a secret it keeps), at one network address.

The browser's secret is made and kept by `identity.js` (local storage, and a cookie for the next page load); the
server keeps only its SHA-256 (`browser_id`). A student's seat and a teacher's screen are bound to it, so a link with
someone else's `me=` id opened in another browser gets a seat of its own, and a browser can hold only a few seats.

The address (`address`): behind a reverse proxy every connection comes from the proxy, so the proxy's
`X-Forwarded-For` names the client. That header is believed only when the connection itself comes from a trusted
proxy (loopback, or `MHA_TRUSTED_PROXIES`, a comma-separated list of addresses and networks), and then only its
right-most entry that is not itself a trusted proxy: the part the client wrote (anything left of what our proxy
appended) is never read. A connection from this machine without a proxy has no address (''), and address limits do
not apply to it.
"""

from __future__ import annotations

import hashlib
import ipaddress
import os
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

import streamlit as st
from streamlit.errors import StreamlitDuplicateElementKey

from liveclass import Client

COOKIE = "mha_client"
BROWSER = "_live_browser"  # session key: the browser's id (hash of its secret), once known
TRUSTED_ENV = "MHA_TRUSTED_PROXIES"
LOOPBACK = ("127.0.0.0/8", "::1/128")


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


@lru_cache(maxsize=4)
def _networks(raw: str) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    out = []
    for part in (*LOOPBACK, *raw.split(",")):
        part = part.strip()
        if not part:
            continue
        try:
            out.append(ipaddress.ip_network(part, strict=False))
        except ValueError:
            continue  # a typo in the setting trusts nothing more
    return tuple(out)


def _trusted(addr: str, networks: Iterable) -> bool:
    if addr.startswith("unix:"):  # a hop through one of our proxy's own sockets (deploy/nginx.conf's doors)
        return True
    try:
        ip = ipaddress.ip_address(addr)
    except ValueError:
        return False
    return any(ip in net for net in networks)


def client_address(peer: str | None, forwarded: Iterable[str], trusted: str = "") -> str:
    """The client's address: the connection's own (`peer`; None is this machine) unless it comes from a trusted
    proxy, then the right-most X-Forwarded-For entry that is not a trusted proxy ('' when there is none). Pure."""
    networks = _networks(trusted)
    if peer is not None and not _trusted(peer, networks):
        return peer
    hops = [h.strip() for line in forwarded for h in str(line).split(",") if h.strip()]
    for hop in reversed(hops):
        if not _trusted(hop, networks):
            try:
                return str(ipaddress.ip_address(hop))
            except ValueError:
                return ""  # garbage where our proxy writes an address: no address rather than a made-up one
    return ""


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
