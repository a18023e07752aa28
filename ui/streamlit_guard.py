"""Streamlit 1.67 asks the internet for this machine's address when it refuses a websocket: not here.

A websocket whose `Origin` is not the page's own host:port (a page of another site, or a proxy that rewrote `Host`)
is checked against Streamlit's allowed origins (`server_util.is_url_from_allowed_origins`): localhost, the
machine's internal address, then its *external* one, which `net_util.get_external_ip` fetches from
checkip.amazonaws.com (1 s timeout, http then https, and again at the next refusal when it failed). The app
promises that nothing leaves the machine, so here that lookup is not made: the external address is unknown, and an
origin naming it is refused like any other foreign origin (the same-origin check, localhost, the internal address
and `server.corsAllowedOrigins` are Streamlit's, unchanged). The internal address is read from a UDP socket's
route, which sends nothing.

`install()` applies to the Streamlit version this was written against only. It runs before the server starts
when the server is started as `python3 -m ui.streamlit_offline run app.py ...` (the Docker image does), and at the
app's first page run otherwise (ui/frame.py); deploy/nginx.conf refuses a foreign origin itself, so behind it the
servers never see one.
"""

from __future__ import annotations

import threading
from typing import Any

import streamlit

STREAMLIT_VERSION = "1.67.0"
_lock = threading.Lock()
ORIGINAL: dict[str, Any] = {}  # what install() replaced, by name (for the tests' comparisons)


def get_external_ip() -> str | None:
    """`net_util.get_external_ip` without asking checkip.amazonaws.com: the external address is not known."""
    return None


def install() -> bool:
    """Put the replacement in place (once per process); False, changing nothing, on another Streamlit version."""
    if streamlit.__version__ != STREAMLIT_VERSION:
        return False
    from streamlit import net_util

    with _lock:
        if net_util.get_external_ip is not get_external_ip:
            ORIGINAL.setdefault("get_external_ip", net_util.get_external_ip)
            net_util.get_external_ip = get_external_ip  # server_util looks it up in net_util at every check
    return True


if __name__ == "__main__":  # `python3 -m ui.streamlit_offline run app.py ...`: Streamlit's CLI, installed first
    from streamlit.web.cli import main

    from ui import streamlit_offline  # the module itself, not this __main__ copy of it

    streamlit_offline.install()
    main(prog_name="streamlit")
