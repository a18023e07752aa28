"""Which host names the server answers to: `MHA_ALLOWED_HOSTS`, a comma-separated list of host names or addresses
without scheme or port (`classroom.lan,10.1.2.3`). Unset or empty: any host (the default). Set: a request whose `Host`
header names another host is refused (421 Misdirected Request; a websocket is closed before it opens, which the
server answers with 403), so a page of another site whose name was pointed at the class's server (DNS rebinding) gets
nothing from it. `localhost`, `127.0.0.1` and `::1` are always allowed (the server's own machine: health checks, a
proxy on the same machine that forwards another Host is checked by that Host), and the health check `/_stcore/health`
answers any Host (it says "ok" and nothing else; Kubernetes' HTTP probes send the pod's address as Host). Names are
compared without case and without a trailing dot; an entry that is not a host name or an address is ignored.

deploy/nginx.conf applies the same list (deploy/nginx-conf.sh fills it in); `AllowedHosts` applies it to a server
started as `serve.py` (README, Docker image), for the app's pages, its websocket and the version route alike."""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Callable
from urllib.parse import urlsplit

from .addresses import is_host_name

HOSTS_ENV = "MHA_ALLOWED_HOSTS"
ALWAYS = frozenset({"localhost", "127.0.0.1", "::1"})
HEALTH = "/_stcore/health"  # answers any Host (the server's base path before it: AllowedHosts's `health`)


def _name(entry: str) -> str | None:
    """An entry of the list in its compared form, or None when it is neither a host name nor an address."""
    text = entry.strip().lower().rstrip(".")
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        return text if text and is_host_name(text) else None


def allowed_hosts(raw: str | None) -> frozenset[str] | None:
    """The names a value of the setting allows (with ALWAYS), or None when it allows any host (unset or empty)."""
    names = {n for n in (_name(e) for e in (raw or "").split(",")) if n}
    if not (raw or "").strip():
        return None
    return frozenset(names | ALWAYS)


def host_allowed(host_header: str | None, allowed: frozenset[str] | None) -> bool:
    """True when a request with this `Host` header (name or address, with or without port) may be answered."""
    if allowed is None:
        return True
    if not host_header:
        return False
    try:
        parts = urlsplit(f"//{host_header}")
        _ = parts.port  # a port that is not a number is no host
        hostname = parts.hostname
    except ValueError:
        return False
    if not hostname or parts.username is not None or parts.path or parts.query or parts.fragment:
        return False
    return _name(hostname) in allowed


MISDIRECTED = b"This server does not answer to that host name.\n"


class AllowedHosts:
    """ASGI middleware: requests and websockets whose Host is not allowed are refused before anything else runs.
    Reads `MHA_ALLOWED_HOSTS` once, when the server starts."""

    def __init__(self, app: Callable, raw: str | None = None, health: str = HEALTH) -> None:
        self.app, self.health = app, health
        self.allowed = allowed_hosts(os.environ.get(HOSTS_ENV) if raw is None else raw)

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if self.allowed is None or scope.get("type") not in ("http", "websocket") or scope.get("path") == self.health:
            await self.app(scope, receive, send)
            return
        host = next((v.decode("latin-1") for k, v in scope.get("headers") or () if k.lower() == b"host"), None)
        if host_allowed(host, self.allowed):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        await send({"type": "http.response.start", "status": 421,
                    "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                (b"content-length", str(len(MISDIRECTED)).encode())]})  # fmt: skip
        await send({"type": "http.response.body", "body": MISDIRECTED})


def middleware(health: str = HEALTH) -> list:
    """`AllowedHosts`, as st.App's middleware list takes it (first: nothing runs for a host that is not allowed);
    `health`: the server's health check's path (under its base path)."""
    from starlette.middleware import Middleware

    return [Middleware(AllowedHosts, health=health)]


__all__ = ["ALWAYS", "HEALTH", "HOSTS_ENV", "AllowedHosts", "allowed_hosts", "host_allowed", "middleware"]
