"""Predict, then reveal: every generated answer checked against an independent computation, exactly one right
option, deterministic for a seed, translated in both languages; the page's reveal flow in AppTest."""

from __future__ import annotations

import dataclasses
import string
from fractions import Fraction

import numpy as np
import pytest

import i18n
from explorer import Settings, apply_preset, run_scene
from explorer.quiz import KINDS, Question, keys_text, make_questions, option_text

PAGE = "pages/quiz.py"
SMALL = Settings(text="the cat sat on the mat", d_model=16, n_heads=4)
SETTINGS = {
    "default": Settings(),
    "zh": apply_preset(Settings(), "zh"),
    "worked": apply_preset(Settings(), "worked"),
    "paper": apply_preset(Settings(), "paper"),
    "causal": dataclasses.replace(SMALL, mask="causal"),
    "chosen": dataclasses.replace(SMALL, mask="chosen", padded=(1, 4)),
    "cross": dataclasses.replace(SMALL, cross=True, text_kv="Le chat dort sur le tapis rouge ."),
    "cross_causal": dataclasses.replace(SMALL, cross=True, text_kv="a b c d e f g h", mask="causal"),
    "cross_chosen": dataclasses.replace(SMALL, cross=True, text_kv="a b c", mask="chosen", padded=(0,)),
    "one_head": dataclasses.replace(SMALL, n_heads=1),
    "unscaled": dataclasses.replace(SMALL, scale=False, seed=7),
    "one_token": dataclasses.replace(SMALL, text="hello"),
    "one_key": dataclasses.replace(SMALL, cross=True, text_kv="hello"),
    "d_k_one": dataclasses.replace(SMALL, d_model=4, n_heads=4),
}
SEEDS = (0, 1, 2, 5)


def expected(q: Question, sc) -> object:
    """The right answer of `q` from the scene's numbers and the textbook formulas, without explorer.quiz."""
    p = q.kwargs
    L, Lk, d, h = len(sc.tokens), len(sc.kv_tokens), sc.settings.d_model, sc.settings.n_heads
    if q.kind == "argmax":
        j = int(np.argmax(sc.weights[p["head"] - 1, sc.labels.index(p["query"])]))
        return f"{j}:{sc.kv_tokens[j]}"
    if q.kind == "row_sum":
        i = sc.labels.index(p["query"])
        total = sc.weights[p["head"] - 1, i].sum()
        return "1" if np.isclose(total, 1, atol=1e-5) else "0"
    if q.kind == "mask_causal":
        i = sc.labels.index(p["query"])
        return tuple(j for j in range(Lk) if j <= i)
    if q.kind == "mask_padding":
        return tuple(j for j in range(Lk) if j not in sc.settings.padded)
    if q.kind == "d_k":
        return d // h
    if q.kind == "concat_shape":
        return f"{L} × {d}"
    if q.kind == "params":
        return 4 * d * d
    if q.kind == "qk_mults":
        return L * Lk * d
    raise AssertionError(q.kind)


@pytest.fixture(scope="module")
def generated():
    out = {}
    for name, s in SETTINGS.items():
        sc = run_scene(s)
        out[name] = (sc, {seed: make_questions(sc, seed) for seed in SEEDS})
    return out


@pytest.mark.parametrize("name", list(SETTINGS))
def test_every_answer_matches_an_independent_computation(generated, name):
    sc, by_seed = generated[name]
    for questions in by_seed.values():
        for q in questions:
            right = expected(q, sc)
            assert q.options.count(right) == 1, (q.kind, q.options, right)  # exactly one correct option
            assert q.correct == right
            assert len(set(q.options)) == len(q.options) >= 2
            if q.kind == "row_sum":  # no second option that is the same number written differently
                values = [Fraction(o) for o in q.options]
                assert values.count(Fraction(right)) == 1, q.options


@pytest.mark.parametrize("name", list(SETTINGS))
def test_questions_fit_the_setting(generated, name):
    sc, by_seed = generated[name]
    kinds = {q.kind for q in by_seed[0]}
    assert {"d_k", "concat_shape", "params", "qk_mults", "row_sum"} <= kinds
    assert ("mask_causal" in kinds) == (sc.settings.mask == "causal" and len(sc.tokens) > 1)
    assert ("mask_padding" in kinds) == (sc.settings.mask == "chosen")
    assert ("argmax" in kinds) == (len(sc.kv_tokens) > 1)


def test_cross_attention_questions_use_both_lengths(generated):
    sc, by_seed = generated["cross"]
    qk = next(q for q in by_seed[0] if q.kind == "qk_mults")
    assert (qk.kwargs["L"], qk.kwargs["Lk"]) == (6, 8) and qk.correct == 6 * 8 * 16
    argmax = next(q for q in by_seed[0] if q.kind == "argmax")
    assert all(o in sc.kv_labels for o in argmax.options)  # keys come from the second sentence


def test_same_seed_same_questions_new_seed_new_ones(generated):
    sc, by_seed = generated["default"]
    assert make_questions(sc, 0) == by_seed[0]
    assert [q.ident for q in by_seed[0]] == [q.ident for q in make_questions(sc, 0)]
    assert by_seed[0] != by_seed[1]


def test_answer_position_is_not_given_away_by_order(generated):
    positions: dict[str, set[int]] = {}
    for _, by_seed in generated.values():
        for questions in by_seed.values():
            for q in questions:
                positions.setdefault(q.kind, set()).add(q.answer)
    for kind in ("d_k", "concat_shape", "params", "qk_mults", "row_sum", "argmax"):
        assert len(positions[kind]) >= 3, (kind, positions[kind])


def test_every_kind_translates_with_its_parameters(generated):
    names: set[str] = set()
    for sc, by_seed in generated.values():
        for q in by_seed[0]:
            names.add(q.kind)
            for lang in i18n.LANGS:
                assert i18n.t(f"quiz.{q.kind}.prompt", lang, **q.kwargs)
                assert i18n.t(f"quiz.{q.kind}.explain", lang, **q.explain_kwargs)
                assert all(option_text(o, sc.kv_labels) for o in q.options)
    assert names == set(KINDS)
    for kind in KINDS:
        for part in ("prompt", "explain"):
            fields = {f for _, f, _, _ in string.Formatter().parse(i18n.t(f"quiz.{kind}.{part}")) if f}
            assert fields, (kind, part)


def test_keys_text_shortens_runs():
    labels = [f"{i}:t{i}" for i in range(8)]
    assert keys_text((0, 1, 2, 3), labels) == "0:t0 … 3:t3"
    assert keys_text((1, 3, 4, 5, 6, 7), labels) == "1:t1, 3:t3 … 7:t7"
    assert keys_text((0, 1, 2), labels) == "0:t0, 1:t1, 2:t2"


# ---------------------------------------------------------------- the page
def open_page(make_app, **state):
    at = make_app(**state)
    at.run()
    at.run()
    at.switch_page(PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def page_questions(s: Settings, seed: int = 0) -> list[tuple[str, Question]]:
    return [(f"quiz_{seed}_{q.ident}", q) for q in make_questions(run_scene(s), seed)]


def test_reveal_flow(make_app):
    at = open_page(make_app)
    qs = page_questions(Settings())
    assert {r.key for r in at.radio if r.key.startswith("quiz_")} == {k for k, _ in qs}
    assert not at.success and not at.error
    (k1, q1), (k2, q2), (k3, _) = qs[:3]
    at.radio(key=k1).set_value(q1.answer)
    at.radio(key=k2).set_value((q2.answer + 1) % len(q2.options))
    at.run()
    for key in (k1, k2, k3):
        at.button(key=f"{key}_reveal").click().run()
    assert not at.exception
    assert len(at.success) == 1 and "Right" in at.success[0].value
    assert len(at.error) == 1 and option_text(q2.correct, run_scene(Settings()).kv_labels) in at.error[0].value
    assert len(at.info) >= 1 and any("No answer picked" in i.value for i in at.info)
    assert at.radio(key=k1).disabled
    # the explanation shows the actual weights row of that query
    sc = run_scene(Settings())
    assert q1.kind == "argmax"
    row = sc.weights[q1.kwargs["head"] - 1, sc.labels.index(q1.kwargs["query"])]
    assert any(f"{row.max():.3f}" in m.value for m in at.markdown)
    assert any("Revealed: 3 of" in c.value and "right: 1" in c.value for c in at.caption)

    at.button(key="quiz_new").click().run()
    assert {r.key for r in at.radio if r.key.startswith("quiz_")} == {k for k, _ in page_questions(Settings(), 1)}
    assert not at.success and not at.error


def test_page_in_chinese_with_a_causal_mask_and_cross_attention(make_app):
    s = dataclasses.replace(Settings(), cross=True, text_kv="Le chat dort .", mask="causal")
    at = open_page(make_app, lang="zh", cross=True, text_kv=s.text_kv, mask="causal")
    qs = page_questions(s)
    assert any(q.kind == "mask_causal" for _, q in qs)
    key, q = qs[0]
    at.radio(key=key).set_value(q.answer).run()
    at.button(key=f"{key}_reveal").click().run()
    assert not at.exception
    assert len(at.success) == 1 and "答对了" in at.success[0].value
