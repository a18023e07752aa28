"""A school's network made of network namespaces (only addresses inside them; no interface of this machine's: a link
made there makes every Chromium on the machine drop its page loads): a server namespace with `serve.py` and
deploy/nginx.conf in front of it, two phones with addresses of their own, and a school behind a NAT (MASQUERADE) with
two more phones. Each phone is a student over Streamlit's websocket protocol (tests/live_students.py) joining one
class through nginx.

What this proves that X-Forwarded-For sent from this machine (tests/test_deploy.py) does not: nginx's view of real
peers. The two phones of their own are two networks to the app, held under their own addresses' digests; the
school's two phones are one, under the school's NAT address's; every one is seated. Skipped without root, `ip`,
`iptables` or nginx."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser import NGINX, ROOT, nginx_conf

IP, IPTABLES = shutil.which("ip"), shutil.which("iptables")
pytestmark = pytest.mark.skipif(os.geteuid() != 0 or not (IP and IPTABLES and NGINX),
                                reason="network namespaces need root, ip, iptables and nginx")  # fmt: skip
TAG = f"m{os.getpid() % 100000}"  # namespace and link names of this test process
SERVER, PORT = "10.231.{n}.1", 8080  # the server namespace's address on each LAN
PHONES = {"a": "10.231.1.2", "b": "10.231.2.2"}  # phones with an address of their own
SCHOOL = "10.231.3.2"  # the school's NAT, as the server sees every phone behind it (c1, c2)


def ip(*args: str) -> None:
    subprocess.run([IP, *args], check=True, capture_output=True, text=True)


def in_ns(ns: str, *cmd: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([IP, "netns", "exec", f"{TAG}{ns}", *cmd], capture_output=True, text=True, **kw)


def link(a: str, b: str, a_addr: str, b_addr: str) -> None:
    """A veth pair made inside namespace a, its other end in namespace b, both up with their addresses."""
    ip("-n", f"{TAG}{a}", "link", "add", f"{TAG}{b}", "type", "veth", "peer", "name", f"{TAG}{a}", "netns",
       f"{TAG}{b}")  # fmt: skip
    ip("-n", f"{TAG}{a}", "addr", "add", a_addr, "dev", f"{TAG}{b}")
    ip("-n", f"{TAG}{b}", "addr", "add", b_addr, "dev", f"{TAG}{a}")
    ip("-n", f"{TAG}{a}", "link", "set", f"{TAG}{b}", "up")
    ip("-n", f"{TAG}{b}", "link", "set", f"{TAG}{a}", "up")


@contextlib.contextmanager
def school_network() -> Iterator[None]:
    names = ["srv", "a", "b", "nat", "c1", "c2"]
    try:
        for ns in names:
            ip("netns", "add", f"{TAG}{ns}")
            ip("-n", f"{TAG}{ns}", "link", "set", "lo", "up")
        link("srv", "a", "10.231.1.1/30", "10.231.1.2/30")
        link("srv", "b", "10.231.2.1/30", "10.231.2.2/30")
        link("srv", "nat", "10.231.3.1/30", "10.231.3.2/30")
        link("nat", "c1", "192.168.77.1/30", "192.168.77.2/30")
        link("nat", "c2", "192.168.78.1/30", "192.168.78.2/30")
        for ns, gateway in (("a", "10.231.1.1"), ("b", "10.231.2.1"), ("nat", "10.231.3.1"), ("c1", "192.168.77.1"),
                            ("c2", "192.168.78.1")):  # fmt: skip
            ip("-n", f"{TAG}{ns}", "route", "add", "default", "via", gateway)
        in_ns("nat", "sysctl", "-q", "-w", "net.ipv4.ip_forward=1", check=True)
        in_ns("nat", IPTABLES, "-t", "nat", "-A", "POSTROUTING", "-o", f"{TAG}srv", "-j", "MASQUERADE", check=True)
        yield
    finally:
        for ns in names:
            subprocess.run([IP, "netns", "del", f"{TAG}{ns}"], capture_output=True)


@contextlib.contextmanager
def started(ns: str, cmd: list[str], env: dict[str, str], log: Path) -> Iterator[subprocess.Popen]:
    with log.open("wb") as out:
        proc = subprocess.Popen([IP, "netns", "exec", f"{TAG}{ns}", *cmd], cwd=ROOT, env={**os.environ, **env},
                                stdout=out, stderr=subprocess.STDOUT)  # fmt: skip
    try:
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


HEALTH = """import sys, urllib.request
try:
    print(urllib.request.urlopen(sys.argv[1], timeout=2).read().decode(), end="")
except OSError:
    pass"""
STUDENT = """import json, sys
from tests.live_students import seat
print(json.dumps(seat(sys.argv[1], sys.argv[2], [""])))"""


def test_phones_of_their_own_and_a_school_behind_a_nat_reach_the_class_through_nginx(tmp_path):
    from liveclass import Client, Rooms
    from liveclass.sqlite_backend import SqliteBackend

    db = tmp_path / "live.sqlite3"
    env = {"MHA_LIVE_DB": str(db), "MHA_WARMUP": "0"}
    rooms = Rooms(SqliteBackend(db))
    ticket = rooms.create(Client("t" * 64, "10.231.9.9"))
    rooms.lead(ticket.code, ticket.key, {"page": "glossary"})  # a light page: the joins are what is looked at
    run = Path(tempfile.mkdtemp(prefix="mha-school-nginx-"))  # not in tmp_path: nginx's workers reach its sockets
    (run / "logs").mkdir()
    run.chmod(0o755)
    (run / "nginx.conf").write_text(nginx_conf(str(PORT), ["127.0.0.1:8501", "127.0.0.1:8501"], str(run)))
    server = [sys.executable, "-m", "ui.streamlit_guard", "run", "serve.py", "--server.headless", "true",
              "--server.port", "8501", "--server.address", "127.0.0.1", "--server.fileWatcherType", "none",
              "--browser.gatherUsageStats", "false"]  # fmt: skip
    proxy = [NGINX, "-p", str(run), "-c", str(run / "nginx.conf"), "-e", str(run / "logs" / "error.log"), "-g",
             f"daemon off; pid {run / 'nginx.pid'};"]  # fmt: skip
    with school_network(), started("srv", server, env, tmp_path / "server.log"), \
            started("srv", proxy, {}, tmp_path / "nginx.log"):  # fmt: skip
        deadline = time.monotonic() + 60
        while in_ns("srv", sys.executable, "-c", HEALTH, f"http://127.0.0.1:{PORT}/_stcore/health").stdout != "ok":
            assert time.monotonic() < deadline, [(tmp_path / f).read_text()[-1500:] for f in ("server.log",
                                                                                                  "nginx.log")]
            time.sleep(0.3)
        phones = {"a": SERVER.format(n=1), "b": SERVER.format(n=2), "c1": SERVER.format(n=3),
                  "c2": SERVER.format(n=3)}  # fmt: skip
        joins = {ns: subprocess.Popen([IP, "netns", "exec", f"{TAG}{ns}", sys.executable, "-c", STUDENT,
                                       f"http://{to}:{PORT}", ticket.code], cwd=ROOT, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True)
                 for ns, to in phones.items()}  # fmt: skip
        said = {ns: p.communicate(timeout=120) for ns, p in joins.items()}
    shutil.rmtree(run, ignore_errors=True)
    assert all(json.loads(out.strip().splitlines()[-1]) == ["following"] for out, _ in said.values()), said
    networks = sorted(network for *_, network in rooms.backend.get_students(ticket.code))  # digests, no address
    assert networks == sorted(rooms.network(a) for a in (PHONES["a"], PHONES["b"], SCHOOL, SCHOOL)), networks
    networks = sorted(s.network for s in rooms.seats(ticket.code, ticket.key, viewer=SCHOOL))
    assert networks == [0, 0, 1, 2]  # the school's two phones one network, each phone of its own another
