"""Math that looks like math: W^O, W_i^Q, K_i^T, d_model, √d_k, head_i are LaTeX in every Markdown text (inline
$...$), plotly's sub/superscripts in chart titles, and LaTeX in note 002's table cells. A text passed through
str.format doubles the braces its LaTeX needs; one that is not keeps single braces."""

from __future__ import annotations

import re

import pytest

from explorer import Settings
from explorer.pipeline import shape_table
from figures.style import plot_math
from i18n import STRINGS, t

MATH = re.compile(r"\$[^$]*\$")
FIELD = re.compile(r"(?<!\{)\{[A-Za-z_]\w*(?::[^{}]*)?\}(?!\})")
PROTECTED = re.compile(r"\$[^$]*\$|`[^`]*`|\]\([^)]*\)|⟦[^⟧]*⟧")
# the Markdown texts converted to LaTeX (issue 35): the errata, quiz explanations and the pages' texts
MARKDOWN = re.compile(
    r"^(errata\.[a-z0-9_]+\.(title|true|evidence)|quiz\.[a-z0-9_]+\.(explain\w*|why_\w+|trap_\w+)|steps\.[a-z]+\.text"
    r"|why\.(scale|cost|params)\.text|sub\.(heads|wo|avg|d2l)\.\w+|hs\.(text|rho_text)|n4\.[a-z]+\.text|pe\.\w+_text"
    r"|worked\.[a-z.]+text|minilm\.(contrib|distance)\.?text)$"
)
PLAIN_NOTATION = re.compile(r"(?<![\w\\])W(_[0-9a-z])?\^[QKVO]|(?<![\w\\{])d_model\b|√d_k|(?<![\w\\])head_[ijh0-9]\b")


def outside_math(text: str) -> str:
    return PROTECTED.sub(" ", text)


def test_markdown_texts_write_their_notation_as_latex():
    """The notes' texts (the LLM section's own quiz kinds, i18n/catalog_llm.py, keep their plain notation: their
    tests read the rendered text for unfilled {fields})."""
    from i18n.catalog_llm import STRINGS as LLM

    left = []
    for key, entry in STRINGS.items():
        if MARKDOWN.match(key) and key not in LLM:
            for lang in ("en", "zh"):
                hit = PLAIN_NOTATION.search(outside_math(entry[lang]))
                if hit:
                    left.append((key, lang, hit.group(0)))
    assert not left, left


def test_inline_math_is_never_nested_or_doubled():
    """"$a $b$$" (a span inside a span) shows its LaTeX source; inline math is one $...$ at a time."""
    bad = [(key, lang) for key, entry in STRINGS.items() for lang in ("en", "zh") if "$$" in entry[lang]]
    assert not bad, bad


def test_braces_in_latex_match_how_the_text_is_formatted():
    """Formatted texts (a {field} outside the math, and every quiz text, whose messages may carry arguments)
    double every LaTeX brace; texts shown as they are keep single ones ({{ would show in a README)."""
    problems = []
    for key, entry in STRINGS.items():
        for lang in ("en", "zh"):
            text = entry[lang]
            formatted = key.startswith("quiz.") or bool(FIELD.search(MATH.sub("", text)))
            for span in MATH.findall(text):
                rest = FIELD.sub("", span.replace("{{", "").replace("}}", ""))
                if formatted and ("{" in rest or "}" in rest):
                    problems.append((key, lang, span))
                if not formatted and "{{" in span and not key.startswith(("worked.", "steps.", "inputs.latex")):
                    problems.append((key, lang, span))
    assert not problems, problems


@pytest.mark.parametrize(("notation", "drawn"), [
    ("W^O", "W<sup>O</sup>"), ("W_i^Q", "W<sub>i</sub><sup>Q</sup>"), ("W^O_i", "W<sup>O</sup><sub>i</sub>"),
    ("d_k", "d<sub>k</sub>"), ("d_model", "d_model"), ("3:snake_case", "3:snake_case"),
])  # fmt: skip
def test_chart_titles_draw_sub_and_superscripts(notation, drawn):
    assert plot_math(notation) == drawn


def test_step_9s_chart_is_titled_by_what_it_draws():
    """It draws the output Y = Concat W^O, not the matrix W^O."""
    assert t("steps.out.chart", "en", L=3, d=4).startswith("Output Y =")
    assert t("steps.out.chart", "zh", L=3, d=4).startswith("输出 Y =")


def test_note_002s_table_cells_are_latex_and_one_head_is_named():
    rows = shape_table(Settings(), 5, 5, 2, one="one head", every="all heads")
    names = [r[0] for r in rows]
    assert all("^" not in MATH.sub("", n) for n in names)  # no caret outside LaTeX
    assert any("(one head)" in n and "head}_i" in n for n in names)
    assert any("(all heads)" in n for n in names)
