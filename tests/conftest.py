"""Shared test helpers: paths and an AppTest factory."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
PAGES = {
    "home": "app_pages/home.py",
    "inputs": "app_pages/inputs.py",
    "steps": "app_pages/steps.py",
    "heads": "app_pages/heads.py",
    "positional": "app_pages/positional.py",
    "worked": "app_pages/worked.py",
    "quiz": "app_pages/quiz.py",
    "console": "app_pages/console.py",
    "privacy": "app_pages/privacy.py",
    "lab": "app_pages/lab.py",
    "minilm": "app_pages/minilm.py",
    "why": "app_pages/why.py",
    "subspaces": "app_pages/subspaces.py",
    "note004": "app_pages/note004.py",
    "errata": "app_pages/errata.py",
    "glossary": "app_pages/glossary.py",
    "lesson": "app_pages/lesson.py",
    "decoding": "app_pages/decoding.py",
    "sharing": "app_pages/sharing.py",
    "positions": "app_pages/positions.py",
    "longcontext": "app_pages/longcontext.py",
}
# text, LaTeX and widgets (lab: charts come after training; console: the teacher's controls)
CHARTLESS = {"home", "worked", "quiz", "lab", "errata", "glossary", "lesson", "console", "privacy"}


def charts(at) -> list:
    """Every chart on the current page, in page order: the app draws them with its component ui/plot.js
    (a components-v2 element); st.plotly_chart is the fallback when plotly.js cannot be served."""
    drawn = [el for el in at.get("bidi_component") if el.proto.component_name.endswith("mha_plot")]
    return drawn or list(at.get("plotly_chart"))


def chart_data(el) -> dict:
    """What a chart element of ui/plot.js carries: its version `v`, plotly `config`, `src`, `failed`, and `spec`
    (the figure's JSON), read back from the bytes ui/chart_element.payload makes."""
    from ui.chart_element import unpack

    assert el.proto.WhichOneof("data") == "bytes", "a chart's data goes as bytes (ui/chart_element.payload)"
    return unpack(el.proto.bytes)


def chart_spec(el) -> dict:
    """The plotly figure (data, layout) one chart element carries. Every figure a test reads is checked
    to use only trace types that the browser's plotly.js bundle holds (static/, the cartesian bundle)."""
    from ui.chart_element import TRACE_TYPES

    spec = json.loads(chart_data(el)["spec"] if el.type == "bidi_component" else el.proto.spec)
    missing = {trace.get("type", "scatter") for trace in spec.get("data", [])} - TRACE_TYPES
    assert not missing, f"trace types {missing} are not in the vendored plotly.js bundle"
    return spec


def plotly_specs(at) -> list[dict]:
    """The figure JSON of every chart on the current page."""
    return [chart_spec(el) for el in charts(at)]


@pytest.fixture(scope="session", autouse=True)
def live_store_of_this_run(tmp_path_factory):
    """The live class's store of this test run, unless a test gives its own: never the machine's default file in
    the temporary folder, where rooms left by earlier runs (or by the app itself) count against a test's limits.
    Servers the tests start inherit it."""
    if not os.environ.get("MHA_LIVE_DB"):
        os.environ["MHA_LIVE_DB"] = str(tmp_path_factory.mktemp("live") / "live.sqlite3")
    yield


@pytest.fixture
def make_app():
    """An AppTest of the whole app (frame + sidebar), optionally preloaded with session state."""
    from streamlit.testing.v1 import AppTest

    def factory(**state):
        at = AppTest.from_file(APP, default_timeout=60)
        for k, v in state.items():
            at.session_state[k] = v
        return at

    return factory


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium through playwright, one per test module (tests/browser.py: CHROMIUM, CHROMIUM_ARGS)."""
    from playwright.sync_api import sync_playwright

    from tests.browser import CHROMIUM, CHROMIUM_ARGS

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


BROWSER_RERUNS = 1


def pytest_collection_modifyitems(items) -> None:
    """A browser test drives Chromium and a real server through timers and websockets, and on a slow or busy machine
    one wait in a few hundred can run out (CI lost two landings so, to two different tests, neither of which failed
    again here). Such a test runs once more after a failure; a test that fails twice fails the suite, and the first
    failure is printed at the end (`pytest_terminal_summary`) with the wait that ran out. The other tests get no
    second run: their failures are never timing."""
    for item in items:
        if item.get_closest_marker("browser") and not item.get_closest_marker("flaky"):
            item.add_marker(pytest.mark.flaky(reruns=BROWSER_RERUNS))


_RERUN_FAILURES: list[tuple[str, str]] = []


def pytest_runtest_logreport(report) -> None:
    if report.outcome == "rerun":  # pytest-rerunfailures' report of the failed try
        errors = [line for line in report.longreprtext.splitlines() if line.startswith("E ")]
        _RERUN_FAILURES.append((report.nodeid, "\n".join(errors[:12]) or report.longreprtext[-1500:]))


def pytest_terminal_summary(terminalreporter) -> None:
    """Why each test that ran again failed the first time, so a rerun never hides what went wrong."""
    if _RERUN_FAILURES:
        terminalreporter.section("the first try of each test that ran again")
        for nodeid, errors in _RERUN_FAILURES:
            terminalreporter.write_line(f"{nodeid}\n{errors}")
