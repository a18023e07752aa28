"""network/: the client's address behind the proxies a deployment trusts (MHA_TRUSTED_PROXIES, host names included:
docker-compose.yml trusts `nginx`), and the host names the server answers to (MHA_ALLOWED_HOSTS), without a server.
The same through real servers and nginx: tests/test_deploy.py and tests/test_compose.py."""

from __future__ import annotations

import asyncio
import socket

import pytest

from network import addresses, allowed_hosts, client_address, host_allowed
from network.hosts import AllowedHosts


def test_the_compose_stack_names_each_student_not_nginx(monkeypatch):
    """The issue's case: nginx reaches a replica from its own address on the compose network. Not trusted, every
    student is nginx; trusted by its name (docker-compose.yml), each student is the address nginx passed on."""
    looked_up = []

    def getaddrinfo(name, *args, **kw):
        looked_up.append(name)
        if name == "nginx":
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("172.18.0.5", 0))]
        raise socket.gaierror(name)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setattr(addresses, "_TRUSTED", {})  # no lookup of an earlier test's
    assert client_address("172.18.0.5", ["10.20.0.7"], "") == "172.18.0.5"
    assert client_address("172.18.0.5", ["10.20.0.7"], "nginx") == "10.20.0.7"
    assert client_address("172.18.0.5", ["6.6.6.6, 10.20.0.7"], "nginx") == "10.20.0.7"  # what a client wrote: no
    assert client_address("172.18.0.9", ["10.20.0.7"], "nginx") == "172.18.0.9"  # another container: not nginx
    assert client_address("172.18.0.5", ["10.20.0.7"], "no-such-proxy, 10.9.0.0/16") == "172.18.0.5"
    assert looked_up.count("nginx") == 1  # looked up once, again after REFRESH seconds


@pytest.mark.parametrize("raw, trusted_peer", [
    ("10.0.0.5", "10.0.0.5"), (" 10.244.0.0/16 ,fd00::/8", "10.244.3.9"), ("10.244.0.0/16,fd00::/8", "fd00::1"),
    ("10.0.0.0/8, typo!, 300.1.2.3", "10.1.1.1"),
])  # fmt: skip
def test_trusted_proxies_are_addresses_networks_or_names_and_a_typo_trusts_nothing_more(raw, trusted_peer):
    assert client_address(trusted_peer, ["198.51.100.7"], raw) == "198.51.100.7"
    assert client_address("192.0.2.1", ["198.51.100.7"], raw) == "192.0.2.1"


@pytest.mark.parametrize("host, allowed", [
    ("classroom.lan", True), ("classroom.lan:8080", True), ("CLASSROOM.LAN.", True), ("10.1.2.3:80", True),
    ("[fd00::5]:8080", True), ("localhost:8501", True), ("127.0.0.1", True), ("[::1]", True),
    ("evil.example", False), ("classroom.lan.evil.example", False), ("evil.classroom.lan", False), ("", False),
    (None, False), ("classroom.lan:x", False), ("user@classroom.lan", False), ("classroom.lan/x", False),
    ("10.1.2.4", False),
])  # fmt: skip
def test_allowed_hosts_match_names_and_addresses_with_or_without_a_port(host, allowed):
    names = allowed_hosts("classroom.lan, 10.1.2.3,fd00::5, not a name!, *")
    assert host_allowed(host, names) is allowed


def test_no_list_allows_any_host():
    assert allowed_hosts(None) is None and allowed_hosts(" ") is None and host_allowed("evil.example", None)


def _asgi(app, kind: str, host: str | None, path: str = "/heads") -> list[dict]:
    sent: list[dict] = []
    headers = [(b"host", host.encode())] if host is not None else []

    async def receive():
        return {"type": "websocket.connect"} if kind == "websocket" else {"type": "http.request", "body": b""}

    async def send(message):
        sent.append(message)

    asyncio.run(app({"type": kind, "path": path, "headers": headers}, receive, send))
    return sent


def test_the_middleware_refuses_other_hosts_before_the_app_runs_and_lets_health_checks_through():
    ran: list[str] = []

    async def app(scope, receive, send):
        ran.append(scope["path"])
        await send({"type": "http.response.start", "status": 200, "headers": []})

    guard = AllowedHosts(app, raw="classroom.lan", health="/mha/_stcore/health")
    assert _asgi(guard, "http", "classroom.lan:8080")[0]["status"] == 200
    assert _asgi(guard, "http", "evil.example")[0]["status"] == 421
    assert _asgi(guard, "websocket", "evil.example") == [{"type": "websocket.close", "code": 1008}]
    assert _asgi(guard, "http", "10.244.3.7:8501", "/mha/_stcore/health")[0]["status"] == 200  # a probe
    assert _asgi(guard, "http", "evil.example", "/_stcore/health")[0]["status"] == 421  # not the server's path
    assert ran == ["/heads", "/mha/_stcore/health"]
    assert _asgi(AllowedHosts(app, raw=""), "http", "evil.example")[0]["status"] == 200  # unset: any host


def test_a_network_is_what_the_limits_count():
    assert addresses.address_key("2001:db8:1:2:aaaa::1") == addresses.address_key("2001:db8:1:2:ffff::9")
    assert addresses.address_key("198.51.100.7") != addresses.address_key("198.51.100.8")
