"""figures.positional: PE curves, the P matrix, wavelengths and P Pᵀ carry the given numbers."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from figures import pe_curves, pe_heatmap, pe_similarity, wavelength_chart
from figures.style import DIVERGING, round_sig


def spec(fig) -> dict:
    return json.loads(fig.to_json())


def table(length: int = 10, d: int = 8) -> np.ndarray:
    """Any (L, d) table will do: figures only format what they are given."""
    return np.sin(np.arange(length * d, dtype=float).reshape(length, d) / 7)


def test_pe_curves_one_line_per_dimension_with_sin_cos_names():
    p = table()
    d = spec(pe_curves(p, [0, 1, 6]))
    assert [tr["name"] for tr in d["data"]] == ["dim 0 (sin)", "dim 1 (cos)", "dim 6 (sin)"]
    for tr, dim in zip(d["data"], [0, 1, 6], strict=True):
        assert tr["x"] == list(range(10))
        assert np.array_equal(np.array(tr["y"]), round_sig(p[:, dim]))
    assert d["data"][0]["line"]["color"] == d["data"][1]["line"]["color"]  # one pair, one colour
    assert d["data"][1]["line"]["dash"] == "dash"
    zh = spec(pe_curves(p, [3], lang="zh"))
    assert zh["data"][0]["name"] == "维度 3（cos）"


def test_pe_curves_refuse_unknown_dimensions():
    with pytest.raises(ValueError, match="dimension"):
        pe_curves(table(), [8])


def test_pe_heatmap_is_positions_by_dimensions_on_fixed_minus_one_to_one():
    p = table()
    trace = spec(pe_heatmap(p))["data"][0]
    assert np.array_equal(np.array(trace["z"]), round_sig(p))
    assert (trace["zmin"], trace["zmax"]) == (-1.0, 1.0)
    assert trace["colorscale"] == DIVERGING
    assert trace["hovertemplate"].startswith("position: %{y}<br>dimension: %{x}")


def test_wavelength_chart_is_log_scale_against_pair_index():
    lam = 2 * math.pi * 10000 ** (np.arange(0, 16, 2) / 16)
    d = spec(wavelength_chart(lam, lang="zh"))
    assert d["layout"]["yaxis"]["type"] == "log"
    assert d["data"][0]["x"] == list(range(8))
    assert np.array_equal(np.array(d["data"][0]["y"]), round_sig(lam))
    assert d["data"][0]["customdata"][1] == "维度 2、3"


def test_pe_similarity_is_signed_and_symmetric():
    p = table()
    sim = p @ p.T
    trace = spec(pe_similarity(sim))["data"][0]
    assert np.array_equal(np.array(trace["z"]), round_sig(sim))
    m = float(np.abs(sim).max())
    assert trace["zmin"] == -trace["zmax"] and math.isclose(trace["zmax"], m)


def test_pe_heatmap_in_a_half_width_column_thins_its_dimension_labels_to_fit():
    from figures.style import FigureStyle

    style = FigureStyle()
    p = np.zeros((50, 64))
    full = json.loads(pe_heatmap(p, style=style).to_json())["layout"]["xaxis"]["tickvals"]
    half = json.loads(pe_heatmap(p, style=style, width_fraction=0.45).to_json())["layout"]["xaxis"]["tickvals"]
    assert len(half) < len(full)
    assert len(half) * style.label_px <= style.width_px * 0.85 * 0.45  # every shown label has its room
