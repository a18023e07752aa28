"""The server warms itself up for its first visitor (ui/warmup.py): after its health check answers, it opens the first
pages in both languages over its own websocket, and a visitor's page run always goes first."""

from __future__ import annotations

import subprocess
import sys
import threading
import time

import pytest

from tests.browser import ROOT, free_port, healthy
from ui import warmup


def test_the_warm_up_visits_the_first_pages_in_both_languages_once_the_server_is_healthy(monkeypatch):
    seen: list[tuple[str, str]] = []
    health = iter([False, False, True])
    monkeypatch.setattr(warmup, "server_url", lambda: "127.0.0.1:1")
    monkeypatch.setattr(warmup, "_healthy", lambda server: next(health))
    monkeypatch.setattr(warmup, "report", {})
    monkeypatch.setattr(warmup, "done", threading.Event())
    monkeypatch.setattr(warmup, "wait_for_quiet", lambda: True)
    warmup.warm_up(visit=lambda server, page, lang: seen.append((page, lang)) or 0.01)
    assert seen == [(p, lang) for lang in warmup.LANGS for p in warmup.PAGES]
    assert seen[0] == ("", "en"), "the home page (the lesson's first stop) first"
    assert {"heads", "steps"} <= {p for p, _ in seen}
    assert warmup.done.is_set() and len(warmup.report) == len(seen) + 1  # and the imports


def test_a_page_a_visitor_stopped_is_opened_again_later(monkeypatch):
    calls: list[str] = []
    monkeypatch.setattr(warmup, "server_url", lambda: "127.0.0.1:1")
    monkeypatch.setattr(warmup, "_healthy", lambda server: True)
    waits = []  # the switch interval while the warm-up waits for a quiet moment: Python's own
    monkeypatch.setattr(warmup, "wait_for_quiet", lambda: waits.append(sys.getswitchinterval()) or True)
    monkeypatch.setattr(warmup, "report", {})
    monkeypatch.setattr(warmup, "done", threading.Event())

    def visit(server, page, lang):
        assert sys.getswitchinterval() == pytest.approx(warmup.SWITCH)  # while it runs a page: the short one
        calls.append(f"{page}?{lang}")
        if calls.count(f"{page}?{lang}") == 1 and page == "heads":
            raise warmup.Yielded(page)
        return 0.01

    warmup.warm_up(visit=visit)
    assert calls.count("heads?en") == 2 and calls.count("steps?en") == 1
    assert "heads?en" in warmup.report
    assert sys.getswitchinterval() == pytest.approx(0.005), "Python's switch interval is back"
    assert waits and all(w == pytest.approx(0.005) for w in waits)  # a class that came at once: not for 10 minutes


def test_a_failed_warm_up_is_logged_and_the_server_goes_on(monkeypatch, caplog):
    monkeypatch.setattr(warmup, "server_url", lambda: "127.0.0.1:1")
    monkeypatch.setattr(warmup, "_healthy", lambda server: True)
    monkeypatch.setattr(warmup, "done", threading.Event())

    def broken(server, page, lang):
        raise ConnectionError("refused")

    warmup.warm_up(visit=broken)  # no exception
    assert warmup.done.is_set()


def test_a_visitors_run_holds_the_next_warm_up_page_back(monkeypatch):
    """wait_for_quiet returns only once no visitor's run has been going for `quiet` seconds."""
    monkeypatch.setattr(warmup, "_visitors", {"running": 0, "last": 0.0})
    from streamlit.testing.v1 import AppTest

    def visitor_page() -> None:
        import time

        from ui import warmup

        with warmup.visitor():
            time.sleep(0.6)

    at = AppTest.from_function(visitor_page, default_timeout=30)
    runner = threading.Thread(target=at.run)
    runner.start()
    deadline = time.monotonic() + 10
    while warmup._visitors["running"] == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert warmup._visitors["running"] == 1, "the run counts as a visitor's"
    t0 = time.monotonic()
    assert warmup.wait_for_quiet(quiet=0.3, give_up=20)
    runner.join()
    waited = time.monotonic() - t0
    assert waited >= 0.3 and warmup._visitors["running"] == 0
    assert not warmup.wait_for_quiet(quiet=60, give_up=0.2), "gives up while visitors keep the server busy"


def test_the_warm_ups_own_runs_do_not_hold_it_back(monkeypatch):
    monkeypatch.setattr(warmup, "_visitors", {"running": 0, "last": 0.0})
    from streamlit.testing.v1 import AppTest

    def own_page() -> None:
        from ui import warmup

        with warmup.visitor():
            pass

    at = AppTest.from_function(own_page, default_timeout=30)
    at.query_params[warmup.PARAM] = "1"
    at.run()
    at.query_params.clear()  # the session's later runs are its own too
    at.run()
    assert warmup._visitors == {"running": 0, "last": 0.0}


def test_every_request_but_health_checks_and_its_own_holds_the_warm_up_back(monkeypatch):
    import asyncio

    monkeypatch.setattr(warmup, "_visitors", {"running": 0, "last": 0.0})
    passed: list[str] = []

    async def app(scope, receive, send):
        passed.append(scope["path"])

    mw = warmup.VisitorRequests(app)
    for scope in ({"type": "http", "path": "/_stcore/health", "headers": []},
                  {"type": "websocket", "path": "/_stcore/stream", "headers": [(warmup.HEADER.encode(), b"1")]},
                  {"type": "lifespan"}):  # fmt: skip
        asyncio.run(mw({"path": "", **scope}, None, None))
    assert warmup._visitors["last"] == 0.0
    asyncio.run(mw({"type": "http", "path": "/static/js/index.js", "headers": []}, None, None))
    assert time.monotonic() - warmup._visitors["last"] < 5
    assert passed == ["/_stcore/health", "/_stcore/stream", "", "/static/js/index.js"], "every request goes on"


@pytest.mark.timeout(240)
def test_a_fresh_server_answers_its_health_check_and_then_warms_up_every_page():
    """The server (`python3 -m ui.streamlit_guard run serve.py`) serves serve.py's st.App, whose lifespan warms it up:
    healthy first, then one log line naming the six pages."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "ui.streamlit_guard", "run", "serve.py", "--server.headless", "true",
         "--server.port", str(port), "--server.address", "127.0.0.1", "--server.fileWatcherType", "none"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(iter(proc.stdout.readline, "")), daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 120
        while not healthy(url, timeout=1):
            assert proc.poll() is None and time.monotonic() < deadline, "".join(lines)[-2000:]
            time.sleep(0.1)
        assert not any("warm-up:" in line for line in lines), "the health check waited for the warm-up"
        while not any("warm-up" in line for line in lines):
            assert proc.poll() is None and time.monotonic() < deadline, "".join(lines)[-2000:]
            time.sleep(0.2)
        line = next(line for line in lines if "warm-up" in line)
        assert "warm-up: 6 pages" in line, line
        for page in ("home?en", "heads?en", "steps?en", "home?zh", "heads?zh", "steps?zh"):
            assert page in line
        assert not any("Traceback" in line for line in lines), "".join(lines)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
