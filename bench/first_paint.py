"""First paint of a page in Chromium, measured the way a first visitor meets it: a fresh server pinned to one core
(`taskset`), started as the README and the Docker image start it (`python3 -m ui.streamlit_guard run serve.py`; the
minimal app the same way), a new browser profile (cold) or a second visit in the same tab (warm), the page's CPU
slowed down with the DevTools protocol (`Emulation.setCPUThrottlingRate`), and optionally a phone's viewport.

What one load records (`Load`):
- `chart`: ms from the navigation's start to the first chart on screen (the first plotly `.main-svg`, or the
  Graphviz `svg`, then one animation frame for its paint), read in the page (performance.now, the navigation's
  clock), so Playwright's polling under load does not add to it;
- the network log (CDP Network events): every request with its type, bytes on the wire and when it finished;
  the JavaScript files asked for before the first chart, and their bytes;
- the websocket messages (Streamlit's ForwardMsg, decoded): when the session's first message came, when the
  first chart's element came, when the script run finished (the server's first run, as the browser sees it);
- with `trace=True`, the renderer's main thread from a CDP trace, summed by kind (script evaluation and compile,
  style and layout, paint, garbage collection), and script time by file (`summarise_trace`).

`python bench/first_paint.py` profiles /heads, /steps, the lesson's first stop and the minimal app, cold and warm,
at a given throttling, with traces, and prints where the time of each first paint goes (docs/PERFORMANCE.md).
bench/bench_app.py uses the same loads, without traces, for its ratio table.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import json
import os
import shutil
import statistics
import sys
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser import CHROMIUM, CHROMIUM_ARGS, streamlit_server  # noqa: E402

# The pages of issue 38 and the floor they are compared with (path and query after the server's base URL).
TARGETS = {
    "heads": ("serve.py", "/heads"),
    "steps": ("serve.py", "/steps"),
    "lesson": ("serve.py", "/?lesson=mha45&stop=1"),  # the first stop of the 45-minute lesson (the home page)
    "minimal": ("bench/minimal_app.py", "/"),
}
DESKTOP = {"width": 1400, "height": 1000}
PHONE = {"width": 390, "height": 844}
# A phone's browser says it is one (its user agent; Chrome also sends Sec-CH-UA-Mobile: ?1): the app then draws its
# first run in the phone layout at once (ui/screen.is_narrow) instead of after ui/a11y.js has measured the width.
PHONE_UA = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 "
            "Mobile Safari/537.36")  # fmt: skip
CHART_SELECTOR = ("[data-testid='stPlotlyChart'] .main-svg, .mha-plot .main-svg,"
                  " [data-testid='stGraphVizChart'] svg")  # fmt: skip

# In the page from its first script on: the moment the first chart's element appears, and the animation frame
# that paints it. A MutationObserver notices it within the task that inserted it.
WATCH_FIRST_CHART = """(() => {
  const sel = SELECTOR;
  const seen = () => {
    if (window.__firstChart !== undefined || !document.querySelector(sel)) return;
    window.__firstChart = performance.now();
    requestAnimationFrame(() => { window.__firstChartPainted = performance.now(); });
    observer.disconnect();
  };
  const observer = new MutationObserver(seen);
  observer.observe(document, {subtree: true, childList: true});
})();""".replace("SELECTOR", json.dumps(CHART_SELECTOR))

# A fixed piece of work timed in the page: at rate r it takes about r times as long (the throttling is in effect).
CALIBRATE = """() => { const t0 = performance.now(); let x = 0;
  for (let i = 0; i < 3e6; i++) x += Math.sqrt(i); return [performance.now() - t0, x]; }"""

TRACE_CATEGORIES = [
    "devtools.timeline", "disabled-by-default-devtools.timeline", "v8.execute", "v8",
    "disabled-by-default-v8.compile", "blink.user_timing", "loading",
]  # fmt: skip


def load_average() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


SERVER_PIDS: dict[str, int] = {}  # base URL -> the server's process id


def server_cpu(url: str) -> float:
    """CPU seconds the server at `url` and its worker processes have used so far (0 when unknown)."""
    pid = SERVER_PIDS.get(url)
    if pid is None:
        return 0.0
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if stat.parent.name == str(pid) or int(fields[1]) == pid:  # the server, or a worker it started
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def _launch(app: str, root: Path) -> tuple[str, str]:
    """How the app in `root` is started, (entry, script): `python3 -m ui.streamlit_guard run serve.py`
    (tests/browser.streamlit_server), or, in an older checkout without serve.py or the guard, `streamlit run app.py`."""
    if app == "serve.py" and not (root / app).exists():
        app = "app.py"
    return ("ui.streamlit_guard" if (root / "ui" / "streamlit_guard.py").exists() else "streamlit"), app


@contextlib.contextmanager
def server(app: str, core: int | None = 0, timeout: float = 90.0, env: dict | None = None,
           root: Path = ROOT) -> Iterator[str]:  # fmt: skip
    """A fresh server of `app` in `root` (started as `_launch` says; tests/browser.streamlit_server) on a free port,
    pinned to CPU `core` (None: not pinned); yields its URL once /_stcore/health answers, stops it afterwards."""
    entry, script = _launch(app, root)
    pinned = ("taskset", "-c", str(core)) if core is not None and shutil.which("taskset") else ()
    with streamlit_server(script, timeout, entry=entry, env=env, root=root, prefix=pinned, poll=0.05,
                          pids=SERVER_PIDS, warmup=True) as url:  # fmt: skip
        yield url


@dataclass
class Request:
    url: str
    kind: str  # CDP's resource type: Document, Script, Stylesheet, Font, Fetch, WebSocket, ...
    start: float  # ms after the navigation's start
    end: float | None = None
    bytes: int = 0  # on the wire (encodedDataLength)
    cached: bool = False

    @property
    def name(self) -> str:
        return urlparse(self.url).path.rsplit("/", 1)[-1] or urlparse(self.url).path


@dataclass
class Message:
    at: float  # ms after the navigation's start
    kind: str  # new_session, delta:<element>, script_finished, ...
    bytes: int


@dataclass
class Load:
    url: str
    chart: float = float("nan")  # ms: first chart painted
    server_cpu: float = float("nan")  # ms of the server's CPU (its workers' too) from the navigation to the chart
    chart_inserted: float = float("nan")  # ms: its element in the DOM
    requests: list[Request] = field(default_factory=list)
    messages: list[Message] = field(default_factory=list)
    trace: bytes | None = None
    cpu_profile: dict | None = None

    def scripts_before_chart(self) -> list[Request]:
        return [r for r in self.requests if r.kind == "Script" and r.start <= self.chart]

    def first(self, prefix: str) -> float:
        return next((m.at for m in self.messages if m.kind.startswith(prefix)), float("nan"))


def _message_kind(raw: bytes) -> str:
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    try:
        msg = ForwardMsg.FromString(raw)
    except Exception:
        return "?"
    kind = msg.WhichOneof("type") or "?"
    if kind == "delta":
        delta = msg.delta
        which = delta.WhichOneof("type")
        if which == "new_element":
            element = delta.new_element.WhichOneof("type")
            if element == "bidi_component":
                element = f"bidi_component:{delta.new_element.bidi_component.component_name}"
            return f"delta:{element}"
        return f"delta:{which}"
    return kind


class _Recorder:
    """CDP Network events of one page, as Requests and websocket Messages (times after the navigation's start)."""

    def __init__(self, cdp) -> None:
        self.t0: float | None = None
        self.by_id: dict[str, Request] = {}
        self.messages: list[Message] = []
        cdp.on("Network.requestWillBeSent", self._sent)
        cdp.on("Network.responseReceived", self._response)
        cdp.on("Network.loadingFinished", self._finished)
        cdp.on("Network.webSocketCreated", self._ws_created)
        cdp.on("Network.webSocketFrameReceived", self._frame)

    def _ms(self, timestamp: float) -> float:
        return (timestamp - (self.t0 or timestamp)) * 1000

    def _sent(self, e: dict) -> None:
        if e.get("type") == "Document" and self.t0 is None:
            self.t0 = e["timestamp"]
        if self.t0 is None:
            return
        self.by_id[e["requestId"]] = Request(e["request"]["url"], e.get("type", "Other"), self._ms(e["timestamp"]))

    def _response(self, e: dict) -> None:
        r = self.by_id.get(e["requestId"])
        if r is not None:
            resp = e.get("response", {})
            r.cached = bool(resp.get("fromDiskCache") or resp.get("fromMemoryCache") or resp.get("fromPrefetchCache"))

    def _finished(self, e: dict) -> None:
        r = self.by_id.get(e["requestId"])
        if r is not None:
            r.end = self._ms(e["timestamp"])
            r.bytes = int(e.get("encodedDataLength", 0))

    def _ws_created(self, e: dict) -> None:
        if self.t0 is not None:
            self.by_id[e["requestId"]] = Request(e["url"], "WebSocket", 0.0)

    def _frame(self, e: dict) -> None:
        if self.t0 is None:
            return
        resp = e["response"]
        raw = base64.b64decode(resp["payloadData"]) if resp.get("opcode") == 2 else resp["payloadData"].encode()
        self.messages.append(Message(self._ms(e["timestamp"]), _message_kind(raw), len(raw)))


def open_context(browser, viewport: dict, rate: float):
    """A new browser profile (context) and tab, its CPU slowed down `rate` times. Returns (context, page, cdp)."""
    phone = viewport is PHONE
    scale = 3 if phone else 1
    ctx = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone, device_scale_factor=scale,
                              user_agent=PHONE_UA if phone else None)  # fmt: skip
    page = ctx.new_page()
    page.add_init_script(WATCH_FIRST_CHART)
    cdp = ctx.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    return ctx, page, cdp


def load(browser, page, cdp, url: str, trace: bool = False, sample: bool = False, timeout: float = 120_000) -> Load:
    """Navigate the tab to `url` and wait for its first chart; what the navigation cost, as a Load (with `trace`,
    the CDP trace; with `sample`, V8's sampling CPU profile of the page)."""
    cdp.send("Network.enable", {"maxTotalBufferSize": 64 << 20})
    rec = _Recorder(cdp)
    if trace:
        browser.start_tracing(page=page, categories=TRACE_CATEGORIES)
    if sample:
        cdp.send("Profiler.enable")
        cdp.send("Profiler.setSamplingInterval", {"interval": 500})
        cdp.send("Profiler.start")
    base = url.split("/", 3)[:3]
    cpu0 = server_cpu("/".join(base))
    page.goto(url, wait_until="commit", timeout=timeout)
    page.wait_for_function("() => window.__firstChartPainted !== undefined", timeout=timeout, polling=50)
    cpu1 = server_cpu("/".join(base))
    chart, inserted = page.evaluate("() => [window.__firstChartPainted, window.__firstChart]")
    out = Load(url, chart=chart, chart_inserted=inserted, server_cpu=(cpu1 - cpu0) * 1000)
    if trace:
        out.trace = browser.stop_tracing()
    if sample:
        out.cpu_profile = cdp.send("Profiler.stop")["profile"]
        cdp.send("Profiler.disable")
    # what is still in flight belongs to the load too (it shares the CPU): let the log catch up briefly
    page.wait_for_timeout(50)
    out.requests = sorted(rec.by_id.values(), key=lambda r: r.start)
    out.messages = list(rec.messages)
    cdp.send("Network.disable")
    return out


def calibrate(browser, rate: float) -> float:
    """ms of a fixed loop in a page throttled `rate` times (its ratio to rate 1 shows the throttling works)."""
    ctx, page, _ = open_context(browser, DESKTOP, rate)
    try:
        page.goto("about:blank")
        return min(page.evaluate(CALIBRATE)[0] for _ in range(3))
    finally:
        ctx.close()


# ----------------------------------------------------------------------------- the trace, summed
KINDS = {
    # DevTools' own grouping of main-thread events (Performance panel, "Summary")
    "EvaluateScript": "script", "v8.evaluateModule": "script", "FunctionCall": "script", "TimerFire": "script",
    "EventDispatch": "script", "RunMicrotasks": "script", "FireAnimationFrame": "script", "v8.run": "script",
    "V8.Execute": "script", "FireIdleCallback": "script", "v8.callFunction": "script",
    "v8.compile": "compile", "v8.compileModule": "compile", "V8.CompileCode": "compile",
    "v8.produceModuleCache": "compile", "v8.produceCache": "compile", "CacheScript": "compile",
    "V8.CompileLazy": "compile", "v8.compileLazy": "compile", "V8.ParseFunction": "compile",
    "MajorGC": "gc", "MinorGC": "gc", "V8.GCScavenger": "gc", "V8.GCCompactor": "gc", "BlinkGC.AtomicPhase": "gc",
    "ParseHTML": "parse html/css", "ParseAuthorStyleSheet": "parse html/css",
    "UpdateLayoutTree": "style+layout", "Layout": "style+layout", "RecalculateStyles": "style+layout",
    "HitTest": "style+layout", "ScheduleStyleRecalculation": "style+layout",
    "PrePaint": "paint", "Paint": "paint", "Layerize": "paint", "UpdateLayer": "paint", "Commit": "paint",
    "PaintImage": "paint", "Decode Image": "paint", "ImageDecodeTask": "paint", "RasterTask": "paint",
    "ResourceReceivedData": "loading", "ResourceFinish": "loading", "ResourceSendRequest": "loading",
    "ResourceReceiveResponse": "loading",
}  # fmt: skip


def _main_thread(events: list[dict]) -> tuple[int, int] | None:
    """(pid, tid) of the renderer main thread that ran the page (the one with the most script time)."""
    names = {(e["pid"], e["tid"]) for e in events if e.get("ph") == "M" and e.get("name") == "thread_name"
             and e.get("args", {}).get("name") == "CrRendererMain"}  # fmt: skip
    busy: dict[tuple[int, int], float] = defaultdict(float)
    for e in events:
        key = (e.get("pid"), e.get("tid"))
        if key in names and e.get("ph") == "X" and e.get("name") in ("EvaluateScript", "FunctionCall", "v8.compile"):
            busy[key] += e.get("dur", 0)
    return max(busy, key=busy.get) if busy else None


def summarise_trace(raw: bytes, start_ms: float, end_ms: float) -> dict:
    """The renderer main thread between the navigation's start (`start_ms` = 0 on the trace's navigationStart) and
    `end_ms`: self time by kind (ms), script and compile time by file (ms), and the thread's busy and idle time."""
    events = json.loads(raw)["traceEvents"]
    main = _main_thread(events)
    if main is None:
        return {}
    nav = [e["ts"] for e in events if e.get("name") in ("navigationStart", "markAsMainFrame") and
           (e.get("pid"), e.get("tid")) == main]  # fmt: skip
    starts = [e["ts"] for e in events if e.get("name") == "navigationStart" and e.get("pid") == main[0]]
    origin = (starts[-1] if starts else (nav[0] if nav else min(e["ts"] for e in events if "ts" in e)))
    lo, hi = origin + start_ms * 1000, origin + end_ms * 1000
    spans = sorted((e for e in events if (e.get("pid"), e.get("tid")) == main and e.get("ph") == "X"
                    and "dur" in e and e["ts"] < hi and e["ts"] + e["dur"] > lo),
                   key=lambda e: (e["ts"], -e["dur"]))  # fmt: skip
    by_kind: dict[str, float] = defaultdict(float)
    by_file: dict[str, float] = defaultdict(float)
    stack: list[list] = []  # [end, kind, file, child_time]
    busy = cpu = 0.0

    def close(item: list, upto: float) -> None:
        end, kind, file, start, children = item
        own = max(0.0, min(end, hi) - max(start, lo) - children)
        by_kind[kind] += own / 1000
        if kind in ("script", "compile", "gc") and file:
            by_file[file] += own / 1000

    for e in spans:
        begin, end = e["ts"], e["ts"] + e["dur"]
        while stack and stack[-1][0] <= begin:
            close(stack.pop(), begin)
        name = e["name"]
        data = e.get("args", {}).get("data", {}) or {}
        url = data.get("url") or e.get("args", {}).get("fileName") or (stack[-1][2] if stack else "")
        kind = KINDS.get(name, stack[-1][1] if stack else "other")
        clipped = min(end, hi) - max(begin, lo)
        if stack:
            stack[-1][4] += max(0.0, clipped)
        else:
            busy += max(0.0, clipped)
            cpu += e.get("tdur", e["dur"]) * max(0.0, clipped) / max(e["dur"], 1)  # thread time: not the waits
        stack.append([end, kind, urlparse(url).path.rsplit("/", 1)[-1] if url else "", begin, 0.0])
    while stack:
        close(stack.pop(), hi)
    window = end_ms - start_ms
    return {"kinds": dict(by_kind), "files": dict(by_file), "busy": busy / 1000, "idle": window - busy / 1000,
            "cpu": cpu / 1000}


def summarise_samples(profile: dict, top: int = 25) -> tuple[dict[str, float], list[tuple[str, float]]]:
    """V8's sampling profile: self time (ms) by script file, and the `top` functions by self time."""
    nodes = {n["id"]: n for n in profile["nodes"]}
    self_us: dict[int, float] = defaultdict(float)
    for node_id, dt in zip(profile["samples"], profile["timeDeltas"], strict=False):
        self_us[node_id] += dt
    by_file: dict[str, float] = defaultdict(float)
    by_fn: dict[str, float] = defaultdict(float)
    for node_id, us in self_us.items():
        frame = nodes[node_id]["callFrame"]
        file = urlparse(frame.get("url", "")).path.rsplit("/", 1)[-1] or f"({frame['functionName'] or 'program'})"
        by_file[file] += us / 1000
        where = f"{file}:{frame.get('lineNumber', 0) + 1}:{frame.get('columnNumber', 0) + 1}"
        by_fn[f"{frame['functionName'] or '(anonymous)'}@{where}"] += us / 1000
    return dict(by_file), sorted(by_fn.items(), key=lambda kv: -kv[1])[:top]


# ----------------------------------------------------------------------------- the ratio table
CONFIGS = (("1x", 1, DESKTOP), ("3x", 3, DESKTOP), ("6x", 6, DESKTOP), ("phone 6x", 6, PHONE))
GOALS = {"phone 6x": 1.5}  # the goal is 1.3x the minimal app everywhere else


@dataclass
class Pair:
    """One page and the minimal app, each on a fresh server: cold and warm first chart (ms), the load average."""

    config: str
    page: str
    ours: dict[str, float]
    floor: dict[str, float]
    load: float


# Resolves once the app's last run is over and the tab's main thread has been idle for five idle periods in a row
# (about a quarter of a second), or after 60 s. The warm visit is a second visit, not the end of the first: at 6x a
# page's full run after its first screen (/heads: three more charts and a table) kept the main thread busy for seconds
# after the first chart, and a second visit started a second later waited for it (warm /heads at 3x, 6x and on the
# phone: 4.4-5.3 s in one run of three against 2.1-2.5 s).
SETTLED = """() => new Promise((resolve) => {
    let quiet = 0;
    const end = performance.now() + 60000;
    const tick = (deadline) => {
        const app = document.querySelector("[data-testid='stApp']");
        const running = app && app.dataset.testScriptState === "running";
        quiet = !running && deadline.timeRemaining() >= 40 ? quiet + 1 : 0;
        if (quiet >= 5 || performance.now() > end) resolve(); else requestIdleCallback(tick, {timeout: 1000});
    };
    requestIdleCallback(tick, {timeout: 1000});
})"""


def settled(page) -> None:
    """Wait until the visit is over: its last run drawn, the tab idle (SETTLED)."""
    page.evaluate(SETTLED)


def cold_and_warm(browser, app: str, path: str, viewport: dict, rate: float, core: int | None,
                  root: Path = ROOT) -> dict[str, float]:  # fmt: skip
    """A fresh server, a new browser profile: the first chart of the first visit (cold) and of the second visit in
    the same tab (warm), in ms."""
    with server(app, core, root=root) as url:
        ctx, page, cdp = open_context(browser, viewport, rate)
        try:
            page.goto(f"{url}/_stcore/health")  # same origin: the throttled renderer stays for the page
            cold = load(browser, page, cdp, url + path).chart
            settled(page)  # the cold visit's tail (the full run, later charts) is not the warm one's
            warm = load(browser, page, cdp, url + path).chart
            return {"cold": cold, "warm": warm}
        finally:
            ctx.close()


def measure_pairs(pages: list[str], reps: int, configs=CONFIGS, core: int | None = 0, root: Path = ROOT,
                  log=print) -> list[Pair]:  # fmt: skip
    """For each repetition, configuration and page: the page, then the minimal app (the other way round on odd
    repetitions), each on a fresh server and in a new profile."""
    from playwright.sync_api import sync_playwright

    pairs: list[Pair] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        base = calibrate(browser, 1)
        log("throttling check (a fixed loop, x of 1x): " + ", ".join(
            f"{rate:g}x -> {calibrate(browser, rate) / base:.1f}x" for rate in sorted({c[1] for c in configs})))
        for rep in range(reps):
            for config, rate, viewport in configs:
                for name in pages:
                    order = [name, "minimal"] if rep % 2 == 0 else ["minimal", name]
                    got = {}
                    for which in order:
                        app, path = TARGETS[which]
                        got[which] = cold_and_warm(browser, app, path, viewport, rate, core, root)
                    pair = Pair(config, name, got[name], got["minimal"], os.getloadavg()[0])
                    pairs.append(pair)
                    log(f"  rep {rep + 1} {config:8} {name:7} cold {pair.ours['cold']:7.0f} / {pair.floor['cold']:6.0f}"
                        f"  warm {pair.ours['warm']:7.0f} / {pair.floor['warm']:6.0f} ms   load {pair.load:.1f}")
        browser.close()
    return pairs


def ratio_table(pairs: list[Pair]) -> tuple[list[str], dict[tuple[str, str, str], float]]:
    """Lines of the ratio table (median of the page / median of the minimal app, per configuration, page and visit;
    in brackets the median of the paired ratios), and the ratios by (config, page, visit)."""
    ratios: dict[tuple[str, str, str], float] = {}
    configs = list(dict.fromkeys(p.config for p in pairs))
    pages = list(dict.fromkeys(p.page for p in pairs))
    head = f"{'viewport, CPU':14}" + "".join(f"{p + ' ' + v:>22}" for p in pages for v in ("cold", "warm"))
    lines = [head + f"{'goal':>7}{'load avg':>10}"]
    for config in configs:
        cells = []
        for page in pages:
            mine = [p for p in pairs if p.config == config and p.page == page]
            for visit in ("cold", "warm"):
                ours = statistics.median(p.ours[visit] for p in mine)
                floor = statistics.median(p.floor[visit] for p in mine)
                paired = statistics.median(p.ours[visit] / p.floor[visit] for p in mine)
                ratios[(config, page, visit)] = ours / floor
                cells.append(f"{ours / floor:.2f} [{paired:.2f}] {ours / 1000:4.1f}s")
        loads = [p.load for p in pairs if p.config == config]
        lines.append(f"{config:14}" + "".join(f"{c:>22}" for c in cells)
                     + f"{GOALS.get(config, 1.3):>7}{statistics.median(loads):>10.1f}")  # fmt: skip
    lines.append("cells: median first chart of the page / the minimal app's, [median of the paired ratios], the page's "
                 "median first chart; load avg: the machine's 1-minute load average (median)")
    return lines, ratios


# ----------------------------------------------------------------------------- the profile
def describe(name: str, ld: Load, summary: dict | None) -> list[str]:
    scripts = ld.scripts_before_chart()
    js_bytes = sum(r.bytes for r in scripts)
    net = [r for r in ld.requests if r.kind not in ("WebSocket",)]
    last_script = max((r.end or r.start for r in scripts), default=float("nan"))
    plotly = next((r for r in ld.requests if "plotly" in r.url.lower()), None)
    out = [
        f"  {name}: first chart {ld.chart:7.0f} ms (element {ld.chart_inserted:7.0f}); requests {len(net)}, "
        f"JS files before the chart {len(scripts)} ({js_bytes / 1024:.0f} KB on the wire, "
        f"{sum(r.cached for r in scripts)} from cache), last JS file in at {last_script:.0f} ms; server CPU "
        f"{ld.server_cpu:.0f} ms",
        f"    websocket: session {ld.first('new_session'):.0f} ms, first delta {ld.first('delta'):.0f}, "
        f"chart element {_chart_message(ld):.0f}, script finished {ld.first('script_finished'):.0f}; "
        f"{len(ld.messages)} messages, {sum(m.bytes for m in ld.messages) / 1024:.0f} KB",
    ]
    if plotly is not None:
        out.append(f"    {plotly.name}: asked {plotly.start:.0f} ms, in {plotly.end or float('nan'):.0f} ms, "
                   f"{plotly.bytes / 1024:.0f} KB")  # fmt: skip
    if summary:
        kinds = ", ".join(f"{k} {v:.0f}" for k, v in sorted(summary["kinds"].items(), key=lambda kv: -kv[1]) if v >= 5)
        out.append(f"    main thread to the chart: busy {summary['busy']:.0f} (CPU {summary['cpu']:.0f}), idle "
                   f"{summary['idle']:.0f} ms: {kinds}")  # fmt: skip
        files = sorted(summary["files"].items(), key=lambda kv: -kv[1])[:12]
        out.append("    script+compile by file: " + ", ".join(f"{f} {v:.0f}" for f, v in files))
    if ld.cpu_profile:
        files, fns = summarise_samples(ld.cpu_profile)
        out.append("    sampled self time by file: " + ", ".join(
            f"{f} {v:.0f}" for f, v in sorted(files.items(), key=lambda kv: -kv[1])[:14]))
        out.append("    top functions: " + ", ".join(f"{f} {v:.0f}" for f, v in fns[:15]))
    return out


def _chart_message(ld: Load) -> float:
    for m in ld.messages:
        if m.kind in ("delta:plotly_chart", "delta:graphviz_chart", "delta:bidi_component:mha_plot"):
            return m.at
    return float("nan")


def profile(targets: list[str], rate: float, viewport: dict, reps: int, trace: bool, core: int | None,
            sample: bool = False, roots: tuple[Path, ...] = (ROOT,)) -> None:  # fmt: skip
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        base = calibrate(browser, 1)
        print(f"throttling {rate}x (a fixed loop: {calibrate(browser, rate) / base:.1f}x of 1x), viewport "
              f"{viewport['width']}x{viewport['height']}, server on core {core}, load average {load_average()}")
        for rep in range(reps):
            for name, root in [(n, r) for n in targets for r in (roots if n != "minimal" else roots[:1])]:
                app, path = TARGETS[name]
                with server(app, core, root=root) as url:
                    ctx, page, cdp = open_context(browser, viewport, rate)
                    try:
                        page.goto(f"{url}/_stcore/health")  # same origin: the throttled renderer stays
                        for visit in ("cold", "warm"):
                            ld = load(browser, page, cdp, url + path, trace=trace, sample=sample)
                            summary = summarise_trace(ld.trace, 0, ld.chart) if ld.trace else None
                            where = f" [{root}]" if len(roots) > 1 else ""
                            for line in describe(f"{name}{where} {visit} (rep {rep + 1})", ld, summary):
                                print(line)
                            if visit == "cold":
                                settled(page)  # the cold visit's tail (later charts) is not the warm one's
                    finally:
                        ctx.close()
        browser.close()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rate", type=float, default=6)
    ap.add_argument("--phone", action="store_true", help="a 390 x 844 phone viewport")
    ap.add_argument("--reps", type=int, default=1)
    ap.add_argument("--no-trace", action="store_true")
    ap.add_argument("--sample", action="store_true", help="V8's sampling CPU profile: self time by file, function")
    ap.add_argument("--core", type=int, default=0, help="the CPU the server is pinned to (-1: not pinned)")
    ap.add_argument("--root", type=Path, action="append", help="the app in this checkout (repeat: each in turn)")
    ap.add_argument("targets", nargs="*", default=list(TARGETS))
    args = ap.parse_args(argv)
    profile(args.targets, args.rate, PHONE if args.phone else DESKTOP, args.reps, not args.no_trace,
            None if args.core < 0 else args.core, args.sample,
            tuple(r.resolve() for r in args.root or [ROOT]))  # fmt: skip


if __name__ == "__main__":
    main()
