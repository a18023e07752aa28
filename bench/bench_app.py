"""The app as a user feels it: headless Chromium against a real server. Prints one table.

    python bench/bench_app.py [--reps 5] [--quick]

1. first load to first chart of each page, interleaved with a minimal one-chart Streamlit app;
2. a setting change (h 8 -> 4 -> 8, a new sentence, a mask) until every chart is redrawn, at the default
   setting and at 64 tokens, d_model 256, h 16;
3. bytes the browser receives over the websocket per rerun;
4. server start to a healthy /_stcore/health.
Each figure is the median of several repetitions. The machine is shared and noisy: read ratios.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser import CHROMIUM, CHROMIUM_ARGS, free_port, streamlit_server  # noqa: E402

IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
RUNNING = "[data-testid='stApp'][data-test-script-state='running']"
PAGES = ["inputs", "steps", "heads", "positional"]
LARGE = "preset=custom&d_model=256&n_heads=16&text=" + "+".join(f"w{i}" for i in range(64))


FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
# A chart of ui/plot.js (the app) shows the figure of the last run (data-drawn == data-pending); a
# st.plotly_chart (the minimal app) has drawn once it holds plotly's .main-svg.
EVERY_CHART_DRAWN = """() =>
    [...document.querySelectorAll('.mha-plot')].every(e => e.dataset.drawn === e.dataset.pending
                                                          && e.querySelector('.main-svg'))
    && [...document.querySelectorAll("[data-testid='stPlotlyChart']")].every(c => c.querySelector('.main-svg'))"""
FIRST_CHART = "[data-testid='stPlotlyChart'] .main-svg, .mha-plot .main-svg"


def settle(page, timeout: float = 60_000) -> None:
    """Script finished and every chart painted: two animation frames after the last delta for the
    components to receive their data, every chart drawn, then two more frames for the paint."""
    page.wait_for_selector(IDLE, timeout=timeout)
    page.evaluate(FRAMES)
    page.wait_for_function(EVERY_CHART_DRAWN, timeout=timeout)
    page.evaluate(FRAMES)


def first_chart_ms(browser, url: str) -> float:
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = ctx.new_page()
    t0 = time.perf_counter()
    page.goto(url)
    page.wait_for_selector(FIRST_CHART, timeout=60_000)
    ms = (time.perf_counter() - t0) * 1000
    ctx.close()
    return ms


class Recorder:
    """Counts the bytes the browser receives for a rerun: websocket frames, plus the large messages that
    Streamlit caches and the browser fetches over HTTP (/_stcore/message?hash=...)."""

    def __init__(self, page) -> None:
        self.bytes = 0
        page.on("websocket", lambda ws: ws.on("framereceived", self._frame))
        page.on("response", self._response)

    def _frame(self, payload) -> None:
        self.bytes += len(payload) if payload else 0

    def _response(self, response) -> None:
        if "/_stcore/message" in response.url:
            with contextlib.suppress(Exception):
                self.bytes += len(response.body())


def change(page, rec: Recorder, action) -> tuple[float, int]:
    """(ms until every chart is redrawn, bytes received) for one setting change."""
    rec.bytes = 0
    t0 = time.perf_counter()
    action()
    with contextlib.suppress(Exception):  # the run may already be over
        page.wait_for_selector(RUNNING, timeout=2_000)
    settle(page)
    return (time.perf_counter() - t0) * 1000, rec.bytes


def set_number(page, name: str, value: int):
    def act() -> None:
        box = page.get_by_role("spinbutton", name=name)
        box.fill(str(value))
        box.press("Enter")

    return act


def set_text(page, value: str):
    def act() -> None:
        area = page.get_by_role("textbox", name="Input sentence (queries)")
        area.fill(value)
        area.press("Control+Enter")

    return act


def set_mask(page, label: str):
    return lambda: page.get_by_text(label, exact=True).click()


def health_ms(app: str) -> float:
    port = free_port()
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", app, "--server.headless", "true", "--server.port", str(port),
         "--server.fileWatcherType", "none"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=1) as r:
                    if r.read().strip() == b"ok":
                        return (time.perf_counter() - t0) * 1000
            except OSError:
                time.sleep(0.05)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def med(xs: list[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def main(argv: list[str] | None = None) -> dict[str, float]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="one repetition, default setting only")
    args = ap.parse_args(argv)
    reps = 1 if args.quick else args.reps
    from playwright.sync_api import sync_playwright

    rows: list[tuple[str, float, str]] = []
    results: dict[str, float] = {}
    with streamlit_server() as url, streamlit_server("bench/minimal_app.py") as minimal, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        first_chart_ms(browser, f"{url}/heads")  # warm caches and imports, as a running classroom server has
        first_chart_ms(browser, minimal)
        floor = []
        for page_name in PAGES:
            ours = []
            for _ in range(reps):  # interleaved with the floor
                ours.append(first_chart_ms(browser, f"{url}/{page_name}"))
                floor.append(first_chart_ms(browser, minimal))
            results[f"load_{page_name}"] = med(ours)
        results["load_minimal"] = med(floor)
        rows.append(("first chart, minimal app", results["load_minimal"], "ms"))
        for page_name in PAGES:
            ratio = results[f"load_{page_name}"] / results["load_minimal"]
            name = f"first chart, /{page_name} (ratio {ratio:.2f}, target <= 1.2)"
            rows.append((name, results[f"load_{page_name}"], "ms"))

        for label, query in (("default", ""), ("large", LARGE)) if not args.quick else (("default", ""),):
            for page_name in ("heads", "steps", "inputs"):
                ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
                page = ctx.new_page()
                rec = Recorder(page)
                page.goto(f"{url}/{page_name}?{query}")
                settle(page)
                h_high = 16 if label == "large" else 8
                times, sizes = [], []
                for _ in range(reps):
                    actions = (set_number(page, "Number of heads h", 4), set_number(page, "Number of heads h", h_high))
                    for action in actions:
                        ms, nbytes = change(page, rec, action)
                        times.append(ms)
                        sizes.append(nbytes)
                results[f"h_{label}_{page_name}"] = med(times)
                results[f"bytes_{label}_{page_name}"] = med(sizes)
                target = 500 if label == "default" else 1500
                rows.append((f"h change redraw, {label}, /{page_name} (target < {target})", med(times), "ms"))
                rows.append((f"bytes per rerun, {label}, /{page_name}", med(sizes) / 1024, "KB"))
                if label == "default" and page_name == "heads":
                    sentences = ("the dog ran home", "a b c d e f")
                    t_text = [change(page, rec, set_text(page, x))[0] for x in sentences]
                    t_mask = [change(page, rec, set_mask(page, m))[0] for m in ("causal", "none")]
                    rows.append(("new sentence redraw, default, /heads", med(t_text), "ms"))
                    rows.append(("mask change redraw, default, /heads", med(t_mask), "ms"))
                ctx.close()
        # The all-layers x all-heads overview of a 12 x 12 model: first draw and a redraw (target < 2 s).
        with streamlit_server("bench/overview_app.py") as overview:
            ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
            page = ctx.new_page()
            rec = Recorder(page)
            t_first = []
            for _ in range(reps):
                t0 = time.perf_counter()
                page.goto(overview)
                settle(page)
                t_first.append((time.perf_counter() - t0) * 1000)
            t_redraw = [change(page, rec, set_number(page, "seed", i + 1))[0] for i in range(reps)]
            ctx.close()
        results["overview_first"], results["overview_redraw"] = med(t_first), med(t_redraw)
        rows.append(("12 layers x 12 heads overview, page load to drawn (target < 2000)", med(t_first), "ms"))
        rows.append(("12 layers x 12 heads overview, redraw (target < 2000)", med(t_redraw), "ms"))
        browser.close()
    health = [health_ms("app.py") for _ in range(max(1, min(reps, 3)))]
    results["health"] = med(health)
    rows.append(("server start to healthy (target < 3000)", results["health"], "ms"))
    width = max(len(r[0]) for r in rows)
    print(f"{'measure'.ljust(width)}  median")
    for name, value, unit in rows:
        print(f"{name.ljust(width)}  {value:8.1f} {unit}")
    return results


if __name__ == "__main__":
    main()
