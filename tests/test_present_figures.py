"""Readable at the back of the room and on a phone: every token labelled up to 24 tokens, fewer on a phone beyond
that, long titles wrapped; the student link's query."""

from __future__ import annotations

import numpy as np
import pytest

from explorer import Settings
from figures import matrix_heatmap, tiled_heads
from figures.style import FigureStyle, wrap_title
from ui.share import student_query

TOKENS = [f"word{i}" for i in range(40)]


@pytest.mark.parametrize("style", [FigureStyle(), FigureStyle.phone()])
@pytest.mark.parametrize("n", [11, 24])
def test_every_token_is_labelled_up_to_24_on_a_screen(style, n):
    fig = matrix_heatmap(np.random.default_rng(0).random((n, n)), TOKENS[:n], TOKENS[:n], style=style)
    assert len(fig.layout.yaxis.ticktext) == n and len(fig.layout.xaxis.ticktext) == n
    assert 9 <= fig.layout.yaxis.tickfont.size <= style.font_size
    tiled = tiled_heads(np.random.default_rng(0).random((4, n, n)), TOKENS[:n], TOKENS[:n], style=style)
    assert len(tiled.layout.yaxis.ticktext) == n * (2 if style.max_tile_cols == 2 else 1)


@pytest.mark.parametrize("style", [FigureStyle.large(), FigureStyle.present()])
@pytest.mark.parametrize("n", [11, 24])
def test_a_projectors_token_labels_are_never_smaller_than_the_back_row_reads(style, n):
    """9 px labels of every token could not be read from the back of a lecture hall: on a projector a label is at
    least min_tick_font (15 px), and where all do not fit at that size, every k-th is shown (hover names all)."""
    for fig in (matrix_heatmap(np.random.default_rng(0).random((n, n)), TOKENS[:n], TOKENS[:n], style=style),
                tiled_heads(np.random.default_rng(0).random((4, n, n)), TOKENS[:n], TOKENS[:n], style=style)):
        for axis in (fig.layout.xaxis, fig.layout.yaxis):
            assert style.min_tick_font == 15 <= axis.tickfont.size <= style.font_size
            shown = axis.ticktext[: n]
            assert len(shown) >= 5 and shown[0] == "0:word0"


def test_a_phone_shows_fewer_labels_of_a_long_sentence_and_two_heads_per_row():
    values = np.random.default_rng(0).random((40, 40))
    wide = matrix_heatmap(values, TOKENS, TOKENS, style=FigureStyle())
    phone = matrix_heatmap(values, TOKENS, TOKENS, style=FigureStyle.phone())
    assert len(phone.layout.xaxis.ticktext) < len(wide.layout.xaxis.ticktext) <= 40
    tiled = tiled_heads(np.random.default_rng(0).random((4, 5, 5)), style=FigureStyle.phone())
    assert len({a.x for a in tiled.layout.annotations}) == 2  # two tile columns


def test_long_titles_wrap_and_short_ones_do_not():
    assert wrap_title("Output", 17, 300) == "Output"
    title = "One colour scale for all heads and every query of the sentence"
    wrapped = wrap_title(title, 17, 250)
    assert "<br>" in wrapped and wrapped.replace("<br>", " ") == title
    assert "<br>" in wrap_title("原始 q·k 的离散程度（标准差）每行 softmax 的熵", 17, 150)


def test_the_student_query_pins_the_language_and_drops_presentation():
    q = student_query(Settings(), "en", step=3)
    assert q == {"lang": "en", "step": "3"}  # English written although it is the default
    q = student_query(Settings(d_model=32, n_heads=4, mask="causal", scale=False, padded=()), "zh")
    assert q == {"lang": "zh", "d_model": "32", "n_heads": "4", "scale": "false", "mask": "causal"}
    assert "present" not in q and "large" not in q and "theme" not in q


def test_the_student_query_carries_the_real_model_and_padding_batch():
    q = student_query(Settings(weight_source="minilm", layer=3, mask="padding", text_pad="A dog ."), "en")
    assert q["source"] == "minilm" and q["layer"] == "3" and q["mask"] == "padding" and q["text_pad"] == "A dog ."
    assert "layer" not in student_query(Settings(layer=3), "en")  # the layer belongs to the real model only
