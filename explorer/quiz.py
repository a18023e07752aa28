"""Predict, then reveal: a bank of question kinds drawn from the lecture notes and the current setting.

Public API (used by app_pages/quiz.py and by anything that sends questions elsewhere, e.g. a live class):

    KINDS                                   every kind, in the order the page asks them
    draw_question(kind, settings=None, scene=None, seed=0, lang="en") -> Question | None
        one question of `kind` for this setting (give settings, a Scene, or both); None when the kind does
        not fit the setting (a mask question without that mask, an argmax without a clear winner). The same
        (kind, settings, seed) always gives the same question; different seeds give different ones.
    make_questions(scene, seed, lang="en") -> list[Question]   one question per fitting kind
    check_answer(question, answer) -> bool   answer: an option index (int or "2") or the typed text ("0.62",
        "2 × 3", "１２８") / value (0.62, [2, 3])
    feedback(question, answer) -> Msg | None  the explanation of that particular answer (a wrong option's own
        explanation, or a known slip behind a typed value)
    render(question, lang=None) -> dict       every text of the question translated (prompt, options with
        their explanations, traps, explanation, the answer as text): what a phone shows
    Question.to_dict() / Question.from_dict(d)  plain JSON (json.dumps works), e.g. for a room store

A `Question` (explorer.quiz_model) holds: kind; prompt (`Msg`: i18n key + args, or a literal); answer_type
"choice" | "number" | "shape"; answer (option index, float, or list of ints); tolerance (absolute, numbers);
options (label `Msg` + explain `Msg` each); traps (typical wrong typed values, each with its explanation);
explain (the general explanation shown after reveal); lang (the language it was drawn for; texts are
translated only in `render`, so one question serves both languages). `question.ident` is a short stable id.

Correct answers come from the formulas of the notes or from the Scene (the numbers of the core); the tests
check every kind against an independent computation.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

import i18n

from .pipeline import Scene, run_scene
from .quiz_bank import MAKERS as BANK_MAKERS
from .quiz_bank import keys_text, num, shape_text
from .quiz_llm import LLM_KINDS, LLM_MAKERS
from .quiz_model import Msg, Option, Question, Trap, check_answer, feedback, parse_answer
from .settings import Settings

KINDS: tuple[str, ...] = (
    "d_k", "shape", "params", "heads_params", "softmax_weight", "score_by_hand", "argmax", "mask_causal",
    "mask_padding", "cross_shape", "qk_mults", "cost_scaling", "entropy_scaling", "permutation", "pe_wavelength",
    "note001_entry", "note_error", "stacked_wq", "note002_shape", *LLM_KINDS,
)  # fmt: skip
MAKERS = {**BANK_MAKERS, **LLM_MAKERS}  # the notes' kinds, then those of today's decoders (explorer/quiz_llm.py)


VARIETY = 6  # the questions of one kind cycle after this many seeds (fewer where a setting allows fewer)


def draw_question(kind: str, settings: Settings | None = None, scene: Scene | None = None, seed: int = 0,
                  lang: str = "en") -> Question | None:  # fmt: skip
    """One question of `kind` (see KINDS) for this setting and seed; None if the kind does not fit it."""
    if kind not in MAKERS:
        raise KeyError(f"unknown quiz kind {kind!r}")
    if scene is None:
        if settings is None:
            raise ValueError("draw_question needs settings or a scene")
        scene = run_scene(settings)
    # One stream of draws per kind and setting (the setting is in the seed, so an answer does not sit at the same
    # place in every setting); seed s takes the s-th distinct question of that stream, so neighbouring seeds never
    # repeat a question where the setting allows another, even when a kind has only a few to choose from.
    rng = random.Random(f"{kind}:{scene.settings!r}")
    distinct: dict[str, Question] = {}
    want = seed % VARIETY
    for _ in range(3 * VARIETY):
        drawn = MAKERS[kind](scene, rng)
        if drawn is not None:
            distinct.setdefault(drawn.ident, drawn)
            if len(distinct) > want:
                break
    if not distinct:
        return None
    q = list(distinct.values())[want % len(distinct)]
    return Question(q.kind, q.prompt, q.answer_type, q.answer, q.explain, q.options, q.tolerance, q.traps,
                    i18n.normalise_lang(lang))  # fmt: skip


def make_questions(scene: Scene, seed: int, lang: str = "en") -> list[Question]:
    """The questions that fit this setting, in the order of KINDS; the same scene and seed give the same list."""
    drawn = (draw_question(kind, scene=scene, seed=seed, lang=lang) for kind in KINDS)
    return [q for q in drawn if q is not None]


def text(msg: Msg, lang: str, escape: Callable[[str], str] | None = None) -> str:
    """A Msg in `lang` (a literal stays as it is); integers are written with thousands separators. `escape`, when
    given, is applied to the literal and to every text argument (token labels are user text), not to the
    catalogue's own string: its Markdown (links to the errata, LaTeX) stays live, as in the live class."""
    esc = escape or str
    if not msg.key:
        return esc(str(msg.args.get("text", "")))
    args = {k: f"{v:,}" if isinstance(v, int) and not isinstance(v, bool) else esc(v) if isinstance(v, str) else v
            for k, v in msg.args.items()}  # fmt: skip
    return i18n.t(msg.key, lang, **args)


def answer_text(q: Question, lang: str = "en") -> str:
    """The right answer as a student reads it: the option, the shape 'a × b', or the number to 3 digits."""
    if q.answer_type == "choice":
        return text(q.options[q.answer].label, lang)
    if q.answer_type == "shape":
        return shape_text(q.answer)
    value = float(q.answer)
    if q.tolerance == 0 and value.is_integer():
        return f"{int(value):,}"
    return num(value, max(0, round(-math.log10(q.tolerance))) if q.tolerance > 0 else 3)


def render(q: Question, lang: str | None = None) -> dict[str, Any]:
    """Every text of `q` in `lang` (default: the language it was drawn for), as plain JSON-ready values."""
    lang = i18n.normalise_lang(lang or q.lang)
    return {
        "kind": q.kind, "ident": q.ident, "answer_type": q.answer_type, "prompt": text(q.prompt, lang),
        "options": [{"label": text(o.label, lang), "explain": text(o.explain, lang)} for o in q.options],
        "traps": [{"value": t.value, "explain": text(t.explain, lang)} for t in q.traps],
        "answer": q.answer, "answer_text": answer_text(q, lang), "tolerance": q.tolerance,
        "explain": text(q.explain, lang),
    }  # fmt: skip


__all__ = [
    "KINDS", "Msg", "Option", "Question", "Trap", "answer_text", "check_answer", "draw_question", "feedback",
    "keys_text", "make_questions", "parse_answer", "render", "shape_text", "text",
]  # fmt: skip
