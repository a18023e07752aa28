"""The quiz kinds of today's decoders (explorer/quiz_llm.py): every answer against an independent computation
(`llm_expected`, also used by tests/test_quiz.py for every setting it draws): a filled KVCache, transformers'
LlamaAttention on the meta device, SDPA with enable_gqa, torch's FlopCounterMode, BLOOM's build_alibi_tensor,
Llama's rotary embedding, autograd through stacked windowed layers, and the softmax written out. Each kind also
travels to a live class (explorer/live_questions.py) with an answer the class's grading accepts."""

from __future__ import annotations

import functools
import json
import math
import random
import re

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch.utils.flop_counter import FlopCounterMode

import i18n
from explorer import Settings, apply_preset, run_scene
from explorer.live_questions import quiz_kinds, quiz_question
from explorer.quiz import KINDS, answer_text, check_answer, draw_question, render
from explorer.quiz_llm import LLM_KINDS
from explorer.quiz_llm import LLM_MAKERS as MAKERS_LLM
from mha_core import AttentionConfig, KVCache, MultiHeadAttention, tiled_attention


def _value(text: object) -> float:
    return float(str(text).replace("−", "-").replace(",", ""))


def _option(q, suffix: str) -> int:
    return next(i for i, o in enumerate(q.options) if o.label.key.endswith(suffix))


@functools.cache  # the same sizes come back in many draws: each oracle runs once per size
def kv_cache_bytes_filled(layers: int, g: int, dk: int, length: int) -> int:
    """The bytes of `layers` KV caches filled with L tokens of g heads of d_k 16-bit numbers (on the meta device: the
    real shapes, no memory)."""
    total = 0
    for _ in range(layers):
        cache = KVCache()
        k = v = torch.empty(1, g, length, dk, dtype=torch.float16, device="meta")  # real shapes, no memory
        cache.append(k, v)
        total += cache.nbytes
    return total


@functools.cache  # the same sizes come back in many draws: each oracle runs once per size
def llama_weights(d: int, h: int, g: int) -> int:
    from transformers.models.llama.modeling_llama import LlamaAttention, LlamaConfig

    cfg = LlamaConfig(hidden_size=d, num_attention_heads=h, num_key_value_heads=g, head_dim=d // h,
                      attention_bias=False)  # fmt: skip
    with torch.device("meta"):
        attn = LlamaAttention(cfg, layer_idx=0)
    return sum(p.numel() for p in attn.parameters())


@functools.cache  # the same sizes come back in many draws: each oracle runs once per size
def gqa_group_of(h: int, g: int, i: int) -> int:
    """Which K/V head SDPA with enable_gqa gives query head i (1-based): the one whose separate result matches."""
    gen = torch.Generator().manual_seed(h * 100 + g)
    q, k, v = (torch.randn(1, n, 3, 2, generator=gen, dtype=torch.float64) for n in (h, g, g))
    shared = F.scaled_dot_product_attention(q, k, v, enable_gqa=True)
    hits = [j for j in range(g) if torch.allclose(shared[:, i - 1], F.scaled_dot_product_attention(
        q[:, i - 1], k[:, j], v[:, j]))]  # fmt: skip
    assert len(hits) == 1
    return hits[0] + 1


@functools.cache  # the same sizes come back in many draws: each oracle runs once per size
def cached_step_scores(t: int) -> int:
    mha = MultiHeadAttention(AttentionConfig(4, 2, seed=1))
    cache = KVCache()
    with torch.no_grad():
        mha(torch.randn(t, 4), causal=True, cache=cache)
        step = mha(torch.randn(1, 4), causal=True, cache=cache)
    return step.scores[0].numel()


@functools.cache  # the same sizes come back in many draws: each oracle runs once per size
def flops_ratio(t: int) -> float:
    mha = MultiHeadAttention(AttentionConfig(16, 4, bias=False))
    x = torch.randn(t, 16)
    cache = KVCache()
    with torch.no_grad():
        if t > 1:
            mha(x[: t - 1], causal=True, cache=cache)
        with FlopCounterMode(display=False) as cached:
            mha(x[t - 1 :], causal=True, cache=cache)
        with FlopCounterMode(display=False) as full:
            mha(x, causal=True)
    return full.get_total_flops() / cached.get_total_flops()


@functools.cache  # the same sizes come back in many draws: each oracle runs once per size
def shift_changes_scores(method: str, s: int) -> bool:
    """Do the attention weights change when a 6-token sentence moves s positions? Each method by its own oracle."""
    torch.manual_seed(0)
    length, d, h = 6, 16, 2
    x = torch.randn(1, length, d)
    if method == "rope":  # transformers' Llama, position ids shifted
        from transformers.models.llama.modeling_llama import LlamaAttention, LlamaConfig, LlamaRotaryEmbedding

        cfg = LlamaConfig(hidden_size=d, num_attention_heads=h, num_key_value_heads=h, head_dim=d // h)
        cfg._attn_implementation = "eager"
        attn, rot = LlamaAttention(cfg, layer_idx=0).eval(), LlamaRotaryEmbedding(cfg)
        mask = torch.zeros(length, length).masked_fill(torch.ones(length, length, dtype=torch.bool).triu(1),
                                                       float("-inf"))[None, None]  # fmt: skip
        with torch.no_grad():
            runs = [attn(x, position_embeddings=rot(x, torch.arange(start, start + length)[None]),
                         attention_mask=mask)[1] for start in (0, s)]  # fmt: skip
        return not torch.allclose(runs[0], runs[1], atol=1e-4)
    if method == "alibi":  # BLOOM's bias m_i j, for keys at positions start..start+L-1
        from transformers.models.bloom.modeling_bloom import build_alibi_tensor

        scores = torch.randn(h, length, length)
        runs = []
        for start in (0, s):
            alibi = build_alibi_tensor(torch.ones(1, start + length), h, torch.float32)[:, :, start:]  # (h, 1, L)
            runs.append(torch.softmax(scores + alibi, -1))
        return not torch.allclose(runs[0], runs[1], atol=1e-5)
    layer = torch.nn.MultiheadAttention(d, h, batch_first=True)  # sinusoidal P added to X, written here
    pos = torch.arange(s + length)[:, None].float()
    i = torch.arange(0, d, 2).float()
    pe = torch.zeros(s + length, d)
    pe[:, 0::2], pe[:, 1::2] = torch.sin(pos / 10000 ** (i / d)), torch.cos(pos / 10000 ** (i / d))
    with torch.no_grad():
        runs = [layer(x + pe[start : start + length], x + pe[start : start + length], x + pe[start : start + length],
                      average_attn_weights=False)[1] for start in (0, s)]  # fmt: skip
    return not torch.allclose(runs[0], runs[1], atol=1e-4)


@functools.cache  # the same sizes come back in many draws: each oracle runs once per size
def bloom_bias(h: int, i: int, d: int) -> float:
    """What BLOOM's ALiBi adds for head i (1-based) to a key d positions back, relative to the query's own key."""
    from transformers.models.bloom.modeling_bloom import build_alibi_tensor

    alibi = build_alibi_tensor(torch.ones(1, d + 1), h, torch.float64)[i - 1, 0]  # (d + 1,): m_i j
    return float(alibi[0] - alibi[d])  # key 0 is d back from the query at position d


@functools.cache  # the same sizes come back in many draws: each oracle runs once per size
def reach_by_autograd(w: int, n: int) -> int:
    length = n * (w - 1) + 3
    if length > 64:  # too long to run: the reachable interval, expanded layer by layer over explicit windows
        earliest = {length - 1}
        for _ in range(n):
            earliest = {j for i in earliest for j in range(max(0, i - w + 1), i + 1)}
            earliest = {min(earliest)} | {length - 1}  # windows are intervals: the union is [min, last]
        return length - 1 - min(earliest)
    layers = [MultiHeadAttention(AttentionConfig(4, 1, seed=k)).double() for k in range(n)]
    x = torch.randn(length, 4, dtype=torch.float64, requires_grad=True)
    h = x
    for layer in layers:
        h = layer(h, causal=True, window=w).output
    (grad,) = torch.autograd.grad(h[-1].sum(), x)
    return length - 1 - int((grad.abs().sum(-1) > 0).nonzero().min())


def online_sum(m1: float, l1: float, b2: float, e2: float) -> float:
    """Two blocks of keys with exactly the shown statistics; the softmax denominator written out, and tiled."""
    blocks = [[m1, m1 + math.log(l1 - 1)], [b2, b2 + math.log(e2 - 1)]]  # max m1 (b2), sum of exp(s - max) = l1 (e2)
    scores = torch.tensor(blocks[0] + blocks[1], dtype=torch.float64)
    written = float(torch.exp(scores - scores.max()).sum())
    one = torch.ones(1, 1, dtype=torch.float64)  # q = 1, k = the scores: q k^T are the scores, in blocks of 2
    tiled = tiled_attention(one, scores.view(4, 1), torch.ones(4, 1, dtype=torch.float64), 2, scale=1.0)
    assert abs(float(tiled.running_sum[-1, 0]) - written) < 1e-9
    return written


def llm_expected(q, sc) -> object:
    """The right answer of a quiz question of today's decoders, computed here."""
    p = q.prompt.args
    if q.kind == "kv_cache_mib":
        filled = kv_cache_bytes_filled(p["layers"], p["g"], p["dk"], p["L"])
        return filled / 2**20 if q.prompt.key.endswith("_mib") else filled
    if q.kind == "gqa_params":
        return llama_weights(p["d"], p["h"], p["g"])
    if q.kind == "gqa_group":
        j = gqa_group_of(p["h"], p["g"], p["i"])
        return next(k for k, o in enumerate(q.options) if o.label.args["j"] == j)
    if q.kind == "cache_step_scores":
        return cached_step_scores(p["t"])
    if q.kind == "recompute_ratio":
        return flops_ratio(p["t"])
    if q.kind == "rope_shift":
        method = q.prompt.key.split("prompt_")[1]
        return _option(q, "opt_all" if shift_changes_scores(method, p["s"]) else "opt_none")
    if q.kind == "alibi_slope":
        return bloom_bias(p["h"], p["i"], p["d"])
    if q.kind == "window_reach":
        return reach_by_autograd(p["w"], p["n"])
    if q.kind == "online_softmax":
        return online_sum(*(_value(p[k]) for k in ("m1", "l1", "b2", "e2")))
    raise AssertionError(q.kind)


SETTINGS = {"default": Settings(), "worked": apply_preset(Settings(), "worked"), "zh": apply_preset(Settings(), "zh")}


@pytest.mark.parametrize("name", list(SETTINGS))
@pytest.mark.parametrize("kind", LLM_KINDS)
def test_every_llm_kind_matches_its_oracle_on_several_draws(name: str, kind: str) -> None:
    sc = run_scene(SETTINGS[name])
    asked = set()
    for seed in range(6):
        q = draw_question(kind, scene=sc, seed=seed)
        assert q is not None
        right = llm_expected(q, sc)
        if q.answer_type == "number":
            assert abs(q.answer - right) <= max(q.tolerance, 1e-9), (kind, q.answer, right)
            assert check_answer(q, answer_text(q)) and not check_answer(q, right + 1 + abs(right))
        else:
            assert q.answer == right and [check_answer(q, i) for i in range(len(q.options))].count(True) == 1
        for trap in q.traps:
            assert not check_answer(q, trap.value)
        asked.add(q.ident)
        for lang in i18n.LANGS:
            r = render(q, lang)
            assert r["prompt"] and r["explain"] and all(o["label"] and o["explain"] for o in r["options"])
            shown = re.sub(r"\\[A-Za-z]+\{", "", json.dumps(r, ensure_ascii=False))  # LaTeX's \text{model}: no field
            assert not re.search(r"\{[a-z_0-9]+\}", shown)  # every placeholder filled
            assert "{{" not in shown  # every text formatted: its LaTeX's doubled braces shown single
    assert len(asked) >= 2  # draws differ


def test_at_least_six_new_kinds_are_in_the_bank_and_the_live_class_offers_them() -> None:
    assert len(LLM_KINDS) >= 6 and set(LLM_KINDS) <= set(KINDS)
    sc = run_scene(Settings())
    offered = quiz_kinds(sc)
    assert set(LLM_KINDS) <= set(offered)
    for kind in LLM_KINDS:
        payload, solution = quiz_question(kind, sc, seed=1)
        payload, solution = json.loads(json.dumps(payload)), json.loads(json.dumps(solution))
        assert "answer" not in payload  # the answer travels apart, hidden until the reveal
        q = draw_question(kind, scene=sc, seed=1)
        if q.answer_type == "choice":
            assert solution == q.answer and len(payload["options"]) == len(q.options)
        else:
            from liveclass.typed import as_quiz, grade

            live = as_quiz(payload, solution)
            assert grade(live, solution["answer"]) and check_answer(live, answer_text(q))
        assert f"live.kind.{kind}" in i18n.STRINGS


def test_the_published_sizes_behind_the_kv_cache_questions_are_whole_mib() -> None:
    sc = run_scene(Settings())
    for seed in range(6):
        q = draw_question("kv_cache_mib", scene=sc, seed=seed)
        assert float(q.answer).is_integer() and q.tolerance == 0
        assert np.isclose(q.answer, llm_expected(q, sc))


def test_online_softmax_writes_no_double_minus() -> None:
    """A negative number subtracted in an exponent is written in brackets: e^(s − (−0.96)), never "s − −0.96"; the
    bracketed numbers are the ones the oracle reads (a running max m below 0 makes the explanation need it too)."""
    sc = run_scene(Settings())
    negative = 0
    for seed in range(300):
        q = MAKERS_LLM["online_softmax"](sc, random.Random(seed))
        p = q.prompt.args
        negative += _value(p["b2"]) < 0 or max(_value(p["m1"]), _value(p["b2"])) < 0
        for lang in i18n.LANGS:
            r = render(q, lang)
            for text in (r["prompt"], r["explain"]):
                assert not re.search(r"[−-]\s*[−-]", text), (seed, lang, text)
        if _value(p["b2"]) < 0:
            assert f"s − ({p['b2']})" in render(q, "en")["prompt"]
        assert abs(q.answer - online_sum(*(_value(p[k]) for k in ("m1", "l1", "b2", "e2")))) < 1e-9
    assert negative > 20  # the draws do reach negative maxima
