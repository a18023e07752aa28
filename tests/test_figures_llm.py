"""figures/llm.py: the figures carry the numbers they are given, in both languages, and never colour alone."""

from __future__ import annotations

import json

import numpy as np
import pytest

from figures.llm import (
    alibi_figure,
    cache_figure,
    change_figure,
    decode_cost_figure,
    online_softmax_figure,
    reach_figure,
    rope_wavelength_figure,
)
from figures.style import FigureStyle

LANGS = ("en", "zh")
STYLES = (FigureStyle(), FigureStyle.present(), FigureStyle.phone())


def as_json(fig) -> dict:
    return json.loads(fig.to_json())


def texts(spec: dict) -> str:
    return json.dumps(spec.get("layout", {}), ensure_ascii=False) + json.dumps(
        [t.get("name", "") for t in spec["data"]], ensure_ascii=False)  # fmt: skip


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("style", STYLES)
def test_decode_cost_figure_carries_both_curves_and_the_bytes(lang, style) -> None:
    spec = as_json(decode_cost_figure([10, 11, 12], [10, 22, 36], [64, 128, 192], 2, lang=lang, style=style))
    ys = [t["y"] for t in spec["data"]]
    assert ys == [[10, 22, 36], [10, 11, 12], [64, 128, 192]]
    assert {t["line"]["dash"] for t in spec["data"][:2]} == {"dash", "solid"}  # not colour alone
    assert ("键值缓存" in texts(spec)) == (lang == "zh")


@pytest.mark.parametrize("lang", LANGS)
def test_change_figure_groups_heads_by_their_kv_head(lang) -> None:
    change = np.array([0.1, 0.2, 0.3, 0.4])
    spec = as_json(change_figure(change, ((0, 1), (2, 3)), lang=lang))
    assert [t["y"] for t in spec["data"]] == [[0.1, 0.2], [0.3, 0.4]]
    assert spec["data"][0]["marker"]["pattern"]["shape"] != spec["data"][1]["marker"]["pattern"]["shape"]


@pytest.mark.parametrize("lang", LANGS)
def test_alibi_figure_draws_minus_slope_times_distance(lang) -> None:
    slopes = np.array([0.5, 0.25, 0.125])
    spec = as_json(alibi_figure(slopes, 10, trained=8, lang=lang))
    for trace, m in zip(spec["data"], slopes, strict=True):
        np.testing.assert_allclose(trace["y"], -m * np.arange(11))
    assert len({t["line"]["dash"] for t in spec["data"]}) == 3


@pytest.mark.parametrize("lang", LANGS)
def test_rope_wavelength_figure_splits_the_pairs_it_is_told(lang) -> None:
    waves = np.array([6.3, 63.0, 630.0, 6300.0])
    spec = as_json(rope_wavelength_figure(waves, np.array([False, False, True, True]), 100, lang=lang))
    seen, unseen = spec["data"]
    assert seen["y"] == [6.3, 63.0] and unseen["y"] == [630.0, 6300.0]
    assert seen["marker"]["symbol"] != unseen["marker"]["symbol"]


@pytest.mark.parametrize("lang", LANGS)
def test_online_softmax_figure_draws_each_blocks_state_across_the_block(lang) -> None:
    scores = np.array([0.1, -0.2, 0.9, 0.3, -np.inf])
    spec = as_json(online_softmax_figure(scores, (0, 2, 4), np.array([0.1, 0.9, 0.9]), np.array([1.7, 2.0, 2.0]),
                                         [f"{i}:w" for i in range(5)], lang=lang))  # fmt: skip
    points, running_max, running_sum = spec["data"]
    assert points["y"] == [0.1, -0.2, 0.9, 0.3]  # the masked key is left out
    assert running_max["x"] == [-0.5, 1.5, 3.5, 4.5] and running_max["y"] == [0.1, 0.9, 0.9, 0.9]
    assert running_sum["y"] == [1.7, 2.0, 2.0, 2.0] and running_max["line"]["shape"] == "hv"


@pytest.mark.parametrize("lang", LANGS)
def test_reach_figure_writes_the_layer_in_each_reached_cell(lang) -> None:
    first = np.array([[1.0, np.nan, np.nan], [1.0, 1.0, np.nan], [2.0, 1.0, 1.0]])
    spec = as_json(reach_figure(first, 2, lang=lang))
    trace = spec["data"][0]
    assert trace["z"] == [[1.0, None, None], [1.0, 1.0, None], [2.0, 1.0, 1.0]]
    assert trace["text"] == [["1", "", ""], ["1", "1", ""], ["2", "1", "1"]]
    assert trace["colorbar"]["tickvals"] == [1, 2]


@pytest.mark.parametrize("lang", LANGS)
def test_cache_figure_puts_the_heads_side_by_side_and_frames_the_new_row(lang) -> None:
    cache = np.arange(2 * 3 * 2, dtype=float).reshape(2, 3, 2)  # (g, L, d_k)
    spec = as_json(cache_figure(cache, ["a", "b", "c"], 2, lang=lang))
    z = np.array(spec["data"][0]["z"], dtype=float)
    np.testing.assert_allclose(z, np.concatenate([cache[0], cache[1]], axis=1))
    rects = [s for s in spec["layout"]["shapes"] if s["type"] == "rect"]
    assert any(s["y0"] == 1.5 and s["y1"] == 2.5 for s in rects)
