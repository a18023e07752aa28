"""The room's version over HTTP (liveclass/http.py, mounted by serve.py), and a phone that follows through it
(classroom/watch.js): what the route answers for a room that is open, moved, ended, unknown, not a code, or when the
store is down; that it says nothing but the version; and, in Chromium, that a following phone polls it and follows
the class, and still follows on a server started as plain `streamlit run app.py` (no route: Streamlit's own runs)."""

from __future__ import annotations

import asyncio
import json
import os
import time
import urllib.error
import urllib.request

import pytest
from starlette.requests import Request

from liveclass import Client, LiveError, StoreUnavailable, open_rooms
from liveclass.http import PATH, version_route


def call(route, query: str, peer: str = "127.0.0.1", forwarded: str = "") -> tuple[int, dict, dict]:
    """One poll of the route, from `peer` (this machine: the proxy) with the proxy's X-Forwarded-For."""
    headers = [(b"x-forwarded-for", forwarded.encode())] if forwarded else []
    scope = {"type": "http", "method": "GET", "path": PATH, "query_string": query.encode(), "headers": headers,
             "client": (peer, 50000)}  # fmt: skip
    response = asyncio.run(route.endpoint(Request(scope)))
    return response.status_code, json.loads(response.body), dict(response.headers)


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setenv("MHA_LIVE_DB", str(tmp_path / "live.sqlite3"))
    monkeypatch.delenv("MHA_REDIS_URL", raising=False)
    return open_rooms()


def test_the_route_answers_the_rooms_version_and_nothing_else(store):
    ticket = store.create(Client("t" * 64, "127.0.0.1"))
    route = version_route(lambda: store, max_age=0.0)
    status, body, headers = call(route, f"room={ticket.code}")
    assert status == 200 and set(body) == {"v"} and isinstance(body["v"], int)
    assert headers["cache-control"] == "no-store"
    store.lead(ticket.code, ticket.key, {"page": "steps", "step": 2})
    assert call(route, f"room={ticket.code.lower()}")[1]["v"] > body["v"]  # typed as a phone would: same room
    _, sid = store.join(ticket.code, client=Client("s" * 64, "127.0.0.2"))
    store.end(ticket.code, ticket.key)
    assert call(route, f"room={ticket.code}")[:2] == (404, {"error": "unknown_room"})  # as if there were none
    assert call(route, f"room={ticket.code}&seat={sid}")[:2] == (404, {"error": "ended"})  # its students hear why


@pytest.mark.parametrize("query", ["", "room=", "room=ABCDEF", "room=" + "x" * 100_000, "room=%00%ff", "room=<b>",
                                   "room=A&room=B"])
def test_a_room_that_is_not_one_is_a_404_with_its_reason(store, query):
    status, body, _ = call(version_route(lambda: store, max_age=0.0), query)
    assert status == 404 and set(body) == {"error"} and body["error"] in ("bad_code", "unknown_room")


def test_missed_codes_of_a_network_are_slowed_its_students_in_class_are_not(store, monkeypatch):
    """Codes guessed through the route from one network (X-Forwarded-For through the proxy on this machine, which is
    trusted) are its missed codes: 30 at once, then it waits (429, Retry-After), its real codes too, except a poll whose
    seat this process knows (a class in progress behind the same school address). Another network is not slowed; a
    client that is not a trusted proxy cannot pass for another network by writing the header itself."""
    monkeypatch.delenv("MHA_TRUSTED_PROXIES", raising=False)
    ticket = store.create(Client("t" * 64, "10.0.0.1"))
    code, sid = store.join(ticket.code, client=Client("s" * 64, "198.51.100.7"))
    route = version_route(lambda: store, max_age=0.0, beat=60.0)
    assert call(route, f"room={code}&seat={sid}&following=1", forwarded="198.51.100.7")[0] == 200
    guesses = (f"ZZ{a}{b}{c}{d}" for a in "234" for b in "567" for c in "89A" for d in "BCD")
    for _ in range(30):
        assert call(route, f"room={next(guesses)}", forwarded="6.6.6.6, 198.51.100.7")[:2] == (
            404, {"error": "unknown_room"})  # fmt: skip
    status, body, headers = call(route, f"room={next(guesses)}", forwarded="198.51.100.7")
    assert status == 429 and body["error"] == "slow_down" and headers["retry-after"] == str(body["seconds"])
    assert call(route, f"room={code}", forwarded="198.51.100.7")[0] == 429  # a real code waits too
    assert call(route, f"room={code}&seat={sid}&following=1", forwarded="198.51.100.7")[0] == 200  # a student in class
    assert call(route, f"room={code}", forwarded="203.0.113.5")[0] == 200  # another network
    assert call(route, f"room={code}", peer="192.0.2.9", forwarded="203.0.113.5")[0] == 200  # its own address ...
    for _ in range(31):
        call(route, f"room={next(guesses)}", peer="192.0.2.9", forwarded="203.0.113.5")
    assert call(route, f"room={code}", peer="192.0.2.9", forwarded="203.0.113.9")[0] == 429  # ... whatever it writes
    assert call(route, f"room={code}", forwarded="203.0.113.5")[0] == 200


def test_a_store_that_is_down_is_a_503_and_one_that_cannot_open_is_asked_again():
    class Down:
        def guard(self, address):
            return "local"

        def recent_version(self, code, max_age):
            return None

        def version(self, code, max_age=0.0):
            raise StoreUnavailable()

    opened = []

    def get_rooms():
        opened.append(1)
        if len(opened) == 1:
            raise StoreUnavailable()  # the first open failed: not kept
        return Down()

    route = version_route(get_rooms, max_age=0.1)
    assert call(route, "room=ABCDEF")[:2] == (503, {"error": "store_down"})
    assert call(route, "room=ABCDEF")[:2] == (503, {"error": "store_down"})
    assert call(route, "room=ABCDEF")[0] == 503 and len(opened) == 2  # opened again once, then kept


def test_most_polls_are_answered_from_the_processs_memo(store):
    ticket = store.create(Client("t" * 64, "127.0.0.1"))
    reads = []
    load = store.backend.load_version
    store.backend.load_version = lambda code: reads.append(code) or load(code)
    route = version_route(lambda: store, max_age=60.0)
    for _ in range(50):
        assert call(route, f"room={ticket.code}")[0] == 200
    assert len(reads) == 1
    with pytest.raises(LiveError):
        store.version("ABCDEF")


def test_a_poll_with_a_seat_is_that_students_heartbeat_once_per_beat(store):
    ticket = store.create(Client("t" * 64, "127.0.0.1"))
    code, sid = store.join(ticket.code, client=Client("s" * 64, "127.0.0.2"))
    touches = []
    touch = store.backend.touch
    store.backend.touch = lambda *a: touches.append(a[3]) or touch(*a)
    route = version_route(lambda: store, max_age=0.0, beat=60.0)
    status, body, _ = call(route, f"room={code}&seat={sid}&following=1")
    assert status == 200 and body["seat"] is True and isinstance(body["v"], int)
    for _ in range(5):  # polls within the beat: no more writes
        assert call(route, f"room={code}&seat={sid}&following=1")[1]["seat"] is True
    assert touches == [True]
    assert store.presence(code, ticket.key).following == 1
    assert call(version_route(lambda: store, max_age=0.0, beat=60.0), f"room={code}&seat={sid}&following=0")[0] == 200
    assert touches == [True, False] and store.presence(code, ticket.key).following == 0
    # not a seat, or another room's: the seat is not held (the page then asks its bar, which joins again)
    for seat in ("nope", "x" * 65, "0" * 22):
        assert call(route, f"room={code}&seat={seat}")[1] == {"v": body["v"], "seat": False}
    # without a seat, or on a route without heartbeats, a poll writes nothing
    written = len(touches)
    call(route, f"room={code}")
    call(version_route(lambda: store, max_age=0.0), f"room={code}&seat={sid}")
    assert len(touches) == written


def test_a_page_run_and_the_polls_of_one_seat_share_one_heartbeat_per_beat(store):
    """classroom.follower.bar writes the heartbeat with `every` too: a following page's run that comes within the beat
    of its poll's heartbeat (a teacher's move: every phone's page runs at once) writes none, and the other way round."""
    ticket = store.create(Client("t" * 64, "127.0.0.1"))
    code, sid = store.join(ticket.code, client=Client("s" * 64, "127.0.0.2"))
    touches = []
    touch = store.backend.touch
    store.backend.touch = lambda *a: touches.append(a[3]) or touch(*a)
    route = version_route(lambda: store, max_age=0.0, beat=60.0)
    assert call(route, f"room={code}&seat={sid}&following=1")[1]["seat"] is True
    assert store.heartbeat(code, sid, True, every=60.0) is True  # the page's run: the poll's heartbeat stands
    assert touches == [True]
    assert store.heartbeat(code, sid, False, every=60.0) is True  # exploring now: written at once
    assert call(route, f"room={code}&seat={sid}&following=0")[1]["seat"] is True  # and the poll's stands for it
    assert store.heartbeat(code, sid, False) is True  # without `every`: always written
    assert touches == [True, False, False]
    assert store.presence(code, ticket.key).following == 0
    other = store.join(ticket.code, client=Client("o" * 64, "127.0.0.3"))[1]
    store.backend.touch = lambda *a: False  # a seat given back: not remembered, asked again each time
    assert store.heartbeat(code, other, True, every=60.0) is False
    assert store.recent_beat(code, other, True, 60.0) is False


def test_the_page_asks_the_route_under_the_servers_base_path():
    from streamlit import config

    from classroom.watch import route

    assert route("ABCDEF") == f"{PATH}?room=ABCDEF"
    assert route("ABCDEF", "s" * 22, True) == f"{PATH}?room=ABCDEF&seat={'s' * 22}&following=1"
    before = config.get_option("server.baseUrlPath")
    try:  # served under /mha/ (server.baseUrlPath): serve.py mounts the route there too
        config.set_option("server.baseUrlPath", "mha")
        assert route("ABCDEF") == f"/mha{PATH}?room=ABCDEF"
    finally:
        config.set_option("server.baseUrlPath", before)
    assert version_route(lambda: None, 0.1, path=f"/mha{PATH}").path == f"/mha{PATH}"


def test_the_route_names_what_a_following_page_shows_read_once_per_version(store):
    """With `view`, the answer carries the digest of what a following page shows (classroom.session.follower_view) of
    the version it names: it moves when the class's page, settings, step or presentation move, not when a question
    is asked or closed (the watch then asks for the bar alone), and the room is read once per version and process."""
    from classroom.session import follower_view

    ticket = store.create(Client("t" * 64, "127.0.0.1"))
    store.lead(ticket.code, ticket.key, {"page": "steps", "step": 2, "lesson": "mha45", "stop_began": 1.0})
    reads = []
    room = store.room
    store.room = lambda code: reads.append(code) or room(code)
    route = version_route(lambda: store, max_age=0.0, view=follower_view)
    status, first, _ = call(route, f"room={ticket.code}")
    assert status == 200 and set(first) == {"v", "view"}
    assert first["view"] == follower_view(room(ticket.code).state)
    for _ in range(5):
        assert call(route, f"room={ticket.code}")[1] == first
    assert reads == [ticket.code]  # one read of the room for its version
    store.ask(ticket.code, ticket.key, {"kind": "choice", "options": ["a", "b"]}, 0)
    asked = call(route, f"room={ticket.code}")[1]
    assert asked["v"] > first["v"] and asked["view"] == first["view"]  # a question: the page shows the same
    store.lead(ticket.code, ticket.key, {"page": "steps", "step": 2, "lesson": "mha45", "stop_began": 9.0})
    assert call(route, f"room={ticket.code}")[1]["view"] == first["view"]  # what a phone does not show
    store.lead(ticket.code, ticket.key, {"page": "steps", "step": 3, "lesson": "mha45", "stop_began": 9.0})
    moved = call(route, f"room={ticket.code}")[1]
    assert moved["view"] != first["view"] and len(reads) == 4
    code, sid = store.join(ticket.code, client=Client("s" * 64, "127.0.0.2"))
    with_seat = call(version_route(lambda: store, max_age=0.0, beat=60.0, view=follower_view),
                     f"room={code}&seat={sid}&following=1")[1]  # fmt: skip
    assert with_seat == {**moved, "seat": True}
    store.end(ticket.code, ticket.key)
    assert call(route, f"room={ticket.code}")[:2] == (404, {"error": "unknown_room"})


# ---------------------------------------------------------------- in the browser
def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode()


def _rerun(frame: bytes) -> str:
    """The widget ids a BackMsg's rerun sends (outside a fragment), or "" for anything else."""
    from streamlit.proto.BackMsg_pb2 import BackMsg

    msg = BackMsg()
    msg.ParseFromString(frame)
    if msg.WhichOneof("type") != "rerun_script" or msg.rerun_script.fragment_id:
        return ""
    return " ".join(w.id for w in msg.rerun_script.widget_states.widgets)


def _ticks(frame: bytes) -> str:
    """What a BackMsg's run of a fragment says its watch saw (the "tick" trigger's values), or "" for anything else."""
    from streamlit.proto.BackMsg_pb2 import BackMsg

    msg = BackMsg()
    msg.ParseFromString(frame)
    if msg.WhichOneof("type") != "rerun_script" or not msg.rerun_script.fragment_id:
        return ""
    widgets = msg.rerun_script.widget_states.widgets
    return " ".join(w.json_trigger_value for w in widgets
                    if w.id.endswith("live_watch__events") and w.WhichOneof("value") == "json_trigger_value")


@pytest.mark.browser
@pytest.mark.parametrize("script", ["serve.py", "app.py"])
def test_a_following_phone_follows_through_the_route_or_without_it(tmp_path, monkeypatch, script):
    from playwright.sync_api import sync_playwright

    from explorer import Settings
    from explorer.settings_io import settings_to_json
    from tests.browser import CHROMIUM, CHROMIUM_ARGS, streamlit_server, wait_idle

    monkeypatch.setenv("MHA_LIVE_DB", str(tmp_path / "live.sqlite3"))
    rooms = open_rooms()
    ticket = rooms.create(Client("t" * 64, "127.0.0.1"))

    def lead(step: int) -> None:
        rooms.lead(ticket.code, ticket.key, {"page": "steps", "settings": settings_to_json(Settings(), "en"),
                                             "step": step, "present": True, "lang": "en"})  # fmt: skip

    lead(1)
    with streamlit_server(script, env={"MHA_LIVE_DB": os.environ["MHA_LIVE_DB"]}) as url, sync_playwright() as pw:
        status, body = _get(f"{url}/live/version?room={ticket.code}")
        if script == "serve.py":
            assert status == 200 and "v" in json.loads(body)
        else:  # no route: Streamlit answers with its page
            assert "application/json" not in body and "<div id=\"root\">" in body
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
        polls: list[int] = []
        phone.on("request", lambda r: polls.append(1) if "/live/version?" in r.url else None)
        sent: list[bytes] = []  # what the page asks the server over the websocket
        phone.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(f) if isinstance(f, bytes) else None))
        phone.goto(f"{url}/?join={ticket.code}")
        phone.wait_for_function("() => document.body.innerText.includes('Step 2 of 9')", timeout=60_000)
        wait_idle(phone)
        # Joining moved the phone to the class's page, which its watch's first tick draws once more (follower.REPAIR:
        # a run of the bar, then of the page). A move made before that run would be drawn by it, with no run of its
        # own asked for: the moves below come once it is over.
        deadline = time.monotonic() + 30
        while not any("now" in _ticks(f) for f in sent) and time.monotonic() < deadline:
            phone.wait_for_timeout(100)
        wait_idle(phone)
        for step in (2, 3, 5):
            start = time.monotonic()
            lead(step)
            phone.wait_for_function("s => document.body.innerText.includes(s)", arg=f"Step {step + 1} of 9",
                                    timeout=30_000)  # fmt: skip
            assert time.monotonic() - start < 30
        assert phone.get_by_test_id("stException").count() == 0
        assert polls, "the phone's page polls the version route (with or without an answer)"
        pages = [m for m in map(_rerun, sent) if m and "live_watch_page" in m]
        if script == "serve.py":  # each move of the teacher: the whole page at once, not the bar first
            assert len(pages) >= 3, pages
        else:  # no route, no view: the bar's runs (Streamlit's timer) follow the class
            assert not pages
        browser.close()


def test_a_poll_goes_straight_to_its_route_and_everything_else_on_to_the_app(store):
    """liveclass.http.Shortcut, first of serve.py's middleware: the route's own answer, without the middleware after
    it; another path, or the route's path under another base, reaches the app untouched."""
    from liveclass.http import Shortcut

    ticket = store.create(Client("t" * 64, "127.0.0.1"))
    route = version_route(lambda: store, max_age=0.0, path="/mha" + PATH)
    passed: list[str] = []

    async def app(scope, receive, send):  # the rest of the server: Streamlit's middleware and the app
        passed.append(scope["path"])
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"app"})

    def ask(path: str, method: str = "GET") -> tuple[int, bytes]:
        sent: list[dict] = []

        async def receive():
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message):
            sent.append(message)

        scope = {"type": "http", "method": method, "path": path, "query_string": f"room={ticket.code}".encode(),
                 "headers": [], "root_path": ""}  # fmt: skip
        asyncio.run(Shortcut(app, route)(scope, receive, send))
        return sent[0]["status"], b"".join(m.get("body", b"") for m in sent[1:])

    status, body = ask("/mha" + PATH)
    assert status == 200 and json.loads(body) == {"v": store.version(ticket.code)} and passed == []
    assert ask("/mha" + PATH, "POST")[0] == 405 and passed == []  # the route's own refusal
    for path in (PATH, "/mha" + PATH + "/x", "/heads", "/_stcore/health"):
        assert ask(path) == (200, b"app")
    assert passed == [PATH, "/mha" + PATH + "/x", "/heads", "/_stcore/health"]
