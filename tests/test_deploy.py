"""deploy/nginx.conf, run for real: nginx in front of two local explorer servers. Health through the proxy, one
browser stays on one server (route cookie), many browsers spread over both, and a page with its websocket
works through the proxy in Chromium."""

from __future__ import annotations

import http.cookiejar
import shutil
import subprocess
import time
import urllib.request
from contextlib import ExitStack
from pathlib import Path

import pytest

from tests.browser import CHART, CHROMIUM, CHROMIUM_ARGS, free_port, healthy, streamlit_server, wait_idle

ROOT = Path(__file__).resolve().parent.parent
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
pytestmark = pytest.mark.skipif(NGINX is None, reason="nginx is not installed (.ci/run installs it)")


@pytest.fixture(scope="module")
def proxy(tmp_path_factory):
    prefix = tmp_path_factory.mktemp("nginx")
    (prefix / "logs").mkdir()
    with ExitStack() as stack:
        a = stack.enter_context(streamlit_server())
        b = stack.enter_context(streamlit_server())
        port = free_port()
        conf = (ROOT / "deploy" / "nginx.conf").read_text(encoding="utf-8")
        conf = conf.replace("__LISTEN__", f"127.0.0.1:{port}")
        conf = conf.replace("__SERVER_A__", a.removeprefix("http://")).replace("__SERVER_B__", b.removeprefix("http://"))
        (prefix / "nginx.conf").write_text(conf, encoding="utf-8")
        proc = subprocess.Popen(
            [NGINX, "-p", str(prefix), "-c", str(prefix / "nginx.conf"), "-e", str(prefix / "logs" / "error.log"),
             "-g", f"daemon off; pid {prefix / 'nginx.pid'};"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )  # fmt: skip
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 20
        while not healthy(url):
            assert proc.poll() is None, (prefix / "logs" / "error.log").read_text()
            assert time.monotonic() < deadline, "nginx never proxied a healthy answer"
            time.sleep(0.2)
        try:
            yield url, {a.removeprefix("http://"), b.removeprefix("http://")}
        finally:
            proc.terminate()
            proc.wait(timeout=10)


def _browser_like_client():
    jar = http.cookiejar.CookieJar()
    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))


def _upstream(opener, url: str) -> str:
    with opener.open(f"{url}/_stcore/health", timeout=5) as r:
        assert r.read() == b"ok"
        return r.headers["X-Explorer-Upstream"]


def test_health_through_the_proxy_and_one_browser_stays_on_one_server(proxy):
    url, servers = proxy
    client = _browser_like_client()
    seen = {_upstream(client, url) for _ in range(12)}
    assert len(seen) == 1 and seen <= servers


def test_many_browsers_spread_over_both_servers(proxy):
    url, servers = proxy
    seen = {_upstream(_browser_like_client(), url) for _ in range(24)}
    assert seen == servers


@pytest.mark.browser
def test_a_page_and_its_websocket_work_through_the_proxy(proxy):
    from playwright.sync_api import sync_playwright

    url, _ = proxy
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page()
        page.goto(f"{url}/heads")
        wait_idle(page)
        page.locator(CHART).first.wait_for(timeout=60_000)
        box = page.get_by_role("spinbutton", name="Number of heads h")
        box.fill("4")
        box.press("Enter")  # a rerun over the proxied websocket
        page.wait_for_function("() => location.search.includes('n_heads=4')", timeout=30_000)
        wait_idle(page)
        assert page.get_by_test_id("stException").count() == 0
        browser.close()
