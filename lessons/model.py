"""A lesson as plain, frozen data: a Lesson holds Stops; every text is a Text in English and Chinese.

Nothing here knows Streamlit or how a lesson is drawn; `lessons.loading` builds these from a TOML file and
checks every field first, so a Lesson that exists is valid (its settings validated, its checkpoints drawn).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import i18n
from explorer.settings import Settings

LESSON_CITE = re.compile(r"⟦lesson:([a-z0-9][a-z0-9-]*)⟧")  # another lesson, by its id


def cited_lessons(text: str) -> list[str]:
    """The lessons a text cites (⟦lesson:<id>⟧), in order."""
    return LESSON_CITE.findall(text)


# The titles of the lessons that loaded, by id: filled by lessons.loading.load_all (this module imports nothing of it).
LESSON_TITLES: dict[str, Text] = {}


def _lesson_link(lesson_id: str, lang: str) -> str:
    title = LESSON_TITLES[lesson_id](lang) if lesson_id in LESSON_TITLES else lesson_id
    return f"[{title}]({i18n.page_link('lesson', lang, lesson=lesson_id)})"


@dataclass(frozen=True)
class Text:
    """One text in both languages of the app."""

    en: str
    zh: str

    def __call__(self, lang: str) -> str:
        """The text in `lang`, its citations (⟦errata:<id>⟧, ⟦page:<url>⟧, ⟦lesson:<id>⟧) as links titled with what
        they cite."""
        lang = i18n.normalise_lang(lang)
        text = self.zh if lang == "zh" else self.en
        if "⟦lesson:" in text:
            text = LESSON_CITE.sub(lambda m: _lesson_link(m.group(1), lang), text)
        return i18n.cite(text, lang)


@dataclass(frozen=True)
class Checkpoint:
    """A question of the quiz bank (`kind`, one of explorer.quiz.KINDS), drawn on its stop's setting with `seed`."""

    kind: str
    seed: int = 0


@dataclass(frozen=True)
class Stop:
    """One stop of a lesson: a page of the app at a setting (and, on /steps, a step), for `minutes` minutes.

    `index` is 0-based, `number` 1-based (as the URL and the outline show it). `settings` is the whole,
    validated setting of the stop (the lesson's settings, then the stop's own on top). `step` is 1-based
    (1..9, the steps of /steps) or None."""

    index: int
    id: str
    page: str
    settings: Settings
    minutes: float
    title_text: Text
    task_text: Text
    notes_text: Text
    step: int | None = None
    checkpoint: Checkpoint | None = None
    line: int | None = None  # where the stop starts in its file

    @property
    def number(self) -> int:
        return self.index + 1

    def title(self, lang: str) -> str:
        """The stop's title, e.g. "From one head to h heads"."""
        return self.title_text(lang)

    def task(self, lang: str) -> str:
        """What the class looks at or does at this stop (markdown without LaTeX)."""
        return self.task_text(lang)

    def notes(self, lang: str) -> str:
        """The teacher's speaker notes (markdown without LaTeX); never shown to the class."""
        return self.notes_text(lang)


@dataclass(frozen=True)
class Lesson:
    """A route through the app: objectives and stops, with a planned time per stop."""

    id: str
    title_text: Text
    summary_text: Text
    objective_texts: tuple[Text, ...]
    stops: tuple[Stop, ...]
    path: Path | None = None

    def title(self, lang: str) -> str:
        return self.title_text(lang)

    def summary(self, lang: str) -> str:
        return self.summary_text(lang)

    def objectives(self, lang: str) -> list[str]:
        return [o(lang) for o in self.objective_texts]

    @property
    def minutes(self) -> float:
        """The planned length: the sum of the stops' minutes."""
        return sum(s.minutes for s in self.stops)

    @property
    def checkpoints(self) -> tuple[Stop, ...]:
        """The stops that ask a checkpoint question, in order."""
        return tuple(s for s in self.stops if s.checkpoint is not None)

    def stop(self, index: int) -> Stop:
        """Stop `index` (0-based), clamped to the lesson: a tampered index never raises."""
        return self.stops[clamp(self, index)]

    def stop_by_id(self, stop_id: str) -> Stop | None:
        return next((s for s in self.stops if s.id == stop_id), None)

    def planned_before(self, index: int) -> float:
        """Minutes planned for the stops before stop `index` (0-based): where the clock should be when it starts."""
        return sum(s.minutes for s in self.stops[: clamp(self, index)])


def clamp(lesson: Lesson, index: Any) -> int:
    """`index` as a valid 0-based stop index of `lesson` (anything else: 0)."""
    if not isinstance(index, int) or isinstance(index, bool):
        return 0
    return min(max(index, 0), len(lesson.stops) - 1)


@dataclass(frozen=True)
class LessonError:
    """Why one lesson file could not be used: a message code (`lesson.err.<code>`), its file and line, params.

    `message(lang)` is the translated sentence the app shows; `str(error)` is the English one."""

    code: str
    file: str
    line: int | None = None
    params: dict[str, Any] = field(default_factory=dict)

    def message(self, lang: str = "en") -> str:
        where = i18n.t("lesson.err.where_line" if self.line else "lesson.err.where", lang, file=self.file,
                       line=self.line)  # fmt: skip
        params = {k: (v(lang) if isinstance(v, Text) else v) for k, v in self.params.items()}
        stop = i18n.t("lesson.err.in_stop", lang, stop=params["stop"]) if "stop" in params else ""
        return f"{where}{stop}{i18n.t(f'lesson.err.{self.code}', lang, **params)}"

    def __str__(self) -> str:
        return self.message("en")


@dataclass(frozen=True)
class Catalog:
    """Every lesson that loaded, and one error per file that did not."""

    lessons: tuple[Lesson, ...] = ()
    errors: tuple[LessonError, ...] = ()

    def get(self, lesson_id: str) -> Lesson | None:
        return next((le for le in self.lessons if le.id == lesson_id), None)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(le.id for le in self.lessons)
