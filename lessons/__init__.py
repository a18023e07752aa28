"""Lessons: a route through the app's pages as plain data (one TOML file per lesson in this folder), loaded and
validated without Streamlit, walked by the self-paced lesson page, the teacher's console and the printed handout.

Public API (stable: extended, never renamed):

    load_all(directory=None) -> Catalog       every *.toml of `directory` (default: the built-in lessons here);
                                              Catalog.lessons (tuple[Lesson]), Catalog.errors (tuple[LessonError],
                                              one per file that cannot be used), Catalog.get(id) -> Lesson | None
    catalog() -> Catalog                      the built-in lessons, cached (reloaded when a file changes)
    get(lesson_id: str) -> Lesson             a built-in lesson; KeyError if there is none
    load_text(raw: bytes, name="lesson.toml") -> Lesson | LessonError     one file's bytes
    question(stop: Stop, lang: str = "en") -> Question | None   the stop's checkpoint, drawn from the quiz bank
                                              (explorer.quiz: check_answer, feedback, render work on it)

    Lesson: id, stops (tuple[Stop]), minutes (planned total), checkpoints (the stops that ask), path,
            title(lang), summary(lang), objectives(lang) -> list[str], stop(index) (clamped),
            stop_by_id(id), planned_before(index) (minutes planned before stop `index` starts)
    Stop:   index (0-based), number (1-based), id, page (a url_path of ui/nav.py PAGES), settings (a validated
            explorer.Settings: the lesson's settings, the stop's on top), step (1..9 on /steps, else None),
            minutes, checkpoint (Checkpoint(kind, seed) | None), line (in its file),
            title(lang), task(lang) (what the class looks at or does), notes(lang) (speaker notes)
    LessonError: code, file, line, params; message(lang) (translated, "mha45.toml, line 42: ..."); str() English
    clamp(lesson, index) -> int               any index (tampered URL) to a valid stop index

A lesson file (TOML; the built-in mha45.toml shows every field):

    id = "mha45"                                  # [a-z0-9-], unique among the lessons
    title = { en = "...", zh = "..." }            # every text: English and Chinese, markdown without LaTeX
    summary = { en = "...", zh = "..." }

    [[objectives]]                                # one or more
    en = "..."
    zh = "..."

    [settings]                                    # optional: the lesson's setting, fields of a settings file
    preset = "en"                                 # (explorer/settings_io.FIELDS); a preset fills its sentence and sizes

    [[stops]]                                     # one or more, in order
    id = "one-head"                               # unique in the lesson
    page = "steps"                                # a url_path of ui/nav.py PAGES
    step = 4                                      # only on "steps": 1..9
    minutes = 4                                   # planned time
    settings = { n_heads = 1 }                    # optional: on top of the lesson's
    title = { en = "...", zh = "..." }
    task = { en = "...", zh = "..." }             # what the class looks at or does
    notes = { en = "...", zh = "..." }            # speaker notes
    checkpoint = { kind = "score_by_hand", seed = 0 }   # optional: a kind of explorer.quiz.KINDS that fits

Nothing here imports Streamlit; the page table is read from ui/nav.py's source (lessons/pages.py).
lessons.handout.handout_html(lesson, lang, notes=False) -> str: the printable handout (lessons/handout.py; the
figures of the LLM pages in lessons/handout_llm.py).
"""

from __future__ import annotations

import json

from budget import ByteLRU, memoize
from explorer.quiz import Question, draw_question
from explorer.settings import Settings

from .loading import DIRECTORY, catalog, get, load_all, load_file, load_text
from .model import Catalog, Checkpoint, Lesson, LessonError, Stop, Text, clamp
from .pages import N_STEPS, app_pages, stop_pages

_QUESTIONS: ByteLRU[Question] = ByteLRU("lesson questions", 2 * 1024 * 1024)


@memoize(_QUESTIONS, lambda q: 2 * len(json.dumps(q.to_dict(), default=str)) + 500)
def _draw(kind: str, settings: Settings, seed: int, lang: str) -> Question | None:
    # every run of a lesson's page needs its checkpoints (the link's answers are keyed by them): drawn once
    return draw_question(kind, settings=settings, seed=seed, lang=lang)


def question(stop: Stop, lang: str = "en") -> Question | None:
    """The checkpoint question of `stop` in `lang` (None if the stop asks none): always the same question for the
    same lesson file, drawn on the stop's own setting."""
    if stop.checkpoint is None:
        return None
    return _draw(stop.checkpoint.kind, stop.settings, stop.checkpoint.seed, lang)


__all__ = [
    "DIRECTORY", "N_STEPS", "Catalog", "Checkpoint", "Lesson", "LessonError", "Stop", "Text", "app_pages",
    "catalog", "clamp", "get", "load_all", "load_file", "load_text", "question", "stop_pages",
]  # fmt: skip
