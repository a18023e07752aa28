"""Questions for a live class, as plain JSON-able dicts: the adapter between the quiz bank and the room store.

A question is `({"kind", "prompt", "options", "explain", "why"}, answer)` where every text is a message
`{"key": i18n key, "params": {...}}` (an empty key: a literal in params["text"]) or, for token labels, a plain
string: every student translates it in their own language. The answer index travels separately (the store keeps
it hidden until the teacher reveals). Only `quiz_question` and `quiz_kinds` know explorer.quiz's API.
A live class asks multiple-choice questions only: the bank's typed answers (numbers, shapes) are left to the
quiz page.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np

from .pipeline import Scene
from .quiz import KINDS, Msg, draw_question
from .quiz_bank import MARGIN  # one idea of a clear winner: the quiz's argmax kind uses the same margin

ATTEND = "attend"  # the quick question: which key does this query attend to most?

MAX_OPTIONS = 4

LiveQuestion = tuple[dict[str, Any], int]


def _msg(m: Msg) -> dict[str, Any]:
    """A quiz message as plain JSON (values JSON cannot hold become text)."""
    return {"key": m.key, "params": json.loads(json.dumps(dict(m.args), ensure_ascii=False, default=str))}


def quiz_kinds(scene: Scene, seed: int = 0) -> list[str]:
    """The quiz kinds that give a multiple-choice question on this setting, in the quiz's order."""
    return [kind for kind in KINDS if quiz_question(kind, scene, seed) is not None]


def quiz_question(kind: str, scene: Scene, seed: int = 0) -> LiveQuestion | None:
    """A question of the quiz bank on the current setting, or None when that kind does not fit it (or is not
    multiple choice)."""
    if kind not in KINDS:
        return None
    q = draw_question(kind, scene=scene, seed=seed)
    if q is None or q.answer_type != "choice" or not 2 <= len(q.options) <= 12:
        return None
    return {
        "kind": q.kind, "prompt": _msg(q.prompt), "options": [_msg(o.label) for o in q.options],
        "why": [_msg(o.explain) for o in q.options], "explain": _msg(q.explain),
    }, int(q.answer)  # fmt: skip
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
