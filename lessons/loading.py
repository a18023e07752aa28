"""Lesson files (TOML, read with the standard `tomllib`) to Lessons, checked field by field.

A file that cannot be used gives exactly one LessonError (the first problem found, with its file and line) and
the other files still load. Settings go through the app's own checks (explorer.settings_io.settings_from_json,
which ends in explorer.settings.validate), and every checkpoint is drawn from the quiz bank on its stop's setting:
a kind that gives no question there is an error of the file, not a surprise in class.
"""

from __future__ import annotations

import dataclasses
import json
import re
import tomllib
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

import i18n
from explorer.errata import BY_ID
from explorer.presets import PRESETS, apply_preset
from explorer.quiz import KINDS, draw_question
from explorer.settings import MASKS, WEIGHT_SOURCES, Settings
from explorer.settings_io import FIELDS, FORMAT, VERSION, SettingsFileError, settings_from_json, settings_to_json

from .lines import index_lines, line_of
from .model import LESSON_TITLES, Catalog, Checkpoint, Lesson, LessonError, Stop, Text
from .pages import N_STEPS, STEP_PAGE, app_pages, page_title_keys, stop_pages

DIRECTORY = Path(__file__).resolve().parent  # the built-in lessons: lessons/*.toml
# The built-in lessons in the order a course takes them (the lists show them so); other lessons follow by file name.
COURSE = ("mha45", "why-heads", "llm")
MAX_BYTES = 256 * 1024
MAX_STOPS = 40
MAX_TEXT = 4000  # characters of one text in one language
MAX_MINUTES = 60
MAX_SEED = 999
ID = re.compile(r"[a-z0-9][a-z0-9-]{0,31}")
LESSON_KEYS = ("id", "title", "summary", "objectives", "settings", "stops")
STOP_KEYS = ("id", "page", "minutes", "title", "task", "notes", "settings", "step", "checkpoint")
CHECKPOINT_KEYS = ("kind", "seed")
CHOICES = {"preset": PRESETS, "mask": MASKS, "weight_source": WEIGHT_SOURCES}  # settings with a fixed set of values
PRESET_FIELDS = ("text", "d_model", "n_heads", "add_pe")  # what a sentence preset fills (explorer.presets)
WORKED_FIXED = ("text", "d_model", "n_heads", "add_pe", "mask", "cross")  # the worked example cannot change these


class _Bad(Exception):
    """The first problem of a file: a message code, the path of the value (for its line), parameters."""

    def __init__(self, code: str, path: tuple[str | int, ...], **params: Any) -> None:
        super().__init__(code)
        self.code, self.path, self.params = code, path, params


def _name(path: tuple[str | int, ...]) -> str:
    """A key's name as the file writes it: ("stops", 2, "title") -> "title", ("settings", "d_model") -> "d_model"."""
    return ".".join(str(p) for p in path if isinstance(p, str) and p != "stops")


def _expect(value: Any, kind: str, path: tuple[str | int, ...]) -> Any:
    ok = {
        "string": isinstance(value, str),
        "int": isinstance(value, int) and not isinstance(value, bool),
        "number": isinstance(value, (int, float)) and not isinstance(value, bool),
        "table": isinstance(value, dict),
        "list": isinstance(value, list),
    }[kind]
    if not ok:
        raise _Bad("type", path, field=_name(path), expected=_type_text(kind))
    return value


def _words(key: str) -> Text:
    """A catalogue string in both languages, for a message parameter translated with its message."""
    return Text(i18n.t(key, "en"), i18n.t(key, "zh"))


def _type_text(kind: str) -> Text:
    return _words(f"lesson.type.{kind}")


def _keys(table: dict[str, Any], allowed: Iterable[str], path: tuple[str | int, ...]) -> None:
    allowed = tuple(allowed)
    for key in table:
        if key not in allowed:
            raise _Bad("unknown_key", (*path, key), field=key, allowed=", ".join(allowed))


def _required(table: dict[str, Any], key: str, path: tuple[str | int, ...]) -> Any:
    if key not in table:
        raise _Bad("missing", path, field=key)
    return table[key]


def _text(value: Any, path: tuple[str | int, ...]) -> Text:
    """A {en = "...", zh = "..."} table: both languages, not empty, no LaTeX (a printed handout has no KaTeX), citing
    only errata that exist (⟦errata:<id>⟧, as the catalogue's texts cite them)."""
    if not isinstance(value, dict):
        raise _Bad("type", path, field=_name(path), expected=_type_text("text"))
    _keys(value, i18n.LANGS, path)
    texts = {}
    for lang in i18n.LANGS:
        if lang not in value:
            raise _Bad("missing_lang", path, field=_name(path), language=_words(f"lesson.lang.{lang}"))
        text = _expect(value[lang], "string", (*path, lang)).strip()
        if not text:
            raise _Bad("empty_text", (*path, lang), field=_name(path), language=_words(f"lesson.lang.{lang}"))
        if len(text) > MAX_TEXT:
            raise _Bad("too_long", (*path, lang), field=_name(path), limit=MAX_TEXT)
        if "$" in text:
            raise _Bad("latex", (*path, lang), field=_name(path))
        unknown = [eid for eid in i18n.cited_ids(text) if eid not in BY_ID]
        if unknown:
            raise _Bad("unknown_erratum", (*path, lang), field=_name(path), erratum=unknown[0],
                       allowed=", ".join(BY_ID))  # fmt: skip
        unknown = [url for url in i18n.cited_pages(text) if url not in app_pages()]
        if unknown:
            raise _Bad("unknown_page_cited", (*path, lang), field=_name(path), page=unknown[0],
                       allowed=", ".join(app_pages()))  # fmt: skip
        _by_key_only(text, lang, path)
        texts[lang] = text
    return Text(texts["en"], texts["zh"])


# A lesson names an erratum or a page of the app by key (⟦errata:<id>⟧, ⟦page:<url>⟧), never by a copy of its title
# (which goes stale when the title changes) or a bare "the errata" that points nowhere.
_QUOTED = re.compile(r"[“\"《「]([^”\"》」]{2,80})[”\"》」]")
_UNCITED = {
    "en": re.compile(r"\b(?:the )?errata page\b|\bsee the errata\b|\(errata\)|\berrat(?:um|a) (?:no\. ?)?\d"),
    "zh": re.compile(r"勘误页|错误页|见勘误|第\s*\d+\s*条勘误"),
}


def _plain_title(title: str) -> str:
    """An erratum's title as it could be copied into a text without LaTeX: $W^O$ -> W^O, \\top -> ᵀ."""
    plain = re.sub(r"\\(?:text|mathrm)\{([^{}]*)\}", r"\1", title).replace("^\\top", "ᵀ").replace("$", "")
    return re.sub(r"\\[a-zA-Z]+\s?", "", plain).replace("{", "").replace("}", "")


@lru_cache(maxsize=2)
def _titles(lang: str) -> tuple[tuple[str, str, str], ...]:
    """(what, marker, title) of every page and erratum in `lang`: what a lesson text must not copy."""
    pages = [("page", f"⟦page:{url}⟧", i18n.t(key, lang)) for url, key in page_title_keys().items()]
    errata = [("erratum", f"⟦errata:{eid}⟧", _plain_title(i18n.t(f"errata.{eid}.title", lang))) for eid in BY_ID]
    return tuple(pages + errata)


def _by_key_only(text: str, lang: str, path: tuple[str | int, ...]) -> None:
    """Refuse a copied page or erratum title (quoted, or an erratum's title anywhere) and an uncited "see the
    errata": the reader gets a link only from a citation by key."""
    bare = i18n.CITE.sub("", text)
    quoted = {q.strip() for q in _QUOTED.findall(bare)}
    for what, marker, title in _titles(lang):
        if title in quoted or (what == "erratum" and len(title) >= 12 and title in bare):
            raise _Bad("copied_title", (*path, lang), field=_name(path), title=title, marker=marker,
                       what=_words(f"lesson.what.{what}"))  # fmt: skip
    found = _UNCITED[lang].search(bare)
    if found:
        raise _Bad("uncited", (*path, lang), field=_name(path), words=found.group(0), erratum="⟦errata:<id>⟧",
                   page="⟦page:errata⟧")


def _settings_values(value: Any, path: tuple[str | int, ...]) -> dict[str, Any]:
    """A settings table: names and types of explorer.settings_io.FIELDS (the settings file's fields)."""
    table = _expect(value, "table", path)
    for key, item in table.items():
        if key not in FIELDS:
            raise _Bad("unknown_setting", (*path, key), field=key, allowed=", ".join(FIELDS))
        kind = FIELDS[key]
        if not isinstance(item, kind) or (kind is int and isinstance(item, bool)):
            raise _Bad("setting_type", (*path, key), field=key, expected=_type_text(
                {str: "string", int: "int", bool: "bool", list: "list"}[kind]))  # fmt: skip
    return dict(table)


def _problem_text(err: SettingsFileError, lang: str) -> str:
    """The app's own message for a setting it refuses (the same words the sidebar and the settings file use)."""
    params = {k: v for k, v in err.params.items() if k != "problem"}
    if err.code != "invalid":
        return i18n.t(f"io.{err.code}", lang, **params)
    for name, prefix in (("which", "which"), ("name", "name")):
        if name in params:
            params[name] = i18n.t(f"{prefix}.{params[name]}", lang)
    return i18n.t(err.params["problem"], lang, **params)


def _culprit(err: SettingsFileError, values: dict[str, Any]) -> str:
    """The setting a refusal is about, for its line: the field it names, else the one of h and d_model written."""
    named = err.params.get("field") or err.params.get("name")
    if named in values:
        return str(named)
    if err.params.get("problem") == "problem.not_divisible":
        return "n_heads" if "n_heads" in values else "d_model"
    return ""


def _settings(values: dict[str, Any], path: tuple[str | int, ...]) -> Settings:
    """The whole setting: a preset's sentence and sizes first, the values on top, then the app's own validation."""
    for name, choices in CHOICES.items():
        if name in values and values[name] not in choices:
            raise _Bad("setting_choice", (*path, name), field=name, value=str(values[name])[:40],
                       choices=", ".join(choices))  # fmt: skip
    preset = values.get("preset", "en")
    base = apply_preset(Settings(), preset)
    data = {**json.loads(settings_to_json(base)), **values, "format": FORMAT, "version": VERSION}
    try:
        settings, _ = settings_from_json(json.dumps(data, ensure_ascii=False))
    except SettingsFileError as err:
        problem = Text(_problem_text(err, "en"), _problem_text(err, "zh"))
        raise _Bad("bad_setting", (*path, _culprit(err, values)), problem=problem) from None
    if preset == "worked":
        changed = [k for k in WORKED_FIXED if getattr(settings, k) != getattr(base, k)]
        if changed:
            raise _Bad("worked_fixed", (*path, changed[0]), field=changed[0])
    elif preset != "custom" and any(getattr(settings, k) != getattr(base, k) for k in PRESET_FIELDS):
        settings = dataclasses.replace(settings, preset="custom")  # as the sidebar does when a preset is edited
    return settings


def _checkpoint(value: Any, path: tuple[str | int, ...], settings: Settings) -> Checkpoint:
    table = _expect(value, "table", path)
    _keys(table, CHECKPOINT_KEYS, path)
    kind = _expect(_required(table, "kind", path), "string", (*path, "kind"))
    if kind not in KINDS:
        raise _Bad("unknown_kind", (*path, "kind"), kind=kind[:40], kinds=", ".join(KINDS))
    seed = _expect(table.get("seed", 0), "int", (*path, "seed"))
    if not 0 <= seed <= MAX_SEED:
        raise _Bad("seed_range", (*path, "seed"), seed=seed, high=MAX_SEED)
    if draw_question(kind, settings=settings, seed=seed) is None:
        raise _Bad("kind_unfit", (*path, "kind"), kind=kind)
    return Checkpoint(kind, seed)


def _stop(index: int, value: Any, base: dict[str, Any], seen: set[str], line: int | None) -> Stop:
    path: tuple[str | int, ...] = ("stops", index)
    table = _expect(value, "table", path)
    _keys(table, STOP_KEYS, path)
    stop_id = _expect(_required(table, "id", path), "string", (*path, "id"))
    if not ID.fullmatch(stop_id):
        raise _Bad("bad_id", (*path, "id"), value=stop_id[:40])
    if stop_id in seen:
        raise _Bad("duplicate_stop", (*path, "id"), id=stop_id)
    seen.add(stop_id)
    page = _expect(_required(table, "page", path), "string", (*path, "page"))
    if page not in stop_pages():
        raise _Bad("unknown_page", (*path, "page"), page=page[:40], pages=", ".join(stop_pages()))
    minutes = _expect(_required(table, "minutes", path), "number", (*path, "minutes"))
    if not 0 < minutes <= MAX_MINUTES:
        raise _Bad("minutes", (*path, "minutes"), value=minutes, high=MAX_MINUTES)
    step = table.get("step")
    if step is not None:
        _expect(step, "int", (*path, "step"))
        if page != STEP_PAGE:
            raise _Bad("step_page", (*path, "step"), page=page)
        if not 1 <= step <= N_STEPS:
            raise _Bad("step_range", (*path, "step"), step=step, high=N_STEPS)
    own = _settings_values(table.get("settings", {}), (*path, "settings"))
    settings = _settings({**base, **own}, (*path, "settings") if own else ("settings",))
    texts = {key: _text(_required(table, key, path), (*path, key)) for key in ("title", "task", "notes")}
    checkpoint = _checkpoint(table["checkpoint"], (*path, "checkpoint"), settings) if "checkpoint" in table else None
    return Stop(index=index, id=stop_id, page=page, settings=settings, minutes=float(minutes),
                title_text=texts["title"], task_text=texts["task"], notes_text=texts["notes"], step=step,
                checkpoint=checkpoint, line=line)  # fmt: skip


def _lesson(data: dict[str, Any], lines: dict, path: Path | None) -> Lesson:
    _keys(data, LESSON_KEYS, ())
    lesson_id = _expect(_required(data, "id", ()), "string", ("id",))
    if not ID.fullmatch(lesson_id):
        raise _Bad("bad_id", ("id",), value=lesson_id[:40])
    title = _text(_required(data, "title", ()), ("title",))
    summary = _text(_required(data, "summary", ()), ("summary",))
    objectives = _expect(_required(data, "objectives", ()), "list", ("objectives",))
    if not objectives:
        raise _Bad("no_objectives", ("objectives",))
    goals = tuple(_text(o, ("objectives", i)) for i, o in enumerate(objectives))
    base = _settings_values(data.get("settings", {}), ("settings",))
    _settings(base, ("settings",))  # the lesson's own setting is valid by itself
    stops = _expect(_required(data, "stops", ()), "list", ("stops",))
    if not stops:
        raise _Bad("no_stops", ("stops",))
    if len(stops) > MAX_STOPS:
        raise _Bad("too_many_stops", ("stops", MAX_STOPS), limit=MAX_STOPS)
    seen: set[str] = set()
    built = tuple(_stop(i, s, base, seen, line_of(lines, ("stops", i))) for i, s in enumerate(stops))
    return Lesson(id=lesson_id, title_text=title, summary_text=summary, objective_texts=goals, stops=built,
                  path=path)  # fmt: skip


def _syntax_line(err: tomllib.TOMLDecodeError) -> tuple[int | None, str]:
    """(line, the parser's words without the position) of a TOML syntax error."""
    text = str(err)
    m = re.search(r"\s*\(at line (\d+), column \d+\)", text) or re.search(r"\s*\(at end of document\)", text)
    if not m:
        return None, text
    return (int(m.group(1)) if m.groups() else None), text[: m.start()] + text[m.end():]


def load_text(raw: bytes, name: str = "lesson.toml", path: Path | None = None) -> Lesson | LessonError:
    """One lesson file's bytes: the Lesson, or the one error that stops it (with `name` as its file name)."""
    if len(raw) > MAX_BYTES:
        return LessonError("too_big", name, None, {"limit": MAX_BYTES // 1024})
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return LessonError("encoding", name)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        line, words = _syntax_line(err)
        return LessonError("toml", name, line, {"detail": words})
    lines = index_lines(text)
    try:
        return _lesson(data, lines, path)
    except _Bad as bad:
        params = dict(bad.params)
        if len(bad.path) >= 2 and bad.path[0] == "stops" and isinstance(bad.path[1], int):
            params["stop"] = bad.path[1] + 1
        return LessonError(bad.code, name, line_of(lines, bad.path), params)
    except RecursionError:
        return LessonError("toml", name, None, {"detail": "nested too deeply"})


def load_file(path: Path) -> Lesson | LessonError:
    """One lesson file: the Lesson, or the one error that stops it."""
    name = path.name if path.parent == DIRECTORY else str(path)
    try:
        raw = path.read_bytes()
    except OSError:
        return LessonError("unreadable", name)
    return load_text(raw, name, path)


def load_all(directory: Path | str | None = None) -> Catalog:
    """Every *.toml lesson of `directory` (default: the built-in lessons), in COURSE's order and then by file name:
    the lessons that load, and one error for each file that does not (a second file with a lesson id already taken
    is one)."""
    folder = Path(directory) if directory is not None else DIRECTORY
    lessons: list[Lesson] = []
    errors: list[LessonError] = []
    for path in sorted(folder.glob("*.toml")):
        got = load_file(path)
        if isinstance(got, LessonError):
            errors.append(got)
            continue
        other = next((le for le in lessons if le.id == got.id), None)
        if other is not None:
            lines = index_lines(path.read_text(encoding="utf-8"))
            name = path.name if folder == DIRECTORY else str(path)
            errors.append(LessonError("duplicate_lesson", name, line_of(lines, ("id",)),
                                      {"id": got.id, "other": other.path.name if other.path else ""}))  # fmt: skip
            continue
        lessons.append(got)
    lessons.sort(key=lambda le: COURSE.index(le.id) if le.id in COURSE else len(COURSE))  # stable: file names after
    if folder == DIRECTORY:  # the titles a citation of a lesson (⟦lesson:<id>⟧) shows
        LESSON_TITLES.clear()
        LESSON_TITLES.update({le.id: le.title_text for le in lessons})
    return Catalog(tuple(lessons), tuple(errors))


def _stamp(folder: Path) -> tuple[tuple[str, int, int], ...]:
    out = []
    for p in sorted(folder.glob("*.toml")):
        try:
            st = p.stat()
        except OSError:
            continue
        out.append((p.name, st.st_mtime_ns, st.st_size))
    return tuple(out)


@lru_cache(maxsize=1)
def _cached(folder: str, stamp: tuple) -> Catalog:
    return load_all(Path(folder))


def catalog() -> Catalog:
    """The built-in lessons, loaded once and again only when a file changes (name, time or size)."""
    return _cached(str(DIRECTORY), _stamp(DIRECTORY))


def get(lesson_id: str) -> Lesson:
    """The built-in lesson `lesson_id`; KeyError when there is none (or its file has an error)."""
    found = catalog().get(lesson_id)
    if found is None:
        raise KeyError(lesson_id)
    return found
