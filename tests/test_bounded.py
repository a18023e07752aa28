"""Issue 24: bounded memory, fair share, tampered input and the editor's messages."""

from __future__ import annotations

import json
import threading
import time

import numpy as np
import pytest

from budget import ByteLRU, HeavyGate, array_bytes, memoize
from explorer import Settings, run_scene
from explorer.settings_io import SettingsFileError, settings_from_json, settings_to_json
from figures import matrix_heatmap, tiled_heads
from figures.resolution import block_factor, block_mean
from i18n import t
from tests.conftest import APP, PAGES, chart_data, chart_spec, charts

LONG = " ".join(f"w{i}" for i in range(64))  # 64 tokens: the largest sentence allowed
LARGEST = {"preset": "custom", "text": LONG, "d_model": 1024, "n_heads": 16}
LIMIT = 50 * 1024 * 1024  # Streamlit's server.maxMessageSize here
FIGURE_BOUND = 8 * 1024 * 1024  # what we allow one figure: a sixth of the limit (the largest is ~5.5 MB)


# ---- byte-bounded caches -----------------------------------------------------------------------------
def test_a_byte_cache_never_holds_more_than_its_budget_and_refuses_giants():
    cache = ByteLRU("test", max_bytes=1000, max_item_fraction=0.5)
    for i in range(50):
        cache.put(i, object(), 90 + i % 7)
        assert cache.nbytes <= 1000
    assert 0 in cache or len(cache) < 50  # the oldest went first
    assert 49 in cache
    assert not cache.put("giant", object(), 501) and "giant" not in cache


def test_idle_entries_expire():
    cache = ByteLRU("test", max_bytes=1000, max_idle=10)
    cache.put("a", 1, 10)
    cache.put("b", 2, 10)
    cache.get("b")
    assert cache.expire(now=time.monotonic() + 11) == 20 and len(cache) == 0


def _at_once(n: int, f) -> list:
    """f() in n threads released together; their results (or exceptions), in thread order."""
    start, out = threading.Barrier(n), [None] * n

    def one(i: int) -> None:
        start.wait()
        try:
            out[i] = f()
        except Exception as err:  # the test looks at it
            out[i] = err

    threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(10)
    return out


def test_a_class_missing_the_same_entry_at_once_computes_it_once():
    calls = []

    @memoize(ByteLRU("test", max_bytes=10_000), lambda v: 8)
    def slow(x: int) -> int:
        calls.append(x)
        time.sleep(0.2)  # long enough that all eight miss it while it is computed
        return x * x

    assert _at_once(8, lambda: slow(3)) == [9] * 8 and calls == [3]
    assert slow(4) == 16 and calls == [3, 4]  # another key: computed, not waited for


def test_when_the_first_computation_fails_the_others_compute_it_themselves():
    calls = []

    @memoize(ByteLRU("test", max_bytes=10_000), lambda v: 8)
    def flaky(x: int) -> int:
        calls.append(x)
        time.sleep(0.2)
        if len(calls) == 1:
            raise RuntimeError("the first one fails")
        return x + 1

    out = _at_once(4, lambda: flaky(1))
    assert sum(isinstance(o, RuntimeError) for o in out) == 1 and out.count(2) == 3
    assert 2 <= len(calls) <= 4  # the first, then at least one more; never a hang


def test_a_value_too_large_to_keep_still_reaches_every_waiter():
    cache = ByteLRU("test", max_bytes=100, max_item_fraction=0.5)
    calls = []

    @memoize(cache, lambda v: 1_000)  # never kept
    def giant(x: int) -> str:
        calls.append(x)
        time.sleep(0.1)
        return "g" * x

    assert _at_once(4, lambda: giant(5)) == ["ggggg"] * 4 and len(cache) == 0 and 1 <= len(calls) <= 4
    assert not cache._flights  # every flight ended


def test_a_class_missing_the_same_light_figure_builds_it_once(monkeypatch):
    import ui.figure_cache as fc

    monkeypatch.setattr(fc, "FIGURE_CACHE", ByteLRU("figures-test", 1 << 24))
    builds = []

    def slow_heatmap(values: np.ndarray):
        builds.append(1)
        time.sleep(0.2)
        return matrix_heatmap(values, [f"r{i}" for i in range(3)], [f"c{i}" for i in range(3)], title="m")

    values = np.arange(9.0).reshape(3, 3)
    out = _at_once(6, lambda: fc.cached_figure(slow_heatmap, values))
    assert len(builds) == 1 and len({id(o) for o in out}) == 1 and not fc.FIGURE_CACHE._flights


def test_array_bytes_counts_views_of_one_buffer_once():
    a = np.zeros((100, 100))
    assert array_bytes([a, a.T, a[10:20], a]) == a.nbytes
    assert array_bytes([a, np.zeros(10)]) == a.nbytes + 80


def test_the_scene_cache_stays_within_its_byte_budget(monkeypatch):
    from explorer import pipeline

    cache = pipeline.SCENE_CACHE
    cache.clear()
    monkeypatch.setattr(cache, "max_bytes", 100 << 20)
    monkeypatch.setattr(cache, "max_item_bytes", 50 << 20)
    sizes = []
    for seed in range(6):  # ~38 MB each: six of them would be 230 MB
        sc = run_scene(Settings(**LARGEST, seed=seed))
        sizes.append(pipeline.scene_bytes(sc))
        assert cache.nbytes <= 100 << 20
    unique = {id(a): a.nbytes for a in sc.arrays().values() if a.base is None}
    assert sizes[-1] >= sum(unique.values())  # it counts at least every array that owns its memory
    assert 30 << 20 < sizes[-1] < 60 << 20
    assert len(cache) == (100 << 20) // max(sizes) < 6  # the oldest were dropped
    cache.clear()


def test_the_figure_cache_keeps_only_strings_and_stays_within_its_budget_with_their_descriptions(monkeypatch):
    from ui.figure_cache import FIGURE_CACHE, READINGS, FrozenFigure, cached_figure

    FIGURE_CACHE.clear()
    monkeypatch.setattr(FIGURE_CACHE, "max_bytes", 3 << 20)
    monkeypatch.setattr(FIGURE_CACHE, "max_item_bytes", 3 << 20)
    rng = np.random.default_rng(0)
    for i in range(12):
        fig = cached_figure(matrix_heatmap, rng.normal(size=(64, 256)), None, None, kind="signed")
        before = FIGURE_CACHE._data[fig.key][1]  # the bytes the cache counts for it
        for lang in ("en", "zh"):  # every session reading it, in two languages and under many headings
            for heading in range(3):
                fig.described(lang, f"heading {i}.{heading}")
        # the text alternatives kept are bounded, and counted: the cache counts at least their text more for the
        # figure (and exactly what the figure measures), and stays in its budget
        assert len(fig._described) == READINGS
        text = sum(len(s) for pair in fig._described.items() for part in pair for s in part)  # a byte a character
        assert FIGURE_CACHE._data[fig.key][1] - before >= text > 0
        assert FIGURE_CACHE._data[fig.key][1] == fig.nbytes and FIGURE_CACHE.nbytes <= 3 << 20
    assert fig.described("zh", "heading 11.2") == fig.described("zh", "heading 11.2")  # not kept, read again alike
    # what a figure keeps: strings (its JSON, version, key) and its text alternatives (pairs of strings), no dict
    assert FrozenFigure.__slots__ == ("_described", "json", "key", "version")
    assert all(isinstance(getattr(fig, name), str) for name in ("json", "key", "version"))
    assert all(isinstance(s, str) for pair in fig._described.items() for part in pair for s in part)
    assert fig.nbytes >= len(fig.json) + sum(len(s) for pair in fig._described.values() for s in pair)
    total = sum(size for _, size, _ in FIGURE_CACHE._data.values())
    assert total == FIGURE_CACHE.nbytes and all(size == v.nbytes for v, size, _ in FIGURE_CACHE._data.values())
    FIGURE_CACHE.clear()


def test_a_value_that_grows_is_recounted_and_the_budget_still_holds():
    cache = ByteLRU("test", max_bytes=1000, max_item_fraction=0.5)
    a, b, c = object(), object(), object()
    cache.put("a", a, 300)
    cache.put("b", b, 300)
    cache.put("c", c, 300)
    assert cache.recount("c", c, 450) and cache.nbytes == 750 and "a" not in cache and "b" in cache  # the oldest out
    assert not cache.recount("b", object(), 10) and cache.nbytes == 750  # another value under "b": nothing changes
    assert cache.recount("c", c, 501) and "c" not in cache and cache.nbytes == 300  # outgrew its item limit


def test_a_figure_is_keyed_by_every_number_it_draws():
    from ui.figure_cache import figure_key

    a = np.arange(12.0).reshape(3, 4)
    b = a.copy()
    b[2, 3] += 1e-9
    assert figure_key(matrix_heatmap, a, ["x", "y", "z"]) == figure_key(matrix_heatmap, a.copy(), ["x", "y", "z"])
    assert figure_key(matrix_heatmap, a, ["x", "y", "z"]) != figure_key(matrix_heatmap, b, ["x", "y", "z"])
    assert figure_key(matrix_heatmap, a, ["x", "y", "z"], lang="en") != figure_key(
        matrix_heatmap, a, ["x", "y", "z"], lang="zh")
    with pytest.raises(TypeError):
        figure_key(matrix_heatmap, object())


# ---- drawn at the resolution of the screen --------------------------------------------------------------
def test_block_mean_is_the_mean_of_each_run_of_columns():
    a = np.arange(2 * 10, dtype=float).reshape(2, 10)
    want = np.stack([a[:, 0:4].mean(1), a[:, 4:8].mean(1), a[:, 8:10].mean(1)], axis=1)
    np.testing.assert_allclose(block_mean(a, 1, 4), want)
    masked = np.array([[-np.inf, 1.0, -np.inf, -np.inf]])
    np.testing.assert_array_equal(block_mean(masked, 1, 2), [[1.0, -np.inf]])
    assert block_factor(64, 1000) == 1 and block_factor(1024, 300) == 16


def test_a_wide_heatmap_is_reduced_with_a_note_and_its_token_axis_is_kept():
    values = np.random.default_rng(1).normal(size=(64, 1024))
    fig = matrix_heatmap(values, [f"t{i}" for i in range(64)], None, kind="signed", lang="zh")
    z = np.array(fig.data[0].z, dtype=float)
    assert z.shape[0] == 64 and z.shape[1] < 1024
    k = 1024 // z.shape[1]
    np.testing.assert_allclose(z[:, 0], values[:, :k].mean(1), rtol=1e-3, atol=1e-3)
    assert t("fig.reduced_cols", "zh", k=k, n=1024, m=z.shape[1]) in fig.layout.title.subtitle.text


def test_the_w_o_contributions_at_the_largest_setting_fit_in_a_few_megabytes():
    from mha_core.why import head_contributions

    sc = run_scene(Settings(**LARGEST, cross=True, text_kv=LONG))
    contrib = head_contributions(sc.head_outputs, sc.w_o_heads)  # (16, 64, 1024): 41.5 MB of JSON unreduced
    fig = tiled_heads(contrib, list(sc.tokens), None, kind="signed")
    assert len(fig.to_json()) < FIGURE_BOUND


# ---- message size at the largest setting, on every page ---------------------------------------------
def _app(state: dict):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(APP, default_timeout=300)
    for k, v in state.items():
        at.session_state[k] = v
    return at


def _sent(el) -> str:
    """The figure JSON exactly as the chart element sends it."""
    chart_spec(el)  # checks its trace types too
    return chart_data(el)["spec"] if el.type == "bidi_component" else el.proto.spec


@pytest.mark.parametrize("cross", [False, True])
@pytest.mark.parametrize("page", sorted(PAGES))
def test_no_page_sends_a_message_near_the_size_limit_at_the_largest_setting(page, cross):
    state = {**LARGEST, "cross": cross, "text_kv": LONG}
    if page == "positional":
        state.update(pe_length=256, pe_d_model=1024)
    if page == "minilm":
        state["minilm_text_en"] = " ".join(["attention"] * 200)
    at = _app(state)
    at.run()
    at.switch_page(PAGES[page]).run()
    assert not at.exception, [e.value for e in at.exception]
    sizes = [len(_sent(el)) for el in charts(at)]
    assert all(size < FIGURE_BOUND for size in sizes), sizes
    assert sum(sizes) < LIMIT / 2, sizes


# ---- fair share ---------------------------------------------------------------------------------------
def test_heavy_builds_queue_for_a_slot_and_light_ones_never_wait():
    gate = HeavyGate(slots=1, poll=0.05)
    ticks: list[float] = []

    class Waiter:
        def tick(self, waited: float, ahead: int) -> None:
            ticks.append(waited)

        def done(self) -> None:
            ticks.append(-1.0)

    release = threading.Event()

    def hold() -> None:
        with gate.slot(heavy=True):
            release.wait(5)

    holder = threading.Thread(target=hold)
    holder.start()
    time.sleep(0.1)
    start = time.perf_counter()
    with gate.slot(heavy=False):  # light: at once, though the only slot is taken
        assert time.perf_counter() - start < 0.05

    def heavy() -> None:
        gate.set_waiter(Waiter)
        with gate.slot(heavy=True):
            ticks.append(99.0)

    waiter_thread = threading.Thread(target=heavy)
    waiter_thread.start()
    time.sleep(0.3)
    assert gate.waiting == 1 and ticks and 99.0 not in ticks  # it waits, and says so
    release.set()
    holder.join()
    waiter_thread.join(5)
    assert ticks[-2:] == [-1.0, 99.0] and gate.waiting == 0 and gate.running == 0


# ---- tampered input ------------------------------------------------------------------------------------
TAMPERED = [
    {"d_model": "²"},
    {"n_heads": "①"},
    {"mask": "padding", "padded": "1,²"},
    {"d_model": "9" * 5000},
    {"seed": "1" * 5000},
    {"d_model": "１２"},
    {"padded": ",".join(["1"] * 5000)},
]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("params", TAMPERED, ids=lambda p: "&".join(f"{k}={v[:8]}" for k, v in p.items()))
def test_a_tampered_link_gives_one_translated_message_and_the_defaults(params, lang):
    at = _app({})
    for k, v in {**params, "lang": lang}.items():
        at.query_params[k] = v
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    bad = [k for k in params if k != "mask"]
    assert [w.value for w in at.warning] == [t("msg.url_rejected", lang, names=", ".join(sorted(bad)))]
    assert at.number_input(key="d_model").value == 64 and at.number_input(key="n_heads").value == 8
    for k in bad:
        assert k not in at.query_params  # the link is cleaned


def test_a_lone_surrogate_in_a_link_text_is_rejected():
    from ui.urlstate import check_params

    _, rejected = check_params({"text": "\ud800 cat", "d_model": "64"})
    assert rejected == ["text"]


def _json(**fields) -> str:
    data = json.loads(settings_to_json(Settings()))
    data.update(fields)
    return json.dumps(data)


@pytest.mark.parametrize("raw, code", [
    ('{"format": "mha-explorer-settings", "version": 1, "d_model": ' + "9" * 5000 + "}", "number_too_long"),
    (_json(text="\ud800 cat"), "bad_field"),
    (_json(text_kv="\udfff"), "bad_field"),
    (_json(d_model="²"), "bad_field"),
    (_json(padded=[1, "²"]), "bad_field"),
    (json.dumps(json.loads(_json()) | {"seed": 10**4000}), "invalid"),
])  # fmt: skip
def test_a_tampered_settings_file_gets_one_translated_message(raw, code):
    with pytest.raises(SettingsFileError) as err:
        settings_from_json(raw)
    assert err.value.code == code
    for lang in ("en", "zh"):
        assert t(f"io.{code}", lang, **{k: v for k, v in err.value.params.items() if k != "problem"})


# ---- the editor's messages -------------------------------------------------------------------------------
X_EDITOR = "editor__x_edits__0"
TYPED = [
    ("abc", "edit.not_a_number", {"value": "abc"}),
    ("nan", "edit.not_finite", {"value": "nan"}),
    ("inf", "edit.not_finite", {"value": "inf"}),
    ("１２", "edit.full_width", {"value": "１２", "plain": "12"}),
    ("٣", "edit.other_digits", {"value": "٣", "plain": "3"}),  # Arabic-Indic: not full-width
    ("١٫٥", "edit.not_a_number", {"value": "١٫٥"}),
    ("ａｂｃ", "edit.not_a_number", {"value": "ａｂｃ"}),  # full-width, but no number either way
    ("9" * 400, "edit.too_long", {"value": "9" * 12 + "…", "n": 400, "limit": "10000"}),
    (None, "edit.empty", {}),
    ("  ", "edit.empty", {}),
    ("10001", "edit.too_large", {"value": "10001", "limit": "10000"}),
]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("typed, key, params", TYPED, ids=[repr(x[0])[:10] for x in TYPED])
def test_a_bad_cell_is_named_with_its_row_column_and_typed_value(typed, key, params, lang):
    at = _app({"d_model": 8, "n_heads": 2, "edit_x_open": True, "lang": lang})
    at.run()
    at.switch_page(PAGES["inputs"]).run()
    before = np.array(run_scene(Settings(d_model=8, n_heads=2)).x)
    at.session_state[X_EDITOR] = {"edited_rows": {2: {"5": typed}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert not at.exception
    sc = run_scene(at.session_state["_last_good_settings"])
    np.testing.assert_array_equal(sc.x, before)  # the last good state
    want = t("edit.cell", lang, row="2:sat", col=5, problem=t(key, lang, **params))
    assert [e.value for e in at.error] == [want]
    if key == "edit.too_large":
        assert "1e+04" not in want and "10001" in want


def test_a_good_cell_is_taken():
    at = _app({"d_model": 8, "n_heads": 2, "edit_x_open": True})
    at.run()
    at.switch_page(PAGES["inputs"]).run()
    at.session_state[X_EDITOR] = {"edited_rows": {2: {"5": " -2.5 "}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert not at.error and at.session_state["_last_good_settings"].x_edits == ((2, 5, -2.5),)


W_EDITOR = "editor__w_edits_{}_0"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_bad_weight_cell_is_named_once_with_its_matrix(lang):
    """The four weight editors share one store: an error of W^Q is drawn under W^Q only, and names W^Q."""
    at = _app({"d_model": 4, "n_heads": 2, "lang": lang, "preset": "custom", "text": "a b c"})
    at.run()
    at.switch_page(PAGES["inputs"]).run()
    at.session_state[W_EDITOR.format("w_q")] = {"edited_rows": {1: {"2": "abc"}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert not at.exception
    want = t("edit.cell_in", lang, matrix="W^Q", row="1", col=2, problem=t("edit.not_a_number", lang, value="abc"))
    assert [e.value for e in at.error] == [want]


def test_an_old_x_error_goes_once_a_weight_is_edited():
    at = _app({"d_model": 4, "n_heads": 2, "edit_x_open": True, "preset": "custom", "text": "a b c"})
    at.run()
    at.switch_page(PAGES["inputs"]).run()
    at.session_state[X_EDITOR] = {"edited_rows": {0: {"1": "abc"}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert len(at.error) == 1
    at.session_state[W_EDITOR.format("w_k")] = {"edited_rows": {0: {"0": "0.5"}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert not at.error and not at.exception
    assert ("w_k", 0, 0, 0.5) in at.session_state["_last_good_settings"].w_edits


@pytest.mark.parametrize("rows", [
    {"x": {"5": "1"}}, {2: {"abc": "1"}}, {2: {"-1": "1"}}, {999: {"0": "1"}}, {2: {"999999999": "1"}}, {2: "1"},
])  # fmt: skip
def test_an_edit_of_a_cell_outside_the_grid_is_ignored(rows):
    """Only a forged message sends these (the grid has rows 0..L-1 and columns 0..d_model-1)."""
    at = _app({"d_model": 8, "n_heads": 2, "edit_x_open": True})
    at.run()
    at.switch_page(PAGES["inputs"]).run()
    at.session_state[X_EDITOR] = {"edited_rows": rows, "added_rows": [], "deleted_rows": []}
    at.run()
    assert not at.exception and not at.error
    assert at.session_state["_last_good_settings"].x_edits == ()


def test_a_settings_file_with_a_byte_order_mark_is_read():
    raw = settings_to_json(Settings(d_model=16, n_heads=4), "zh")
    for marked in (b"\xef\xbb\xbf" + raw.encode("utf-8"), "\ufeff" + raw):  # as bytes (a file) and as text
        settings, lang = settings_from_json(marked)
        assert (settings.d_model, settings.n_heads, lang) == (16, 4, "zh")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_link_streamlit_did_not_read_is_said_so(lang):
    """Streamlit reads no parameter of a link with more than 1,000; ui/streamlit_guard marks such a run with
    DROPPED_PARAM (tests/test_hostile.py opens such a link in Chromium)."""
    from ui.streamlit_guard import DROPPED_PARAM

    at = _app({"lang": lang})
    at.query_params[DROPPED_PARAM] = "2001"
    at.run()
    assert not at.exception
    want = t("msg.url_too_many", lang, n="2,001", limit="1,000")
    assert want in [w.value for w in at.warning]
    assert DROPPED_PARAM not in at.query_params  # out of the address bar: a reload does not say it again
    assert not [w for w in at.warning if w.value.startswith(t("msg.url_rejected", lang, names="")[:20])]


# ---- the lab ------------------------------------------------------------------------------------------
def test_the_lab_keeps_its_steps_and_seed_across_a_page_switch():
    at = _app({})
    at.run()
    at.switch_page(PAGES["lab"]).run()
    at.number_input(key="lab_steps").set_value(300).run()
    at.number_input(key="lab_seed").set_value(7).run()
    at.switch_page(PAGES["heads"]).run()
    at.switch_page(PAGES["lab"]).run()
    assert (at.number_input(key="lab_steps").value, at.number_input(key="lab_seed").value) == (300, 7)


def test_one_other_training_is_singular():
    assert t("busy.one_other_training", "en").startswith("1 other training is running")
    assert "trainings are" in t("lab.sharing", "en", n=2)


def test_the_janitor_expires_idle_entries_and_calls_the_idle_hooks(monkeypatch):
    from budget import release

    cache = ByteLRU("janitor-test", max_bytes=1000, max_idle=0.0)
    cache.put("a", 1, 100)
    called: list[int] = []
    monkeypatch.setattr(release, "registered_caches", lambda: [cache])
    monkeypatch.setattr(release, "_IDLE_HOOKS", [lambda: called.append(1)])
    time.sleep(0.01)
    release.sweep()
    assert len(cache) == 0 and cache.nbytes == 0 and called == [1]
    assert cache.evicted_bytes == 0  # counted, then reset by the trim that followed


def test_a_sweep_hook_that_dropped_something_asks_for_a_trim(monkeypatch):
    from budget import release

    trims: list[int] = []
    monkeypatch.setattr(release, "registered_caches", lambda: [])
    monkeypatch.setattr(release, "release_memory", lambda: trims.append(1))
    monkeypatch.setattr(release, "_SWEEP_HOOKS", [lambda: 0])
    release.sweep()
    assert trims == []  # nothing dropped, nothing to trim
    monkeypatch.setattr(release, "_SWEEP_HOOKS", [lambda: 3])
    release.sweep()
    assert trims == [1]


def test_closed_sessions_are_left_alone_without_a_streamlit_runtime():
    from ui.closed_sessions import expire_closed_sessions

    assert expire_closed_sessions() == 0


def test_a_figure_built_in_a_worker_process_is_the_one_built_here():
    import os

    import plotly.io as pio

    from budget import pool
    from figures.encode import default_template, figure_json, figure_json_with

    rng = np.random.default_rng(0)
    values = rng.standard_normal((64, 300))
    rows, cols = [f"r{i}" for i in range(64)], [f"c{j}" for j in range(300)]
    saved = pio.templates.default
    try:
        pio.templates.default = "simple_white"  # as Streamlit sets its own: the worker must draw with it too
        remote = pool.run(figure_json_with, default_template(), matrix_heatmap, values, rows, cols, title="W",
                          kind="weights")  # fmt: skip
        here = figure_json(matrix_heatmap, values, rows, cols, title="W", kind="weights")
        assert json.loads(remote) == json.loads(here)  # the same figure, template included (keys may be reordered)
        assert json.loads(remote)["data"][0]["type"] == "heatmap"
        # a closure cannot be sent to a worker: it runs in this process instead of failing
        assert pool.run(lambda: os.getpid()) == os.getpid()
        # the worker really is another process
        assert pool.run(os.getpid) != os.getpid()
    finally:
        pio.templates.default = saved
        pool.shutdown()


def test_the_subspace_overlap_of_large_heads_takes_a_slot_of_the_gate(monkeypatch):
    from contextlib import contextmanager

    from explorer import derived, head_subspace_overlap

    asked: list[bool] = []

    class Recorder:
        is_heavy = staticmethod(HeavyGate.is_heavy)

        @contextmanager
        def slot(self, heavy: bool = True):
            asked.append(heavy)
            yield

    monkeypatch.setattr(derived, "GATE", Recorder())
    rng = np.random.default_rng(1)
    large, small = rng.standard_normal((16, 1024, 2)), rng.standard_normal((8, 64, 8))
    got = head_subspace_overlap(large)
    head_subspace_overlap(small)
    assert asked == [True, False]
    # oracle in numpy: the largest singular value of Q_i^T Q_j, Q an orthonormal basis of each head's columns
    bases = [np.linalg.qr(w)[0] for w in large]
    want = np.array([[np.linalg.svd(a.T @ b, compute_uv=False).max() for b in bases] for a in bases])
    np.testing.assert_allclose(got, want, atol=1e-9)


def test_a_static_table_goes_out_as_the_same_bytes_converted_once_per_content_within_its_budget(monkeypatch):
    import pandas as pd
    from streamlit import dataframe_util

    from ui import tables

    rng = np.random.default_rng(0)
    frames = [
        pd.DataFrame(rng.random((6, 8)), index=list("abcdef"), columns=[f"Head {i}" for i in range(8)]).round(3),
        pd.DataFrame([["a", 1, 2.5], ["b", 2, None]], columns=["x", "y", "z"]).set_index("x"),
        pd.DataFrame({"list": [[1, 2], [3]]}),
    ]
    expected = [dataframe_util.convert_anything_to_arrow_bytes(df) for df in frames]  # Streamlit's own, as before
    monkeypatch.setattr(tables, "ARROW_CACHE", ByteLRU("tables-test", 64 << 10))
    converted = []
    convert = dataframe_util.convert_pandas_df_to_arrow_table
    monkeypatch.setattr(dataframe_util, "convert_pandas_df_to_arrow_table",
                        lambda df: converted.append(1) or convert(df))  # fmt: skip
    for df, want in zip(frames, expected, strict=True):
        for _ in range(3):
            assert tables.arrow_table(df.copy()).to_batches() == convert(df).to_batches()
            assert dataframe_util.convert_arrow_table_to_arrow_bytes(tables.arrow_table(df.copy())) == want
    assert len(converted) == 3
    changed = frames[0].copy()
    changed.iloc[2, 3] += 0.001  # one number moved: another table
    tables.arrow_table(changed)
    assert len(converted) == 4
    for i in range(200):  # many contents: the budget holds
        tables.arrow_table(pd.DataFrame(rng.random((16, 16))) + i)
    assert tables.ARROW_CACHE.nbytes <= 64 << 10


def _tables_both_ways() -> None:  # an AppTest script: each frame through show_table, then as st.table(df) itself
    import pandas as pd
    import streamlit as st

    from ui.tables import show_table

    for df in (pd.DataFrame({"a": [1.0, 2.0]}), pd.DataFrame({"a": [1.0, 2.0]}, index=["x", "y"]),
               pd.DataFrame({"a": [1, 2]}).set_index("a"), pd.DataFrame({"a": [1.0]}, index=[5])):  # fmt: skip
        show_table(df)
        st.table(df)


def _values_both_ways() -> None:  # an AppTest script: numbers through show_values, then st.table of their DataFrame
    import numpy as np
    import pandas as pd
    import streamlit as st

    from ui.tables import show_values

    values = np.random.default_rng(1).random((6, 4)) * 3
    rows, cols = ["The", "cat", "sat", "on", "the", "mat"], ["head 1", "head 2", "head 3", "head 4"]
    for _ in range(2):  # the second: looked up, not built
        show_values(values, rows, cols, decimals=3)
        st.table(pd.DataFrame(values, index=rows, columns=cols).round(3))
    big = np.arange(40.0).reshape(20, 2)  # beyond a static table's size: the scrolling grid, as show_table draws it
    show_values(big, [str(i) for i in range(20)], ["a", "b"], decimals=1)


def test_numbers_go_out_as_the_table_of_their_data_frame_built_once(monkeypatch):
    from streamlit.testing.v1 import AppTest

    from ui import tables

    monkeypatch.setattr(tables, "ARROW_CACHE", ByteLRU("tables-test", 64 << 10))
    built = []
    frame = tables._frame
    monkeypatch.setattr(tables, "_frame", lambda *args: built.append(args[0].shape) or frame(*args))
    at = AppTest.from_function(_values_both_ways).run()
    assert not at.exception
    protos = [el.proto for el in at.table]
    assert len(protos) == 4
    for ours, streamlits in zip(protos[::2], protos[1::2], strict=True):
        assert ours.SerializeToString(deterministic=True) == streamlits.SerializeToString(deterministic=True)
    assert built == [(6, 4), (20, 2)]  # the same numbers and labels twice: one DataFrame built; the grid's own
    assert len(at.dataframe) == 1


def test_a_static_table_goes_out_as_st_table_sends_the_data_frame_itself():
    """show_table sends Arrow converted once and says whether the index is hidden (given Arrow, st.table converted it
    back to pandas on every run to decide): the same message as st.table(df)."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_function(_tables_both_ways).run()
    assert not at.exception
    protos = [el.proto for el in at.table]
    assert len(protos) == 8
    for ours, streamlits in zip(protos[::2], protos[1::2], strict=True):
        assert ours.SerializeToString(deterministic=True) == streamlits.SerializeToString(deterministic=True)
    assert {p.hide_index for p in protos} == {True, False}  # frames whose index is hidden, and frames whose is not
