"""deploy/nginx.conf, run for real: nginx in front of two local explorer servers. Health through the proxy, one
browser stays on one server (route cookie), new browsers take turns so both servers get the same share, a forged
cookie gets a route of its own, a server that is down leaves its browsers to the other, and a page with its
websocket works through the proxy in Chromium."""

from __future__ import annotations

import http.cookiejar
import urllib.request
from collections import Counter
from contextlib import ExitStack

import pytest

from tests.browser import CHART, CHROMIUM, CHROMIUM_ARGS, NGINX, free_port, nginx_in_front, streamlit_server, wait_idle

pytestmark = pytest.mark.skipif(NGINX is None, reason="nginx is not installed (.ci/run installs it)")


@pytest.fixture(scope="module")
def servers():
    with ExitStack() as stack:
        yield [stack.enter_context(streamlit_server()).removeprefix("http://") for _ in range(2)]


@pytest.fixture(scope="module")
def proxy(servers):
    with nginx_in_front(servers) as url:
        yield url, set(servers)


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


def test_new_browsers_take_turns_so_both_servers_get_the_same_share(proxy):
    url, servers = proxy
    seen = Counter(_upstream(_browser_like_client(), url) for _ in range(24))
    assert set(seen) == servers and sorted(seen.values()) == [12, 12], seen  # round-robin, not a coin per browser


def test_a_cookie_this_proxy_did_not_write_gets_a_route_of_its_own(proxy):
    url, servers = proxy
    for forged in ["c", "../explorer_a", "explorer_b", "x" * 4000]:
        request = urllib.request.Request(f"{url}/_stcore/health", headers={"Cookie": f"mha_route={forged}"})
        with urllib.request.urlopen(request, timeout=5) as r:
            assert r.read() == b"ok" and r.headers["X-Explorer-Upstream"] in servers
            routes = [c.split(";")[0] for c in r.headers.get_all("Set-Cookie") if c.startswith("mha_route=")]
            assert routes in (["mha_route=a"], ["mha_route=b"]), routes


def test_a_browser_whose_server_is_down_is_served_by_the_other(servers):
    down = f"127.0.0.1:{free_port()}"  # nothing listens there
    with nginx_in_front([down, servers[1]]) as url:
        for route in ["a", "b"]:
            request = urllib.request.Request(f"{url}/_stcore/health", headers={"Cookie": f"mha_route={route}"})
            for _ in range(3):
                with urllib.request.urlopen(request, timeout=10) as r:
                    tried = r.headers["X-Explorer-Upstream"].split(", ")  # nginx lists each server it tried
                    assert r.read() == b"ok" and tried[-1] == servers[1], tried


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
