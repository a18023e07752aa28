"""Translation layer: every user-visible string is looked up here, in English or Simplified Chinese.

Catalogues are plain dicts `{"key": {"en": "...", "zh": "..."}}`, one module per area of the app, so
both languages of a string sit side by side and a missing one is easy to see (tests check it).
"""

from __future__ import annotations

import importlib
import pkgutil
import re
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


# A text that touches what an erratum of the notes judges cites it instead of restating it: ⟦errata:<id>⟧ in a
# catalogue string becomes a Markdown link to that entry of the errata page, titled with the entry's own title
# (so the claim lives in one place). A text names a page of the app the same way, by its url_path: ⟦page:<url>⟧
# becomes a link titled with the page's own title (page.<url>), so no text copies a title that can change. Only
# strings shown as Markdown may cite (tests/test_citations.py). Lesson files cite the same way, and a lesson by its
# id (⟦lesson:<id>⟧, resolved by lessons.model.Text).
CITE = re.compile(r"⟦(errata|page):([a-z0-9_-]+)⟧")
ERRATA_PAGE = "errata"  # the url_path of the errata page; a relative link keeps any base path of the server


def cited_ids(text: str) -> list[str]:
    """The errata a catalogue string cites, in order."""
    return [ref for kind, ref in CITE.findall(text) if kind == "errata"]


def cited_pages(text: str) -> list[str]:
    """The pages (url_paths) a text cites, in order."""
    return [ref for kind, ref in CITE.findall(text) if kind == "page"]


def page_link(url: str, lang: str, **params: str) -> str:
    """The relative address of a page of the app in `lang`, with query parameters."""
    query = ({} if lang == DEFAULT_LANG else {"lang": lang}) | params
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def cite_link(eid: str, lang: str) -> str:
    """The relative address of one erratum: the errata page shows it first (its `erratum` parameter), in `lang`."""
    return page_link(ERRATA_PAGE, lang, erratum=eid)


def cited_title(kind: str, ref: str, lang: str) -> str:
    """The title a citation shows: the erratum's or the page's own, in `lang`."""
    entry = STRINGS[f"errata.{ref}.title" if kind == "errata" else f"page.{ref}"]
    return entry.get(lang) or entry[DEFAULT_LANG]


def _cite(kind: str, ref: str, lang: str) -> str:
    link = cite_link(ref, lang) if kind == "errata" else page_link(ref, lang)
    return f"[{cited_title(kind, ref, lang)}]({link})"


def t(key: str, lang: str = DEFAULT_LANG, **kwargs: Any) -> str:
    """The string for `key` in `lang`, formatted with kwargs, citations of errata as links. A missing key raises
    KeyError (tests catch it)."""
    entry = STRINGS[key]
    text = entry.get(lang) or entry[DEFAULT_LANG]
    if kwargs:  # an argument is data, never a citation: a marker in it (a message about one) is shown as written
        text = text.format(**{k: v.replace("⟦", "⟦\u2060") if isinstance(v, str) else v for k, v in kwargs.items()})
    return cite(text, lang)


def cite(text: str, lang: str) -> str:
    """`text` with every citation ⟦errata:<id>⟧ / ⟦page:<url>⟧ as a Markdown link titled with the erratum's or the
    page's own title, in `lang` (catalogue strings through t(), lesson files' texts through lessons.model.Text)."""
    return CITE.sub(lambda m: _cite(m.group(1), m.group(2), lang), text) if "⟦" in text else text


def cite_plain(text: str, lang: str) -> str:
    """`text` with every citation as the cited title in quotation marks, no link (the README, plain text)."""
    return CITE.sub(lambda m: f"“{cited_title(m.group(1), m.group(2), lang)}”", text) if "⟦" in text else text


def translator(lang: str) -> Callable[..., str]:
    """A `t` bound to one language: `tr = translator("zh"); tr("app.title")`."""
    lang = lang if lang in LANGS else DEFAULT_LANG

    def tr(key: str, **kwargs: Any) -> str:
        return t(key, lang, **kwargs)

    return tr


def message_text(tr: Callable[..., str], key: str, kwargs: dict) -> str:
    """A translated message whose `which`/`name` parameters are themselves translated words (a setting's problem)."""
    kwargs = dict(kwargs)
    if "which" in kwargs:
        kwargs["which"] = tr(f"which.{kwargs['which']}")
    if "name" in kwargs:
        kwargs["name"] = tr(f"name.{kwargs['name']}")
    return tr(key, **kwargs)


def normalise_lang(value: str | None) -> str:
    """Map a browser locale or URL value ('zh-CN', 'en_US', 'ZH') to one of LANGS, else the default."""
    if not value:
        return DEFAULT_LANG
    head = str(value).strip().lower().replace("_", "-").split("-")[0]
    return head if head in LANGS else DEFAULT_LANG
