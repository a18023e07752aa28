"""A guard against slow pages without timing flakiness: warm AppTest reruns against a generous bound,
and the figure cache makes a repeated setting cheaper than a new one."""

from __future__ import annotations

import time

import pytest

from tests.conftest import PAGES

BOUND_S = 4.0  # a warm rerun takes ~0.1-0.4 s here; only a gross regression (or a hung page) trips this


def _timed_run(at) -> float:
    t0 = time.perf_counter()
    at.run()
    return time.perf_counter() - t0


@pytest.mark.parametrize("page", [p for p in PAGES if p != "home"])  # includes the text-only pages
def test_warm_rerun_of_each_page_stays_fast(make_app, page):
    at = make_app()
    at.run()
    at.run()
    at.switch_page(PAGES[page]).run()
    best = min(_timed_run(at) for _ in range(3))
    assert not at.exception
    assert best < BOUND_S, f"{page}: warm rerun took {best:.2f} s"


def test_figures_are_built_once_per_setting():
    from explorer import Settings, run_scene
    from figures import tiled_heads
    from figures.style import FigureStyle
    from ui.figure_cache import cached_figure

    s = Settings(d_model=128, n_heads=16, text=" ".join(f"w{i}" for i in range(40)), preset="custom")
    sc = run_scene(s)
    calls = []

    def build(*args, **kwargs):
        calls.append(1)
        return tiled_heads(*args, **kwargs)

    first = cached_figure(build, sc.weights, list(sc.tokens), list(sc.kv_tokens), kind="weights", style=FigureStyle())
    second = cached_figure(build, sc.weights.copy(), list(sc.tokens), list(sc.kv_tokens), kind="weights",
                           style=FigureStyle())  # fmt: skip
    assert first is second and len(calls) == 1  # keyed by the numbers, not by the array object
