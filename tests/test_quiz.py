"""Predict, then reveal: every kind's answer against a computation written here (numpy, torch, the notes'
numbers), variety across draws, answers checked and serialised, the worked example by hand, and the page's
answers surviving a page switch and a reload."""

from __future__ import annotations

import dataclasses
import json
import math
import re

import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import i18n
from explorer import Settings, apply_preset, run_scene, validate
from explorer.quiz import (
    KINDS,
    Question,
    check_answer,
    draw_question,
    feedback,
    make_questions,
    render,
)
from explorer.quiz_llm import LLM_KINDS
from explorer.quiz_model import parse_number, parse_shape
from tests.test_quiz_llm import llm_expected

PAGE = "app_pages/quiz.py"
SMALL = Settings(text="the cat sat on the mat again", d_model=16, n_heads=4)
SETTINGS = {
    "default": Settings(),
    "worked": apply_preset(Settings(), "worked"),
    "paper": apply_preset(Settings(), "paper"),
    "zh": apply_preset(Settings(), "zh"),
    "causal": dataclasses.replace(SMALL, mask="causal"),
    "chosen": dataclasses.replace(SMALL, mask="chosen", padded=(1, 4)),
    "cross": dataclasses.replace(SMALL, cross=True, text_kv="Le chat dort sur le tapis rouge ."),
    "cross_causal": dataclasses.replace(SMALL, cross=True, text_kv="a b c d e f g h", mask="causal"),
    "cross_chosen": dataclasses.replace(SMALL, cross=True, text_kv="a b c", mask="chosen", padded=(0,)),
    "one_head": dataclasses.replace(SMALL, n_heads=1),
    "unscaled": dataclasses.replace(SMALL, scale=False, seed=7),
    "one_token": dataclasses.replace(SMALL, text="hello"),
    "d_k_one": dataclasses.replace(SMALL, d_model=4, n_heads=4),
}
SEEDS = range(6)
# note 001's worked example, copied from the note (X, W_1^Q, W_2^Q) and its printed (wrong) Q_1, Q_2
NOTE_X = np.array([[1, 0.5, -1, 2], [-0.5, 1, 0.3, -2]])
NOTE_WQ = {1: np.array([[0.1, 0.4], [-0.2, 0.3], [1.0, -0.5], [0.5, 0.2]]),
           2: np.array([[-0.3, 0.2], [1.1, 0.6], [-0.4, 0.8], [0.7, -0.1]])}  # fmt: skip
NOTE_Q_PRINTED = {1: np.array([[0.85, -0.05], [-0.29, 0.74]]), 2: np.array([[2.15, 0.65], [-1.32, 1.02]])}
FALSE_CLAIMS = {"q1", "params3", "orthogonal", "blockdiag"}
TRUE_CLAIMS = {"dk", "cost", "wo", "scores", "free", "scale"}


def value(text: str) -> float:
    return float(str(text).replace("−", "-").replace(",", ""))


def numbers(text: str) -> list[float]:
    return [value(x) for x in re.findall(r"[−-]?\d+(?:\.\d+)?", text)]


def n_weights(d: int, h: int) -> int:
    """torch's own layer, on the meta device (no memory even at d_model 12288)."""
    layer = torch.nn.MultiheadAttention(d, h, bias=False, device="meta")
    return sum(p.numel() for p in layer.parameters())


def mults(step: str, L: int, d: int) -> int:
    """Scalar multiplications of one step of self-attention, counted as loops over the entries."""
    return {"qk": L * L * d, "av": L * L * d, "proj": L * d * d}[step]


def opt_name(q: Question, i: int) -> str:
    return q.options[i].label.key.rsplit("_", 1)[-1] if q.options[i].label.key else q.options[i].label.args["text"]


def entropy_change(a: int, b: int, n: int, scaled: bool) -> float:
    """Mean softmax entropy at d_k = b over that at d_k = a, random unit-variance queries and keys."""
    rng = np.random.default_rng(0)

    def mean_entropy(dk: int) -> float:
        q, k = rng.standard_normal((2000, dk)), rng.standard_normal((2000, n, dk))
        s = np.einsum("rd,rnd->rn", q, k) / (math.sqrt(dk) if scaled else 1)
        p = np.exp(s - s.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        return float(-(p * np.log(np.clip(p, 1e-30, None))).sum(axis=1).mean())

    return mean_entropy(b) / mean_entropy(a)


def permutation_outcome(case: str, n: int, a: int, b: int) -> str:
    """Swap tokens a and b and look at torch's attention output: swap / same / only_ab / other."""
    torch.manual_seed(0)
    d = 16
    layer = torch.nn.MultiheadAttention(d, 4, batch_first=True)
    x = torch.randn(1, n, d)
    pos = torch.arange(n)[:, None].float()
    i = torch.arange(0, d, 2).float()
    pe = torch.zeros(n, d)
    pe[:, 0::2], pe[:, 1::2] = torch.sin(pos / 10000 ** (i / d)), torch.cos(pos / 10000 ** (i / d))
    mask = torch.triu(torch.ones(n, n, dtype=torch.bool), 1) if case == "causal" else None

    def run(inp: torch.Tensor) -> torch.Tensor:
        inp = inp + pe if case == "pe" else inp
        with torch.no_grad():
            return layer(inp, inp, inp, attn_mask=mask)[0][0]

    perm = list(range(n))
    perm[a], perm[b] = b, a
    y, y2 = run(x), run(x[:, perm])
    if torch.allclose(y2, y[perm], atol=1e-5):
        return "swap"
    if torch.allclose(y2, y, atol=1e-5):
        return "same"
    others = [r for r in range(n) if r not in (a, b)]
    return "only_ab" if torch.allclose(y2[others], y[others], atol=1e-5) else "other"


def listed(keys: list[int], labels) -> str:
    """Key labels as the options print them: a run of more than three neighbours as 'first … last'."""
    groups: list[list[int]] = []
    for j in keys:
        (groups[-1].append(j) if groups and groups[-1][-1] == j - 1 else groups.append([j]))
    return ", ".join(f"{labels[g[0]]} … {labels[g[-1]]}" if len(g) > 3 else ", ".join(labels[j] for j in g)
                     for g in groups)  # fmt: skip


def expected(q: Question, sc) -> object:
    """The right answer of `q`, computed here from the prompt's numbers, the Scene's arrays or torch."""
    p = q.prompt.args
    L, Lk, d, h = len(sc.tokens), len(sc.kv_tokens), sc.settings.d_model, sc.settings.n_heads
    if q.kind == "d_k":
        return p["d"] // p["h"]
    if q.kind == "shape":
        arrays = {"Q_i": sc.q[0], "K_iᵀ": sc.k[0].T, "A_i": sc.weights[0], "head_i": sc.head_outputs[0],
                  "Concat": sc.concat, "W_i^Q": sc.w_q_heads[0], "W^O": sc.w_o}  # fmt: skip
        return list(arrays[p["name"]].shape)
    if q.kind == "params":
        return n_weights(p["d"], p["h"])
    if q.kind == "heads_params":
        d_of = (lambda hh: p["d"]) if "d" in p else (lambda hh: hh * p["dk"])
        assert value(p["p1"]) == n_weights(d_of(p["h1"]), p["h1"])
        new = n_weights(d_of(p["h2"]), p["h2"])
        return next(i for i, o in enumerate(q.options) if value(o.label.args["p"]) == new)
    if q.kind == "qk_mults":
        one = L * Lk * (d // h)
        return one if q.prompt.key.endswith("_one") else one * h
    if q.kind == "cost_scaling":
        k, step = p["k"], {"Q Kᵀ": "qk", "A V": "av", "Q = X W": "proj"}[p["step"]]
        grow_L = q.prompt.key.endswith("_L")
        return mults(step, 7 * (k if grow_L else 1), 8 * (1 if grow_L else k)) / mults(step, 7, 8)
    if q.kind == "softmax_weight":
        pairs = re.findall(r"(\S+) = ([−-]?\d+\.\d+)", p["scores"])
        labels, shown = [lab for lab, _ in pairs], np.array([value(s) for _, s in pairs])
        if "head" in p:  # the scene's row: the shown scores are its scaled scores, rounded; masked keys left out
            hh, i = p["head"] - 1, sc.labels.index(p["query"])
            visible = [j for j in range(Lk) if sc.kv_labels[j] in labels]
            qk = sc.q[hh, i] @ sc.k[hh, visible].T / (math.sqrt(sc.d_k) if sc.settings.scale else 1)
            np.testing.assert_allclose(shown, qk, atol=0.006)
            assert not any(np.isneginf(sc.masked_scores[hh, i, visible]))
        e = np.exp(shown)
        return float(e[labels.index(p["kv"])] / e.sum())
    if q.kind == "score_by_hand":
        qv, kv = np.array(numbers(p["q"])), np.array(numbers(p["k"]))
        if "head" in p:
            np.testing.assert_allclose(qv, sc.q[p["head"] - 1, sc.labels.index(p["query"])], atol=0.006)
            np.testing.assert_allclose(kv, sc.k[p["head"] - 1, sc.kv_labels.index(p["kv"])], atol=0.006)
        return float(qv @ kv / math.sqrt(len(qv)))
    if q.kind == "argmax":
        row = sc.weights[p["head"] - 1, sc.labels.index(p["query"])]
        top = np.sort(row)[::-1]
        assert top[0] - top[1] >= 0.15  # a clear winner, or the question is not asked
        return sc.kv_labels[int(np.argmax(row))]
    if q.kind in ("mask_causal", "mask_padding"):
        i = sc.labels.index(p["query"])
        hidden = {j for j in range(Lk) if j > i} if q.kind == "mask_causal" else set(sc.settings.padded)
        return listed([j for j in range(Lk) if j not in hidden], sc.kv_labels)
    if q.kind == "cross_shape":
        layer = torch.nn.MultiheadAttention(8, 2)
        _, w = layer(torch.randn(p["Lq"], 8), torch.randn(p["Lk"], 8), torch.randn(p["Lk"], 8),
                     average_attn_weights=False)  # fmt: skip
        return list(w.shape[1:])
    if q.kind == "note002_shape":
        B, T, dd, hh = p["B"], p["T"], p["d"], p["h"]
        x = torch.randn(B, T, dd)
        qf = x @ torch.randn(dd, dd)
        split = qf.view(B, T, hh, dd // hh).transpose(1, 2)
        scores = split @ split.transpose(-2, -1)
        out = scores.softmax(-1) @ split
        concat = out.transpose(1, 2).reshape(B, T, dd)
        tensors = {"q": qf, "q_split": split, "scores": scores, "head_out": out, "concat": concat}
        return list(tensors[q.prompt.key.split("prompt_")[1]].shape)
    if q.kind == "stacked_wq":
        layer = torch.nn.MultiheadAttention(p["d"], p["h"], bias=False, device="meta")
        return list(layer.in_proj_weight[: p["d"]].T.shape)  # torch keeps (out, in); X W^Q needs (in, out)
    if q.kind == "pe_wavelength":
        lam = q.answer
        omega = 1 / float(p["base"]) ** (2 * p["j"] / p["d"])
        pos = np.arange(50.0)
        assert np.allclose(np.sin((pos + lam) * omega), np.sin(pos * omega), atol=1e-6)
        assert not np.allclose(np.sin((pos + lam / 2) * omega), np.sin(pos * omega), atol=1e-3)
        return 2 * np.pi / omega
    if q.kind == "note001_entry":
        true = NOTE_X @ NOTE_WQ[p["head"]]
        r, c = p["r"] - 1, p["c"] - 1
        assert value(p["note"]) == NOTE_Q_PRINTED[p["head"]][r, c] != pytest.approx(true[r, c], abs=0.01)
        return float(true[r, c])
    if q.kind == "note_error":
        return next(i for i in range(len(q.options)) if opt_name(q, i) in FALSE_CLAIMS)
    if q.kind == "entropy_scaling":
        ratio = entropy_change(p["a"], p["b"], p["n"], q.prompt.key.endswith("_on"))
        name = "same" if abs(ratio - 1) < 0.1 else ("falls" if ratio < 0.9 else "rises")
        return next(i for i in range(len(q.options)) if opt_name(q, i) == name)
    if q.kind == "permutation":
        labels = sc.labels if len(sc.labels) >= 4 else [str(i) for i in range(p["n"])]
        case = q.prompt.key.split("prompt_")[1]
        got = permutation_outcome(case, p["n"], labels.index(p["a"]), labels.index(p["b"]))
        return next(i for i in range(len(q.options)) if q.options[i].label.key.endswith(f"opt_{got}"))
    if q.kind in LLM_KINDS:  # the kinds of today's decoders: tests/test_quiz_llm.py
        return llm_expected(q, sc)
    raise AssertionError(q.kind)


@pytest.fixture(scope="module")
def drawn():
    out = {}
    for name, s in SETTINGS.items():
        sc = run_scene(s)
        out[name] = (sc, {seed: make_questions(sc, seed) for seed in SEEDS})
    return out


@pytest.mark.parametrize("name", list(SETTINGS))
def test_every_answer_matches_an_independent_computation(drawn, name):
    sc, by_seed = drawn[name]
    for questions in by_seed.values():
        for q in questions:
            right = expected(q, sc)
            if q.answer_type == "number":
                assert abs(q.answer - right) <= max(q.tolerance, 1e-9), (q.kind, q.answer, right)
                assert check_answer(q, right) and check_answer(q, f"{right:.3f}")
                assert not check_answer(q, right + 3 * q.tolerance + 0.5 + abs(right))
            elif q.answer_type == "shape":
                assert q.answer == right, (q.kind, q.answer, right)
                assert check_answer(q, " × ".join(map(str, right))) and check_answer(q, "x".join(map(str, right)))
            elif q.kind in ("argmax", "mask_causal", "mask_padding"):
                assert q.options[q.answer].label.args["text"] == right
            elif right is not None:
                assert q.answer == right, (q.kind, q.answer, right)
            if q.answer_type == "choice":  # exactly one right option; no two options read the same
                labels = [json.dumps(o.label.args, sort_keys=True) + o.label.key for o in q.options]
                assert len(set(labels)) == len(labels) >= 2
                assert [check_answer(q, i) for i in range(len(q.options))].count(True) == 1


def test_mask_questions_against_the_settings(drawn):
    for name, mask in (("causal", "causal"), ("chosen", "padding")):
        sc, by_seed = drawn[name]
        for questions in by_seed.values():
            q = next(q for q in questions if q.kind == f"mask_{mask}")
            i = sc.labels.index(q.prompt.args["query"])
            keys = range(len(sc.kv_tokens))
            visible = [j for j in keys if (j <= i if mask == "causal" else j not in sc.settings.padded)]
            assert q.prompt.args and q.explain.args["n_visible"] == len(visible)
            assert q.options[q.answer].explain.key.endswith("why_right")


def test_the_bank_has_at_least_15_kinds_each_drawn_somewhere(drawn):
    assert len(KINDS) >= 15 and len(set(KINDS)) == len(KINDS)
    seen = {q.kind for _, by_seed in drawn.values() for qs in by_seed.values() for q in qs}
    assert seen == set(KINDS)
    assert "row_sum" not in KINDS  # always 1: not a question


@pytest.mark.parametrize("name", ["default", "worked", "causal", "chosen", "cross"])
def test_no_kind_asks_the_same_question_on_three_draws(drawn, name):
    sc, _ = drawn[name]
    for kind in KINDS:
        draws = [draw_question(kind, scene=sc, seed=seed) for seed in (0, 1, 2)]
        if draws[0] is None:
            continue
        asked = {(json.dumps(q.prompt.args, sort_keys=True), q.prompt.key, json.dumps(q.answer)) for q in draws}
        if kind == "argmax" and name == "worked":  # two tokens: one clear row only
            continue
        assert len(asked) >= 2, (name, kind, asked)


def test_argmax_is_asked_only_with_a_clear_winner():
    # equal weights everywhere (all-zero input): no row has a winner, so the question is not asked
    s = dataclasses.replace(SMALL, x_edits=tuple((i, j, 0.0) for i in range(7) for j in range(16)), add_pe=False)
    sc = run_scene(s)
    assert np.allclose(sc.weights, 1 / 7)
    assert all(draw_question("argmax", scene=sc, seed=seed) is None for seed in range(5))


def test_worked_example_quiz_works_by_hand(drawn):
    """Every number a student is shown has at most two decimals (1 for the note's matrices), sizes are small,
    and the answer computed from the shown numbers is inside the tolerance (checked in `expected`)."""
    _, by_seed = drawn["worked"]
    kinds = set()
    for questions in by_seed.values():
        for q in questions:
            kinds.add(q.kind)
            for v in q.prompt.args.values():
                for x in re.findall(r"\d+\.\d+", str(v)):
                    assert len(x.split(".")[1]) <= 2, (q.kind, v)
                if isinstance(v, int) or re.fullmatch(r"[\d,]+", str(v)):  # sizes and counts stay small
                    assert value(v) <= 100_000 or q.kind == "note002_shape", (q.kind, v)
            exact_counts = ("cost_scaling", "d_k", "params", "qk_mults", "kv_cache_mib", "gqa_params",
                            "cache_step_scores", "recompute_ratio", "window_reach")  # whole numbers, typed exactly
            if q.answer_type == "number" and q.kind not in exact_counts:
                assert q.tolerance >= 0.005
    assert {"softmax_weight", "score_by_hand", "note001_entry"} <= kinds
    sm = [q for qs in by_seed.values() for q in qs if q.kind == "softmax_weight"]
    assert all("head" in q.prompt.args for q in sm)  # the worked example's own scores, two keys


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=st.text(min_size=1, max_size=40), d_model=st.sampled_from([1, 2, 4, 8, 16]), n_heads=st.sampled_from([1, 2]),
    mask=st.sampled_from(["none", "causal", "padding", "chosen"]), cross=st.booleans(), scale=st.booleans(),
    padded=st.lists(st.integers(0, 6), max_size=7), big=st.sampled_from([0.0, 1e4, -1e4]), seed=st.integers(0, 99),
)  # fmt: skip
def test_any_valid_setting_gives_questions_that_render(text, d_model, n_heads, mask, cross, scale, padded, big, seed):
    s = Settings(preset="custom", text=text, text_kv="a b", d_model=d_model, n_heads=n_heads, mask=mask, cross=cross,
                 scale=scale, padded=tuple(padded), x_edits=((0, 0, big),) if big else ())  # fmt: skip
    if validate(s):
        return
    for q in make_questions(run_scene(s), seed):
        if q.answer_type == "number":
            assert math.isfinite(q.answer) and check_answer(q, q.answer)
        assert Question.from_dict(json.loads(json.dumps(q.to_dict()))) == q
        for lang in i18n.LANGS:
            render(q, lang)


def test_answers_are_checked_leniently_and_wrong_answers_explained():
    sc = run_scene(SETTINGS["worked"])
    q = draw_question("note001_entry", scene=sc, seed=0)
    assert check_answer(q, str(q.answer)) and check_answer(q, f"{q.answer:.2f}".replace("-", "−"))
    assert not check_answer(q, q.prompt.args["note"].replace("−", "-"))
    assert feedback(q, q.prompt.args["note"].replace("−", "-")).key == "quiz.note001_entry.trap_note"
    assert parse_number("０.２５") == 0.25 and parse_number("1,024") == 1024 and parse_number("0,25") == 0.25
    assert parse_number("1/4") == 0.25 and parse_number("abc") is None and parse_number("9" * 50) is None
    assert parse_shape("(32, 8, 20, 20)") == [32, 8, 20, 20] and parse_shape("6x8") == [6, 8]
    assert parse_shape("６ × ８") == [6, 8] and parse_shape("2 ×") == [2] and parse_shape("two") is None
    c = draw_question("note_error", scene=sc, seed=1)
    wrong = (c.answer + 1) % len(c.options)
    assert feedback(c, wrong) == c.options[wrong].explain and not check_answer(c, wrong)
    assert check_answer(c, str(c.answer)) and not check_answer(c, True) and not check_answer(c, 99)


def test_questions_are_json_and_render_in_both_languages(drawn):
    for _, by_seed in drawn.values():
        for q in by_seed[0]:
            back = Question.from_dict(json.loads(json.dumps(q.to_dict())))
            assert back == q and back.ident == q.ident
            for lang in i18n.LANGS:
                r = render(q, lang)
                assert r["prompt"] and r["explain"] and r["answer_text"]
                assert all(o["label"] and o["explain"] for o in r["options"])
                assert all(t["explain"] for t in r["traps"])
                json.dumps(r, ensure_ascii=False)
    zh = render(draw_question("d_k", Settings(), seed=0, lang="zh"))
    assert "请输入" in zh["prompt"]


def test_same_seed_same_questions_new_seed_new_ones(drawn):
    sc, by_seed = drawn["default"]
    assert make_questions(sc, 0) == by_seed[0]
    assert [q.ident for q in by_seed[0]] != [q.ident for q in by_seed[1]]
    with pytest.raises(KeyError):
        draw_question("nope", Settings())


def test_answer_position_is_not_given_away(drawn):
    positions: dict[str, set[int]] = {}
    for _, by_seed in drawn.values():
        for questions in by_seed.values():
            for q in questions:
                if q.answer_type == "choice":
                    positions.setdefault(q.kind, set()).add(q.answer)
    for kind in ("note_error", "entropy_scaling", "permutation", "heads_params"):
        assert len(positions[kind]) >= 3, (kind, positions[kind])


# ---------------------------------------------------------------- the page
def open_quiz(make_app, query: dict | None = None, **state):
    at = make_app(**state)
    if query:
        at.query_params.update(query)
    at.run()
    at.switch_page(PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def key_of(q: Question, seed: int = 0) -> str:
    return f"quiz_{seed}_{q.ident}"


def test_answers_survive_a_page_switch_and_a_reload(make_app):
    questions = make_questions(run_scene(Settings()), 0)
    typed = next(q for q in questions if q.answer_type == "number" and q.kind == "d_k")
    choice = next(q for q in questions if q.answer_type == "choice")
    shape = next(q for q in questions if q.answer_type == "shape")
    at = open_quiz(make_app)
    at.text_input(key=key_of(typed)).input(str(int(typed.answer))).run()
    at.radio(key=key_of(choice)).set_value((choice.answer + 1) % len(choice.options)).run()
    at.text_input(key=key_of(shape)).input("1 x 1").run()  # answered, not revealed
    at.button(key=key_of(typed) + "_reveal").click().run()
    at.button(key=key_of(choice) + "_reveal").click().run()
    assert any("Revealed: 2 of" in c.value and "right: 1" in c.value for c in at.caption)
    assert len(at.success) == 1 and len(at.error) == 1

    def same_state(app) -> None:
        assert not app.exception, [e.value for e in app.exception]
        assert any("Revealed: 2 of" in c.value and "right: 1" in c.value for c in app.caption)
        assert len(app.success) == 1 and len(app.error) == 1
        assert app.text_input(key=key_of(shape)).value == "1 x 1"
        assert not any("No answer given" in i.value for i in app.info)

    at.switch_page("app_pages/steps.py").run()
    at.switch_page(PAGE).run()
    same_state(at)
    link = dict(at.query_params)
    assert link["quiz"] == "0" and "qa" in link and len(link["qa"]) < 600
    class_link = next(c.value for c in at.code if "quiz=" in c.value)  # what the teacher hands out
    assert "quiz=0" in class_link and "lang=en" in class_link and "qa=" not in class_link

    fresh = open_quiz(make_app, query=link)  # a reload: a new session, the same URL
    same_state(fresh)


def test_the_set_is_in_the_link_and_a_bad_link_is_ignored(make_app):
    at = open_quiz(make_app, query={"quiz": "3"})
    keys = {r.key for r in at.radio if r.key.startswith("quiz_")}
    assert keys == {key_of(q, 3) for q in make_questions(run_scene(Settings()), 3) if q.answer_type == "choice"}
    at.button(key="quiz_new").click().run()
    assert at.query_params["quiz"] == "4"
    bad = open_quiz(make_app, query={"quiz": "x" * 30, "qa": "zzzz~0:1!~" + "9" * 700})
    assert bad.query_params["quiz"] == "0" and not bad.success and not bad.error
    assert not any("ignored" in w.value.lower() for w in bad.warning)


def test_reveal_shows_each_options_own_explanation_in_chinese(make_app):
    s = dataclasses.replace(Settings(), cross=True, text_kv="Le chat dort .", mask="causal")
    at = open_quiz(make_app, lang="zh", cross=True, text_kv=s.text_kv, mask="causal")
    q = next(q for q in make_questions(run_scene(s), 0) if q.kind == "mask_causal")
    wrong = (q.answer + 1) % len(q.options)
    at.radio(key=key_of(q)).set_value(wrong).run()
    at.button(key=key_of(q) + "_reveal").click().run()
    assert not at.exception
    assert len(at.error) == 1 and "不对" in at.error[0].value
    own = i18n.t(q.options[wrong].explain.key, "zh", **q.options[wrong].explain.args)
    assert any(own.split("：")[0][:6] in m.value for m in at.markdown)
    assert not [r for r in at.radio if r.key == key_of(q)]  # revealed: plain text, not a greyed-out radio
