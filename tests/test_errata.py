"""The one errata list: quotes are the notes' own words, the README is generated from it, the live evidence is
right (numpy written here), and the pages that show it run in both languages."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from explorer import Settings, apply_preset, run_scene
from explorer.errata import ERRATA, evidence, for_page, readme_section
from i18n import t
from tests.conftest import ROOT
from tests.test_app import run_page
from ui.nav import PAGES

SEEDS = Path("/work/shared/seeds")


def note_lines(note: str) -> list[str]:
    path = next(SEEDS.glob(f"{note}_*.txt"))
    return path.read_text(encoding="utf-8").split("\n")


@pytest.mark.skipif(not SEEDS.exists(), reason="the lecture notes are not on this machine")
@pytest.mark.parametrize("entry", ERRATA, ids=[e["id"] for e in ERRATA])
def test_each_quote_is_the_notes_own_words_at_its_line(entry):
    assert entry["quote"] in note_lines(entry["note"])[entry["line"] - 1]


def test_every_entry_is_complete_and_its_page_exists():
    urls = {url for _, url, *_ in PAGES}
    ids = [e["id"] for e in ERRATA]
    assert len(ids) == len(set(ids)) >= 20
    for e in ERRATA:
        for lang in ("en", "zh"):
            assert t(f"errata.{e['id']}.title", lang) and t(f"errata.{e['id']}.true", lang)
        assert e["page"] in urls | {""}
        assert bool(e["page"]) == bool(e["computation"])


def test_readme_section_is_generated_from_the_list():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("## Where the lecture notes are wrong")
    nxt = text.find("\n## ", start + 5)
    section = text[start:] if nxt < 0 else text[start:nxt + 1]
    assert section.rstrip("\n") == readme_section().rstrip("\n"), "run: python scripts/errata_readme.py"
    for e in ERRATA:
        assert e["title"]["en"] in section
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "errata_readme.py"), "--check"], cwd=ROOT)
    assert done.returncode == 0


SETTINGS = [Settings(), Settings(n_heads=1), Settings(d_model=16, n_heads=16), apply_preset(Settings(), "worked"),
            Settings(mask="causal"), Settings(cross=True, text_kv="Le chat dort .")]  # fmt: skip


@pytest.mark.parametrize("s", SETTINGS, ids=["default", "h1", "dk1", "worked", "causal", "cross"])
def test_every_evidence_sentence_formats_in_both_languages(s):
    live = evidence(run_scene(s))
    for e in ERRATA:
        if e["id"] in live:
            for lang in ("en", "zh"):
                text = t(f"errata.{e['id']}.evidence", lang, **live[e["id"]])
                assert "{" not in re.sub(r"\$[^$]*\$", "", text)  # every field filled (LaTeX keeps its braces)


def test_evidence_numbers_against_numpy():
    sc = run_scene(Settings())
    live = evidence(sc)
    d, L, h = sc.d_model, sc.len_q, sc.n_heads
    assert live["n000_t"]["adds"] == f"{L * L * (d - 1):,}"
    assert live["n001_params"]["mh"] == live["n001_params"]["s4"] == f"{4 * d * d:,}"
    assert live["n001_params"]["s3"] == f"{3 * d * d:,}"  # one head without W^O
    assert live["n004_extra"]["w1"] == live["n004_extra"]["wh"] == live["n004_extra"]["four"] == f"{4 * d * d:,}"
    assert float(live["n004_symmetric"]["same"]) < 1e-9 < 1e-3 < float(live["n004_symmetric"]["own"])
    assert live["n000_split"]["heads"] == str(int((np.abs(sc.w_q_heads[:, 0, :]).max(axis=1) > 0).sum())) == str(h)
    a, b = sc.head_outputs[0].astype(np.float64), sc.head_outputs[1].astype(np.float64)
    top = np.linalg.norm(b.T @ a, "nuc") / (np.linalg.norm(a) * np.linalg.norm(b))  # Procrustes bound
    assert float(live["n004_rho"]["hi"]) == pytest.approx(top, abs=0.006)
    assert float(live["n004_rho"]["lo"]) == pytest.approx(-top, abs=0.006)
    s = sc.x_in.astype(np.float64) @ sc.w_q_heads[0] @ (sc.x_in.astype(np.float64) @ sc.w_k_heads[0]).T
    s /= np.sqrt(sc.d_k)
    assert float(live["n004_asym"]["gap"]) == pytest.approx(np.abs(s - s.T).max(), abs=0.006)


def test_worked_example_evidence_is_x_times_w():
    from explorer import WORKED_EXAMPLE

    live = evidence(run_scene(Settings()))
    q1 = np.array(WORKED_EXAMPLE.x) @ np.array(WORKED_EXAMPLE.w_q_heads[0])
    np.testing.assert_allclose(q1, [[0, 1.45], [-0.95, -0.45]], atol=1e-9)  # not the note's [[0.85, -0.05], ...]
    numbers = [float(x.replace("−", "-")) for x in re.findall(r"[−-]?\d+(?:\.\d+)?", live["n001_q"]["q1"])]
    np.testing.assert_allclose(numbers, q1.ravel(), atol=0.006)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_errata_page_lists_every_entry(make_app, lang):
    at = run_page(make_app, "errata", lang=lang)
    assert not at.error
    titles = [el.value for el in at.subheader]
    assert len(titles) == len(ERRATA)
    assert titles[0].endswith(t(f"errata.{ERRATA[0]['id']}.title", lang))
    assert len(at.main.code) == len(ERRATA)  # the sidebar holds the student link


@pytest.mark.parametrize("page", ["heads", "subspaces", "why", "worked", "note004", "steps"])
def test_pages_link_to_the_errata(make_app, page):
    at = run_page(make_app, page)
    ids = for_page(page)
    box = [e for e in at.expander if e.label == t("errata.here", n=len(ids))]
    assert len(box) == 1 and not box[0].markdown  # folded: drawn only once opened
    at.session_state[f"errata_open_{page}"] = True  # what opening it sends
    at.run()
    box = [e for e in at.expander if e.label == t("errata.here", n=len(ids))]
    listed = " ".join(m.value for m in box[0].markdown)
    assert all(t(f"errata.{i}.title") in listed for i in ids)


def test_rho_explanation_no_longer_says_same_thing():
    from i18n import STRINGS

    for key, entry in STRINGS.items():
        if key.startswith("errata."):
            continue  # the errata quote and correct the note's sentence
        assert "say the same thing" not in entry["en"] or "does not mean" in entry["en"], key
        assert "说的是同一件事" not in entry["zh"] or "并不表示" in entry["zh"], key


@pytest.mark.parametrize("page", ["home", "steps", "heads", "worked", "lab", "why", "subspaces", "minilm"])
def test_changed_pages_run_in_chinese(make_app, page):
    at = run_page(make_app, page, lang="zh")
    assert not at.error
    assert at.title[0].value.startswith(t(next(k for _, u, k, *_ in PAGES if u == page), "zh"))
