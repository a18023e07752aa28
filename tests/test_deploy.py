"""deploy/nginx.conf, run for real: nginx in front of two local explorer servers. Health through the proxy, one
browser stays on one server (route cookie), new browsers take turns so both servers get the same share, a forged
cookie gets a route of its own, a server that is down leaves its browsers to the other, and a page with its
websocket works through the proxy in Chromium.

A school network: the websocket upgrade with the Host and Origin a class really sends (classroom.lan:8080,
10.1.2.3:8080; sent to 127.0.0.1, so nothing leaves the machine) gets 101 and a foreign Origin 403, and a refused
websocket makes no server ask anything outside (each server runs with an audit hook that writes down and blocks
every lookup or connection to another machine). Every answer carries the security headers, /_stcore/metrics
answers this machine only, paths the app does not serve are 404, and in Chromium, with classroom.lan:8080 mapped to
the proxy, every page loads and draws its charts under the Content-Security-Policy without one violation; a
teacher and a student hold a live class through it.

Where the students are (X-Forwarded-For sent to the proxy from this machine, which nginx and the servers trust as
they trust a proxy on it): students with addresses of their own and a class behind one school address join through
nginx, each seated, the app naming each by the address nginx passed on; codes guessed from one network through nginx
are slowed for that network only. With MHA_ALLOWED_HOSTS, nginx (and a bare server, serve.py) answer only the names
listed; other methods and odd requests get their status and put no traceback in the server's log.

Set MHA_DEPLOY_SHOTS to a folder to keep screenshots of the teacher and the student."""

from __future__ import annotations

import http.cookiejar
import os
import socket
import urllib.error
import urllib.request
from collections import Counter
from contextlib import ExitStack
from pathlib import Path
from urllib.parse import urlparse

import pytest

from tests.browser import (
    CHART,
    CHROMIUM,
    CHROMIUM_ARGS,
    NGINX,
    free_port,
    nginx_in_front,
    outbound_watch,
    own_address,
    start_live_class,
    streamlit_server,
    wait_idle,
    websocket_upgrade,
)
from tests.conftest import CHARTLESS, PAGES
from tests.live_students import seat

pytestmark = pytest.mark.skipif(NGINX is None, reason="nginx is not installed (.ci/run installs it)")
OUTBOUND: list[Path] = []  # each server's record of what it tried to reach outside this machine


@pytest.fixture(scope="module")
def servers():
    """Two fresh servers started with plain `streamlit run serve.py` (without ui/streamlit_guard installed before
    the start: nginx alone keeps their refusals from asking outside), each watched for outbound requests; no page
    has run on them before the websocket tests below."""
    with ExitStack() as stack:
        urls = []
        for _ in range(2):
            env, log = stack.enter_context(outbound_watch())
            OUTBOUND.append(log)
            # no warm-up (ui/warmup.py): its page runs would put the guard in place before the tests below
            urls.append(stack.enter_context(streamlit_server(entry="streamlit", env={**env, "MHA_WARMUP": "0"}))
                        .removeprefix("http://"))  # fmt: skip
        yield urls


@pytest.fixture(scope="module")
def proxy(servers):
    with nginx_in_front(servers) as url:
        yield url, set(servers)


def _asked_outside() -> list[str]:
    return [line for log in OUTBOUND for line in log.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("host", ["classroom.lan:8080", "10.1.2.3:8080", "classroom.lan", "[fd00::5]:8080"])
def test_a_class_on_any_name_lan_address_or_port_gets_its_websocket(proxy, host):
    url, _ = proxy
    assert websocket_upgrade(url, host, f"http://{host}") == 101
    assert websocket_upgrade(url, host, f"https://{host}") == 101  # a TLS proxy in front of this one
    assert websocket_upgrade(url, host, None) == 101  # no Origin: not a browser (Streamlit lets it in too)


@pytest.mark.parametrize("origin", ["http://evil.example:8080", "http://classroom.lan:9999", "http://classroom.lan",
                                    "http://10.1.2.3:8080", "null", "http://classroom.lan:8080.evil.example"])
def test_a_page_of_another_origin_is_refused_and_nothing_leaves_the_machine(proxy, origin):
    url, _ = proxy
    assert websocket_upgrade(url, "classroom.lan:8080", origin) == 403
    assert _asked_outside() == []


def _get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


@pytest.mark.parametrize("path", ["/", "/heads", "/_stcore/health", "/app/static/favicon.png", "/.git/config"])
def test_every_answer_carries_the_security_headers(proxy, path):
    url, _ = proxy
    _, headers, _ = _get(url + path, {"Host": "classroom.lan:8080"})
    assert headers["X-Frame-Options"] == "SAMEORIGIN"
    assert headers["X-Content-Type-Options"] == "nosniff"
    csp = headers["Content-Security-Policy"]
    assert "frame-ancestors 'self'" in csp and "connect-src 'self'" in csp and "default-src 'self'" in csp


@pytest.mark.parametrize("path", ["/.streamlit/config.toml", "/.git/config", "/app.py", "/frame.py",
                                  "/static/../app.py", "/requirements.txt", "/heads/x/y", "/.env"])
def test_a_path_the_app_does_not_serve_is_not_answered_with_the_app_page(proxy, path):
    url, _ = proxy
    status, _, body = _get(url + path)
    assert status == 404 and b"<div id=\"root\">" not in body


@pytest.mark.parametrize("path", ["/", "/heads", "/heads/", "/no-such-page", "/_stcore/health", "/_stcore/host-config",
                                  "/favicon.png", "/manifest.json", "/app/static/favicon.png"])
def test_what_the_app_serves_still_answers(proxy, path):
    url, _ = proxy
    status, _, _ = _get(url + path)
    assert status == 200  # an unknown page name gets the app's own translated "not found" page


def test_metrics_answer_this_machine_only(servers):
    with nginx_in_front(servers) as url:
        status, _, body = _get(f"{url}/_stcore/metrics")
        assert status == 200 and body  # asked from this machine
    address = own_address()
    if address is None:
        pytest.skip("this machine has no network address other than loopback")
    with nginx_in_front(servers, address=address) as url:  # asked from the machine's network address
        status, _, body = _get(f"{url}/_stcore/metrics")
        assert status == 403 and b"session" not in body
        assert _get(f"{url}/_stcore/health")[0] == 200


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


# ---------------------------------------------------------------- where the students are
SCHOOL = "198.51.100.7"  # the school's one public address (its NAT, or its web proxy)


def test_a_class_behind_one_address_and_students_with_their_own_join_through_nginx(proxy):
    """24 students behind the school's one address and 8 with addresses of their own (each address what nginx passes
    on: X-Forwarded-For from this machine, which it trusts) join through nginx onto both servers: every one is seated
    with the default limits, and the teacher's seat list names the school's 24 as one network and the others as eight
    more (the console's own network: the school's)."""
    from liveclass import Client, open_rooms

    url, _ = proxy
    rooms = open_rooms()  # the servers' store: the SQLite file of this test run (tests/conftest.py)
    ticket = rooms.create(Client("t" * 64, SCHOOL))
    rooms.lead(ticket.code, ticket.key, {"page": "glossary"})  # a light page: the joins are what is measured here
    own = [f"203.0.113.{i}" for i in range(1, 9)]
    said = seat(url, ticket.code, [SCHOOL] * 24 + own)
    assert said == ["following"] * 32, said
    seats = rooms.seats(ticket.code, ticket.key, viewer=SCHOOL)
    networks = [s.network for s in seats]
    assert len(seats) == 32 and networks.count(0) == 24 and sorted(set(networks) - {0}) == list(range(1, 9))
    rooms.end(ticket.code, ticket.key)


def _raw(url: str, request: str) -> str:
    """The status line a raw HTTP/1.1 request gets."""
    host, port = url.removeprefix("http://").rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=10) as s:
        s.sendall(request.encode("latin-1"))
        return s.recv(4096).split(b"\r\n", 1)[0].decode("latin-1")


def test_codes_guessed_through_nginx_are_slowed_for_that_network_only(proxy):
    from liveclass import Client, open_rooms

    url, _ = proxy
    rooms = open_rooms()
    ticket = rooms.create(Client("t" * 64, SCHOOL))
    guesser, school = {"X-Forwarded-For": "192.0.2.66"}, {"X-Forwarded-For": SCHOOL}
    statuses = [_get(f"{url}/live/version?room=ZZ{a}{b}{c}{d}", guesser)[0]
                for a in "234" for b in "567" for c in "89" for d in "ABCDE"][:31]  # fmt: skip
    assert statuses == [404] * 30 + [429], statuses
    status, headers, _ = _get(f"{url}/live/version?room={ticket.code}", guesser)
    assert status == 429 and int({k.lower(): v for k, v in headers.items()}["retry-after"]) >= 1  # real codes too
    assert _get(f"{url}/live/version?room={ticket.code}", school)[0] == 200  # the school's do not
    rooms.end(ticket.code, ticket.key)


def test_nginx_with_allowed_hosts_answers_only_those_names(servers):
    with nginx_in_front(servers, allowed_hosts="classroom.lan, 10.1.2.3") as url:
        for host in ("classroom.lan:8080", "10.1.2.3:8080", "CLASSROOM.LAN"):
            assert _get(f"{url}/heads", {"Host": host})[0] == 200
        for host in ("evil.example:8080", "classroom.lan.evil.example", "10.1.2.4:8080"):
            assert _get(f"{url}/heads", {"Host": host})[0] == 421
        assert websocket_upgrade(url, "classroom.lan:8080", "http://classroom.lan:8080") == 101
        assert websocket_upgrade(url, "evil.example:8080", "http://evil.example:8080") == 421  # DNS rebinding
        assert _get(f"{url}/_stcore/health")[0] == 200  # 127.0.0.1: always


@pytest.fixture(scope="module")
def guarded():
    """A bare server as the README and the image start it, with MHA_ALLOWED_HOSTS."""
    with streamlit_server(env={"MHA_ALLOWED_HOSTS": "classroom.lan"}) as url:
        yield url


def test_a_bare_server_with_allowed_hosts_answers_only_those_names(guarded):
    assert websocket_upgrade(guarded, "classroom.lan:8501", "http://classroom.lan:8501") == 101
    assert websocket_upgrade(guarded, "evil.example:8501", "http://evil.example:8501") == 403  # closed before it opens
    for host, status in (("classroom.lan:8501", 200), ("evil.example", 421), ("", 421), ("127.0.0.1:9", 200),
                         ("[::1]:8501", 200), ("classroom.lan:x", 421)):  # fmt: skip
        assert _raw(guarded, f"GET /heads HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n") == \
            f"HTTP/1.1 {status} " + {200: "OK", 421: "Misdirected Request"}[status], host  # fmt: skip
    assert _get(f"{guarded}/live/version?room=ABCDEF", {"Host": "evil.example"})[0] == 421
    assert _get(f"{guarded}/_stcore/health", {"Host": "10.244.3.7:8501"})[0] == 200  # a probe (Host: the pod's address)


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE", "FOO"])
def test_other_methods_on_the_version_route_are_405_and_put_no_traceback_in_the_log(guarded, proxy, method):
    from tests.browser import server_log

    for base in (guarded, proxy[0]):
        for _ in range(3):
            line = _raw(base, f"{method} /live/version?room=ABCDEF HTTP/1.1\r\nHost: classroom.lan\r\n"
                              "Content-Length: 0\r\nConnection: close\r\n\r\n")  # fmt: skip
            assert line.split()[1] in ("405", "400"), (base, line)  # nginx refuses TRACE and unknown methods itself
    for base in (guarded, *(f"http://{s}" for s in proxy[1])):
        assert "Traceback" not in server_log(base, tail=10**6)


ODD = [  # what a client may send the version route, and what each gets
    ("GET /live/version?room=%ff%fe%00 HTTP/1.1", "X-Forwarded-For: not an address, \x7f", 404),
    ("GET /live/version?room=ABCDEF&seat=" + "s" * 5000 + " HTTP/1.1", "X-Forwarded-For: 1.2.3.4, ::ffff:1.2.3.4", 404),
    ("GET /live/version?room=ABCDEF&room=XYZ234&following=%ZZ HTTP/1.1", "X-Forwarded-For: 999.1.1.1", 404),
    ("GET /live/version?" + "&".join(f"k{i}=v" for i in range(2000)) + " HTTP/1.1", "X-Forwarded-For: ,,,", 404),
    ("HEAD /live/version?room=ABCDEF HTTP/1.1", "Cookie: mha_client=" + "x" * 3000, 404),
]


@pytest.mark.parametrize("request_line, header, status", ODD,
                         ids=["bad-encoding", "long-seat", "repeated", "many-parameters", "head-long-cookie"])
def test_odd_requests_to_the_version_route_get_an_answer_and_no_traceback(guarded, request_line, header, status):
    from tests.browser import server_log

    line = _raw(guarded, f"{request_line}\r\nHost: classroom.lan\r\n{header}\r\nConnection: close\r\n\r\n")
    assert line.split()[1] == str(status), line
    assert "Traceback" not in server_log(guarded, tail=10**6)


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


# Every Content-Security-Policy violation of the page, from its first script on.
CSP_WATCH = """window.__csp = []; document.addEventListener('securitypolicyviolation',
    e => window.__csp.push(`${e.effectiveDirective} ${e.blockedURI}`));"""


def _lan_browser(pw, url: str):
    """Chromium that reaches the proxy as http://classroom.lan:8080 and http://10.1.2.3:8080: the names only map to
    the proxy's local port (its Host and Origin headers are those a class sends; nothing is looked up)."""
    port = url.rsplit(":", 1)[1]
    rules = f"MAP classroom.lan:8080 127.0.0.1:{port}, MAP 10.1.2.3:8080 127.0.0.1:{port}"
    return pw.chromium.launch(executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, f"--host-resolver-rules={rules}"])


@pytest.mark.browser
def test_every_page_loads_and_draws_its_charts_under_the_policy_on_a_school_address(proxy):
    from playwright.sync_api import sync_playwright

    url, _ = proxy
    with sync_playwright() as pw:
        browser = _lan_browser(pw, url)
        try:
            ctx = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en-US")
            ctx.add_init_script(CSP_WATCH)
            outside: list[str] = []  # offline (tests/test_browser.py does the same in Chinese): nothing leaves

            def route(r):
                if urlparse(r.request.url).hostname in ("classroom.lan", "10.1.2.3", "127.0.0.1", "localhost"):
                    r.continue_()
                else:
                    outside.append(r.request.url)
                    r.abort()

            ctx.route("**/*", route)
            page = ctx.new_page()
            for name in PAGES:
                page.goto(f"http://classroom.lan:8080/{name}")
                wait_idle(page)
                assert page.evaluate("window.__csp") == [], name
                if name not in CHARTLESS:
                    page.locator(CHART).first.wait_for(timeout=60_000)  # plotly drew into the chart component
                assert page.get_by_test_id("stException").count() == 0, name
                if name == "home":
                    page.get_by_test_id("stGraphVizChart").first.locator("svg").wait_for(timeout=60_000)
            box = page.get_by_role("spinbutton", name="Number of heads h")
            box.fill("4")
            box.press("Enter")  # a rerun over the websocket of http://classroom.lan:8080
            page.wait_for_function("() => location.search.includes('n_heads=4')", timeout=30_000)
            wait_idle(page)
            assert page.evaluate("window.__csp") == []
        finally:
            browser.close()
    assert not outside, f"requests outside the server: {sorted(set(outside))}"
    assert _asked_outside() == []


def _shot(page, name: str) -> None:
    folder = os.environ.get("MHA_DEPLOY_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.evaluate("document.fonts.ready")
        page.screenshot(path=str(Path(folder) / f"{name}.png"))


@pytest.mark.browser
def test_a_teacher_and_a_student_hold_a_live_class_on_school_addresses(proxy):
    from playwright.sync_api import sync_playwright

    url, _ = proxy
    with sync_playwright() as pw:
        browser = _lan_browser(pw, url)
        try:
            teacher = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en-US").new_page()
            teacher.goto("http://classroom.lan:8080/heads")
            wait_idle(teacher)
            code = start_live_class(teacher)
            student = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US",
                                          is_mobile=True, has_touch=True).new_page()  # fmt: skip
            polls: list[tuple[int, str]] = []  # the phone's version polls (classroom/watch.js), through the proxy
            student.on("response", lambda r: polls.append((r.status, r.headers.get("content-type", "")))
                       if "/live/version?" in r.url else None)  # fmt: skip
            student.goto(f"http://10.1.2.3:8080/?join={code}")
            try:
                student.wait_for_function("() => location.pathname.endsWith('/heads')", timeout=60_000)
            except Exception as exc:  # where the student is instead, and what the page says
                text = "() => document.body.innerText"
                raise AssertionError(f"{student.url}: {student.evaluate(text)[:800]!r}; "
                                     f"teacher {teacher.url}: {teacher.evaluate(text)[:800]!r}") from exc
            student.get_by_text(f"Following the teacher · live class {code}").first.wait_for(timeout=60_000)
            wait_idle(student)
            student.wait_for_timeout(2_000)  # a few of the phone's polls, twice a second
            assert polls and all(s == 200 and "json" in t for s, t in polls), polls
            _shot(teacher, "teacher-classroom.lan")
            _shot(student, "student-10.1.2.3")
            for page in (teacher, student):
                assert page.get_by_test_id("stException").count() == 0
        finally:
            browser.close()
