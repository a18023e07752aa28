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
# the Markdown texts converted to LaTeX (issue 35): the errata, quiz prompts and explanations and the pages' texts
MARKDOWN = re.compile(
    r"^(errata\.[a-z0-9_]+\.(title|true|evidence)|quiz\.[a-z0-9_]+\.(prompt\w*|explain\w*|why_\w+|trap_\w+)"
    r"|steps\.[a-z]+\.text|why\.(scale|cost|params)\.text|sub\.(heads|wo|avg|d2l)\.\w+|hs\.(text|rho_text)"
    r"|n4\.[a-z]+\.text|pe\.\w+_text|worked\.[a-z.]+text|minilm\.(contrib|distance)\.?text|" + r"{llm})$"
)
# The section "From the notes to LLMs" (i18n/catalog_llm.py): its pages' paragraphs, captions and notices (st.markdown,
# st.caption, st.info; the handout prints them through lessons/html.rich_text). Not llm.decode.model: it is also the
# handout's setting line, printed as plain text (Unicode dₖ; d_model a name, as in handout.setting); not
# llm.decode.latex: it is st.latex's source.
LLM_MARKDOWN = (
    r"llm\.decode\.(intro|rows_text|cache_text|cost_text|latex_names)|llm\.share\.(intro|\w+_text|\w+_caption)"
    r"|llm\.pos\.(intro|rope_odd|where_[a-z]+|\w+_text|beyond_alibi)|llm\.long\.(intro|\w+_text|\w+_caption)"
)
MARKDOWN = re.compile(MARKDOWN.pattern.replace("{llm}", LLM_MARKDOWN))
PLAIN_NOTATION = re.compile(r"(?<![\w\\])W(_[0-9a-z])?\^[QKVO]|(?<![\w\\{])d_model\b|√d_k|(?<![\w\\])head_[ijh0-9]\b")
# Any caret or one-letter subscript outside math: d_k, m_i, q_m, 2^(−8i/h), e^(s − m) (the LLM section's own notation)
CARET_OR_SUBSCRIPT = re.compile(r"[\w)]\^|(?<![\w\\])[A-Za-z]_[A-Za-z0-9]")


def outside_math(text: str) -> str:
    return PROTECTED.sub(" ", text)


def test_markdown_texts_write_their_notation_as_latex():
    left = []
    for key, entry in STRINGS.items():
        if MARKDOWN.match(key):
            for lang in ("en", "zh"):
                hit = PLAIN_NOTATION.search(outside_math(entry[lang]))
                if hit:
                    left.append((key, lang, hit.group(0)))
    assert not left, left


def carets_or_subscripts(entries: dict) -> tuple[int, list[tuple[str, str, str]]]:
    """(texts checked, (key, language, hit) of each caret or one-letter subscript outside $...$; {fields} skipped)."""
    left = []
    for key, entry in entries.items():
        for lang in ("en", "zh"):
            hit = CARET_OR_SUBSCRIPT.search(FIELD.sub(" ", outside_math(entry[lang])))
            if hit:
                left.append((key, lang, hit.group(0)))
    return len(entries), left


# Two errata texts still plain: README.md's errata section is generated from them (scripts/errata_readme.py), and
# README.md is not this change's to edit; convert both, then run the script, then empty this.
NOT_YET: set[str] = set()


def test_no_markdown_text_writes_a_caret_or_a_subscript_outside_math():
    """Every Markdown text, in every catalogue: no plain Q^all, F_h, e^score, h_i outside $...$ (they showed as typed,
    caret and underscore, beside the LaTeX of the same sentence); {fields} are not notation."""
    checked, left = carets_or_subscripts({k: e for k, e in STRINGS.items() if MARKDOWN.match(k) and k not in NOT_YET})
    assert checked > 300 and not left, (checked, left)
    assert all(CARET_OR_SUBSCRIPT.search(outside_math(STRINGS[key]["en"])) for key in NOT_YET), "empty NOT_YET"


def test_the_llm_sections_markdown_texts_write_every_formula_as_latex():
    """Its pages' texts and its quiz kinds' texts: no caret or subscript outside $...$ ({w_minus} is a field)."""
    from explorer.quiz_llm import LLM_KINDS
    from i18n.catalog_llm import STRINGS as LLM

    quiz = re.compile(r"^quiz\.(" + "|".join(LLM_KINDS) + r")\.")
    checked, left = carets_or_subscripts({k: e for k, e in LLM.items() if MARKDOWN.match(k) or quiz.match(k)})
    assert checked > 80 and not left, (checked, left)


def test_the_llm_sections_plain_texts_use_unicode_sub_and_superscripts():
    """Its widget labels, table cells, chart titles and axes, and the decoder's line (also printed plain on the
    handout) show no LaTeX, and no caret or subscript but the name d_model: −mₐ · d, dₖ (a chart's title is also its
    download button's label, plain text)."""
    from explorer.quiz_llm import LLM_KINDS
    from i18n.catalog_llm import STRINGS as LLM

    quiz = re.compile(r"^quiz\.(" + "|".join(LLM_KINDS) + r")\.")
    left = []
    for key, entry in LLM.items():
        if MARKDOWN.match(key) or quiz.match(key) or key == "llm.decode.latex":
            continue
        for lang in ("en", "zh"):
            text = FIELD.sub(" ", entry[lang]).replace("d_model", "")
            hit = re.search(r"\$", text) or CARET_OR_SUBSCRIPT.search(text)
            if hit:
                left.append((key, lang, hit.group(0)))
    assert not left, left
    sizes = {"name": "", "layers": 2, "h": 4, "g": 2, "dk": 16, "d": 64}
    assert "−mₐ" in t("fig.llm.alibi_title", "zh") and "dₖ = 16" in t("llm.decode.model", "en", **sizes)


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
