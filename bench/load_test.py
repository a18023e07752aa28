"""A class at once: N concurrent sessions against one server, over Streamlit's own websocket protocol (what the
browser speaks, without 40 browsers' rendering cost on the same 2 cores).

    python bench/load_test.py [--sessions 40] [--page heads]

Each session connects to /_stcore/stream, runs the page (as a browser opening it), then changes the number of
heads from 8 to 4 (the widget state a browser sends) and waits until the script has finished again. Reports the
per-session latency of both (p50 / p95), errors (a failed run or an exception shown), and the server's resident
memory before and after, per extra session. Targets on a 2-core machine: no errors, p95 < 3 s, < 25 MB/session.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import websockets  # noqa: E402
from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402

from tests.browser import free_port  # noqa: E402
from ui.chart_element import unpack  # noqa: E402


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def start_server(port: int) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true", "--server.port", str(port),
           "--server.address", "127.0.0.1", "--server.fileWatcherType", "none", "--browser.gatherUsageStats", "false"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=1) as r:
                if r.read() == b"ok":
                    return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("server did not become healthy")


class Session:
    def __init__(self, ws, page: str) -> None:
        self.ws, self.page = ws, page
        self.heads_id: str | None = None
        self.exceptions = 0
        self.heads_drawn: int | None = None  # head tiles in the first chart of the last run
        self.cached: set[str] = set()  # like the browser: large messages it holds, sent back as hashes

    async def run(self, widgets: list | None = None, query: str = "") -> float:
        msg = BackMsg()
        msg.rerun_script.page_name = self.page
        msg.rerun_script.query_string = query  # bound widgets (bind="query-params") live in the URL too
        msg.rerun_script.cached_message_hashes.extend(sorted(self.cached))
        for w in widgets or []:
            msg.rerun_script.widget_states.widgets.append(w)
        self.heads_drawn = None
        t0 = time.perf_counter()
        await self.ws.send(msg.SerializeToString())
        while True:
            fm = ForwardMsg()
            fm.ParseFromString(await self.ws.recv())
            kind = fm.WhichOneof("type")
            if fm.metadata.cacheable and fm.hash:
                self.cached.add(fm.hash)
            if kind == "delta" and fm.delta.WhichOneof("type") == "new_element":
                el = fm.delta.new_element
                if el.WhichOneof("type") == "exception":
                    self.exceptions += 1
                elif el.WhichOneof("type") == "number_input" and el.number_input.id.endswith("-n_heads"):
                    self.heads_id = el.number_input.id
                elif self.heads_drawn is None and (spec := _chart_spec(el)) is not None:
                    notes = spec.get("layout", {}).get("annotations", [])
                    self.heads_drawn = sum(1 for a in notes if str(a.get("text", "")).startswith("head "))
            elif kind == "script_finished":
                if fm.script_finished != 0:  # FINISHED_SUCCESSFULLY
                    raise RuntimeError(f"script finished with status {fm.script_finished}")
                return time.perf_counter() - t0


def _chart_spec(el) -> dict | None:
    """The figure of a chart element: the app's ui/plot.js component, or a st.plotly_chart (the fallback)."""
    kind = el.WhichOneof("type")
    if kind == "bidi_component" and el.bidi_component.WhichOneof("data") == "bytes":  # ui/chart_element.payload
        data = unpack(el.bidi_component.bytes)
        return json.loads(data["spec"]) if data.get("spec") else None  # the early element has no figure
    if kind == "plotly_chart":
        return json.loads(el.plotly_chart.spec)
    return None


async def one_session(url: str, page: str, start: asyncio.Event, hold: asyncio.Event, out: dict) -> None:
    await start.wait()
    try:
        async with websockets.connect(f"{url}/_stcore/stream", subprotocols=["streamlit"], max_size=None,
                                      open_timeout=60) as ws:  # fmt: skip
            s = Session(ws, page)
            # A widget gets its final identity once the page is known (after the first run): the opening of a
            # page is that run plus one more, as in the browser and in AppTest.
            out["load"].append(await s.run() + await s.run())
            if s.heads_id is None:
                raise RuntimeError("no 'Number of heads h' widget on the page")
            from streamlit.proto.WidgetStates_pb2 import WidgetState

            w = WidgetState(id=s.heads_id, double_value=4.0)  # number_input always sends a double
            out["change"].append(await s.run([w], query="n_heads=4"))
            if s.heads_drawn != 4:
                raise RuntimeError(f"after h = 4 the heads figure shows {s.heads_drawn} heads")
            if s.exceptions:
                out["errors"].append(f"{s.exceptions} exception(s) shown")
            out["done"] += 1
            await hold.wait()  # keep the session open while memory is measured
    except Exception as exc:  # report every failure, keep the others running
        out["errors"].append(f"{type(exc).__name__}: {exc}")
        out["done"] += 1


async def load(url: str, n: int, page: str, pid: int) -> dict:
    out: dict = {"load": [], "change": [], "errors": [], "done": 0}
    start, hold = asyncio.Event(), asyncio.Event()
    tasks = [asyncio.create_task(one_session(url, page, start, hold, out)) for _ in range(n)]
    t0 = time.perf_counter()
    start.set()
    while out["done"] < n:
        await asyncio.sleep(0.1)
    out["wall"] = time.perf_counter() - t0
    await asyncio.sleep(1.0)
    out["rss_after"] = rss_mb(pid)
    hold.set()
    await asyncio.gather(*tasks)
    return out


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 else values[0]


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sessions", type=int, default=40)
    ap.add_argument("--page", default="heads")
    args = ap.parse_args(argv)
    port = free_port()
    proc = start_server(port)
    url = f"ws://127.0.0.1:{port}"
    try:
        warm = asyncio.run(load(url, 1, args.page, proc.pid))  # imports, caches: what a running server has
        if warm["errors"]:
            raise RuntimeError(f"warm-up failed: {warm['errors']}")
        time.sleep(1.0)
        rss_before = rss_mb(proc.pid)
        res = asyncio.run(load(url, args.sessions, args.page, proc.pid))
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    per_session = (res["rss_after"] - rss_before) / args.sessions
    rows = [
        ("sessions", args.sessions, ""),
        ("errors", len(res["errors"]), ""),
        ("page load p50", pct(res["load"], 50), "s"),
        ("page load p95", pct(res["load"], 95), "s"),
        ("h change p50", pct(res["change"], 50), "s"),
        ("h change p95 (target < 3)", pct(res["change"], 95), "s"),
        ("all sessions done after", res["wall"], "s"),
        ("server RSS, 1 session", rss_before, "MB"),
        (f"server RSS, {args.sessions} more sessions", res["rss_after"], "MB"),
        ("memory per extra session (target < 25)", per_session, "MB"),
    ]
    for name, value, unit in rows:
        print(f"{name:42s} {value:10.2f} {unit}" if isinstance(value, float) else f"{name:42s} {value:10d} {unit}")
    for e in res["errors"][:10]:
        print("error:", e)
    return {"errors": res["errors"], "load": res["load"], "change": res["change"], "per_session_mb": per_session}


if __name__ == "__main__":
    main()
