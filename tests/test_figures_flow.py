"""figures.flow: the home page's pipeline diagram (DOT source)."""

from __future__ import annotations

import re

import pytest

from figures.flow import pipeline_dot

WORDS = {"input": "input", "head": "head", "concat": "concat", "output": "output", "softmax": "softmax"}
LABEL = re.compile(r'label="((?:[^"\\]|\\.)*)"')


def labels(dot: str) -> list[str]:
    return [m.group(1) for line in dot.splitlines() if (m := LABEL.search(line))]


@pytest.mark.parametrize(
    ("h", "lanes"), [(1, [1]), (2, [1, 2]), (3, [1, 2, 3]), (4, [1, 2, 3, 4]), (8, [1, 2, 3, 8]), (16, [1, 2, 3, 16])],
)
def test_lanes_are_the_first_heads_and_the_last(h, lanes):
    dot = pipeline_dot(11, 11, 64 if 64 % h == 0 else 48, h, WORDS)
    assert [int(n) for n in re.findall(r"head (\d+)\\n", dot)] == lanes
    hidden = h - len(lanes)
    assert (f"… {hidden} …" in dot) == (hidden > 0)


def test_head_indices_are_subscripts():
    dot = pipeline_dot(11, 11, 64, 16, WORDS)
    assert "Q₁ = XW₁^Q" in dot and "Q₁₆ = XW₁₆^Q" in dot
    assert "head₁₆ = A₁₆V₁₆" in dot and "A₂ = softmax(Q₂K₂ᵀ / √4)" in dot


def test_shapes_follow_the_setting():
    dot = pipeline_dot(5, 7, 64, 8, WORDS)  # cross-attention: 5 queries, 7 keys; d_k = 8
    assert "X: 5×64" in dot
    assert "Q₁ = XW₁^Q: 5×8" in dot
    assert "K₁, V₁: 7×8" in dot
    assert "√8)\\n5×7" in dot  # A_i is Lq x Lk
    assert "5×8·8 = 5×64" in dot  # the concatenation
    assert "Concat · W^O\\n5×64" in dot


def test_translated_words_cannot_break_out_of_a_label():
    hostile = {k: f'"]; evil [label="x"]; <b>\\ {k}' for k in WORDS}
    dot = pipeline_dot(11, 11, 64, 8, hostile)
    assert "evil" not in LABEL.sub('label=""', dot)  # with every label emptied, nothing of the words is left
    assert "<b>" not in dot
    assert len(labels(dot)) == 3 + 4 * 3 + 1  # X, concat, output, three nodes per lane, the dots
