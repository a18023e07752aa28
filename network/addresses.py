"""Who a request comes from: the client's network address, read behind the proxies the deployment trusts.

Behind a reverse proxy every connection comes from the proxy, and the proxy's `X-Forwarded-For` names the client.
That header is believed only when the connection itself comes from a trusted proxy, and then only its right-most entry
that is not itself a trusted proxy: the part a client wrote (anything left of what our proxy appended) is never read.

`MHA_TRUSTED_PROXIES` says which proxies are trusted: a comma-separated list of IP addresses (`10.0.0.5`), networks
in CIDR notation (`10.244.0.0/16`, `fd00::/8`) and host names (`nginx`: looked up, again every `REFRESH` seconds, so a
proxy container that comes back with another address is still trusted). Loopback is always trusted (a proxy on this
machine), and so is a hop through one of deploy/nginx.conf's own Unix sockets. An entry that is none of these trusts
nothing more. A connection from this machine with nothing forwarded has no address (''): one client like any other.
"""

from __future__ import annotations

import ipaddress
import socket
import threading
import time
from collections.abc import Iterable

TRUSTED_ENV = "MHA_TRUSTED_PROXIES"
LOOPBACK = ("127.0.0.0/8", "::1/128")
REFRESH = 30.0  # seconds between two lookups of the host names in the setting
FIRST_LOOKUP = 2.0  # seconds a request waits for the very first lookup of those names
LOCAL = "local"  # the address key of a client with no address (this machine)

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class Trusted:
    """The proxies one value of the setting trusts: its networks, and the current addresses of its host names."""

    def __init__(self, raw: str) -> None:
        self.networks: list[Network] = [ipaddress.ip_network(n) for n in LOOPBACK]
        self.names: list[str] = []
        for part in raw.split(","):
            part = part.strip()
            if not part:
                continue
            try:
                self.networks.append(ipaddress.ip_network(part, strict=False))
            except ValueError:
                if is_host_name(part):
                    self.names.append(part.lower())
                # anything else (a typo) trusts nothing more
        self._resolved: tuple[Network, ...] = ()
        self._next = 0.0  # monotonic time of the next lookup
        self._looked_up = threading.Event()
        self._lock = threading.Lock()

    def __call__(self) -> tuple[Network, ...]:
        """Every trusted network now (host names as last looked up; a lookup is made in the background when due)."""
        if self.names and time.monotonic() >= self._next:
            with self._lock:
                due = time.monotonic() >= self._next
                if due:
                    self._next = time.monotonic() + REFRESH
            if due:
                threading.Thread(target=self._look_up, daemon=True, name="mha-trusted-proxies").start()
            if not self._looked_up.is_set():
                self._looked_up.wait(FIRST_LOOKUP)
        return (*self.networks, *self._resolved)

    def _look_up(self) -> None:
        found: list[Network] = []
        for name in self.names:
            try:
                infos = socket.getaddrinfo(name, None, type=socket.SOCK_STREAM)
            except OSError:
                continue  # not resolvable now: not trusted until it is
            for info in infos:
                addr = str(info[4][0]).split("%", 1)[0]
                try:
                    found.append(ipaddress.ip_network(addr))
                except ValueError:
                    continue
        self._resolved = tuple(found)
        self._looked_up.set()


def is_host_name(text: str) -> bool:
    """True for a DNS host name (labels of letters, digits and inner hyphens; a trailing dot allowed)."""
    labels = text.rstrip(".").split(".")
    return len(text) <= 253 and all(0 < len(p) <= 63 and p.isascii() and p.replace("-", "").isalnum()
                                    and not p.startswith("-") for p in labels)  # fmt: skip


_TRUSTED: dict[str, Trusted] = {}
_TRUSTED_LOCK = threading.Lock()


def trusted(raw: str) -> Trusted:
    """The `Trusted` of one value of the setting (made once per value)."""
    with _TRUSTED_LOCK:
        if raw not in _TRUSTED:
            if len(_TRUSTED) >= 8:
                _TRUSTED.clear()
            _TRUSTED[raw] = Trusted(raw)
        return _TRUSTED[raw]


def _is_trusted(addr: str, networks: Iterable[Network]) -> bool:
    if addr.startswith("unix:"):  # a hop through one of our proxy's own sockets (deploy/nginx.conf's doors)
        return True
    try:
        ip = ipaddress.ip_address(addr)
    except ValueError:
        return False
    return any(ip.version == net.version and ip in net for net in networks)


def client_address(peer: str | None, forwarded: Iterable[str], trusted_raw: str = "") -> str:
    """The client's address: the connection's own (`peer`; None is this machine) unless it comes from a trusted
    proxy, then the right-most X-Forwarded-For entry that is not a trusted proxy ('' when there is none)."""
    networks = trusted(trusted_raw)()
    if peer is not None and not _is_trusted(peer, networks):
        return _canonical(peer) or peer
    hops = [h.strip() for line in forwarded for h in str(line).split(",") if h.strip()]
    for hop in reversed(hops):
        if not _is_trusted(hop, networks):
            return _canonical(hop)  # garbage where our proxy writes an address: '' rather than a made-up one
    return ""


def _canonical(addr: str) -> str:
    try:
        ip = ipaddress.ip_address(addr)
    except ValueError:
        return ""
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ip)


def scope_address(scope: dict, trusted_raw: str = "") -> str:
    """client_address of an ASGI request (its peer and its X-Forwarded-For headers)."""
    peer = (scope.get("client") or (None,))[0]
    forwarded = [v.decode("latin-1") for k, v in scope.get("headers") or () if k.lower() == b"x-forwarded-for"]
    return client_address(peer, forwarded, trusted_raw)


def address_key(address: str) -> str:
    """What the limits count as one client network: an IPv4 address, an IPv6 address's /64 (one home or phone gets
    a whole /64 and may use any address in it), LOCAL for no address."""
    if not address:
        return LOCAL
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return LOCAL
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


__all__ = ["LOCAL", "TRUSTED_ENV", "Trusted", "address_key", "client_address", "is_host_name", "scope_address",
           "trusted"]  # fmt: skip
