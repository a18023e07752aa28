"""A careless class: N sessions hammer the largest setting while another user just opens /heads.

    python bench/soak.py [--heavy 4] [--seconds 90] [--every 3]

A fresh server is started. The victim opens /heads (a new websocket session, the page's two runs, as in
bench/load_test.py) every `--every` seconds: first alone (the quiet phase), then while N heavy sessions (in a
separate process, so that their large messages do not slow the victim's client) rerun /steps and /subspaces at
d_model 1024, h 16, 64 tokens, each time with a new seed, for `--seconds`. After they leave, the server is
watched for a while longer (caches expire after MHA_CACHE_IDLE_S, set short here). Prints the server's peak
resident memory, the victim's quiet and loaded medians and their ratio, exceptions shown and errors.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing as mp
import os
import statistics
import sys
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import websockets  # noqa: E402
from streamlit.proto.WidgetStates_pb2 import WidgetState  # noqa: E402

from bench.load_test import Session, rss_mb, start_server  # noqa: E402
from tests.browser import free_port  # noqa: E402

LONG = " ".join(f"w{i}" for i in range(64))


async def open_page(url: str, page: str, query: str = "") -> tuple[float, int]:
    """A new session opening `page`: (seconds for its two runs, exceptions shown)."""
    async with websockets.connect(f"{url}/_stcore/stream", subprotocols=["streamlit"], max_size=None,
                                  open_timeout=60) as ws:  # fmt: skip
        s = Session(ws, page)
        seconds = await s.run(query=query) + await s.run(query=query)
        return seconds, s.exceptions


async def victim(url: str, every: float, stop: threading.Event, out: list, errors: list) -> None:
    while not stop.is_set():
        t0 = time.monotonic()
        try:
            seconds, exceptions = await open_page(url, "heads")
            out.append(seconds)
            if exceptions:
                errors.append(f"victim: {exceptions} exception(s) shown")
        except Exception as exc:  # counted, the soak goes on
            errors.append(f"victim: {type(exc).__name__}: {exc}")
        await asyncio.sleep(max(0.0, every - (time.monotonic() - t0)))


async def heavy_session(url: str, n: int, until: float, out: dict) -> None:
    """Reruns /steps and /subspaces at the largest setting, a new seed each time."""
    seed = 1000 * (n + 1)
    base = {"d_model": "1024", "n_heads": "16", "text": LONG}
    try:
        async with websockets.connect(f"{url}/_stcore/stream", subprotocols=["streamlit"], max_size=None,
                                      open_timeout=60) as ws:  # fmt: skip
            s = Session(ws, "steps")
            query = urllib.parse.urlencode({**base, "seed": seed})
            await s.run(query=query)
            await s.run(query=query)
            seed_id = None
            runs = 0
            while time.monotonic() < until:
                s.page = "subspaces" if runs % 2 else "steps"
                seed += 1
                query = urllib.parse.urlencode({**base, "seed": seed})
                if seed_id is None:
                    seed_id = await _widget_id(s, query)
                await s.run([WidgetState(id=seed_id, double_value=float(seed))] if seed_id else None, query=query)
                runs += 1
            out["runs"] += runs
            out["exceptions"] += s.exceptions
    except Exception as exc:  # counted, the soak goes on
        out["errors"].append(f"heavy {n}: {type(exc).__name__}: {exc}")


async def _widget_id(s: Session, query: str) -> str | None:
    """The id of the sidebar's seed widget, read from one run's messages."""
    found: list[str] = []
    original = s.ws.recv

    async def spy():
        raw = await original()
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        fm = ForwardMsg()
        fm.ParseFromString(raw)
        if fm.WhichOneof("type") == "delta" and fm.delta.WhichOneof("type") == "new_element":
            el = fm.delta.new_element
            if el.WhichOneof("type") == "number_input" and el.number_input.id.endswith("-seed"):
                found.append(el.number_input.id)
        return raw

    s.ws.recv = spy
    try:
        await s.run(query=query)
    finally:
        s.ws.recv = original
    return found[0] if found else None


def heavy_process(url: str, n: int, seconds: float, queue: mp.Queue) -> None:
    async def main() -> dict:
        out = {"runs": 0, "exceptions": 0, "errors": []}
        until = time.monotonic() + seconds
        await asyncio.gather(*(heavy_session(url, i, until, out) for i in range(n)))
        return out

    queue.put(asyncio.run(main()))


def workers_rss_mb(pid: int) -> float:
    """The resident memory of the server's child processes (budget/pool.py's workers)."""
    total = 0.0
    for children in Path(f"/proc/{pid}/task").glob("*/children"):
        for child in children.read_text().split():
            with contextlib.suppress(OSError, RuntimeError):  # a worker that just ended
                total += rss_mb(int(child))
    return total


def watch_rss(pid: int, stop: threading.Event, samples: list, workers: list) -> None:
    while not stop.is_set():
        try:
            samples.append((time.monotonic(), rss_mb(pid)))
            workers.append(workers_rss_mb(pid))
        except (OSError, RuntimeError):
            return
        stop.wait(0.5)


def _rss_at(samples: list, when: float) -> float:
    """The RSS sample closest to `when`."""
    return min(samples, key=lambda tr: abs(tr[0] - when))[1]


def run_phase(url: str, every: float, seconds: float, errors: list) -> list[float]:
    """The victim alone for `seconds`: its load times."""
    out: list[float] = []
    stop = threading.Event()
    threading.Timer(seconds, stop.set).start()
    asyncio.run(victim(url, every, stop, out, errors))
    return out


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--heavy", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=90)
    ap.add_argument("--every", type=float, default=3)
    ap.add_argument("--quiet", type=float, default=30, help="seconds of the victim alone, before and after")
    ap.add_argument("--idle", type=float, default=20, help="MHA_CACHE_IDLE_S of the server")
    ap.add_argument("--after", type=float, default=150,
                    help="seconds watched after the heavy users leave (Streamlit keeps a closed session 2 min)")
    args = ap.parse_args(argv)
    os.environ["MHA_CACHE_IDLE_S"] = str(args.idle)
    os.environ["MHA_JANITOR_S"] = "5"
    port = free_port()
    proc = start_server(port)
    url = f"ws://127.0.0.1:{port}"
    samples: list = []
    workers: list = []
    stop_watch = threading.Event()
    threading.Thread(target=watch_rss, args=(proc.pid, stop_watch, samples, workers), daemon=True).start()
    errors: list[str] = []
    try:
        asyncio.run(open_page(url, "heads"))  # warm-up: imports and the default setting's figures
        rss_start = rss_mb(proc.pid)
        quiet = run_phase(url, args.every, args.quiet, errors)
        queue: mp.Queue = mp.get_context("spawn").Queue()
        heavy = mp.get_context("spawn").Process(target=heavy_process, args=(url, args.heavy, args.seconds, queue))
        t_heavy = time.monotonic()
        heavy.start()
        loaded = run_phase(url, args.every, args.seconds, errors)
        heavy_out = queue.get(timeout=args.seconds + 300)
        heavy.join(30)
        t_left = time.monotonic()
        rss_left = rss_mb(proc.pid)
        after = run_phase(url, args.every, args.quiet, errors)  # the class has left; the victim stays
        time.sleep(max(0.0, args.after - args.quiet))  # then the victim leaves too
        rss_end = rss_mb(proc.pid)
    finally:
        stop_watch.set()
        proc.terminate()
        proc.wait(timeout=10)
    peak = max(r for _, r in samples)
    peak_heavy = max((r for t, r in samples if t_heavy <= t <= t_left), default=peak)
    q, lo = statistics.median(quiet), statistics.median(loaded)
    errors += heavy_out["errors"]
    rows = [
        ("heavy sessions", args.heavy, ""),
        ("heavy reruns (new seed each)", heavy_out["runs"], ""),
        ("server RSS at start", rss_start, "MB"),
        ("server RSS peak (goal < 1536)", max(peak, peak_heavy), "MB"),
        ("worker processes' RSS peak (budget/pool.py)", max(workers, default=0.0), "MB"),
        ("server RSS when the heavy users left", rss_left, "MB"),
        *((f"server RSS {k} s after they left", _rss_at(samples, t_left + k), "MB") for k in (30, 60, 120)
          if k < args.after),
        (f"server RSS {args.after:.0f} s after they left", rss_end, "MB"),
        ("victim /heads loads, quiet", len(quiet), ""),
        ("victim /heads median, quiet", q, "s"),
        ("victim /heads loads, loaded", len(loaded), ""),
        ("victim /heads median, loaded", lo, "s"),
        ("victim loaded / quiet (goal <= 2)", lo / q, "x"),
        ("victim /heads median, after", statistics.median(after) if after else float("nan"), "s"),
        ("exceptions shown (heavy)", heavy_out["exceptions"], ""),
        ("errors", len(errors), ""),
    ]
    for name, value, unit in rows:
        print(f"{name:40s} {value:10.2f} {unit}" if isinstance(value, float) else f"{name:40s} {value:10d} {unit}")
    for e in errors[:10]:
        print("error:", e)
    return {"ratio": lo / q, "peak_mb": peak, "errors": errors}


if __name__ == "__main__":
    main()
