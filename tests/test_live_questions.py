"""Questions for the live class (explorer/live_questions.py): JSON-able, the right answer where it says, the quick
'attend most' question only with a clear winner, checked against weights recomputed here with numpy."""

from __future__ import annotations

import json

import numpy as np
import pytest

import i18n
from explorer import Settings, run_scene
from explorer.live_questions import ATTEND, MARGIN, attend_question, quiz_kinds, quiz_question
from explorer.quiz import KINDS, answer_text, check_answer, draw_question


def numpy_weights(sc) -> np.ndarray:
    """softmax(Q K^T / sqrt(d_k)) with the scene's mask, per head: an oracle written here."""
    scores = np.einsum("hid,hjd->hij", sc.q, sc.k) / np.sqrt(sc.q.shape[-1])
    scores = np.where(sc.mask, -np.inf, scores)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


@pytest.mark.parametrize("settings", [Settings(), Settings(n_heads=2, seed=3, mask="causal"),
                                      Settings(d_model=4, n_heads=2, mask="padding", padded=(2,))])  # fmt: skip
def test_every_choice_question_of_the_bank_travels_as_json_with_its_answer(settings):
    from classroom.session import text as _text

    sc = run_scene(settings)
    kinds = [k for k in quiz_kinds(sc) if draw_question(k, scene=sc).answer_type == "choice"]
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


def test_every_kind_of_the_bank_that_fits_is_offered_to_a_live_class_typed_ones_too():
    sc = run_scene(Settings())
    fitting = [k for k in KINDS if draw_question(k, scene=sc) is not None]
    assert quiz_kinds(sc) == fitting
    assert {draw_question(k, scene=sc).answer_type for k in fitting} == {"choice", "number", "shape"}
    assert all(f"live.kind.{k}" in i18n.STRINGS for k in KINDS)  # every kind has a name in the teacher's list


def _index(labels, label: str) -> int:
    return list(labels).index(label)


def oracle(kind: str, prompt: dict, sc) -> float | list[int] | None:
    """The answer computed here from the prompt's numbers and the Scene (numpy), where that is cheap."""
    p = prompt["params"]
    if kind == "d_k":
        return p["d"] / p["h"]
    if kind == "params":  # W^Q, W^K, W^V, W^O: d x d each, no bias
        return 4 * p["d"] ** 2
    if kind == "shape" and p["name"] in ("head_i", "Concat"):
        return [sc.len_q, sc.settings.d_model // sc.n_heads if p["name"] == "head_i" else sc.settings.d_model]
    if kind == "softmax_weight":
        return float(numpy_weights(sc)[p["head"] - 1, _index(sc.labels, p["query"]), _index(sc.kv_labels, p["kv"])])
    if kind == "score_by_hand":
        h, i, j = p["head"] - 1, _index(sc.labels, p["query"]), _index(sc.kv_labels, p["kv"])
        return float(sc.q[h, i] @ sc.k[h, j] / np.sqrt(sc.q.shape[-1]))
    return None


@pytest.mark.parametrize("seed", range(4))
def test_every_typed_question_of_the_worked_example_travels_with_an_answer_the_quiz_accepts(seed):
    from classroom.session import text as _text
    from explorer import apply_preset
    from liveclass.typed import as_quiz

    sc = run_scene(apply_preset(Settings(), "worked"))
    typed = [k for k in quiz_kinds(sc) if draw_question(k, scene=sc, seed=seed).answer_type != "choice"]
    assert {"d_k", "shape", "params", "softmax_weight", "score_by_hand"} <= set(typed)
    checked = 0
    for kind in typed:
        payload, solution = quiz_question(kind, sc, seed)
        assert "options" not in payload and "answer" not in payload  # the answer travels apart, hidden
        payload, solution = json.loads(json.dumps(payload)), json.loads(json.dumps(solution))
        q = as_quiz(payload, solution)
        assert check_answer(q, solution["answer"]) and check_answer(q, answer_text(q))  # as shown after the reveal
        assert check_answer(q, answer_text(draw_question(kind, scene=sc, seed=seed)))
        for lang in i18n.LANGS:  # every placeholder is there
            _text(i18n.translator(lang), payload["prompt"]), _text(i18n.translator(lang), payload["explain"])
        expected = oracle(kind, payload["prompt"], sc)
        if expected is not None:
            assert check_answer(q, expected), (kind, expected, solution["answer"])
            checked += 1
    assert checked >= 4


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


def test_the_teachers_list_says_how_students_answer_each_kind():
    """answer_types agrees with the quiz's own question of each kind, and the teacher's list shows it."""
    from explorer.live_questions import answer_types
    from tests.test_live_app import class_with

    sc = run_scene(Settings())
    types = answer_types(sc)
    assert list(types) == quiz_kinds(sc)
    assert types == {k: draw_question(k, scene=sc).answer_type for k in types}
    assert {"choice", "number"} <= set(types.values())
    teacher, _, _ = class_with(0)
    assert "Students pick one of the options." in [c.value for c in teacher.main.get("caption")]
    number = next(k for k, t in types.items() if t == "number")
    teacher.selectbox(key="live_ask_kind").set_value(number).run()
    assert "Students type a number." in [c.value for c in teacher.main.get("caption")]
