"""A live class over Streamlit's own websocket protocol: one teacher and N students (what their browsers send,
without N browsers' rendering on the same 2 cores), against one server process and against two processes behind
nginx (deploy/nginx.conf) sharing the room store.

    python bench/live_class.py [--students 60] [--changes 3] [--store sqlite|redis] [--only one|two] [--together]
                               [--no-floor] [--page heads|steps] [--addresses machine|one|own]

Each student opens the join link, 0.1 s after the one before (as students scan the code one after another), and then
behaves like an idle browser. The class's page does what its watch does (classroom/watch.js): every 0.5 s an HTTP
GET of the room's version (liveclass/http.py, one keep-alive connection per tab), and a run of the bar (its trigger
value) when the version moved from the one the page read or when the page asked for one (`now`) (the GET is the
student's heartbeat too);
the floor's page answers the fragment timer the server asked for (`auto_rerun`) with a fragment rerun at each tick,
as the frontend's setInterval does. Each tab polls or ticks at the phase of its own join. `--together` makes the
worst case: everyone joins at once and every tab polls or ticks at the same moment. Once every page is drawn,
the bench waits until the servers are quiet (a teacher starts once the class is in: `settle`). The
teacher (the console, as it publishes: `Rooms.lead` with the key) changes h `--changes` times (4, 2, 8, 4, 2, 8,
...); for each change we time, per student, from the teacher's request to the end of the student's run that draws
the new h, and take the servers' CPU time from the request to the last student's page, per student (the cost of one
follow, the other students' timers included: a figure that, unlike the times, does not depend on how the runs
interleave). Each change's own p95, CPU and page
runs per student are printed too: the p95 of the whole run is that of its slowest change.
Then the bench asks a question (through the store, with the teacher key), every student answers through its page
(one in ten clicks twice), and the answers the store counted are compared with those sent. Last, the server's
CPU time and memory per idle following student over a quiet window.
First and last, unless `--no-floor`, the same students follow the same changes on the floor (bench/floor_app.py: a
minimal page with one chart, one process, the same store and timer), and the class's CPU per follow is printed as a
ratio to the floor's median over both (goal <= 2x): the machine's speed drifts by a third within minutes.
`--addresses`: where the students come from, as the app sees them: this machine (no address, the default), all behind
the school's one address (`one`: the joins beyond the network's burst wait their turn, docs/deploy.md), or each from
an address of its own (`own`); each tab sends it as X-Forwarded-For, which nginx on this machine (and a server, from
this machine) takes as it takes a proxy's. A student whose bar never said it follows is a refused seat.
Last line: `live class: N students, follow p50 X s p95 Y s, answers sent S counted C, refused seats R, errors E`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import websockets  # noqa: E402
from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402
from streamlit.proto.WidgetStates_pb2 import WidgetState  # noqa: E402

from bench.load_test import _chart_spec, pct, rss_mb  # noqa: E402
from tests.browser import free_port, healthy, nginx_in_front  # noqa: E402

CLK = os.sysconf("SC_CLK_TCK")
JOIN_GAP = 0.1  # seconds between two students' joins (60 students: 6 s); with --together all at once
# head tiles of a chart by its message hash, read once for all tabs: the 60 students get the same figures, and parsing
# each one 60 times took the bench's own process a share of the 2 cores the servers are measured on
HEADS_BY_HASH: dict[str, int] = {}


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK  # utime + stime


class Client:
    """One browser tab: reads every message, keeps the page hash, query string and widget ids, answers
    the server's fragment timers, and notes when a run finishes and how many heads its first chart shows."""

    def __init__(self, ws, name: str) -> None:
        self.ws, self.name = ws, name
        self.page_hash, self.query = "", ""
        self.cached: set[str] = set()
        self.ids: dict[str, str] = {}  # widget key -> widget id
        self.texts: list[str] = []
        self.timers: dict[str, tuple[float, float]] = {}  # fragment id -> (interval, when the timer was set)
        self.heads_drawn: int | None = None  # head tiles of the first chart of the last full run
        self.finished = asyncio.Event()
        self.watch: dict = {}  # the page's watch (classroom/watch.js): element id, fragment id, data, when drawn
        self.page_watch = ""  # the id of the page's own element, whose trigger runs the whole page (watch.page_watch)
        self.runs = 0
        self.full_runs = 0  # runs of the whole page (not of a fragment alone) this tab was sent
        self.errors: list[str] = []
        self.heads_seen_at: dict[int, float] = {}  # h -> when a finished run first showed it
        self._run_heads: int | None = None
        self._run_notes: list[tuple] = []  # what the current run drew of h (LIVE_DEBUG)
        self._counts: dict[str, int] = {}  # messages of the current run, by type (LIVE_DEBUG)
        self._seq: list = []  # the current run's messages in order (LIVE_DEBUG)
        self.code: str | None = None
        self.log: list[tuple] = []  # fragment timers given and taken back (LIVE_DEBUG)
        self.upstream = ""  # the server nginx chose for this student
        self.session_id = ""  # the server's id of this tab's session (LIVE_DEBUG)
        self.chart_heads: dict[str, int] = {}  # hash of a cached chart message -> head tiles it draws
        self.bar = ""  # what the live-class bar said last: following, exploring, store down
        self.forwarded = ""  # the address the tab comes from (X-Forwarded-For), '' for this machine

    async def reader(self) -> None:
        try:
            async for raw in self.ws:
                fm = ForwardMsg()
                fm.ParseFromString(raw)
                self._handle(fm)
        except websockets.ConnectionClosed:
            pass

    def _handle(self, fm: ForwardMsg) -> None:
        kind = fm.WhichOneof("type")
        self._counts[kind] = self._counts.get(kind, 0) + 1
        if os.environ.get("LIVE_DEBUG"):  # the run's messages in order: lifecycle ones by name, deltas counted
            seq = self._seq
            if kind == "delta":
                seq[-1:] = [seq[-1] + 1] if seq and isinstance(seq[-1], int) else [*seq[-1:], 1]
            elif kind == "new_session":
                seq.append("NSf" if fm.metadata.run.fragment_ids else "NS")
            elif kind == "script_finished":
                seq.append(f"F{fm.script_finished}")
            elif kind == "page_info_changed":
                seq.append("Q:" + fm.page_info_changed.query_string[-12:])
            else:
                seq.append(kind[:6])
        if fm.metadata.cacheable and fm.hash:
            self.cached.add(fm.hash)
        if kind == "new_session":
            if not fm.metadata.run.fragment_ids:
                self.full_runs += 1
            if fm.new_session.initialize.session_id:
                self.session_id = fm.new_session.initialize.session_id
            if fm.new_session.page_script_hash:
                self.page_hash = fm.new_session.page_script_hash
            self._run_heads = None
            self._run_notes = []
        elif kind == "navigation" and fm.navigation.page_script_hash:
            self.page_hash = fm.navigation.page_script_hash
        elif kind == "page_info_changed":
            self.query = fm.page_info_changed.query_string
        elif kind == "auto_rerun":  # a full run registers its fragment again, possibly under a new id
            fid, interval = fm.auto_rerun.fragment_id, fm.auto_rerun.interval
            if self.timers.get(fid, (None, 0.0))[0] != interval:  # the frontend keeps a timer it has (its phase)
                self.timers = {fid: (interval, time.perf_counter())}
            self.log.append(("auto", fm.auto_rerun.fragment_id[-6:], round(time.perf_counter(), 2)))
        elif kind == "stop_auto_rerun":
            for fid in fm.stop_auto_rerun.fragment_ids:
                self.timers.pop(fid, None)
            self.log.append(("stop", [f[-6:] for f in fm.stop_auto_rerun.fragment_ids], round(time.perf_counter(), 2)))
        elif kind == "delta" and fm.delta.WhichOneof("type") == "new_element":
            el = fm.delta.new_element
            which = el.WhichOneof("type")
            if which == "bidi_component" and el.bidi_component.component_name.endswith("mha_watch"):
                data = json.loads(el.bidi_component.json)
                if data.get("page"):  # the page's own element, outside the bar: its trigger runs the whole page
                    self.page_watch = el.bidi_component.id
                else:  # a run drew the watch: its data replaces the last, and whatever it asked for has come
                    self.watch = {"id": el.bidi_component.id, "fragment": fm.delta.fragment_id,
                                  "data": data, "since": time.perf_counter(), "asked": 0.0}  # fmt: skip
            if which in ("markdown", "alert"):  # what the student's live-class bar says
                body = el.markdown.body if which == "markdown" else el.alert.body
                for status, words in (("following", "Following the teacher"), ("exploring", "exploring on your own"),
                                      ("store down", "cannot be reached")):  # fmt: skip
                    if words in body:
                        self.bar = status
            if which == "exception":
                self.errors.append(f"{self.name}: exception {el.exception.message[:200]}")
            elif which in ("button", "radio", "text_input", "number_input"):
                wid = getattr(el, which).id
                self.ids[wid.rsplit("-", 1)[-1]] = wid
                if wid.endswith("-n_heads"):  # the value the page's h field is sent (LIVE_DEBUG)
                    self._run_notes.append(("h-widget", el.number_input.value if el.number_input.set_value
                                            else el.number_input.default))  # fmt: skip
            elif which == "markdown" and "mha-live-code" in el.markdown.body:
                self.code = el.markdown.body.split(">")[1].split("<")[0]
            elif fm.hash and fm.hash in HEADS_BY_HASH:  # a chart another tab has read already: the same figure
                self.chart_heads[fm.hash] = HEADS_BY_HASH[fm.hash]
                if self._run_heads is None:
                    self._run_heads = HEADS_BY_HASH[fm.hash]
                self._run_notes.append(("chart", HEADS_BY_HASH[fm.hash], fm.hash[:6]))
            elif (self._run_heads is None or fm.hash) and (spec := _chart_spec(el)) is not None:
                notes = spec.get("layout", {}).get("annotations", [])
                heads = sum(1 for a in notes if str(a.get("text", "")).startswith("head "))
                if fm.hash:  # every cached chart: a later run may send only its hash
                    self.chart_heads[fm.hash] = HEADS_BY_HASH[fm.hash] = heads
                if self._run_heads is None:
                    self._run_heads = heads
                self._run_notes.append(("chart", heads, fm.hash[:6]))
        elif kind == "ref_hash":  # a message the browser has cached: the server sends only its hash
            if self._run_heads is None and fm.ref_hash in self.chart_heads:
                self._run_heads = self.chart_heads[fm.ref_hash]
            self._run_notes.append(("ref", self.chart_heads.get(fm.ref_hash, "?"), fm.ref_hash[:6]))
        elif kind == "script_finished":
            self.runs += 1
            if os.environ.get("LIVE_DEBUG"):
                self.log.append(("run", round(time.perf_counter(), 2), fm.script_finished, self._run_heads,
                                 dict(self._counts), self._seq, *self._run_notes[:3]))  # fmt: skip
            self._run_notes, self._counts, self._seq = [], {}, []
            if self._run_heads is not None:
                self.heads_drawn = self._run_heads
                self.heads_seen_at.setdefault(self._run_heads, time.perf_counter())
            self.finished.set()

    async def send(self, widgets: list[WidgetState] | None = None, fragment: str = "", page_name: str = "",
                   query: str | None = None) -> None:  # fmt: skip
        msg = BackMsg()
        rs = msg.rerun_script
        rs.page_name = page_name
        rs.page_script_hash = self.page_hash
        if query is not None:  # the address the tab now shows (a browser keeps its query string)
            self.query = query
        rs.query_string = self.query
        rs.cached_message_hashes.extend(sorted(self.cached))
        if fragment:
            rs.fragment_id = fragment
            rs.is_auto_rerun = True
        for w in widgets or []:
            rs.widget_states.widgets.append(w)
        self.finished.clear()
        await self.ws.send(msg.SerializeToString())

    async def run(self, **kw) -> None:
        await self.send(**kw)
        await asyncio.wait_for(self.finished.wait(), 60)

    async def timer_loop(self, stop: asyncio.Event) -> None:
        """What the frontend does with `auto_rerun`: a setInterval from the moment the message came (a timer it
        already has for that fragment, at that interval, it keeps), each tick a fragment rerun. So each tab's ticks
        have the phase of its own join, as in class, not that of the moment this loop started."""
        while not stop.is_set():
            if not self.timers:
                await asyncio.sleep(0.2)
                continue
            fid, (interval, start) = next(iter(self.timers.items()))
            await asyncio.sleep(interval - (time.perf_counter() - start) % interval)  # to the timer's next tick
            if self.timers.get(fid, (None, None))[1] == start:  # not replaced meanwhile
                await self.send(fragment=fid)


async def http_get(conn: dict, host: str, port: int, path: str) -> tuple[int, bytes]:
    """One GET on the tab's keep-alive connection (opened again when the server closed it): status and body. With
    `conn["forwarded"]`, the tab's X-Forwarded-For (the address a proxy on this machine says it comes from)."""
    for _ in range(2):
        if not conn.get("w") or conn["w"].is_closing():
            conn["r"], conn["w"] = await asyncio.open_connection(host, port)
        try:
            cookie = f"Cookie: {conn['cookie']}\r\n" if conn.get("cookie") else ""
            cookie += f"X-Forwarded-For: {conn['forwarded']}\r\n" if conn.get("forwarded") else ""
            conn["w"].write(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n{cookie}Connection: keep-alive\r\n\r\n"
                            .encode())  # fmt: skip
            head = (await conn["r"].readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
            fields = {k.strip().lower(): v.strip() for k, v in (h.split(":", 1) for h in head[1:] if ":" in h)}
            if "set-cookie" in fields:  # nginx's route cookie: the tab's next requests go to its own server
                conn["cookie"] = fields["set-cookie"].split(";", 1)[0]
            body = await conn["r"].readexactly(int(fields.get("content-length", "0")))
            return int(head[0].split()[1]), body
        except (ConnectionError, asyncio.IncompleteReadError):
            conn["w"] = None
    return 0, b""


async def watch_loop(s: Client, base: str, stop: asyncio.Event, start: float) -> None:
    """What classroom/watch.js does in the tab, from `start` (the tab's join) on: every `poll` ms, a run of the bar
    when the page asked for one, else the version's GET (the student's heartbeat too) and, when it moved, a run of the
    whole page if what the page shows moved (the answer's `view`), else of the bar."""
    from streamlit.components.v2.bidi_component.main import _make_trigger_id

    host, port = base.removeprefix("ws://").removeprefix("http://").split(":")
    conn: dict = {"forwarded": s.forwarded}
    while not stop.is_set():
        if not s.watch:
            await asyncio.sleep(0.2)
            continue
        poll = s.watch["data"]["poll"] / 1000
        await asyncio.sleep(poll - (time.perf_counter() - start) % poll)
        w = s.watch
        data, now = w["data"], time.perf_counter()
        if w["asked"] and now - w["asked"] < 10.0:  # watch.js: STUCK
            continue
        why, page = "", False
        if data["now"]:
            why = "now"
        else:
            status, body = await http_get(conn, host, int(port), data["url"])
            if s.watch is not w:
                continue  # a run came meanwhile: its data decides
            answer = json.loads(body) if status == 200 else {}
            page = bool(s.page_watch and data["want"] and answer.get("view") not in (None, data["want"]))
            if page:
                why = "view"
            elif answer.get("v") != data["seen"]:
                why = "version" if answer else f"status {status}"
            elif answer.get("seat") is False:
                why = "seat"
        if why:
            w["asked"] = time.perf_counter()
            target, event = (s.page_watch, "go") if page else (w["id"], "tick")
            trigger = widget(_make_trigger_id(target, "events"),
                             json_trigger_value=json.dumps([{"event": event, "value": f"{why} {now}"}]))
            await s.send(widgets=[trigger], fragment="" if page else w["fragment"])
    if conn.get("w"):
        conn["w"].close()


async def connect(url: str, name: str, forwarded: str = ""):
    """A browser tab that has been here before: its identity (classroom/identity.js) comes as a cookie with the
    websocket's first request, as a real browser's does on its second visit (a first visit adds one rerun).
    `forwarded`: the address the tab comes from, as X-Forwarded-For (this machine is a trusted proxy: the server, and
    nginx in front of it, take the header from it as they take their own proxy's)."""
    secret = secrets.token_urlsafe(18)
    headers = {"Cookie": f"mha_client={secret}", **({"X-Forwarded-For": forwarded} if forwarded else {})}
    ws = await websockets.connect(f"{url}/_stcore/stream", subprotocols=["streamlit"], max_size=None,
                                  open_timeout=60, additional_headers=headers)  # fmt: skip
    client = Client(ws, name)
    client.forwarded = forwarded
    client.upstream = ws.response.headers.get("X-Explorer-Upstream", "") if ws.response else ""  # behind nginx
    return client, asyncio.create_task(client.reader())


def widget(wid: str, **value) -> WidgetState:
    w = WidgetState(id=wid)
    for k, v in value.items():
        setattr(w, k, v)
    return w


PAGE = "heads"  # --page: "heads" (the heaviest page, the figures of earlier sessions) or "steps" (a lesson's stop)
ADDRESSES = "machine"  # --addresses: where the students come from
SCHOOL = "198.51.100.7"  # --addresses one: the school's one public address (its NAT or web proxy)


def student_address(i: int) -> str:
    """The address student i comes from: '' (this machine, no proxy: no address), the school's one address, or an
    address of its own (a phone on its own connection)."""
    if ADDRESSES == "one":
        return SCHOOL
    if ADDRESSES == "own":
        return f"10.{i // 200}.{i % 200}.{1 + i % 7}"
    return ""


def class_state(h: int) -> dict:
    """What the console publishes when the class is at h heads (the rest the default setting): on the Heads page, or
    on /steps in presentation, step 4 (the scores of every head: one chart, a tile per head), as most lesson stops."""
    from explorer import Settings
    from explorer.settings_io import settings_to_json

    steps = PAGE == "steps"
    return {"page": PAGE, "settings": settings_to_json(Settings(n_heads=h), "en"), "step": 3 if steps else 0,
            "present": steps, "lesson": "", "stop": 0, "join": False, "lang": "en"}  # fmt: skip


async def live_class(urls: list[str], n: int, changes: int, rooms, pids: list[int], together: bool = False,
                     app: str = "class") -> dict:  # fmt: skip
    """`app` "class": the explorer's live class (students join by the link and follow passively); "floor": the same
    follow of bench/floor_app.py, a minimal page with one chart."""
    out: dict = {"follow": [], "per_change": [], "follow_cpu": [], "bench_cpu": [], "errors": [], "sent": 0,
                 "counted": 0, "double": 0}
    ticket = rooms.create()
    rooms.lead(ticket.code, ticket.key, class_state(8))  # the teacher's console, as it publishes
    stop = asyncio.Event()
    students = []
    for i in range(n):
        students.append(await connect(urls[i % len(urls)], f"student{i}", student_address(i)))

    async def join(i: int, s: Client) -> None:  # students come in one after another, as they scan the code
        await asyncio.sleep(0.0 if together else i * JOIN_GAP)
        await s.run(query=f"join={ticket.code}" if app == "class" else f"room={ticket.code}")

    await asyncio.gather(*(join(i, s) for i, (s, _) in enumerate(students)))
    if together:  # the worst case: every tab's timer ticks at the same moment (as if all had joined at once)
        now = time.perf_counter()
        for s, _ in students:
            s.timers = {fid: (interval, now) for fid, (interval, _) in s.timers.items()}
    timers = [asyncio.create_task(s.timer_loop(stop)) for s, _ in students]
    if app == "class":  # the class's page polls the version itself (classroom/watch.js)
        first = time.perf_counter()
        timers += [asyncio.create_task(watch_loop(s, urls[i % len(urls)], stop,
                                                  first if together else first + i * JOIN_GAP))
                   for i, (s, _) in enumerate(students)]  # fmt: skip
    # where in its period each tab's timer ticks, in tenths: how spread the class's checks are
    out["phases"] = Counter(int(10 * (start % interval) / interval) for s, _ in students
                            for interval, start in s.timers.values())  # fmt: skip
    deadline = time.monotonic() + 60
    while any(s.heads_drawn != 8 for s, _ in students) and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    lost = sum(s.heads_drawn != 8 for s, _ in students)
    out["refused"] = sum(s.bar != "following" for s, _ in students) if app == "class" else 0  # never seated
    out["split"] = sorted(Counter(s.upstream for s, _ in students).values(), reverse=True)
    if os.environ.get("LIVE_DEBUG"):
        for s, _ in students:
            print(s.name, s.heads_drawn, s.runs, s.timers, s.page_hash[:8], sorted(s.ids)[:30], s.query)
    if lost:
        out["errors"].append(f"{lost} students never reached the teacher's page")
    out["settled"] = await settle(pids)
    h_values = [(4, 2, 8)[i % 3] for i in range(changes)]  # each differs from the one before (the class starts at 8)
    moments = random.Random(0)
    for h in h_values:
        # the teacher's click falls anywhere in the students' timer period, as in class (a fixed 2 s put it just
        # after every student's tick, the worst case, every time)
        await asyncio.sleep(2.0 + moments.random())
        for s, _ in students:
            s.heads_seen_at.pop(h, None)
        cpu0, own0 = sum(cpu_seconds(p) for p in pids), time.process_time()
        full0 = sum(s.full_runs for s, _ in students)
        t0 = time.perf_counter()
        rooms.lead(ticket.code, ticket.key, class_state(h))
        deadline = time.monotonic() + 30
        while any(h not in s.heads_seen_at for s, _ in students) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        # the servers' CPU from the teacher's click to the last student's drawn page (the others' timers included)
        out["follow_cpu"].append((sum(cpu_seconds(p) for p in pids) - cpu0) / n)
        out["bench_cpu"].append((time.process_time() - own0) / n)  # this process's own share of the same 2 cores
        times = [s.heads_seen_at[h] - t0 for s, _ in students if h in s.heads_seen_at]
        out["follow"].extend(times)
        full = (sum(s.full_runs for s, _ in students) - full0) / n  # 1.0: each student's page ran once
        out["per_change"].append((h, pct(times, 95), out["follow_cpu"][-1], full))
        for s, _ in students:
            if h not in s.heads_seen_at:
                out["errors"].append(f"{s.name} did not follow h = {h} (its page shows h = {s.heads_drawn}, "
                                     f"its bar said: {s.bar or 'nothing'}, timer {'on' if s.timers else 'off'})")
                if os.environ.get("LIVE_DEBUG"):
                    print(s.name, s.session_id[-6:], h, "timers", s.timers, "runs", s.runs, "heads", s.heads_drawn,
                          "t0", round(t0, 2),
                          [e for e in s.log if any(isinstance(x, float) and x > t0 - 1.5 for x in e)][:8],
                          round(time.perf_counter(), 2), flush=True)  # fmt: skip
    # idle: every student following, nothing changes
    await asyncio.sleep(3.0)
    cpu0, w0 = sum(cpu_seconds(p) for p in pids), time.perf_counter()
    await asyncio.sleep(10.0)
    out["idle_cpu"] = (sum(cpu_seconds(p) for p in pids) - cpu0) / (time.perf_counter() - w0)
    out["rss"] = sum(rss_mb(p) for p in pids)
    if app == "class":  # the floor's page has no questions
        await ask_everyone(rooms, ticket, students, out)
    stop.set()
    for task in timers:
        task.cancel()
    for s, reader in students:
        out["errors"].extend(s.errors)
        await s.ws.close()
        reader.cancel()
    rooms.end(ticket.code, ticket.key)
    return out


async def settle(pids: list[int], window: float = 1.0, limit: float = 30.0) -> float:
    """Wait until the servers have done the class's joins (each process under half a core over `window` seconds), as
    a teacher starts after the students are in: a join's runs still queued would be counted in the first change.
    Returns the seconds waited (`limit` at most)."""
    start = time.monotonic()
    while time.monotonic() - start < limit:
        cpu0 = sum(cpu_seconds(p) for p in pids)
        await asyncio.sleep(window)
        if (sum(cpu_seconds(p) for p in pids) - cpu0) / window < 0.5 * len(pids):
            break
    return time.monotonic() - start


async def ask_everyone(rooms, ticket, students: list, out: dict) -> None:
    """A question: every student answers once through its page, one in ten twice; then the store's count."""
    question = {"kind": "d_k", "prompt": {"key": "quiz.d_k.prompt", "params": {"d": 64, "h": 4}},
                "options": ["16", "8", "64", "4"], "explain": {"key": "quiz.d_k.explain",
                                                              "params": {"d": 64, "h": 4, "dk": 16}}}  # fmt: skip
    qid = rooms.ask(ticket.code, ticket.key, question, 0)
    deadline = time.monotonic() + 30
    while any(f"live_send_{qid}" not in s.ids for s, _ in students) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)

    async def answer(i: int, s: Client) -> None:
        if f"live_send_{qid}" not in s.ids:
            out["errors"].append(f"{s.name} never saw the question")
            return
        frag = s.watch["fragment"] if s.watch else next(iter(s.timers))  # the bar: the question is drawn there
        pick = question["options"][i % 4]  # a radio sends its option's label (digits: nothing to escape)
        states = [widget(s.ids[f"live_pick_{qid}"], string_value=pick),
                  widget(s.ids[f"live_send_{qid}"], trigger_value=True)]  # fmt: skip
        try:
            out["sent"] += 1
            await s.run(widgets=states, fragment=frag)
            if i % 10 == 0:
                out["double"] += 1
                await s.run(widgets=states, fragment=frag)
        except TimeoutError:  # a saturated server: said as an error of the run, not the bench's crash
            out["errors"].append(f"{s.name}: the run of its answer did not end within 60 s")

    await asyncio.gather(*(answer(i, s) for i, (s, _) in enumerate(students)))
    await asyncio.sleep(1.0)
    out["counted"] = sum(rooms.tally(ticket.code, ticket.key) or [])


def start(port: int, script: str = "serve.py") -> subprocess.Popen:
    """A server of `script` (serve.py: the app and its version route; or bench/floor_app.py)."""
    cmd = [sys.executable, "-m", "streamlit", "run", script, "--server.headless", "true", "--server.port", str(port),
           "--server.address", "127.0.0.1", "--server.fileWatcherType", "none", "--browser.gatherUsageStats", "false"]
    log = open("/tmp/live_srv.log", "a") if os.environ.get("LIVE_DEBUG") else subprocess.DEVNULL  # noqa: SIM115
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if healthy(f"http://127.0.0.1:{port}", timeout=1):
            return proc
        time.sleep(0.2)
    proc.kill()
    raise RuntimeError(f"{script} did not become healthy")


def measure(n_servers: int, n: int, changes: int, store: str, redis_url: str | None, together: bool = False,
            app: str = "class") -> dict:  # fmt: skip
    with ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        os.environ["MHA_LIVE_DB"] = str(tmp / "live.sqlite3")
        if redis_url:
            os.environ["MHA_REDIS_URL"] = redis_url
        else:
            os.environ.pop("MHA_REDIS_URL", None)
        from liveclass import open_rooms

        rooms = open_rooms()
        procs, addrs = [], []
        for _ in range(n_servers):
            port = free_port()
            proc = start(port, "serve.py" if app == "class" else "bench/floor_app.py")
            stack.callback(lambda p=proc: (p.terminate(), p.wait(10)))
            procs.append(proc)
            addrs.append(f"127.0.0.1:{port}")
        front = stack.enter_context(nginx_in_front(addrs)) if n_servers == 2 else f"http://{addrs[0]}"
        urls = [front.replace("http://", "ws://")]
        asyncio.run(live_class(urls, 2, 1, rooms, [p.pid for p in procs], app=app))  # warm-up: imports, caches
        rss0 = sum(rss_mb(p.pid) for p in procs)
        res = asyncio.run(live_class(urls, n, changes, rooms, [p.pid for p in procs], together, app=app))
        res["rss_per_student"] = (res["rss"] - rss0) / n
        return res


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--students", type=int, default=60)
    ap.add_argument("--changes", type=int, default=3)
    ap.add_argument("--store", choices=("sqlite", "redis"), default="sqlite")
    ap.add_argument("--only", choices=("one", "two"), default=None)
    ap.add_argument("--together", action="store_true",
                    help="every student joins at once and their timers tick at the same moment (the worst case)")
    ap.add_argument("--no-floor", action="store_true", help="skip the floor (bench/floor_app.py on one process)")
    ap.add_argument("--page", choices=("heads", "steps"), default="heads",
                    help="what the class follows: the Heads page, or a lesson's stop (/steps presenting, one chart)")
    ap.add_argument("--addresses", choices=("machine", "one", "own"), default="machine",
                    help="where the students come from: this machine (no address), all behind the school's one "
                         "address, or each from an address of its own (X-Forwarded-For, this machine a trusted proxy)")
    args = ap.parse_args(argv)
    global PAGE, ADDRESSES
    PAGE, ADDRESSES = args.page, args.addresses
    redis_url = None
    with ExitStack() as stack:
        if args.store == "redis":
            from tests.live_redis import redis_server

            data = Path(stack.enter_context(tempfile.TemporaryDirectory()))
            redis_url, _, _ = stack.enter_context(redis_server(data))
        results = {}
        if not args.no_floor:  # the same follow of a minimal page with one chart, one process, in this same run
            results["floor"] = measure(1, args.students, args.changes, args.store, redis_url, args.together, "floor")
        for label, n_servers in (("one", 1), ("two", 2)):
            if args.only and args.only != label:
                continue
            results[label] = measure(n_servers, args.students, args.changes, args.store, redis_url, args.together)
        if not args.no_floor:  # and again after the class: the machine's speed drifts by a third within minutes
            results["floor after"] = measure(1, args.students, args.changes, args.store, redis_url, args.together,
                                             "floor")  # fmt: skip
    for label, r in results.items():
        name = f"the {label}: a minimal page with one chart, one process" if label.startswith("floor") else \
            f"{label} process{'es' if label == 'two' else ''}"  # fmt: skip
        print(f"{name} ({args.store} store), {args.students} students:")
        print(f"  follow p50 {pct(r['follow'], 50):.2f} s, p95 {pct(r['follow'], 95):.2f} s, max "
              f"{max(r['follow'], default=float('nan')):.2f} s over {len(r['follow'])} follows")  # fmt: skip
        cpu_ms = sorted(1000 * c for c in r["follow_cpu"])
        if cpu_ms:
            print(f"  server CPU per student and follow: median {cpu_ms[len(cpu_ms) // 2]:.0f} ms "
                  f"(of {len(cpu_ms)} changes: {', '.join(f'{c:.0f}' for c in cpu_ms)}); the bench's own "
                  f"{1000 * sorted(r['bench_cpu'])[len(cpu_ms) // 2]:.0f} ms")  # fmt: skip
        if r.get("per_change"):
            print("  each change, h: p95 s / CPU ms per student / page runs per student: " + ", ".join(
                f"{h}: {p:.2f}/{1000 * c:.0f}/{f:.2f}" for h, p, c, f in r["per_change"]))
        if "settled" in r:
            print(f"  the servers settled {r['settled']:.1f} s after the last join, before the first change")
        if r.get("phases"):
            print(f"  timer ticks by tenth of the period: {[r['phases'].get(i, 0) for i in range(10)]}")
        if len(r.get("split", [])) > 1:
            print(f"  students per server (nginx's round-robin for new browsers): {r['split']}")
        if not label.startswith("floor"):
            print(f"  answers sent {r['sent']} (+{r['double']} clicked twice) counted {r['counted']}, "
                  f"refused seats {r['refused']} (students from {args.addresses})")
        per = 100 * r["idle_cpu"] / args.students
        print(f"  idle: server CPU {100 * r['idle_cpu']:.1f} % of a core in all, {per:.2f} % per student; "
              f"memory {r['rss_per_student']:.2f} MB per student")
        for e in r["errors"][:5]:
            print("  error:", e)
    if "one" in results and "two" in results:
        ratio = pct(results["two"]["follow"], 95) / pct(results["one"]["follow"], 95)
        print(f"two processes / one, follow p95: {ratio:.2f}x")
    if "floor" in results:  # the floor's changes before and after the class, together
        floor = statistics.median(results["floor"]["follow_cpu"] + results["floor after"]["follow_cpu"])
        floor_p95 = pct(results["floor"]["follow"] + results["floor after"]["follow"], 95)
        for label in ("one", "two"):
            if label in results:
                mine = statistics.median(results[label]["follow_cpu"])
                which = f"{label} process{'es' if label == 'two' else ''}"
                print(f"the class's CPU per student and follow ({which}) / "
                      f"the floor's: {1000 * mine:.1f} / {1000 * floor:.1f} ms = {mine / floor:.2f}x (goal <= 2x)")
                p95 = pct(results[label]["follow"], 95)
                print(f"the class's follow p95 ({which}) / the floor's (one process): {p95:.2f} / {floor_p95:.2f} s = "
                      f"{p95 / floor_p95:.2f}x")  # fmt: skip
    last = results.get("one") or results["two"]
    print(f"live class: {args.students} students, follow p50 {pct(last['follow'], 50):.2f} s p95 "
          f"{pct(last['follow'], 95):.2f} s, answers sent {last['sent']} counted {last['counted']}, "
          f"refused seats {last['refused']}, "
          f"errors {sum(len(r['errors']) for k, r in results.items() if not k.startswith('floor'))}")  # fmt: skip
    return results


if __name__ == "__main__":
    main()
