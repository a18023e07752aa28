"""The app as a user feels it: headless Chromium against a real server. Prints tables.

    python bench/bench_app.py [--reps 5] [--quick]          everything below
    python bench/bench_app.py --first-chart [--reps 5]      only 1. (the ratio table of issue 38)

1. first chart of /heads, /steps and the lesson's first stop against the minimal one-chart Streamlit app
   (bench/minimal_app.py), both on a fresh server pinned to one core, in a new browser profile (cold) and on a
   second visit in the same tab (warm), with the page's CPU throttled 1x, 3x and 6x (DevTools protocol), and on a
   390 x 844 phone viewport at 6x; alternating, medians, printed as ratios (bench/first_paint.py);
2. a setting change (h 8 -> 4 -> 8, a new sentence, a mask) until every chart is redrawn, at the default
   setting and at 64 tokens, d_model 256, h 16; and the same h changes on a server whose charts are
   Streamlit's own st.plotly_chart (static serving off, the app's fallback), for the ratio;
3. bytes the browser receives over the websocket per rerun;
4. server start to a healthy /_stcore/health.
Each figure is the median of several repetitions. The machine is shared and noisy: read ratios.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.first_paint import CONFIGS, measure_pairs, ratio_table, settled  # noqa: E402
from tests.browser import CHROMIUM, CHROMIUM_ARGS, FIRST_SCREEN_DONE, IDLE, free_port, streamlit_server  # noqa: E402

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
    page.wait_for_function(FIRST_SCREEN_DONE, timeout=timeout)  # a first page's second run has begun
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


# Counts the script runs the page has seen: every change of stApp's script state to "running" is recorded
# by a MutationObserver, however briefly it lasts (waiting for the "running" selector instead can miss a
# fast run and then waits out its whole timeout, which inflated some measurements by 2 s).
COUNT_RUNS = """new MutationObserver((records) => {
    for (const r of records) if (r.target.getAttribute('data-test-script-state') === 'running') window.__runs++;
}).observe(document, {subtree: true, attributes: true, attributeFilter: ['data-test-script-state']});
window.__runs = 0;"""


def new_page(browser):
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = ctx.new_page()
    page.add_init_script(COUNT_RUNS)
    return page


def load_page(page, url: str) -> None:
    """Load a page until its first run has finished and every chart is drawn."""
    page.goto(url)
    page.wait_for_function("() => window.__runs > 0", timeout=60_000)
    settle(page)


def open_page(page, url: str) -> None:
    """Load a page, wait for its first run to finish and its charts to be drawn, then until the browser is
    quiet. (stApp says "notRunning" before the first run has even started, and acting then would fold the
    change into that run; and right after the charts are drawn the page is still busy for up to ~1 s with
    the rest of its load, which held up the first change's message by that much.)"""
    load_page(page, url)
    settled(page)


def change(page, rec: Recorder, action) -> tuple[float, int]:
    """(ms from the commit of a setting change until every chart is redrawn, bytes received).

    `action` is (prepare, commit): finding the input and typing into it is Playwright's work, not the
    app's (the first lookup by accessible name on a fresh page took up to 1.5 s here), so the clock starts
    at the commit: the Enter, Ctrl+Enter or click that sends the change to the app."""
    prepare, commit = action
    prepare()
    rec.bytes = 0
    runs = page.evaluate("() => window.__runs")
    t0 = time.perf_counter()
    commit()
    try:
        page.wait_for_function("(n) => window.__runs > n", arg=runs, timeout=30_000)  # this change's run began
    except Exception as exc:
        raise RuntimeError(f"no run after a change on {page.url}") from exc
    settle(page)
    return (time.perf_counter() - t0) * 1000, rec.bytes


def set_number(page, name: str, value: int):
    box = page.get_by_role("spinbutton", name=name)
    return (lambda: box.fill(str(value))), (lambda: box.press("Enter"))


def set_text(page, value: str):
    area = page.get_by_role("textbox", name="Input sentence (queries)")
    return (lambda: area.fill(value)), (lambda: area.press("Control+Enter"))


def set_mask(page, label: str):
    option = page.get_by_text(label, exact=True)
    return (lambda: option.wait_for()), (lambda: option.click())


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


def h_changes(page, rec: Recorder, reps: int, h_high: int) -> tuple[list[float], list[int]]:
    """h -> 4 -> h_high, `reps` times: (ms of each change, bytes of each rerun)."""
    times, sizes = [], []
    for _ in range(reps):
        for value in (4, h_high):
            ms, nbytes = change(page, rec, set_number(page, "Number of heads h", value))
            times.append(ms)
            sizes.append(nbytes)
    return times, sizes


def med(xs: list[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def main(argv: list[str] | None = None) -> dict[str, float]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="one repetition, default setting only")
    ap.add_argument("--first-chart", action="store_true", help="only the first-chart ratio table (issue 38)")
    ap.add_argument("--pages", default="heads,steps,lesson", help="pages of the first-chart table")
    ap.add_argument("--configs", default="1x,3x,6x,phone 6x", help="of: " + ", ".join(c[0] for c in CONFIGS))
    ap.add_argument("--core", type=int, default=0, help="the CPU each server is pinned to (-1: not pinned)")
    ap.add_argument("--root", type=Path, default=ROOT, help="the first-chart table of the app in another checkout")
    args = ap.parse_args(argv)
    reps = 1 if args.quick else args.reps
    from playwright.sync_api import sync_playwright

    rows: list[tuple[str, float, str]] = []
    results: dict[str, float] = {}
    configs = [c for c in CONFIGS if c[0] in {x.strip() for x in args.configs.split(",")}]
    started, load_before = time.perf_counter(), os.getloadavg()
    print(f"first chart, cold and warm (load average at start {load_before[0]:.1f} {load_before[1]:.1f} "
          f"{load_before[2]:.1f}, {os.cpu_count()} CPUs)", flush=True)  # fmt: skip
    pairs = measure_pairs(args.pages.split(","), reps, configs, None if args.core < 0 else args.core,
                          args.root.resolve(), log=lambda line: print(line, flush=True))  # fmt: skip
    lines, ratios = ratio_table(pairs)
    print("\n".join(lines))
    print(f"({(time.perf_counter() - started) / 60:.1f} min; load average at the end "
          + " ".join(f"{x:.1f}" for x in os.getloadavg()) + ")", flush=True)
    results.update({f"ratio {config} {page} {visit}": r for (config, page, visit), r in ratios.items()})
    if args.first_chart:
        return results

    with streamlit_server(warmup=True) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)

        for label, query in (("default", ""), ("large", LARGE)) if not args.quick else (("default", ""),):
            for page_name in ("heads", "steps", "inputs"):
                page = new_page(browser)
                rec = Recorder(page)
                open_page(page, f"{url}/{page_name}?{query}")
                h_high = 16 if label == "large" else 8
                times, sizes = h_changes(page, rec, reps, h_high)
                results[f"h_{label}_{page_name}"] = med(times)
                results[f"h_cold_{label}_{page_name}"] = times[0]
                results[f"bytes_{label}_{page_name}"] = med(sizes)
                target = 500 if label == "default" else 1500
                rows.append((f"h change redraw, {label}, /{page_name} (target < {target})", med(times), "ms"))
                rows.append(("  the first of them (this page's figures for h = 4 not built yet)", times[0], "ms"))
                rows.append((f"bytes per rerun, {label}, /{page_name}", med(sizes) / 1024, "KB"))
                if label == "default" and page_name == "heads":
                    sentences = ("the dog ran home", "a b c d e f")
                    t_text = [change(page, rec, set_text(page, x))[0] for x in sentences]
                    t_mask = [change(page, rec, set_mask(page, m))[0] for m in ("causal", "none")]
                    rows.append(("new sentence redraw, default, /heads", med(t_text), "ms"))
                    rows.append(("mask change redraw, default, /heads", med(t_mask), "ms"))
                page.context.close()
        # The same redraws with Streamlit's own st.plotly_chart (the app's fallback when static serving is
        # off): what ui/plot.js gains, measured in this run on this machine.
        with streamlit_server(extra=("--server.enableStaticServing", "false"), warmup=True) as native:
            first_chart_ms(browser, f"{native}/heads")
            for page_name in ("heads", "steps"):
                page = new_page(browser)
                rec = Recorder(page)
                open_page(page, f"{native}/{page_name}")
                assert page.locator(".mha-plot").count() == 0, "the fallback server should draw st.plotly_chart"
                times, _ = h_changes(page, rec, reps, 8)
                ratio = results[f"h_default_{page_name}"] / med(times)
                rows.append((f"h change redraw, default, /{page_name}, st.plotly_chart (ours/this {ratio:.2f})",
                             med(times), "ms"))  # fmt: skip
                page.context.close()
        # The all-layers x all-heads overview of a 12 x 12 model: first draw and a redraw (target < 2 s).
        with streamlit_server("bench/overview_app.py") as overview:
            page = new_page(browser)
            rec = Recorder(page)
            t_first = []
            for _ in range(reps):
                t0 = time.perf_counter()
                load_page(page, overview)  # not open_page: the quiet wait after it is not part of the load
                t_first.append((time.perf_counter() - t0) * 1000)
            settled(page)
            t_redraw = [change(page, rec, set_number(page, "seed", i + 1))[0] for i in range(reps)]
            page.context.close()
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
