"""Translation layer: every user-visible string is looked up here, in English or Simplified Chinese.

Catalogues are plain dicts `{"key": {"en": "...", "zh": "..."}}`, one module per area of the app, so
both languages of a string sit side by side and a missing one is easy to see (tests check it).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from typing import Any

LANGS: tuple[str, ...] = ("en", "zh")
LANG_NAMES = {"en": "English", "zh": "简体中文"}
DEFAULT_LANG = "en"

# Every `catalog_*.py` module of this package is a catalogue: adding an area of the app adds a file, nothing here.
CATALOGUE_MODULES: tuple[str, ...] = tuple(
    sorted(m.name for m in pkgutil.iter_modules(__path__) if m.name.startswith("catalog_"))
)
_CATALOGUES = tuple(importlib.import_module(f"{__name__}.{name}").STRINGS for name in CATALOGUE_MODULES)


def _merge() -> dict[str, dict[str, str]]:
    merged: dict[str, dict[str, str]] = {}
    for cat in _CATALOGUES:
        for key, entry in cat.items():
            if key in merged:
                raise KeyError(f"translation key {key!r} is defined twice")
            merged[key] = entry
    return merged


STRINGS: dict[str, dict[str, str]] = _merge()


def t(key: str, lang: str = DEFAULT_LANG, **kwargs: Any) -> str:
    """The string for `key` in `lang`, formatted with kwargs. A missing key raises KeyError (tests catch it)."""
    entry = STRINGS[key]
    text = entry.get(lang) or entry[DEFAULT_LANG]
    return text.format(**kwargs) if kwargs else text


def translator(lang: str) -> Callable[..., str]:
    """A `t` bound to one language: `tr = translator("zh"); tr("app.title")`."""
    lang = lang if lang in LANGS else DEFAULT_LANG

    def tr(key: str, **kwargs: Any) -> str:
        return t(key, lang, **kwargs)

    return tr


def normalise_lang(value: str | None) -> str:
    """Map a browser locale or URL value ('zh-CN', 'en_US', 'ZH') to one of LANGS, else the default."""
    if not value:
        return DEFAULT_LANG
    head = str(value).strip().lower().replace("_", "-").split("-")[0]
    return head if head in LANGS else DEFAULT_LANG
