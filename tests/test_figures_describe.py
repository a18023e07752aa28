"""A chart's text alternative and its table (figures/describe.py), read from the figure: checked against the arrays the
figure was built from (written in the test), in both languages."""

from __future__ import annotations

import csv
import io

import numpy as np
import pytest

from figures import attention_lines, matrix_heatmap, query_bars, tiled_heads
from figures.describe import describe, read, summary, table_csv
from figures.why import parameter_figure

TOKENS = ["the", "cat", "<sat>"]


def weights_stack() -> np.ndarray:
    w = np.array([[[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.3, 0.3, 0.4]],
                  [[0.05, 0.05, 0.9], [0.5, 0.25, 0.25], [0.2, 0.6, 0.2]]])  # fmt: skip
    return w  # (2 heads, 3 queries, 3 keys)


def rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_tiled_heads_summary_names_size_range_and_the_largest_cells_with_their_tokens():
    fig = tiled_heads(weights_stack(), TOKENS, TOKENS, kind="weights").to_dict()
    text = summary(fig, "en", title="weights A_i")
    assert text.startswith("weights A_i. Heatmap of 2 maps, each 3 × 3 cells. Values from 0.05 to 0.9.")
    # the three largest, in order, with where they are: head, query token, key token (tokens as text, not HTML)
    assert "Largest: 0.9 at head 2 · 0:the → 2:<sat>; 0.8 at head 1 · 1:cat → 1:cat; 0.7 at head 1 · 0:the → 0:the" \
        in text  # fmt: skip
    assert "Most negative" not in text and "&lt;" not in text


def test_a_figures_own_title_wins_and_chinese_reads_naturally():
    fig = matrix_heatmap(np.array([[1.0, -2.0], [0.5, 0.0]]), ["a", "b"], ["x", "y"], title="S", kind="signed",
                         lang="zh").to_dict()  # fmt: skip
    title, text = describe(fig, "zh", title="ignored")
    assert title == "S"
    assert text.startswith("S。热力图，2 行 × 2 列。数值从 −2 到 1。最大：")
    assert "最负：" in text and "−2" in text and text.endswith("全部数值：见图下方的 CSV")


def test_masked_cells_are_counted_not_ranked():
    scores = np.array([[0.5, -np.inf], [1.5, 2.5]])
    fig = matrix_heatmap(scores, ["a", "b"], ["a", "b"], kind="signed").to_dict()
    text = summary(fig)
    assert "1 cells masked" in text and "Largest: 2.5" in text
    table = rows(table_csv(fig))
    assert ["0:a", "1:b", "masked (−∞)"] in table  # the masked cell is in the table, as the hover says it


def test_the_table_holds_every_number_the_heatmap_draws():
    values = np.array([[0.123456, -1.5, 2.0], [3.25, 0.0, -0.75]])
    fig = matrix_heatmap(values, ["p", "q"], None, kind="signed", row_title="token", col_title="dim").to_dict()
    header, *body = rows(table_csv(fig))
    assert header == ["token", "dim", "value"]
    assert len(body) == values.size
    got = np.array([float(r[2]) for r in body]).reshape(values.shape)
    np.testing.assert_allclose(got, values, rtol=1e-3)  # the figure carries 4 significant digits
    assert [r[:2] for r in body[:3]] == [["0:p", "0"], ["0:p", "1"], ["0:p", "2"]]


def test_bars_and_lines_read_their_values_from_the_hover_not_the_position():
    w = weights_stack()
    bars = query_bars(w[:, 0, :], TOKENS, "the").to_dict()
    _, series, _ = read(bars)
    np.testing.assert_allclose(np.concatenate([s.values for s in series]), w[:, 0, :].ravel(), atol=1e-4)
    assert "Largest: 0.9 at head 2 · key: 2:<sat>; 0.7 at head 1 · key: 0:the" in summary(bars)
    lines = attention_lines(w, TOKENS, TOKENS, heads=[0, 1], query=0).to_dict()
    _, series, _ = read(lines)  # the drawn lines hover nothing: their values are on the hover markers
    assert [s.name for s in series] == ["head 1", "head 2"]
    np.testing.assert_allclose(np.sort(np.concatenate([s.values for s in series])), np.sort(w[:, 0, :].ravel()),
                               atol=1e-4)  # fmt: skip


def test_stacked_bars_name_their_series_in_the_table():
    fig = parameter_figure([1, 2], {"W^Q": [16, 16], "W^K": [16, 16]}, [4, 2], 2).to_dict()
    header, *body = rows(table_csv(fig))
    assert header[0] == "series" and len(body) == 4
    assert body[0][0] == "W^Q" and body[0][-1] == "16"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_summary_part_is_translated(lang):
    fig = tiled_heads(weights_stack(), TOKENS, TOKENS, kind="signed", lang=lang).to_dict()
    text = summary(fig, lang)
    english = ("Heatmap", "Values", "Largest", "Every number")
    assert all(word in text for word in english) == (lang == "en")
    assert any(word in text for word in english) == (lang == "en")
