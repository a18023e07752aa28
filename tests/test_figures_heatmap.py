"""figures.matrix_heatmap: the numbers, labels, hover and colour scale of one matrix."""

from __future__ import annotations

import json

import numpy as np
import plotly.graph_objects as go
import pytest

from figures import FigureStyle, matrix_heatmap
from figures.style import DIVERGING, round_sig

TOKENS = ["the", "cat", "<script>", "the"]


def spec(fig: go.Figure) -> dict:
    return json.loads(fig.to_json())


def strings(obj) -> list[str]:
    """Every string anywhere in a figure's JSON."""
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, dict):
        return [s for v in obj.values() for s in strings(v)]
    if isinstance(obj, list):
        return [s for v in obj for s in strings(v)]
    return []


def weights(n: int = 4, seed: int = 0) -> np.ndarray:
    e = np.exp(np.random.default_rng(seed).normal(size=(n, n)))
    return e / e.sum(axis=1, keepdims=True)


def test_z_carries_the_input_numbers_rounded():
    w = weights()
    fig = matrix_heatmap(w, TOKENS, TOKENS, kind="weights")
    z = np.array(spec(fig)["data"][0]["z"], dtype=float)
    assert np.array_equal(z, round_sig(w))
    assert np.allclose(z, w, rtol=1e-3, atol=0)


def test_masked_scores_become_none_and_hover_says_masked():
    s = np.array([[0.5, -np.inf], [1.25, -2.0]])
    for lang, word in (("en", "masked"), ("zh", "已掩蔽")):
        d = spec(matrix_heatmap(s, ["a", "b"], ["a", "b"], kind="signed", lang=lang))
        trace = d["data"][0]
        assert trace["z"] == [[0.5, None], [1.25, -2.0]]
        assert word in trace["customdata"][0][1][2]
        assert trace["customdata"][1][1][2] == "-2"
        assert "%{customdata[2]}" in trace["hovertemplate"]
        # masked cells show the grey background shape, and a note says what grey means
        assert d["layout"]["shapes"][0]["layer"] == "below"
        assert word in d["layout"]["title"]["subtitle"]["text"]


def test_axes_are_numeric_with_position_labels_so_duplicates_stay_apart():
    d = spec(matrix_heatmap(weights(), TOKENS, TOKENS, kind="weights"))
    for ax in ("xaxis", "yaxis"):
        assert d["layout"][ax].get("type") != "category"
        assert d["layout"][ax]["tickvals"] == [0, 1, 2, 3]
        assert d["layout"][ax]["ticktext"] == ["0:the", "1:cat", "2:&lt;script&gt;", "3:the"]
    assert "x" not in d["data"][0]  # cells sit at positions 0..C-1, never at token strings


def test_rows_are_top_to_bottom_like_a_matrix():
    d = spec(matrix_heatmap(weights(3), ["a", "b", "c"], ["a", "b", "c"]))
    lo, hi = d["layout"]["yaxis"]["range"]
    assert lo > hi  # reversed: row 0 on top


def test_hover_shows_row_label_column_label_and_value():
    fig = matrix_heatmap(weights(), TOKENS, TOKENS, kind="weights")
    trace = spec(fig)["data"][0]
    assert trace["hovertemplate"].startswith("query: %{customdata[0]}<br>key: %{customdata[1]}<br>weight: %{z")
    assert trace["customdata"][2][3] == ["2:&lt;script&gt;", "3:the"]
    zh = spec(matrix_heatmap(weights(), TOKENS, TOKENS, kind="weights", lang="zh"))["data"][0]
    assert zh["hovertemplate"].startswith("查询: ")


def test_user_text_is_escaped_everywhere():
    evil = '<a href="javascript:alert(1)">x</a>'
    fig = matrix_heatmap(np.array([[1.0, -np.inf]]), ["<script>"], [evil, "b"], title="<b>t</b>",
                         kind="signed", row_title="<i>r</i>", col_title="%{x}", value_name="<v>")
    every = strings(spec(fig))
    assert not any("<script" in s or "<a " in s or "<b>t" in s or "<i>" in s or "<v>" in s for s in every)
    assert "<script" not in fig.to_json()
    assert any("0:&lt;script&gt;" in s for s in every)
    # braces of user text in a hovertemplate are entities: "%{x}" is not read as a template variable
    assert "%&#123;x&#125;: %{customdata[1]}" in spec(fig)["data"][0]["hovertemplate"]


def test_show_values_automatic_up_to_150_cells():
    small = spec(matrix_heatmap(np.ones((10, 15)), kind="plain"))["data"][0]
    big = spec(matrix_heatmap(np.ones((10, 16)), kind="plain"))["data"][0]
    assert small["texttemplate"] == "%{text}" and small["text"][0][0] == "1.00"
    assert "texttemplate" not in big
    forced = spec(matrix_heatmap(np.ones((10, 16)), kind="plain", show_values=True))["data"][0]
    assert "texttemplate" in forced
    off = spec(matrix_heatmap(np.ones((2, 2)), kind="plain", show_values=False))["data"][0]
    assert "texttemplate" not in off


def test_automatic_values_only_where_each_fits_its_cell():
    """Eight heads' cosines on a phone: cells of about 25 px could not hold "−0.15" (the numbers ran together; hover
    and the chart's table still give them). On a desktop, or asked for, they are written."""
    rng = np.random.default_rng(0)
    cos = rng.uniform(-0.3, 0.3, (8, 8))
    names = [f"head {i + 1}" for i in range(8)]
    phone = spec(matrix_heatmap(cos, names, names, kind="cosine", numbered=False, style=FigureStyle.phone()))
    desktop = spec(matrix_heatmap(cos, names, names, kind="cosine", numbered=False, style=FigureStyle()))
    asked = spec(matrix_heatmap(cos, names, names, kind="cosine", numbered=False, style=FigureStyle.phone(),
                                show_values=True))  # fmt: skip
    assert "texttemplate" not in phone["data"][0]
    assert desktop["data"][0]["texttemplate"] == "%{text}" and asked["data"][0]["texttemplate"] == "%{text}"
    two = spec(matrix_heatmap(cos[:2, :2], names[:2], names[:2], kind="cosine", numbered=False,
                              style=FigureStyle.phone()))  # fmt: skip
    assert two["data"][0]["texttemplate"] == "%{text}"  # two heads: wide cells, numbers written


def test_cell_text_uses_a_real_minus_and_infinity_for_masked():
    t = spec(matrix_heatmap(np.array([[-1.5, -np.inf]]), kind="signed"))["data"][0]["text"]
    assert t == [["−1.50", "−∞"]]


def test_colour_scales_by_kind():
    s = np.array([[-1.0, 4.0]])
    signed = spec(matrix_heatmap(s, kind="signed"))["data"][0]
    assert (signed["zmin"], signed["zmax"]) == (-4.0, 4.0)
    assert signed["colorscale"] == DIVERGING
    w = spec(matrix_heatmap(np.array([[0.1, 0.2]]), kind="weights"))["data"][0]
    assert (w["zmin"], w["zmax"]) == (0.0, 1.0)
    fixed = spec(matrix_heatmap(s, kind="signed", zmin=-10, zmax=10))["data"][0]
    assert (fixed["zmin"], fixed["zmax"]) == (-10.0, 10.0)
    assert signed["colorbar"]["title"]["text"].startswith("value<br>")


def test_height_adapts_to_rows_and_labels_thin_out():
    style = FigureStyle()
    few = matrix_heatmap(np.ones((4, 4)), style=style)
    many = matrix_heatmap(np.ones((40, 40)), style=style)
    huge = spec(matrix_heatmap(np.ones((300, 300)), style=style))
    assert few.layout.height < many.layout.height <= style.max_height
    assert len(huge["layout"]["yaxis"]["tickvals"]) < 300
    assert huge["layout"]["yaxis"]["automargin"] and huge["layout"]["xaxis"]["automargin"]


def test_large_style_uses_large_fonts():
    d = spec(matrix_heatmap(np.ones((2, 2)), title="t", style=FigureStyle.large()))
    assert d["layout"]["font"]["size"] == FigureStyle.large().font_size
    assert d["layout"]["title"]["font"]["size"] > d["layout"]["font"]["size"]


def test_without_labels_hover_uses_positions_and_no_customdata():
    trace = spec(matrix_heatmap(np.ones((3, 2)), kind="plain"))["data"][0]
    assert "customdata" not in trace
    assert "%{y}" in trace["hovertemplate"] and "%{x}" in trace["hovertemplate"]


def test_bad_shapes_are_refused():
    with pytest.raises(ValueError, match="2-D"):
        matrix_heatmap(np.ones(3))
    with pytest.raises(ValueError, match="labels"):
        matrix_heatmap(np.ones((2, 2)), ["a"], ["a", "b"])


def test_bricks_are_uniform_without_gaps_so_plotly_draws_one_pixelated_image():
    """plotly.js draws evenly spaced bricks without xgap/ygap as one small CSS-pixelated image (fast path);
    with gaps it paints every cell and encodes a full-size PNG, several times slower."""
    trace = json.loads(matrix_heatmap(np.arange(12.0).reshape(3, 4), ["a", "b", "c"]).to_json())["data"][0]
    assert not trace.get("xgap") and not trace.get("ygap") and "x" not in trace and "y" not in trace
