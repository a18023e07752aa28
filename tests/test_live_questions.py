"""Questions for the live class (explorer/live_questions.py): JSON-able, the right answer where it says, the quick
'attend most' question only with a clear winner, checked against weights recomputed here with numpy."""

from __future__ import annotations

import json

import numpy as np
import pytest

import i18n
from explorer import Settings, run_scene
from explorer.live_questions import ATTEND, MARGIN, attend_question, quiz_kinds, quiz_question
from explorer.quiz import KINDS, answer_text, draw_question


def numpy_weights(sc) -> np.ndarray:
    """softmax(Q K^T / sqrt(d_k)) with the scene's mask, per head: an oracle written here."""
    scores = np.einsum("hid,hjd->hij", sc.q, sc.k) / np.sqrt(sc.q.shape[-1])
    scores = np.where(sc.mask, -np.inf, scores)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


@pytest.mark.parametrize("settings", [Settings(), Settings(n_heads=2, seed=3, mask="causal"),
                                      Settings(d_model=4, n_heads=2, mask="padding", padded=(2,))])  # fmt: skip
def test_every_choice_question_of_the_bank_travels_as_json_with_its_answer(settings):
    from ui.live import _text

    sc = run_scene(settings)
    kinds = quiz_kinds(sc)
    assert kinds
    for kind in kinds:
        q = draw_question(kind, scene=sc)
        payload, answer = quiz_question(kind, sc)
        assert json.loads(json.dumps(payload)) == payload
        for lang in i18n.LANGS:  # the option sent as the answer reads as the bank's own answer, in both languages
            tr = i18n.translator(lang)
            assert _text(tr, payload["options"][answer], markdown=False) == answer_text(q, lang)
            _text(tr, payload["prompt"])  # every placeholder is there
            _text(tr, payload["explain"])


def test_typed_answers_are_not_sent_to_a_live_class():
    sc = run_scene(Settings())
    typed = [k for k in KINDS if (q := draw_question(k, scene=sc)) is not None and q.answer_type != "choice"]
    assert typed and all(quiz_question(k, sc) is None for k in typed)
    assert all(f"live.kind.{k}" in i18n.STRINGS for k in KINDS)  # every kind has a name in the teacher's list


def test_the_attend_question_is_the_argmax_of_the_weights_with_a_clear_margin():
    sc = run_scene(Settings(seed=1))
    w = numpy_weights(sc)
    asked = 0
    for h in range(sc.n_heads):
        for i in range(sc.len_q):
            row = np.sort(w[h, i])[::-1]
            made = attend_question(sc, h, i)
            if row[0] - row[1] < MARGIN:
                assert made is None
                continue
            payload, answer = made
            asked += 1
            assert payload["kind"] == ATTEND and len(payload["options"]) <= 4
            assert payload["options"][answer] == sc.kv_labels[int(np.argmax(w[h, i]))]
            assert json.loads(json.dumps(payload)) == payload
    assert asked > 0


@pytest.mark.parametrize("head, query", [(-1, 0), (0, -1), (99, 0), (0, 999)])
def test_the_attend_question_refuses_a_head_or_query_that_does_not_exist(head, query):
    assert attend_question(run_scene(Settings()), head, query) is None


def test_an_unknown_kind_gives_no_question():
    assert quiz_question("no such kind", run_scene(Settings())) is None
