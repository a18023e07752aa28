"""Every string a figure shows exists in English and Chinese."""

from __future__ import annotations

import re
import string
from pathlib import Path

from i18n import STRINGS, catalog_figures

FIGURES = Path(__file__).resolve().parent.parent / "figures"
KEY_LITERAL = re.compile(r"""["'](fig\.[A-Za-z0-9_.]+)["']""")


def used_keys() -> set[str]:
    return {m for path in FIGURES.glob("*.py") for m in KEY_LITERAL.findall(path.read_text("utf-8"))}


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_the_scan_finds_the_keys_figures_use():
    assert {"fig.masked", "fig.head_n", "fig.query_bars.title"} <= used_keys()


def test_every_key_used_by_figures_is_in_the_catalogue_in_both_languages():
    # figure strings live in catalog_figures or in a feature's own catalogue (e.g. fig.n4.* in catalog_truth)
    missing = sorted(k for k in used_keys() if k not in STRINGS)
    assert not missing
    for key in used_keys():
        entry = STRINGS[key]
        assert entry.get("en", "").strip() and entry.get("zh", "").strip(), key


def test_catalogue_keys_are_prefixed_and_all_used():
    assert all(k.startswith("fig.") for k in catalog_figures.STRINGS)
    assert sorted(set(catalog_figures.STRINGS) - used_keys()) == []


def test_both_languages_have_the_same_placeholders():
    for key, entry in catalog_figures.STRINGS.items():
        assert fields(entry["en"]) == fields(entry["zh"]), key
