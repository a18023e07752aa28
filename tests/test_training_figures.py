"""Figures of a training run carry the recorded numbers, draw every head in ONE heatmap, escape labels,
and speak both languages; the training package stays free of streamlit; every "lab." string exists in
English and Chinese."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import numpy as np
import pytest

from figures import head_similarity_figure
from i18n import catalog_training
from training import TASKS
from training.figures import head_names, heads_figure, pattern_curves, training_curves

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [*sorted((ROOT / "training").glob("*.py")), ROOT / "app_pages" / "lab.py"]


def test_curves_carry_loss_and_accuracy_and_mark_the_snapshot():
    fig = training_curves([0, 10, 20], [2.5, 0.5, 0.01], [0.1, 0.7, 1.0], total_steps=20, marker_step=10)
    loss, acc = fig.data
    assert list(loss.x) == [0, 10, 20] and list(loss.y) == [2.5, 0.5, 0.01]
    assert list(acc.y) == [0.1, 0.7, 1.0] and acc.yaxis == "y2"
    assert fig.layout.yaxis.type == "log" and tuple(fig.layout.yaxis2.range) == (0, 1.02)
    assert [s.x0 for s in fig.layout.shapes] == [10]


def test_pattern_curves_draw_one_line_per_head_and_the_uniform_level():
    pattern = np.random.default_rng(0).random((5, 2, 3))  # 5 evaluations, 2 layers, 3 heads
    fig = pattern_curves([0, 1, 2, 3, 4], pattern, total_steps=4, uniform=0.2)
    assert [tr.name for tr in fig.data] == head_names(2, 3)
    np.testing.assert_allclose(fig.data[4].y, pattern[:, 1, 1], atol=1e-4)
    assert [s.y0 for s in fig.layout.shapes] == [0.2]
    with pytest.raises(ValueError):
        pattern_curves([0, 1], pattern, total_steps=4)


def test_heads_are_one_heatmap_with_the_needed_pattern_first():
    weights = np.random.default_rng(1).random((2, 4, 6, 6))
    fig = heads_figure(weights, list("abcdef"), expected=np.eye(6))
    assert [tr.type for tr in fig.data] == ["heatmap"]  # one tiled heatmap, not subplots
    titles = [a.text for a in fig.layout.annotations]
    assert titles[5] == "task needs"  # layer 2's row starts with what the task needs
    assert "L1 · head 1" in titles and "L2 · head 4" in titles


def test_token_labels_are_escaped():
    fig = heads_figure(np.full((1, 1, 2, 2), 0.5), ["<b>x</b>", "&"])
    text = " ".join(fig.layout.xaxis.ticktext)
    assert "<b>" not in text and "&lt;b&gt;" in text and "&amp;" in text


def test_similarity_uses_the_cosine_scale_and_head_names():
    fig = head_similarity_figure(np.eye(3), "after training")
    assert (fig.data[0].zmin, fig.data[0].zmax) == (-1.0, 1.0)
    assert list(fig.layout.yaxis.ticktext) == ["head 1", "head 2", "head 3"]


def test_figures_speak_chinese():
    fig = training_curves([0, 1], [1.0, 0.5], [0.2, 0.4], total_steps=1, lang="zh")
    assert fig.data[0].name == "训练损失"
    assert head_names(2, 1, "zh") == ["第1层 · 头 1", "第2层 · 头 1"]


def test_the_training_package_does_not_import_streamlit():
    for path in sorted((ROOT / "training").glob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        names |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert not any(name.split(".")[0] == "streamlit" for name in names), path.name


# ----- translations ---------------------------------------------------------------------------------
KEY_LITERAL = re.compile(r"""["'](lab\.[A-Za-z0-9_.]+)["']""")
DYNAMIC = {f"lab.task.{n}" for n in TASKS} | {f"lab.task.{n}.help" for n in TASKS} | {
    f"lab.err.{code}" for code in ("bad_task", "not_allowed", "out_of_range")
}


def used_keys() -> set[str]:
    literal = {m for path in SOURCES for m in KEY_LITERAL.findall(path.read_text("utf-8"))}
    return {k for k in literal if not k.endswith(".")} | DYNAMIC


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_training_string_is_in_both_languages_with_the_same_placeholders():
    strings = catalog_training.STRINGS
    assert sorted(used_keys() - set(strings)) == []
    for key, entry in strings.items():
        assert key.startswith("lab."), key
        assert entry.get("en", "").strip() and entry.get("zh", "").strip(), key
        assert fields(entry["en"]) == fields(entry["zh"]), key


def test_every_catalogue_entry_is_used():
    assert sorted(set(catalog_training.STRINGS) - used_keys()) == []
