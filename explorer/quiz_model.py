"""The plain, JSON-serialisable shape of a quiz question, and how an answer is checked (no streamlit, no torch).

A `Question` is language-neutral: every text is a `Msg` (an i18n key with arguments, or a literal such as a
token label or a shape). `explorer.quiz` draws questions; this module only holds them and checks answers.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import unicodedata
from dataclasses import asdict, dataclass, field
from typing import Any

ANSWER_TYPES = ("choice", "number", "shape")
MAX_ANSWER_CHARS = 40  # a typed answer longer than this is not an answer (and is never stored)


@dataclass(frozen=True)
class Msg:
    """A piece of text: the i18n key `key` formatted with `args`; an empty key means `args["text"]` verbatim."""

    key: str = ""
    args: dict[str, Any] = field(default_factory=dict)

    @staticmethod
    def literal(text: str) -> Msg:
        return Msg("", {"text": text})


@dataclass(frozen=True)
class Option:
    """One choice of a multiple-choice question, with the explanation shown when a student picks it."""

    label: Msg
    explain: Msg


@dataclass(frozen=True)
class Trap:
    """A typical wrong typed answer (a number or a shape) and the explanation of the slip behind it."""

    value: Any
    explain: Msg


@dataclass(frozen=True)
class Question:
    """One question. `answer_type` is "choice" (pick `options[answer]`), "number" (type `answer` within
    `tolerance`, absolute) or "shape" (type the dimensions `answer`, a list of ints, e.g. "2 × 3")."""

    kind: str
    prompt: Msg
    answer_type: str
    answer: Any
    explain: Msg
    options: tuple[Option, ...] = ()
    tolerance: float = 0.0
    traps: tuple[Trap, ...] = ()
    lang: str = "en"

    def to_dict(self) -> dict[str, Any]:
        """Plain dicts and lists only: `json.dumps(q.to_dict())` works, `Question.from_dict` reads it back."""
        return asdict(self)

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Question:
        def msg(m: dict[str, Any]) -> Msg:
            return Msg(str(m["key"]), dict(m["args"]))

        answer = data["answer"]
        if data["answer_type"] == "shape":
            answer = [int(d) for d in answer]
        traps = tuple(
            Trap([int(d) for d in t["value"]] if data["answer_type"] == "shape" else t["value"], msg(t["explain"]))
            for t in data.get("traps", ())
        )
        return Question(
            kind=str(data["kind"]), prompt=msg(data["prompt"]), answer_type=str(data["answer_type"]), answer=answer,
            explain=msg(data["explain"]),
            options=tuple(Option(msg(o["label"]), msg(o["explain"])) for o in data.get("options", ())),
            tolerance=float(data.get("tolerance", 0.0)), traps=traps, lang=str(data.get("lang", "en")),
        )  # fmt: skip

    @property
    def ident(self) -> str:
        """A short stable id: changes whenever the question, its options or its answer change (not its language)."""
        data = {k: v for k, v in self.to_dict().items() if k != "lang"}
        text = json.dumps(data, sort_keys=True, ensure_ascii=False, default=str)
        return hashlib.blake2b(text.encode("utf-8"), digest_size=5).hexdigest()


def _clean(text: str) -> str:
    """Full-width digits and signs (typed on a Chinese keyboard) to ASCII, spaces trimmed."""
    return unicodedata.normalize("NFKC", text).strip().replace("−", "-").replace("，", ",")


def parse_number(text: Any) -> float | None:
    """A typed number: '0.62', '０.６２', '-1.5', '1,024', '1/4', '1e3'; None if it is not one."""
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        return float(text) if math.isfinite(text) else None
    if not isinstance(text, str) or len(text) > MAX_ANSWER_CHARS:
        return None
    s = _clean(text).replace(" ", "")
    if re.fullmatch(r"-?[1-9]\d{0,2}(,\d{3})+(\.\d*)?", s):
        s = s.replace(",", "")  # thousands separators
    elif s.count(",") == 1 and "." not in s:
        s = s.replace(",", ".")  # a decimal comma
    m = re.fullmatch(r"(-?\d+(?:\.\d+)?)/(\d+(?:\.\d+)?)", s)
    try:
        value = float(m.group(1)) / float(m.group(2)) if m else float(s)
    except (ValueError, ZeroDivisionError):
        return None
    return value if math.isfinite(value) else None


def parse_shape(text: Any) -> list[int] | None:
    """A typed shape: '6 × 8', '6x8', '(6, 8)', '[32, 8, 20, 20]', '6*8'; None if it is not one."""
    if isinstance(text, (list, tuple)):
        return [int(d) for d in text] if all(isinstance(d, int) and not isinstance(d, bool) for d in text) else None
    if not isinstance(text, str) or len(text) > MAX_ANSWER_CHARS:
        return None
    s = _clean(text).strip("()[]{} ")
    parts = [p for p in re.split(r"\s*(?:[x×X*,]|\s)\s*", s) if p != ""]
    if not parts or len(parts) > 6 or not all(p.isascii() and p.isdecimal() and len(p) <= 9 for p in parts):
        return None
    return [int(p) for p in parts]


def parse_answer(q: Question, answer: Any) -> Any:
    """The answer in the question's terms (option index, float, list of ints), or None when unreadable."""
    if q.answer_type == "choice":
        if isinstance(answer, bool):
            return None
        if isinstance(answer, str) and answer.isascii() and answer.isdecimal() and len(answer) < 3:
            answer = int(answer)
        return answer if isinstance(answer, int) and 0 <= answer < len(q.options) else None
    if q.answer_type == "number":
        return parse_number(answer)
    return parse_shape(answer)


def _matches(q: Question, value: Any, target: Any) -> bool:
    if q.answer_type == "number":
        return abs(float(value) - float(target)) <= q.tolerance + 1e-9 * max(1.0, abs(float(target)))
    return list(value) == list(target) if q.answer_type == "shape" else value == target


def check_answer(q: Question, answer: Any) -> bool:
    """True when `answer` (an option index, or the typed text / value) is right."""
    value = parse_answer(q, answer)
    return value is not None and _matches(q, value, q.answer)


def feedback(q: Question, answer: Any) -> Msg | None:
    """The explanation that belongs to this answer: the picked option's, a matching trap's, or None
    (a typed answer that is right, unreadable, or a slip without a known cause)."""
    value = parse_answer(q, answer)
    if value is None:
        return None
    if q.answer_type == "choice":
        return q.options[value].explain
    if _matches(q, value, q.answer):
        return None
    for trap in q.traps:
        if _matches(q, value, trap.value):
            return trap.explain
    return None


__all__ = [
    "ANSWER_TYPES", "MAX_ANSWER_CHARS", "Msg", "Option", "Question", "Trap", "check_answer", "feedback",
    "parse_answer", "parse_number", "parse_shape",
]  # fmt: skip
