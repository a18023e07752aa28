"""A claim lives in one place: a quiz explanation, a page text or a live-class "why" that touches what an erratum
judges cites that erratum (⟦errata:<id>⟧ in the catalogue, a link in the app) instead of restating it.

CITED_BY is the list, for every erratum, of the texts that cite it: a new citation, or one that disappears, shows
up here. TOPICS guards the other direction: a text that mentions what an erratum judges must cite it."""

from __future__ import annotations

import re

import pytest

import i18n
from explorer.errata import BY_ID, ERRATA
from i18n import STRINGS, cite_link, cited_ids, t
from tests.test_app import run_page

CITED_BY: dict[str, set[str]] = {
    "n000_split": {"quiz.d_k.trap_mult", "quiz.note_error.why_dk"},
    "n000_wo": set(),
    "n000_parallel": set(),
    "n000_a": set(),
    "n000_t": set(),
    "n000_mult": {"n4.cost.text"},
    "n000_unified": {"steps.proj.text"},
    "n000_qkonly": {"why.cost.text"},
    "n001_q": {"quiz.note001_entry.explain", "quiz.note001_entry.trap_note", "quiz.note_error.why_q1",
               "worked.erratum"},
    "n001_params": {"quiz.note_error.why_params3", "quiz.params.trap_3d2", "why.params.text"},
    "n001_orth": {"quiz.note_error.why_orthogonal", "sub.heads.text"},
    "n001_f": {"steps.out.text", "worked.sum.text"},
    "n001_wo": {"errata.n000_wo.true"},
    "n001_parallel": {"errata.n000_parallel.true"},
    "n001_end": set(),
    "n001_kv": {"inputs.weights_worked", "worked.chosen"},
    "n001_learn": set(),
    "n002_head": {"quiz.note002_shape.why_head_out", "steps.split.computed"},
    "n003_x": set(),
    "n003_additive": set(),
    "n003_d2l": set(),
    "n004_stack": {"quiz.stacked_wq.explain"},
    "n004_blockdiag": {"quiz.note_error.why_blockdiag", "quiz.stacked_wq.trap_blockdiag", "steps.proj.text"},
    "n004_kernel": {"n4.kernel.numbers", "n4.kernel.text"},
    "n004_mkl": {"n4.kernel.sum"},
    "n004_fh": {"errata.n004_but.true", "n4.incl.fails"},
    "n004_but": set(),
    "n004_asym": {"n4.kernel.text"},
    "n004_nonlinear": set(),
    "n004_basis": {"n4.basis.text"},
    "n004_rho": {"hs.rho_text", "lab.contrib_text"},
    "n004_lowcorr": {"lab.contrib_text", "minilm.contrib_text"},
    "n004_optima": {"errata.n004_symmetric.true"},
    "n004_symmetric": set(),
    "n004_extra": set(),
    "n004_gpt3": {"why.params.models_text"},
    "n004_free": {"n4.cost.text"},
    "n004_typo": set(),
}

# What each erratum judges, as it would appear in an English text (outside the errata themselves). Option labels
# that quote a note's claim (quiz.note_error.claim_*), titles and figure labels are exempt: the explanation beside
# them cites the erratum.
TOPICS: dict[str, str] = {
    "n000_split": r"split (d_model|it)\b|share d_model",
    "n001_params": r"3 ?·? ?\$?d_(\\text\{\{?model\}?\}|model)\^?2|3 d_model²",
    "n001_orth": r"orthogonal (subspaces|to each other)|subspaces orthogonal",
    "n004_rho": r"ρ_ij|\\rho_\{\{?ij\}?\}",
    "n004_lowcorr": r"low correlation|[Ll]ow values?\b",
    "n004_blockdiag": r"BlockDiag|block.diagonal (projection|W\b|matrix: every)",
    "n004_gpt3": r"GPT-3",
    "n004_free": r"come free|costs nothing",
    "n001_q": r"0\.85",
    "n001_kv": r"leaves out (the key|W)",
    "n002_head": r"head_i the shape|gives head_i",
    "n001_f": r"no extra (nonlinearity|function)",
    "n004_kernel": r"Mercer",
    "n000_qkonly": r"only QK|counts only",
    "n000_mult": r"[Mm]ultiplications? (?:are|is) (?:not )?(?:“|\")?the bottleneck",
    "n001_wo": r"section 4 .*MultiHead|MultiHead .*section 4",
}
EXEMPT = re.compile(r"^(errata\.|fig\.)|\.claim_|[._]title$|^hs\.rho_(before|after)$")


def citations() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {e["id"]: set() for e in ERRATA}
    for key, entry in STRINGS.items():
        for eid in cited_ids(entry["en"]):
            found[eid].add(key)
    return found


def test_every_erratum_lists_the_texts_that_cite_it():
    assert set(CITED_BY) == set(BY_ID), "add the new erratum to CITED_BY"
    assert citations() == CITED_BY


def test_both_languages_cite_the_same_errata():
    for key, entry in STRINGS.items():
        assert cited_ids(entry["en"]) == cited_ids(entry["zh"]), key
        for eid in cited_ids(entry["en"]):
            assert eid in BY_ID, (key, eid)


@pytest.mark.parametrize("eid", sorted(TOPICS))
def test_a_text_that_touches_an_erratum_cites_it(eid):
    bare = [key for key, entry in STRINGS.items()
            if not EXEMPT.search(key) and re.search(TOPICS[eid], entry["en"]) and eid not in cited_ids(entry["en"])]
    assert not bare, f"these texts touch {eid} without citing it (⟦errata:{eid}⟧): {bare}"


def test_only_markdown_texts_cite():
    """Figures draw plain text: a citation there would show as Markdown source."""
    for key, entry in STRINGS.items():
        if "⟦" in entry["en"]:
            assert not key.startswith(("fig.", "lab.fig.", "mat.", "sb.", "name.")), key


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_citation_is_a_link_with_the_erratums_own_title(lang):
    text = t("quiz.d_k.trap_mult", lang)
    title = t("errata.n000_split.title", lang)
    assert f"[{title}]({cite_link('n000_split', lang)})" in text
    assert ("lang=zh" in cite_link("n000_split", lang)) == (lang == "zh")
    assert "⟦" not in text


def test_the_errata_page_shows_the_linked_entry_first(make_app):
    at = make_app()
    at.query_params["erratum"] = "n004_gpt3"
    at.run()
    at.switch_page("app_pages/errata.py").run()
    assert not at.exception
    assert at.subheader[0].value.endswith(t("errata.n004_gpt3.title"))
    assert not at.warning  # the link's parameter is not reported as a bad setting


def test_the_quiz_page_renders_citations_as_links(make_app):
    """Reveal every question: the explanations that cite an erratum show its link, not the marker."""
    at = run_page(make_app, "quiz")
    for button in [b for b in at.button if b.key and b.key.endswith("_reveal")]:
        button.click()
    at.run()
    shown = " ".join(m.value for m in at.markdown)
    assert "⟦" not in shown
    assert any("](errata?erratum=" in m.value for m in at.markdown)  # e.g. the stacked W^Q question's explanation


def test_i18n_knows_the_citation_markers():
    assert i18n.CITE.pattern.startswith("⟦(errata|page):")
    text = "see ⟦errata:n000_wo⟧ and ⟦page:why⟧"
    assert i18n.cited_ids(text) == ["n000_wo"] and i18n.cited_pages(text) == ["why"]
    assert i18n.cite(text, "zh") == (f"see [{t('errata.n000_wo.title', 'zh')}](errata?lang=zh&erratum=n000_wo) and "
                                      f"[{t('page.why', 'zh')}](why?lang=zh)")
    assert i18n.cite_plain(text, "en") == f"see “{t('errata.n000_wo.title')}” and “{t('page.why')}”"


def test_every_cited_page_exists_and_a_message_argument_is_never_a_citation():
    from lessons.pages import app_pages

    for key, entry in STRINGS.items():
        assert set(i18n.cited_pages(entry["en"])) <= set(app_pages()), key
        assert i18n.cited_pages(entry["en"]) == i18n.cited_pages(entry["zh"]), key
    shown = t("lesson.err.copied_title", field="notes", title="x", marker="⟦page:why⟧", what="a page")
    assert "⟦\u2060page:why⟧" in shown and "](why)" not in shown  # a message about a marker shows the marker


# ---- the lessons' texts (lessons/*.toml): a stop's task and speaker notes are Markdown and cite as the catalogue does
def _lesson_texts():
    import lessons

    for lesson in lessons.catalog().lessons:
        plain = {"title": lesson.title_text, "summary": lesson.summary_text}
        plain |= {f"objective {i + 1}": o for i, o in enumerate(lesson.objective_texts)}
        for stop in lesson.stops:
            plain[f"{stop.id}.title"] = stop.title_text
            for name, text in (("task", stop.task_text), ("notes", stop.notes_text)):
                yield lesson.id, stop, f"{stop.id}.{name}", text, True
        for name, text in plain.items():
            yield lesson.id, None, name, text, False


@pytest.mark.parametrize("eid", sorted(TOPICS))
def test_a_lesson_text_that_touches_an_erratum_cites_it(eid):
    """Speaker notes and tasks restate no verdict of the errata: they cite it. The errata stop itself reads the
    titles aloud, as the errata page does; titles, summaries and objectives are exempt (drawn as plain text)."""
    bare = [f"{lid}: {name}" for lid, stop, name, text, markdown in _lesson_texts()
            if markdown and stop.page != "errata" and re.search(TOPICS[eid], text.en)
            and eid not in cited_ids(text.en)]  # fmt: skip
    assert not bare, f"these lesson texts touch {eid} without citing it (⟦errata:{eid}⟧): {bare}"


def test_lesson_texts_cite_the_same_errata_in_both_languages_and_only_where_markdown_is_drawn():
    for lid, _stop, name, text, markdown in _lesson_texts():
        assert cited_ids(text.en) == cited_ids(text.zh), (lid, name)
        assert markdown or not cited_ids(text.en), (lid, name)  # a title or objective is escaped: no link there


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_lesson_text_shows_a_citation_as_the_erratums_link(lang):
    import lessons

    notes = lessons.get("why-heads").stop_by_id("same-parameters").notes(lang)
    assert f"[{t('errata.n001_params.title', lang)}]({cite_link('n001_params', lang)})" in notes
    assert "⟦" not in notes


# ---- by key, never by a copied title: the loader refuses a lesson text that copies a page's or an erratum's title
@pytest.mark.parametrize(("text", "code"), [
    ('the page "Where the notes are wrong" lists them', "copied_title"),
    ("as the erratum “Counting multiplications does not tell the time” says", "copied_title"),
    ("“笔记勘误”页面列出了全部", "copied_title"),
    ("see the errata", "uncited"),
    ("the errata page says so", "uncited"),
    ("(errata)", "uncited"),
    ("见勘误", "uncited"),
    ("⟦page:nowhere⟧ shows it", "unknown_page_cited"),
    ("⟦errata:n999⟧ says it", "unknown_erratum"),
])  # fmt: skip
def test_a_lesson_cites_pages_and_errata_by_key_only(text, code):
    from lessons.loading import load_text
    from tests.test_lessons import MINI

    chinese = bool(re.search(r"[\u4e00-\u9fff]", text))
    en, zh = ("text", text) if chinese else (text, "中文")
    bad = MINI.replace('notes = { en = "Say what a cell is.", zh = "说明一个格子是什么。" }',
                       f'notes = {{ en = "{en}", zh = "{zh}" }}')
    assert bad != MINI
    got = load_text(bad.replace('"Where', "“Where").replace('wrong"', "wrong”").encode())
    assert getattr(got, "code", None) == code, got


def test_every_lesson_citation_resolves_and_no_lesson_title_is_copied():
    import lessons
    from lessons.model import cited_lessons

    catalog = lessons.catalog()
    titles = {lang: {le.title(lang) for le in catalog.lessons} for lang in ("en", "zh")}
    for lid, _stop, name, text, _markdown in _lesson_texts():
        for lang in ("en", "zh"):
            raw = text.zh if lang == "zh" else text.en
            assert all(catalog.get(ref) is not None for ref in cited_lessons(raw)), (lid, name)
            quoted = set(re.findall(r"[“\"《]([^”\"》]+)[”\"》]", raw))
            assert not quoted & titles[lang], (lid, name, quoted & titles[lang])
            shown = text(lang)
            assert "⟦" not in shown, (lid, name)


# ---- a quiz explanation links to what an erratum judges and never restates it
def _words(text: str) -> list[str]:
    text = re.sub(r"⟦[^⟧]*⟧|\$[^$]*\$|\{[^{}]*\}", " ", text)
    return re.findall(r"[a-z0-9′]+", text.lower())


def _grams(words: list[str], n: int) -> set[tuple[str, ...]]:
    return {tuple(words[i: i + n]) for i in range(len(words) - n + 1)}


def test_a_quiz_text_that_cites_an_erratum_does_not_restate_it():
    """Quiz explanations (quiz.*, live.*) that cite an erratum share no five words in a row with its title or its
    "what is true" (English), and no run of eight characters in Chinese: they link, the erratum says it."""
    restated = []
    for key, entry in STRINGS.items():
        if not key.startswith(("quiz.", "live.")):
            continue
        for eid in cited_ids(entry["en"]):
            verdict = t(f"errata.{eid}.title", "en") + " " + STRINGS[f"errata.{eid}.true"]["en"]
            if _grams(_words(entry["en"]), 5) & _grams(_words(verdict), 5):
                restated.append((key, eid, "en"))
            zh = re.sub(r"⟦[^⟧]*⟧|\$[^$]*\$|[\s，。：；（）、“”]", "", entry["zh"])
            zh_verdict = re.sub(r"\$[^$]*\$|[\s，。：；（）、“”]", "", STRINGS[f"errata.{eid}.true"]["zh"])
            if any(zh[i: i + 8] in zh_verdict for i in range(len(zh) - 7)):
                restated.append((key, eid, "zh"))
    assert not restated


def test_the_note_error_question_links_every_false_claim_to_its_erratum_and_nothing_else():
    from explorer.quiz_bank import WRONG_CLAIMS

    for claim in WRONG_CLAIMS:
        for lang, word in (("en", "Wrong: "), ("zh", "错：")):
            why = STRINGS[f"quiz.note_error.why_{claim}"][lang]
            assert re.fullmatch(re.escape(word) + r"⟦errata:[a-z0-9_]+⟧[.。]", why), (claim, lang, why)
