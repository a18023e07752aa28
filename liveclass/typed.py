"""Typed answers in a live class (a number or a shape), read, checked and counted by the quiz's own rules.

A typed question travels as two parts: the public question (`answer_type` "number" or "shape", no options) and
its solution `{"answer", "tolerance", "traps"}`, which the store keeps hidden until the reveal. Grading goes
through `explorer.quiz_model.check_answer` on the question rebuilt here, so a live class and the quiz page have
one idea of "right". Imported by `liveclass.rooms` only when a typed question is asked or answered.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import dataclass
from typing import Any

from explorer.quiz_model import Msg, Question, Trap, check_answer, feedback, parse_number, parse_shape

from .errors import LiveError

TYPED = ("number", "shape")
MAX_DIMS = 6  # a shape has at most this many dimensions (as the quiz reads them)
MAX_DIM = 10**9
TOP = 6  # bars of the histogram; the other answers share one "other" bar


def is_typed(question: dict[str, Any] | None) -> bool:
    """True for a question answered by typing a number or a shape."""
    return isinstance(question, dict) and question.get("answer_type") in TYPED


def _msg(m: Any) -> Msg:
    if isinstance(m, dict):
        return Msg(str(m.get("key", "")), dict(m.get("params") or {}))
    return Msg.literal(str(m))


def _value(answer_type: str, value: Any) -> float | list[int]:
    """A solution's value in plain form; LiveError('bad_question') when it is not one."""
    if answer_type == "number":
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise LiveError("bad_question")
        return float(value)
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_DIMS:
        raise LiveError("bad_question")
    if not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= MAX_DIM for d in value):
        raise LiveError("bad_question")
    return [int(d) for d in value]


def as_quiz(question: dict[str, Any], solution: dict[str, Any]) -> Question:
    """The quiz Question of a live typed question and its solution (what check_answer and feedback take).
    LiveError('bad_question') when either is malformed."""
    if not is_typed(question) or not isinstance(solution, dict):
        raise LiveError("bad_question")
    kind = question["answer_type"]
    tolerance = solution.get("tolerance", 0.0)
    if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)) or not 0 <= tolerance < math.inf:
        raise LiveError("bad_question")
    if kind == "shape" and tolerance:
        raise LiveError("bad_question")
    traps = solution.get("traps", [])
    if not isinstance(traps, list) or not all(isinstance(t, dict) and "value" in t for t in traps):
        raise LiveError("bad_question")
    return Question(
        kind=str(question.get("kind", "")), prompt=_msg(question.get("prompt", "")), answer_type=kind,
        answer=_value(kind, solution.get("answer")), explain=_msg(question.get("explain", "")),
        tolerance=float(tolerance),
        traps=tuple(Trap(_value(kind, t["value"]), _msg(t.get("explain", ""))) for t in traps),
    )  # fmt: skip


def read(answer_type: str, raw: Any, max_chars: int) -> float | list[int]:
    """A student's typed answer (the text, or the value) as the quiz reads it, validated: a finite number, or a
    short list of positive ints. LiveError names what is wrong (the same check in the student's page and the store)."""
    if isinstance(raw, str) and len(raw) > max_chars:
        raise LiveError("answer_too_long", limit=max_chars)
    if answer_type == "number":
        value = parse_number(raw)
        if value is None:
            raise LiveError("bad_number")
        return float(value)
    if isinstance(raw, (list, tuple)) and len(raw) > MAX_DIMS:
        raise LiveError("bad_shape")
    dims = parse_shape(raw)
    if dims is None or not 1 <= len(dims) <= MAX_DIMS or not all(1 <= d <= MAX_DIM for d in dims):
        raise LiveError("bad_shape")
    return [int(d) for d in dims]


def grade(q: Question, value: float | list[int]) -> bool:
    """Right or not, by the quiz's own check (its tolerance)."""
    return check_answer(q, value)


def own_feedback(q: Question, value: float | list[int]) -> Msg | None:
    """The quiz's explanation of this particular wrong value (a known slip), if it has one."""
    return feedback(q, value)


def encode(value: float | list[int], typed: object = None) -> str:
    """A typed answer as the store keeps it: the value read, and the text as the student typed it."""
    text = typed.strip() if isinstance(typed, str) else label(value)
    return json.dumps({"value": value, "typed": text}, ensure_ascii=False)


def decode(raw: str) -> tuple[float | list[int] | None, str]:
    """(value, text as typed) of a stored answer; (None, "") when it is not one. Older stores kept the value alone."""
    try:
        data = json.loads(raw) if raw else None
    except ValueError:
        return None, ""
    if isinstance(data, dict):
        value, text = data.get("value"), data.get("typed")
    else:
        value, text = data, None
    if isinstance(value, bool) or not isinstance(value, (int, float, list)):
        return None, ""
    return value, text if isinstance(text, str) else label(value)


def label(value: float | list[int]) -> str:
    """An answer as one bar of the histogram, exactly: 16, 16.0 and "16" are one answer ("16"), 4194304 stays
    4194304 (no rounding, no separators); other numbers in their shortest exact form; shapes as "2 × 3"."""
    if isinstance(value, list):
        return " × ".join(str(d) for d in value)
    v = float(value)
    if v.is_integer() and abs(v) < 2**53:
        return str(int(v))
    return repr(v)


@dataclass(frozen=True)
class Bar:
    """One bar of a typed question's histogram: `label` None is the bar of all other answers."""

    label: str | None
    count: int
    right: bool


def histogram(q: Question, values: list[float | list[int]], top: int = TOP) -> list[Bar]:
    """The most frequent distinct answers (normalised by `label`), most frequent first, at most `top` bars; the
    rest as one 'other' bar (right only if all of them are). A bar is right when its answer passes check_answer."""
    counts: Counter[str] = Counter()
    first: dict[str, float | list[int]] = {}
    for v in values:
        key = label(v)
        counts[key] += 1
        first.setdefault(key, v)
    ranked = sorted(counts, key=lambda k: (-counts[k], k))
    keep = ranked if len(ranked) <= top else ranked[: top - 1]
    bars = [Bar(k, counts[k], grade(q, first[k])) for k in keep]
    rest = ranked[len(keep) :]
    if rest:
        bars.append(Bar(None, sum(counts[k] for k in rest), all(grade(q, first[k]) for k in rest)))
    return bars


__all__ = ["MAX_DIMS", "TOP", "TYPED", "Bar", "as_quiz", "decode", "encode", "grade", "histogram", "is_typed",
           "label", "own_feedback", "read"]  # fmt: skip
