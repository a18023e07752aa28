"""figures.style: escaping, tick labels, compact numbers, colour ranges, sizes."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from figures.style import (
    DIVERGING,
    FigureStyle,
    color_range,
    json_values,
    label_step,
    round_sig,
    safe_label,
    token_ticks,
)


def test_safe_label_escapes_markup_and_quotes():
    assert safe_label("<script>alert(1)</script>") == "&lt;script&gt;alert(1)&lt;/script&gt;"
    assert safe_label('<a href="javascript:x">y</a>') == "&lt;a href=&#34;javascript:x&#34;&gt;y&lt;/a&gt;"
    assert safe_label("it's & <b>") == "it&#39;s &amp; &lt;b&gt;"


def test_safe_label_escapes_ampersand_first_so_entities_show_literally():
    # a token that looks like an entity must show as typed, not as "<"
    assert safe_label("&lt;") == "&amp;lt;"


def test_safe_label_keeps_plain_and_chinese_text():
    assert safe_label("猫 cat") == "猫 cat"
    assert safe_label(3) == "3"


def test_token_ticks_number_positions_so_duplicates_stay_distinct():
    ticks = token_ticks(["the", "cat", "the"])
    assert ticks == ["0:the", "1:cat", "2:the"]
    assert len(set(ticks)) == 3


def test_token_ticks_escape_and_shorten_long_tokens():
    ticks = token_ticks(["<script>", "a" * 40], max_len=10)
    assert ticks[0] == "0:&lt;script&gt;"
    assert ticks[1] == "1:" + "a" * 9 + "…"


def test_round_sig_keeps_four_significant_digits():
    a = round_sig([0.123456, 123456.0, -0.000123456, 0.0, 1.0])
    assert a.tolist() == [0.1235, 123500.0, -0.0001235, 0.0, 1.0]


def test_round_sig_prints_short_decimals():
    # no binary noise like 0.12350000000000001 in the JSON
    assert json.dumps(round_sig([0.123456, 2.0 / 3.0, 1e-7 / 3]).tolist()) == "[0.1235, 0.6667, 3.333e-08]"


def test_json_values_turn_non_finite_into_none():
    assert json_values([[1.0, -math.inf], [math.nan, math.inf]]) == [[1.0, None], [None, None]]
    assert json_values([[[0.5, -math.inf]]]) == [[[0.5, None]]]


def test_signed_range_is_symmetric_around_zero_with_white_centre():
    scale, lo, hi = color_range("signed", np.array([[-1.0, 3.0], [-np.inf, 0.5]]))
    assert (lo, hi) == (-3.0, 3.0)
    assert scale is DIVERGING
    assert scale[len(scale) // 2] == [0.5, "rgb(255,255,255)"]
    negative, positive = scale[0][1], scale[-1][1]  # "#rrggbb"
    assert int(negative[5:7], 16) > int(negative[1:3], 16)  # negative end blue
    assert int(positive[1:3], 16) > int(positive[5:7], 16)  # positive end orange


def test_weights_range_is_fixed_zero_to_one_and_explicit_limits_win():
    assert color_range("weights", np.array([[0.2, 0.3]]))[1:] == (0.0, 1.0)
    assert color_range("weights", np.array([[0.2, 0.3]]), zmax=0.5)[1:] == (0.0, 0.5)
    assert color_range("cosine", np.array([[0.2]]))[1:] == (-1.0, 1.0)
    assert color_range("plain", np.array([[2.0, 5.0]]))[1:] == (2.0, 5.0)


def test_unknown_kind_is_refused():
    with pytest.raises(ValueError, match="kind"):
        color_range("rainbow", np.zeros((1, 1)))


def test_large_style_is_bigger_and_frozen():
    normal, large = FigureStyle(), FigureStyle.large()
    assert normal.font_size == 14
    assert large.font_size >= 20 and large.cell_px > normal.cell_px
    with pytest.raises(AttributeError):
        normal.font_size = 3  # type: ignore[misc]


def test_heatmap_height_grows_with_rows_and_is_clamped():
    s = FigureStyle()
    assert s.heatmap_height(1) == s.min_height
    assert s.heatmap_height(20) > s.heatmap_height(10)
    assert s.heatmap_height(10_000) == s.max_height


def test_label_step_thins_labels_that_would_overlap():
    s = FigureStyle()
    assert label_step(8, 800, s) == 1
    assert label_step(64, 300, s) > 1
    assert 64 / label_step(64, 300, s) * s.label_px <= 300
