"""figures.tiled_heads: every head's matrix in one heatmap, at its tile, with NaN gaps."""

from __future__ import annotations

import json
import time

import numpy as np
import pytest

from figures import FigureStyle, tiled_heads
from figures.heads import tile_geometry
from figures.style import DIVERGING, round_sig

TOKENS = ["the", "cat", "<script>"]
KEYS = ["the", "cat", "<script>", "the"]


def spec(fig) -> dict:
    return json.loads(fig.to_json())


def softmax_stack(n: int, rows: int, cols: int, seed: int = 0) -> np.ndarray:
    e = np.exp(np.random.default_rng(seed).normal(size=(n, rows, cols)) * 2)
    return e / e.sum(axis=-1, keepdims=True)


def z_of(fig) -> np.ndarray:
    return np.array(spec(fig)["data"][0]["z"], dtype=float)  # None -> nan


def tile(z: np.ndarray, k: int, rows: int, cols: int, grid_cols: int, gap_rows: int = 1, gap_cols: int = 1):
    tr, tc = divmod(k, grid_cols)
    r0, c0 = tr * (rows + gap_rows), tc * (cols + gap_cols)
    return z[r0: r0 + rows, c0: c0 + cols]


@pytest.mark.parametrize("shape", [(5, 3, 4), (16, 64, 64), (6, 10, 12)])
def test_every_head_sits_at_its_tile_and_gaps_are_nan(shape):
    n, rows, cols = shape
    stack = softmax_stack(n, rows, cols)
    fig = tiled_heads(stack, max_cols=2)
    geo = tile_geometry(n, rows, cols, max_cols=2, style=FigureStyle())
    gr, gc = geo.gap_rows, geo.gap_cols
    z = z_of(fig)
    grid_rows = -(-n // 2)
    assert z.shape == (grid_rows * (rows + gr) - gr, 2 * (cols + gc) - gc)  # whole NaN cells between tiles
    for k in range(n):
        assert np.array_equal(tile(z, k, rows, cols, 2, gr, gc), round_sig(stack[k]))
    for tr in range(1, grid_rows):
        assert np.isnan(z[tr * (rows + gr) - gr: tr * (rows + gr)]).all()  # gap rows
    assert np.isnan(z[:, cols: cols + gc]).all()  # gap columns
    if n % 2:
        assert np.isnan(tile(z, n, rows, cols, 2, gr, gc)).all()  # the empty last tile
    assert len(fig.data) == 1 and fig.data[0].type == "heatmap"  # ONE trace, not subplots


def test_bricks_are_uniform_so_plotly_draws_one_pixelated_image():
    """plotly.js takes its fast path (one small image, CSS-pixelated) only for evenly spaced bricks without
    xgap/ygap; per-cell rectangles are several times slower for 16 heads."""
    d = spec(tiled_heads(softmax_stack(16, 20, 20), shared_scale=False))
    for trace in d["data"]:
        assert "x" not in trace and "y" not in trace and trace["dx"] == trace["dy"] == 1
        assert not trace.get("xgap") and not trace.get("ygap")


def test_gap_above_a_tile_row_has_room_for_its_title():
    style = FigureStyle()
    for n, rows, cols, shared in [(8, 10, 10, True), (8, 10, 10, False), (16, 64, 64, False), (2, 1, 2, True)]:
        geo = tile_geometry(n, rows, cols, shared_scale=shared, style=style)
        title_px = style.font_size * (1.35 * (1 if shared else 2) + 0.6)
        assert geo.gap_rows * geo.tile_h_px / rows >= title_px


def test_tile_titles_default_to_translated_head_names():
    stack = softmax_stack(3, 3, 4)
    for lang, first in (("en", "head 1"), ("zh", "头 1")):
        ann = spec(tiled_heads(stack, TOKENS, KEYS, lang=lang))["layout"]["annotations"]
        assert ann[0]["text"] == first and len(ann) == 3
    custom = spec(tiled_heads(stack, TOKENS, KEYS, tile_titles=["A", "B", "<C>"]))["layout"]["annotations"]
    assert [a["text"] for a in custom] == ["A", "B", "&lt;C&gt;"]


def test_hover_shows_head_row_label_column_label_and_value():
    stack = softmax_stack(2, 3, 4)
    trace = spec(tiled_heads(stack, TOKENS, KEYS, max_cols=2))["data"][0]
    # head 2, query 2:<script>, key 3:the sits at z[2][5 + 3]
    assert trace["customdata"][2][8] == "head 2 · 2:&lt;script&gt; → 3:the"
    assert trace["customdata"][0][4] is None  # gap column
    assert trace["hovertemplate"] == "%{customdata}<br>(query → key)<br>weight: %{z:.4g}<extra></extra>"
    assert trace["hoverongaps"] is False


def test_shared_scale_has_one_colorbar_over_all_heads():
    stack = np.array([[[-1.0, 2.0]], [[0.5, -4.0]]])
    trace = spec(tiled_heads(stack, ["q"], ["a", "b"], kind="signed"))["data"][0]
    assert trace["showscale"] is True
    assert (trace["zmin"], trace["zmax"]) == (-4.0, 4.0)
    assert trace["colorscale"] == DIVERGING
    w = spec(tiled_heads(softmax_stack(2, 3, 4), TOKENS, KEYS))["data"][0]
    assert (w["zmin"], w["zmax"]) == (0.0, 1.0)


def test_per_head_scale_normalises_colours_but_hover_keeps_raw_values():
    stack = np.array([[[-1.0, 2.0]], [[0.5, -4.0]]])
    fig = tiled_heads(stack, ["q"], ["a", "b"], kind="signed", shared_scale=False)
    d = spec(fig)
    trace = d["data"][0]
    z = np.array(trace["z"], dtype=float)
    assert np.allclose(z[0, 0:2], [-0.5, 1.0])  # head 1 scaled by max|v| = 2
    assert np.allclose(z[0, 3:5], [0.125, -1.0])  # head 2 scaled by max|v| = 4
    assert trace["showscale"] is False
    assert (trace["zmin"], trace["zmax"]) == (-1.0, 1.0)
    assert trace["text"][0][:2] == ["-1", "2"] and trace["text"][0][3:] == ["0.5", "-4"]
    assert "%{text}" in trace["hovertemplate"]
    titles = [a["text"] for a in d["layout"]["annotations"]]
    assert "−2 … 2" in titles[0] and "−4 … 4" in titles[1]
    assert "own scale" in d["layout"]["title"]["subtitle"]["text"]


def test_per_head_scale_of_weights_starts_at_zero():
    stack = np.array([[[0.2, 0.4]], [[0.1, 0.05]]])
    d = spec(tiled_heads(stack, ["q"], ["a", "b"], kind="weights", shared_scale=False))
    z = np.array(d["data"][0]["z"], dtype=float)
    assert np.allclose(z[0, [0, 1, 3, 4]], [0.5, 1.0, 1.0, 0.5])
    assert "0 … 0.4" in d["layout"]["annotations"][0]["text"]


def test_masked_cells_are_none_and_hover_as_masked_on_a_grey_hatched_layer():
    stack = np.array([[[0.5, -np.inf]], [[1.0, 2.0]]])
    for lang, word in (("en", "masked (−∞)"), ("zh", "已掩蔽（−∞）")):
        d = spec(tiled_heads(stack, ["q"], ["a", "b"], kind="signed", lang=lang))
        main, grey, hatch = d["data"]
        # the masked cell (row 0, column 1: x from 1 to 2) carries a pattern, not a shade of grey alone
        assert hatch["type"] == "bar" and hatch["marker"]["pattern"]["shape"] == "/"
        assert (hatch["y"], hatch["base"], hatch["x"]) == ([0.5], [1.0], [1]) and hatch["hoverinfo"] == "skip"
        assert main["z"][0] == [0.5, None, None, 1.0, 2.0]  # masked, gap, head 2
        assert main["customdata"][0][1] is None
        assert grey["z"][0] == [None, 0.0, None, None, None]  # only the masked cell
        assert grey["customdata"][0][1].endswith("0:q → 1:b")
        assert word in grey["hovertemplate"] and grey["showscale"] is False
        assert word.split("（")[0].split(" (")[0] in d["layout"]["title"]["subtitle"]["text"]


def test_duplicate_and_hostile_tokens_stay_distinct_and_escaped():
    fig = tiled_heads(softmax_stack(2, 3, 4), TOKENS, KEYS)
    d = spec(fig)
    assert d["layout"]["xaxis"]["ticktext"][:4] == ["0:the", "1:cat", "2:&lt;script&gt;", "3:the"]
    assert d["layout"]["xaxis"].get("type") != "category"
    assert "<script" not in fig.to_json()
    assert not any("<script" in row_cell for row in d["data"][0]["customdata"] for row_cell in row if row_cell)


def test_tick_labels_thin_out_on_big_tiles():
    fig = tiled_heads(softmax_stack(16, 64, 64), [f"t{i}" for i in range(64)], [f"t{i}" for i in range(64)])
    d = spec(fig)
    per_tile = len(d["layout"]["xaxis"]["tickvals"]) / 4
    assert 4 <= per_tile < 64


def test_sixteen_heads_of_64_tokens_build_fast_and_stay_compact():
    stack = softmax_stack(16, 64, 64)
    tokens = [f"tok{i % 10}" for i in range(64)]
    tiled_heads(stack[:1, :4, :4], tokens[:4], tokens[:4])  # warm imports
    start = time.perf_counter()
    fig = tiled_heads(stack, tokens, tokens)
    build = time.perf_counter() - start
    payload = len(fig.to_json())
    print(f"16x64x64 tiled: build {build * 1000:.0f} ms, JSON {payload / 1e6:.2f} MB")
    assert build < 0.6
    assert payload < 3_500_000


@pytest.mark.parametrize("style", [FigureStyle(), FigureStyle.large()])
def test_height_is_bounded(style):
    fig = tiled_heads(softmax_stack(16, 64, 64), None, None, style=style)
    assert style.min_height <= fig.layout.height <= style.max_height + 10


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="3-D"):
        tiled_heads(np.ones((2, 2)))
    with pytest.raises(ValueError, match="tile titles"):
        tiled_heads(np.ones((2, 1, 1)), tile_titles=["a"])


@pytest.mark.parametrize("kind", ["weights", "signed", "plain"])
@pytest.mark.parametrize("shared", [True, False])
def test_the_unvalidated_figure_is_the_validated_one(monkeypatch, kind, shared):
    """tiled_heads skips plotly's cell-by-cell validation of its own dicts (for speed); with validation on,
    the figure must come out the same: same data, layout and spelled-out colour scale."""
    import figures.heads as heads_module

    rng = np.random.default_rng(3)
    a = rng.normal(size=(4, 9, 7)) if kind == "signed" else rng.random((4, 9, 7))
    a[1, 2, 3], a[2, 0, :] = np.nan, -np.inf
    rows, cols = [f"<b>{i}</b>" for i in range(9)], [f"k{i}" for i in range(7)]
    figs = []
    for validate in (True, False):
        monkeypatch.setattr(heads_module, "_VALIDATE", validate)
        fig = tiled_heads(a, rows, cols if kind != "signed" else None, kind=kind, shared_scale=shared, lang="zh",
                          style=FigureStyle.large())  # fmt: skip
        figs.append(json.loads(fig.to_json()))
    assert figs[0] == figs[1]
    assert isinstance(figs[1]["data"][0]["colorscale"], list)  # never a name plotly.js would read its own way
