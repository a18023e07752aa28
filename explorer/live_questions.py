"""Questions for a live class, as plain JSON-able dicts: the adapter between the quiz generator and the room store.

A question is `({"kind", "prompt": {"key", "params"}, "options": [str], "explain": {"key", "params"}}, answer)`:
every student translates the keys in their own language; the answer index travels separately (the store keeps
it hidden until the teacher reveals). Only `quiz_question` knows explorer.quiz's API, so switching to the
question bank of the projector/quiz rewrite touches this one function.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from .pipeline import Scene
from .quiz import Question, make_questions, option_text

ATTEND = "attend"  # the quick question: which key does this query attend to most?
MARGIN = 0.05  # ... asked only when the top weight beats the second by at least this much
MAX_OPTIONS = 4

LiveQuestion = tuple[dict[str, Any], int]


def _plain(values: dict[str, Any]) -> dict[str, Any]:
    return {k: v if isinstance(v, (int, str)) and not isinstance(v, bool) else str(v) for k, v in values.items()}


def _payload(q: Question, scene: Scene) -> LiveQuestion:
    return {
        "kind": q.kind,
        "prompt": {"key": f"quiz.{q.kind}.prompt", "params": _plain(q.kwargs)},
        "options": [option_text(o, scene.kv_labels) for o in q.options],
        "explain": {"key": f"quiz.{q.kind}.explain", "params": _plain(q.explain_kwargs)},
    }, q.answer


def quiz_kinds(scene: Scene, seed: int = 0) -> list[str]:
    """The quiz kinds that make a question on this setting, in the quiz's order."""
    return [q.kind for q in make_questions(scene, seed)]


def quiz_question(kind: str, scene: Scene, seed: int = 0) -> LiveQuestion | None:
    """A question of the quiz generator on the current setting, or None when that kind does not fit it."""
    for q in make_questions(scene, seed):
        if q.kind == kind:
            return _payload(q, scene)
    return None


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
