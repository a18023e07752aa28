"""Helpers for the browser tests: start a Streamlit server, drive Debian's Chromium with Playwright."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
]
IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
# A browser's first page of a session is drawn in two runs (ui/first_screen.py): its first screen, then, once the first
# chart is on screen, the whole page. The first run's hidden element is on the page until the second run replaces it.
FIRST_SCREEN_DONE = "() => !document.querySelector('.st-key-mha_first_screen')"
# A widget whose frontend code is not loaded yet is drawn as a skeleton: after a first screen, which needs none, the
# sidebar's widgets stay skeletons for a moment after the full run has finished (their chunks are fetched then).
NO_SKELETON = "() => !document.querySelector(\"[data-testid='stSkeleton']\")"
# Charts are drawn by ui/plot.js into a div.mha-plot; plotly puts its .main-svg inside once it has drawn.
CHART = ".mha-plot .main-svg"
# Every chart shows the figure the last run sent (data-pending), or its translated failure message.
ALL_CHARTS_DRAWN = """() => [...document.querySelectorAll('.mha-plot')]
    .every(e => e.dataset.drawn !== undefined && e.dataset.drawn === e.dataset.pending)"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def streamlit_server(app: str = "serve.py", timeout: float = 30.0, extra: tuple[str, ...] = (),
                     entry: str = "ui.streamlit_guard", env: dict[str, str] | None = None, root: Path = ROOT,
                     prefix: tuple[str, ...] = (), poll: float = 0.2, pids: dict[str, int] | None = None,
                     warmup: bool = False, base: str = "") -> Iterator[str]:  # fmt: skip
    """A fresh server on a free port (plus `extra` options), started as the README and the Docker image start it
    (`python3 -m ui.streamlit_guard run serve.py`: the app and its live-class route; entry="streamlit" for plain
    `streamlit run`; app="app.py" for the app alone); yields its base URL,
    kills it afterwards. `env` adds to the environment; `root` is the checkout to run, `prefix` goes before the command
    (e.g. taskset), `poll` is the wait between two health checks, and `pids` gets the server's pid by its URL.
    `warmup`: the server warms itself up as in production (ui/warmup.py: six page runs after its health check). Off by
    default: a test's browser is its first visitor at once, and 29 servers' warm-ups cost the suite minutes of CPU;
    tests/test_warmup.py, tests/test_first_screen.py, the benchmarks and the Docker image's tests keep it.
    `base`: the server's base path (`extra` sets server.baseUrlPath to it), where its health check answers."""
    port = free_port()
    cmd = [
        *prefix, sys.executable, "-m", entry, "run", app, "--server.headless", "true",
        "--server.port", str(port), "--server.address", "127.0.0.1",
        "--server.fileWatcherType", "none", "--browser.gatherUsageStats", "false", *extra,
    ]  # fmt: skip
    # The server's log goes to a file, never to a pipe nobody reads while it runs: a pipe holds 64 KB, and a server
    # that logged more (a lesson's worth of warnings) then blocked in its next write, with the logging lock held, so
    # every session froze (CI: a console that never finished a run for 40 s).
    log = Path(tempfile.mkstemp(prefix=f"mha-server-{port}-", suffix=".log")[1])
    url = f"http://127.0.0.1:{port}"
    SERVER_LOGS[url] = log
    with log.open("wb") as err:
        proc = subprocess.Popen(cmd, cwd=root, stdout=subprocess.DEVNULL, stderr=err,
                                env={**os.environ, "MHA_WARMUP": "1" if warmup else "0", **(env or {})})  # fmt: skip
    if pids is not None:
        pids[url] = proc.pid
    try:
        deadline = time.monotonic() + timeout
        while not healthy(f"{url}/{base}" if base else url, timeout=1):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{app} did not become healthy: {server_log(url)}")
            time.sleep(poll)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        SERVER_LOGS.pop(url, None)
        log.unlink(missing_ok=True)


SERVER_LOGS: dict[str, Path] = {}  # a running server's log file, by its URL


def server_log(url: str, tail: int = 3000) -> str:
    """The end of a running server's log (its errors and tracebacks), for a failing test's message."""
    path = SERVER_LOGS.get(url.rstrip("/"))
    try:
        return path.read_text(encoding="utf-8", errors="replace")[-tail:] if path else ""
    except OSError:
        return ""


# Loaded by every Python process started with outbound_watch()'s environment (a sitecustomize on PYTHONPATH): an
# audit hook that writes down, and refuses, each name lookup or TCP connection to somewhere other than this machine,
# before anything is sent. A UDP socket's connect sends nothing (Streamlit reads its internal address that way).
_OUTBOUND_HOOK = """
import os, socket, sys
_LOG = os.environ["MHA_OUTBOUND_LOG"]
_LOCAL = {"localhost", "127.0.0.1", "::1", "0.0.0.0", "", "None"}
def _outbound(event, args):
    if event == "socket.getaddrinfo":
        host, kind = args[0], "lookup"
    elif event == "socket.connect" and args[0].family in (socket.AF_INET, socket.AF_INET6) \\
            and args[0].type == socket.SOCK_STREAM:
        host, kind = args[1][0], "connect"
    else:
        return
    host = host.decode() if isinstance(host, bytes) else str(host)
    if host in _LOCAL or host.startswith("127."):
        return
    with open(_LOG, "a", encoding="utf-8") as f:
        f.write(f"{kind} {host}\\n")
    raise OSError(f"blocked by the test: {kind} {host}")
sys.addaudithook(_outbound)
"""


@contextlib.contextmanager
def outbound_watch() -> Iterator[tuple[dict[str, str], Path]]:
    """An environment for a server process (PYTHONPATH with the hook above) and the file its attempts go to."""
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "sitecustomize.py").write_text(_OUTBOUND_HOOK, encoding="utf-8")
        log = Path(tmp) / "outbound.log"
        log.touch()
        path = os.pathsep.join([tmp, os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
        yield {"PYTHONPATH": path, "MHA_OUTBOUND_LOG": str(log)}, log


def websocket_upgrade(base_url: str, host: str, origin: str | None) -> int:
    """The status an upgrade of /_stcore/stream gets at `base_url` with these Host and Origin headers (sent to the
    address of base_url: a name like classroom.lan is only a header, nothing is looked up)."""
    import base64

    hostname, port = base_url.removeprefix("http://").rsplit(":", 1)
    headers = [f"Host: {host}", "Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Version: 13",
               f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}"]  # fmt: skip
    if origin is not None:
        headers.append(f"Origin: {origin}")
    with socket.create_connection((hostname, int(port)), timeout=10) as s:
        s.sendall(("\r\n".join(["GET /_stcore/stream HTTP/1.1", *headers]) + "\r\n\r\n").encode())
        status = s.recv(4096).split(b"\r\n", 1)[0].decode()  # "HTTP/1.1 101 Switching Protocols"
    return int(status.split()[1])


NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)


def nginx_conf(listen: str, servers: list[str], run: str, allowed_hosts: str = "") -> str:
    """deploy/nginx.conf filled in by deploy/nginx-conf.sh, as docker-compose.yml's nginx fills it at start."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LISTEN": listen, "SERVER_A": servers[0],
           "SERVER_B": servers[1], "RUN": run, "MHA_ALLOWED_HOSTS": allowed_hosts}  # fmt: skip
    return subprocess.run(["sh", str(ROOT / "deploy" / "nginx-conf.sh")], env=env, capture_output=True, text=True,
                          check=True).stdout  # fmt: skip


@contextlib.contextmanager
def nginx_in_front(servers: list[str], timeout: float = 20.0, address: str = "127.0.0.1",
                   allowed_hosts: str = "") -> Iterator[str]:  # fmt: skip
    """deploy/nginx.conf, filled as docker-compose.yml fills it, in front of two servers ("host:port" each), listening
    on `address` (`allowed_hosts`: its MHA_ALLOWED_HOSTS); yields the proxy's base URL once a health check passes
    through it, stops nginx afterwards."""
    with tempfile.TemporaryDirectory() as tmp:
        prefix = Path(tmp)
        prefix.chmod(0o755)  # nginx's workers (nobody, when started as root) open the doors' sockets in it
        (prefix / "logs").mkdir()
        port = free_port()
        (prefix / "nginx.conf").write_text(nginx_conf(f"{address}:{port}", servers, str(prefix), allowed_hosts),
                                           encoding="utf-8")  # fmt: skip
        log = prefix / "logs" / "error.log"
        proc = subprocess.Popen(
            [NGINX or "nginx", "-p", str(prefix), "-c", str(prefix / "nginx.conf"), "-e", str(log),
             "-g", f"daemon off; pid {prefix / 'nginx.pid'};"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        url = f"http://{address}:{port}"
        try:
            deadline = time.monotonic() + timeout
            while not healthy(url, timeout=1):
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"nginx never proxied a healthy answer: {log.read_text()[:2000]}")
                time.sleep(0.2)
            yield url
        finally:
            proc.terminate()
            proc.wait(timeout=10)


def own_address() -> str | None:
    """This machine's address on its network (not loopback), or None: read from a UDP socket's route, which sends
    nothing."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))
            address = s.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") else address


def healthy(url: str, timeout: float = 2.0) -> bool:
    """True when the Streamlit server at `url` (directly or through nginx) answers its health check."""
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=timeout) as r:
            return r.read().decode().strip() == "ok"
    except OSError:
        return False


# What a screen that did not come to rest shows, for the failure's message: its script's state, the app's size, each
# of wait_idle's conditions, the connection status, the text on it.
SCREEN_STATE = f"""() => {{ const app = document.querySelector("[data-testid='stApp']");
    const box = app && app.getBoundingClientRect();
    return {{state: app ? app.dataset.testScriptState : null, app_size: box ? [box.width, box.height] : null,
            visibility: document.visibilityState, ready: document.readyState,
            first_screen_done: ({FIRST_SCREEN_DONE})(), all_charts_drawn: ({ALL_CHARTS_DRAWN})(),
            no_skeleton: ({NO_SKELETON})(),
            connection: (document.querySelector("[data-testid='stStatusWidget']") || {{}}).innerText || '',
            text: (document.body ? document.body.innerText : '').slice(0, 300)}}; }}"""


def wait_idle(page, timeout: float = 60_000) -> None:
    """Wait until the script has finished running and every chart shows what the run sent. A screen that does not
    come to rest fails with what it shows (SCREEN_STATE), not only with the condition it did not meet."""
    steps = (("the run finished", lambda: page.wait_for_selector(IDLE, timeout=timeout)),
             ("the first screen replaced", lambda: page.wait_for_function(FIRST_SCREEN_DONE, timeout=timeout)),
             ("a pause", lambda: page.wait_for_timeout(300)),
             ("the run finished again", lambda: page.wait_for_selector(IDLE, timeout=timeout)),
             ("every chart drawn", lambda: page.wait_for_function(ALL_CHARTS_DRAWN, timeout=timeout)),
             ("no skeleton", lambda: page.wait_for_function(NO_SKELETON, timeout=timeout)))  # fmt: skip
    for what, wait in steps:
        try:
            wait()
        except Exception as exc:
            try:
                shown = page.evaluate(SCREEN_STATE)
            except Exception as inner:  # the page itself is gone
                shown = f"(not readable: {inner})"
            raise AssertionError(f"{page.url} did not come to rest ({what}, {timeout:.0f} ms): {shown}") from exc


def start_live_class(page) -> str:
    """As the teacher on `page`: open the teacher console (/console) of the same server, start a class without a
    lesson, note the key, and show the class the page `page` was on; return the join code. `page` stays on the
    console (a class is led from there since issue 34)."""
    import i18n

    tr = i18n.translator("en")
    origin, path = page.evaluate("() => [location.origin, location.pathname]")
    url_path = path.strip("/").split("/")[-1] or "home"
    page.goto(f"{origin}/console")
    wait_idle(page)
    page.get_by_role("button", name=tr("console.start")).click()
    wait_idle(page)
    code = page.locator(".mha-console-code").inner_text().strip()
    page.get_by_role("button", name=tr("live.key_noted")).click()
    wait_idle(page)
    if url_path not in ("home", "console"):
        choose(page, tr("console.class_page"), tr(f"page.{url_path}"))
    return code


def choose(page, label: str, option: str) -> None:
    """Pick `option` in the select box `label`; a rerun still arriving can close the list or take the choice back,
    so it is chosen again (up to three times) until the box shows it."""
    for _ in range(3):
        page.get_by_label(label, exact=True).click()
        page.get_by_role("option", name=option, exact=True).click()
        wait_idle(page)
        box = page.locator("[data-testid='stSelectbox']", has=page.get_by_label(label, exact=True))
        if option in (box.first.inner_text() or ""):
            return
