"""Hostile and broken input through the whole pipeline: random text and settings (hypothesis) through validate,
the core and every figure builder; markup and script never executed in a real browser."""

from __future__ import annotations

import contextlib
import json
import math
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from explorer import Settings, run_scene, validate
from figures import attention_lines, matrix_heatmap, pe_curves, pe_heatmap, pe_similarity, query_bars, tiled_heads
from tests.browser import CHART, CHROMIUM, CHROMIUM_ARGS, streamlit_server, wait_idle

HOSTILE = [
    "<script>window.__pwned=1</script>",
    '<img src=x onerror="window.__pwned=1">',
    '<a href="javascript:window.__pwned=1">click</a>',
    "%{customdata} %{z} <br> &amp; &#60;b&#62;",
    "\x00\x07\x1b[31m red \u202e reversed \ufeff",
    "🙂🙃 猫 👩‍👩‍👧 الطيور",
]
TEXT = st.one_of(
    st.sampled_from(HOSTILE),
    st.text(min_size=0, max_size=80),
    st.lists(st.sampled_from([*HOSTILE, "the", "cat", "猫", "1e308", "nan", "-inf"]), max_size=70).map(" ".join),
)


def _assert_clean(fig) -> None:
    text = fig.to_json()
    for bad in ("<script", "<img", "<a href", "<a "):  # escaped to &lt;...: plotly shows it as text
        assert bad not in text, bad

    def refuse(constant: str) -> None:
        raise AssertionError(f"{constant} in the figure JSON")

    json.loads(text, parse_constant=refuse)  # no bare NaN / Infinity is ever drawn


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=TEXT, text_kv=TEXT, cross=st.booleans(),
    d_model=st.sampled_from([1, 2, 3, 4, 6, 8, 12, 16, 0, -4, 2048]), n_heads=st.sampled_from([1, 2, 3, 4, 5, 0, 99]),
    mask=st.sampled_from(["none", "causal", "padding", "chosen", "<script>"]), scale=st.booleans(),
    add_pe=st.booleans(),
    seed=st.integers(min_value=-5, max_value=2**40), padded=st.lists(st.integers(-3, 80), max_size=5),
    edit=st.one_of(st.none(), st.tuples(st.integers(-1, 5), st.integers(-1, 5),
                                        st.sampled_from([0.5, -3.0, 1e308, math.nan, math.inf, -math.inf]))),
)  # fmt: skip
def test_random_text_and_settings_never_escape_as_exceptions_or_nan(
    text, text_kv, cross, d_model, n_heads, mask, scale, add_pe, seed, padded, edit
):
    s = Settings(preset="custom", text=text, text_kv=text_kv, cross=cross, d_model=d_model, n_heads=n_heads,
                 mask=mask, scale=scale, add_pe=add_pe, seed=seed, padded=tuple(padded),
                 x_edits=() if edit is None else (edit,))  # fmt: skip
    problems = validate(s)
    if problems:
        assert all(p.code for p in problems)  # one of our translated messages, no exception
        return
    sc = run_scene(s)
    for arr in (sc.q, sc.k, sc.v, sc.weights, sc.head_outputs, sc.output):
        assert np.isfinite(arr).all()
    assert np.allclose(sc.weights.sum(-1)[~sc.mask.all(-1)], 1.0, atol=1e-4)
    for fig in (
        matrix_heatmap(sc.x_in, list(sc.tokens), None, title=text, lang="zh"),
        tiled_heads(sc.masked_scores, list(sc.tokens), list(sc.kv_tokens), kind="signed", title=text_kv),
        tiled_heads(sc.weights, list(sc.tokens), list(sc.kv_tokens), shared_scale=False),
        query_bars(sc.weights[:, 0], list(sc.kv_tokens), sc.labels[0]),
        attention_lines(sc.weights, list(sc.tokens), list(sc.kv_tokens), heads=list(range(sc.weights.shape[0]))),
        pe_curves(sc.p, [0]),
        pe_heatmap(sc.p),
        pe_similarity(sc.pe_sim),
    ):
        _assert_clean(fig)


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, 1e308, -1e308])
def test_non_finite_and_huge_cells_are_rejected_with_a_message(value):
    problems = validate(Settings(x_edits=((0, 0, value),)))
    assert problems and problems[0].code


def test_a_gigantic_sentence_is_refused_not_drawn():
    problems = validate(Settings(preset="custom", text="word " * 100_000))
    assert problems and problems[0].code


@pytest.mark.browser
def test_injected_markup_does_not_execute_in_the_browser():
    from playwright.sync_api import sync_playwright

    payload = " ".join(HOSTILE[:3])
    with streamlit_server() as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        dialogs = []
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        for path in ("heads", "steps", "inputs"):
            page.goto(f"{url}/{path}")
            wait_idle(page)
            area = page.get_by_role("textbox", name="Input sentence (queries)")
            area.fill(payload)
            area.press("Control+Enter")
            wait_idle(page)
            page.locator(CHART).first.wait_for(timeout=30_000)
            page.wait_for_timeout(500)
            assert page.evaluate("() => window.__pwned") is None
            assert page.locator(".mha-plot img[src='x']").count() == 0
            assert page.locator("a[href^='javascript:']").count() == 0
            ticks = " ".join(page.locator(".mha-plot .xtick text, .mha-plot .ytick text").all_text_contents())
            assert "<" in ticks and "script" in ticks  # the markup is shown as text
        assert not dialogs
        browser.close()


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    d_model=st.sampled_from([512, 1024]), n_heads=st.sampled_from([8, 16]), n_tokens=st.integers(40, 64),
    cross=st.booleans(), mask=st.sampled_from(["none", "causal", "padding"]), seed=st.integers(0, 2**31 - 1),
    word=st.sampled_from(["cat", "猫", "<b>x</b>", "%{z}"]),
)  # fmt: skip
def test_every_pages_figure_builders_stay_small_and_clean_at_the_largest_sizes(
    d_model, n_heads, n_tokens, cross, mask, seed, word
):
    """What /inputs, /steps, /heads, /positional and /subspaces draw, at random settings near the limits: every
    figure well under Streamlit's 50 MB message limit (figures/resolution.py), no markup, no NaN."""
    from mha_core import sinusoidal_positional_encoding, tokenize
    from mha_core.why import head_contributions, residual_layer_norm

    words = [f"{word}{i}" for i in range(n_tokens)]
    while len(tokenize(" ".join(words))) > 64:  # markup splits into several tokens: keep within the limit
        words.pop()
    text = " ".join(words)
    s = Settings(preset="custom", text=text, text_kv=text[: len(text) // 2], cross=cross, d_model=d_model,
                 n_heads=n_heads, mask=mask, seed=seed, padded=(0, 3) if mask == "padding" else ())  # fmt: skip
    assume(not validate(s))  # e.g. a padding batch with cross-attention is refused with its own message
    sc = run_scene(s)
    rows, cols = list(sc.tokens), list(sc.kv_tokens)
    figures = [
        matrix_heatmap(sc.x_in, rows, None, kind="signed"),  # /inputs, /steps
        matrix_heatmap(sc.w_q, None, None, kind="signed"),  # /inputs: W^Q at d_model > 8
        matrix_heatmap(sc.q_fused, rows, None, kind="signed"),  # /steps fused view
        matrix_heatmap(sc.output, rows, None, kind="signed"),
        *(tiled_heads(m, r, None, kind="signed") for m, r in ((sc.q, rows), (sc.k, cols), (sc.head_outputs, rows))),
        tiled_heads(sc.masked_scores, rows, cols, kind="signed"),  # /steps, /heads
        tiled_heads(sc.weights, rows, cols, shared_scale=False),
        query_bars(sc.weights[:, 0], cols, sc.labels[0]),
        attention_lines(sc.weights, rows, cols, heads=list(range(n_heads))),
        tiled_heads(head_contributions(sc.head_outputs, sc.w_o_heads), rows, None, kind="signed"),  # /subspaces
        matrix_heatmap(residual_layer_norm(sc.x_in, sc.output), rows, None, kind="signed"),
        pe_heatmap(sinusoidal_positional_encoding(256, 1024).numpy(), width_fraction=0.45),  # /positional maximum
    ]
    for fig in figures:
        _assert_clean(fig)
        assert len(fig.to_json()) < 8 * 1024 * 1024


# ---------------------------------------------------------------- forged protocol messages
# A browser only sends the widget states of widgets the server drew, each in the field its widget reads. A forged
# client sends anything; ui/streamlit_guard.py (installed before the server starts, as the Docker image starts it,
# or at the first page run) and ui/editing.py keep every such message from breaking the sender's session.
class Client:
    """Streamlit's websocket protocol as a browser speaks it (bench/load_test.py): one session, run by run."""

    def __init__(self, ws, page: str, query: str = "") -> None:
        self.ws, self.page, self.query = ws, page, query
        self.ids: dict[str, str] = {}  # widget id -> element type, of the last run
        self.heads_drawn: int | None = None  # head tiles of the last run's first chart that has them

    async def run(self, widgets=()) -> tuple[list[str], int]:
        """(the exception boxes the run drew, its finish status: 0 is success)."""
        from streamlit.proto.BackMsg_pb2 import BackMsg
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        msg = BackMsg()
        msg.rerun_script.page_name, msg.rerun_script.query_string = self.page, self.query
        msg.rerun_script.widget_states.widgets.extend(widgets)
        await self.ws.send(msg.SerializeToString())
        self.ids, boxes, self.heads_drawn = {}, [], None
        while True:
            fm = ForwardMsg()
            fm.ParseFromString(await self.ws.recv())
            kind = fm.WhichOneof("type")
            if kind == "delta" and fm.delta.WhichOneof("type") == "new_element":
                el = fm.delta.new_element
                name = el.WhichOneof("type")
                if name == "exception":
                    boxes.append(el.exception.message)
                elif name == "bidi_component" and el.bidi_component.WhichOneof("data") == "bytes":
                    from ui.chart_element import unpack

                    # a chart, or the hidden element a page starts with (no figure: ui/chart_element.early_element)
                    notes = json.loads(unpack(el.bidi_component.bytes).get("spec") or "{}").get("layout", {})
                    tiles = sum(1 for a in notes.get("annotations", []) if str(a.get("text", "")).startswith("head "))
                    if tiles and self.heads_drawn is None:
                        self.heads_drawn = tiles
                widget_id = getattr(getattr(el, name), "id", "")
                if widget_id:
                    self.ids[widget_id] = name
            elif kind == "script_finished":
                return boxes, fm.script_finished


@contextlib.contextmanager
def _server(entry: str = "ui.streamlit_guard") -> Iterator[tuple[str, Path]]:
    """A fresh server started with `python3 -m <entry> run app.py`, its stdout and stderr in a file: (its
    websocket address, the log's path)."""
    import subprocess
    import sys
    import tempfile
    import time

    from tests.browser import ROOT, free_port, healthy

    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "server.log"
        with log.open("w", encoding="utf-8") as out:
            proc = subprocess.Popen([sys.executable, "-m", entry, "run", "app.py", "--server.headless", "true",
                                     "--server.port", str(port), "--server.address", "127.0.0.1",
                                     "--server.fileWatcherType", "none"], cwd=ROOT, stdout=out, stderr=out)  # fmt: skip
        try:
            deadline = time.monotonic() + 60
            while not healthy(f"http://127.0.0.1:{port}", timeout=1):
                assert proc.poll() is None and time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)
            yield f"ws://127.0.0.1:{port}", log
        finally:
            proc.terminate()
            proc.wait(timeout=20)


@pytest.fixture(scope="module")
def guarded():
    """One server for the forged-message tests, started as the README and the Docker image start it; each test
    opens a session of its own."""
    with _server() as server:
        yield server


def _session(server: tuple[str, Path], page: str, query: str, steps) -> list[str]:
    """Run `steps(client)` (a coroutine function) in a new session of `server`; the lines the server logged
    meanwhile."""
    import asyncio

    import websockets

    url, log = server
    before = log.stat().st_size

    async def session() -> None:
        async with websockets.connect(f"{url}/_stcore/stream", subprotocols=["streamlit"], max_size=None,
                                      open_timeout=60) as ws:  # fmt: skip
            await steps(Client(ws, page, query))

    asyncio.run(session())
    with log.open(encoding="utf-8") as f:
        f.seek(before)
        return [line for line in f.read().splitlines() if line.strip() and "Uvicorn server started" not in line]


def _healthy_runs(boxes_and_status) -> None:
    boxes, status = boxes_and_status
    assert boxes == [] and status == 0, boxes  # FINISHED_SUCCESSFULLY, no exception box


def _forged_id_steps(forged: str):
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    async def steps(c: Client) -> None:
        _healthy_runs(await c.run([WidgetState(id=forged, string_value="forged")]))  # the very first message
        for _ in range(3):
            _healthy_runs(await c.run())
        heads = next(i for i in c.ids if i.endswith("-n_heads"))
        assert c.heads_drawn == 8
        c.query = "n_heads=4"  # a change, as the browser sends it (the widget is bound to the URL)
        _healthy_runs(await c.run([WidgetState(id=heads, double_value=4.0), WidgetState(id=forged, int_value=1)]))
        assert c.heads_drawn == 4  # the session still computes and draws

    return steps


@pytest.mark.parametrize("forged", ["", "_live_key", "$$STREAMLIT_INTERNAL_KEY_x", "lang", "x" * 2000])
def test_a_widget_id_the_server_never_gave_breaks_no_session(guarded, forged):
    log = _session(guarded, "heads", "", _forged_id_steps(forged))
    assert not [line for line in log if "Traceback" in line or "KeyError" in line], log
    assert len(log) <= 2, log  # one line for the message that carried it, at most one for the next


@pytest.mark.parametrize("forged", ["", "_live_key"])
def test_a_forged_widget_id_as_the_first_message_of_a_plain_streamlit_run_server(forged):
    """`streamlit run app.py`: the guard comes with the first page run, after that run's widget states arrived."""
    with _server("streamlit") as server:
        log = _session(server, "heads", "", _forged_id_steps(forged))
    assert not [line for line in log if "Traceback" in line or "KeyError" in line], log


TABLE = {"edited_rows": {}, "added_rows": [], "deleted_rows": []}
FORGED_TABLES = {
    "column that is not a number": json.dumps(TABLE | {"edited_rows": {"0": {"abc": "1"}}}),
    "row that is not a number": json.dumps(TABLE | {"edited_rows": {"x": {"0": "1"}}}),
    "row outside the grid": json.dumps(TABLE | {"edited_rows": {"999": {"0": "1"}}}),
    "rows to delete that do not exist": json.dumps(TABLE | {"deleted_rows": [5, 999]}),
    "1000 added rows": json.dumps(TABLE | {"added_rows": [{"0": "1"}] * 1000}),
    "not JSON": "{not json",
    "JSON of another shape": json.dumps([1, {"edited_rows": None}]),
}


@pytest.mark.parametrize("state", list(FORGED_TABLES), ids=list(FORGED_TABLES))
def test_a_forged_table_editor_state_breaks_no_session_and_is_logged_once_per_run(guarded, state):
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    async def steps(c: Client) -> None:
        await c.run()
        _healthy_runs(await c.run())
        editors = [i for i, kind in c.ids.items() if "editor__w_edits_w_q" in i]
        assert editors, sorted(c.ids)
        for _ in range(3):  # the forged state sent again and again: each run stays whole
            _healthy_runs(await c.run([WidgetState(id=editors[0], string_value=FORGED_TABLES[state])]))
        _healthy_runs(await c.run())
        editor = next(i for i in c.ids if "editor__w_edits_w_q" in i)  # maybe a fresh one (a new key)
        good = json.dumps(TABLE | {"edited_rows": {"1": {"2": "0.5"}}})
        _healthy_runs(await c.run([WidgetState(id=editor, string_value=good)]))  # and a real edit still works
        _healthy_runs(await c.run())

    log = _session(guarded, "inputs", "d_model=8&n_heads=2&preset=custom&text=a+b+c+d", steps)
    assert not [line for line in log if "Traceback" in line], log
    assert len(log) <= 2 * 4, log[:10]  # at most one line per message per run (4 runs carried the state)


@pytest.mark.parametrize("bad", [dict(string_value="{not json"), dict(double_value=1e308), dict(int_value=-2**62),
                                 dict(bool_value=True), dict(json_value='[1, {"x": null}]'),
                                 dict(string_array_value={"data": ["\x00", "zz"]}), dict(trigger_value=True)],
                         ids=lambda b: next(iter(b)))  # fmt: skip
def test_every_widget_given_a_value_of_the_wrong_kind_breaks_no_session(guarded, bad):
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    async def steps(c: Client) -> None:
        await c.run()
        _healthy_runs(await c.run())
        forged = [WidgetState(id=wid, **bad) for wid in c.ids]  # every widget of the page at once
        assert len(forged) > 10
        _healthy_runs(await c.run(forged))
        for _ in range(2):
            _healthy_runs(await c.run())
        assert len(c.ids) > 10  # the page is drawn again (a forged click may have started a live class: fine)

    log = _session(guarded, "heads", "", steps)
    assert not [line for line in log if "Traceback" in line], log


@pytest.mark.parametrize("bad", [dict(json_trigger_value="{not json"), dict(json_trigger_value='{"event": 1}'),
                                 dict(json_trigger_value='[{"event": "drawn", "value": "x"}, 5]'),
                                 dict(string_value="x")], ids=["not JSON", "not a list", "odd events", "a string"])
def test_a_forged_trigger_of_every_component_breaks_no_session(guarded, bad):
    """The trigger ids Streamlit makes for components-v2 elements (`$$STREAMLIT_INTERNAL_KEY_<id>__events`: the
    guard keeps them, ui/streamlit_guard._forged), each given what no browser sends."""
    from streamlit.components.v2.bidi_component.main import _make_trigger_id
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    async def steps(c: Client) -> None:
        await c.run()
        _healthy_runs(await c.run())
        triggers = [_make_trigger_id(wid, "events") for wid, kind in c.ids.items() if kind == "bidi_component"]
        assert triggers
        _healthy_runs(await c.run([WidgetState(id=t, **bad) for t in triggers]))
        _healthy_runs(await c.run())
        assert c.heads_drawn == 8  # the page is drawn again

    log = _session(guarded, "heads", "", steps)
    assert not [line for line in log if "Traceback" in line], log


@pytest.mark.browser
def test_a_link_with_more_parameters_than_streamlit_reads_is_said_so():
    """Streamlit reads none of the parameters of a link with more than 1,000; the link's settings were dropped
    without a word. The page says so (in the language the browser asks for: the link's own lang= is not read)."""
    from playwright.sync_api import sync_playwright

    query = "&".join(f"p{i}=1" for i in range(2000)) + "&n_heads=4"
    with streamlit_server() as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"{url}/heads?{query}")
        wait_idle(page)
        page.get_by_text("This link has 2,001 parameters, more than the 1,000").first.wait_for(timeout=30_000)
        assert "mha_link_dropped" not in page.url and page.get_by_test_id("stException").count() == 0
        browser.close()
