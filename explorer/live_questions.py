"""Questions for a live class, as plain JSON-able dicts: the adapter between the quiz bank and the room store.

A multiple-choice question is `({"kind", "prompt", "options", "explain", "why"}, answer index)`; a typed one
(a number or a shape) is `({"kind", "answer_type", "prompt", "explain", "tolerance"}, solution)` with the solution
`{"answer", "tolerance", "traps": [{"value", "explain"}]}` (liveclass.typed grades with it). Every text is a
message `{"key": i18n key, "params": {...}}` (an empty key: a literal in params["text"]) or, for token labels, a
plain string: every student translates it in their own language. The answer travels separately (the store keeps
it hidden until the teacher reveals). Only `quiz_question` and `quiz_kinds` know explorer.quiz's API.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np

from .pipeline import Scene
from .quiz import KINDS, Msg, Question, draw_question
from .quiz_bank import MARGIN  # one idea of a clear winner: the quiz's argmax kind uses the same margin

ATTEND = "attend"  # the quick question: which key does this query attend to most?

MAX_OPTIONS = 4

LiveQuestion = tuple[dict[str, Any], Any]  # (question, option index or typed solution)


def _msg(m: Msg) -> dict[str, Any]:
    """A quiz message as plain JSON (values JSON cannot hold become text)."""
    return {"key": m.key, "params": json.loads(json.dumps(dict(m.args), ensure_ascii=False, default=str))}


def quiz_kinds(scene: Scene, seed: int = 0) -> list[str]:
    """The quiz kinds that give a question on this setting (multiple choice or typed), in the quiz's order."""
    return list(answer_types(scene, seed))


def answer_types(scene: Scene, seed: int = 0) -> dict[str, str]:
    """kind -> how students answer it on this setting: "choice", "number" or "shape" (the quiz's order)."""
    out = {}
    for kind in KINDS:
        made = quiz_question(kind, scene, seed)
        if made is not None:
            out[kind] = made[0].get("answer_type", "choice")
    return out


def quiz_question(kind: str, scene: Scene, seed: int = 0) -> LiveQuestion | None:
    """A question of the quiz bank on the current setting, or None when that kind does not fit it."""
    if kind not in KINDS:
        return None
    q = draw_question(kind, scene=scene, seed=seed)
    if q is not None and q.answer_type in ("number", "shape"):
        return _typed(q)
    if q is None or q.answer_type != "choice" or not 2 <= len(q.options) <= 12:
        return None
    return {
        "kind": q.kind, "prompt": _msg(q.prompt), "options": [_msg(o.label) for o in q.options],
        "why": [_msg(o.explain) for o in q.options], "explain": _msg(q.explain),
    }, int(q.answer)  # fmt: skip


def _value(q: Question, value: Any) -> float | list[int]:
    return [int(d) for d in value] if q.answer_type == "shape" else float(value)


def _typed(q: Question) -> LiveQuestion:
    """A typed question (no options): the tolerance is shown to the students, as on the quiz page."""
    solution = {"answer": _value(q, q.answer), "tolerance": float(q.tolerance),
                "traps": [{"value": _value(q, t.value), "explain": _msg(t.explain)} for t in q.traps]}  # fmt: skip
    return {"kind": q.kind, "answer_type": q.answer_type, "prompt": _msg(q.prompt), "explain": _msg(q.explain),
            "tolerance": float(q.tolerance)}, solution  # fmt: skip


def attend_question(scene: Scene, head: int, query: int, seed: int = 0) -> LiveQuestion | None:
    """"Which key does query `query` attend to most in head `head`?" (0-based), on the current weights.
    None when there is no clear winner (top weight less than MARGIN above the second) or no such head/query."""
    if not (0 <= head < scene.n_heads and 0 <= query < scene.len_q):
        return None
    row = np.asarray(scene.weights[head, query], dtype=float)
    order = [int(j) for j in np.argsort(-row, kind="stable")]
    if row[order[0]] <= 0 or (len(order) > 1 and row[order[0]] - row[order[1]] < MARGIN) or len(order) < 2:
        return None
    keys = order[:MAX_OPTIONS]
    random.Random(f"{seed}:{head}:{query}").shuffle(keys)
    labels = scene.kv_labels
    row_text = ", ".join(f"{labels[j]} {row[j]:.3f}" for j in order[:MAX_OPTIONS])
    params = {"head": head + 1, "query": scene.labels[query]}
    return {
        "kind": ATTEND,
        "prompt": {"key": "live.attend.prompt", "params": params},
        "options": [labels[j] for j in keys],
        "explain": {"key": "live.attend.explain", "params": {
            **params, "best": labels[order[0]], "weight": f"{row[order[0]]:.3f}", "row": row_text}},
    }, keys.index(order[0])
