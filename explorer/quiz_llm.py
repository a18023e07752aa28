"""Quiz kinds of the section "From the notes to LLMs": the KV cache, shared K/V heads, RoPE, ALiBi, windows and the
online softmax. Makers as in quiz_bank, `(scene, rng) -> Question | None`; strings in i18n/catalog_llm.py
(`quiz.<kind>.*`, `live.kind.<kind>`); every answer checked against an independent computation in
tests/test_quiz_llm.py (a filled KVCache, transformers' Llama and BLOOM, SDPA, torch's FlopCounterMode, autograd).
On the worked example (done by hand) the sizes stay small.
"""

from __future__ import annotations

import math
import random

from .models import LLM_MODELS
from .pipeline import Scene
from .quiz_bank import _by_hand, _choice, _m, _typed, factor, num
from .quiz_model import Option, Question, Trap

MIB = 1 << 20
SMALL_DECODERS = ((2, 4, 2, 4), (2, 8, 4, 2), (3, 4, 1, 4), (2, 6, 3, 2))  # (layers, h, g, d_k) for the worked example


def kv_cache_mib(sc: Scene, rng: random.Random) -> Question:
    """The KV cache of a real decoder (16-bit numbers) in MiB; on the worked example a small one, in bytes."""
    if _by_hand(sc):
        layers, h, g, dk = rng.choice(SMALL_DECODERS)
        length, unit, name = rng.choice([4, 8, 10]), 1, ""
    else:
        m = rng.choice(LLM_MODELS)
        layers, h, g, dk, name = m.layers, m.n_heads, m.n_kv_heads, m.d_k, m.name
        # at most what the model holds: its context (GPT-3: 2,048), the last w tokens with a sliding window of w
        length, unit = rng.choice([n for n in (1024, 2048, 4096) if n <= m.cached_tokens]), MIB
    per = 2 * layers * g * dk * length * 2  # K and V, every layer, g heads of d_k, L tokens, 2 bytes
    traps = [
        Trap(per / 2 / unit, _m("kv_cache_mib", "trap_one_of_kv")),
        Trap(per * h / g / unit, _m("kv_cache_mib", "trap_h", h=h, g=g)),
        Trap(per / layers / unit, _m("kv_cache_mib", "trap_layers", layers=layers)),
        Trap(per * 2 / unit, _m("kv_cache_mib", "trap_float32")),
    ]
    which = "bytes" if unit == 1 else "mib"
    args = {"layers": layers, "h": h, "g": g, "dk": dk, "L": length}
    prompt = _m("kv_cache_mib", f"prompt_{which}", model=name, **args)
    explain = _m("kv_cache_mib", f"explain_{which}", answer=num(per / unit, 0 if unit == 1 else 1), **args)
    exact = (per / unit).is_integer()  # the published sizes give whole MiB; a count is exact, with separators shown
    return _typed("kv_cache_mib", prompt, explain, per / unit, traps, tolerance=0.0 if exact else 0.05)


def gqa_params(sc: Scene, rng: random.Random) -> Question:
    """Weights of W^Q, W^K, W^V, W^O with g shared K/V heads: 2 d^2 + 2 d g d_k."""
    if _by_hand(sc):
        d, h, g = rng.choice([(8, 4, 2), (8, 4, 1), (12, 6, 2), (16, 4, 2)])
    else:
        m = rng.choice([m for m in LLM_MODELS if m.n_kv_heads < m.n_heads])  # models that do share K/V heads
        d, h, g = m.d_model, m.n_heads, m.n_kv_heads
    dk = d // h
    answer = 2 * d * d + 2 * d * g * dk
    args = {"d": d, "h": h, "g": g, "dk": dk}  # to every text: formatted, its LaTeX's doubled braces become single
    traps = [
        Trap(4 * d * d, _m("gqa_params", "trap_mha", **args)),
        Trap(2 * d * d + 2 * d * g, _m("gqa_params", "trap_no_dk", **args)),
        Trap(d * d + 2 * d * g * dk, _m("gqa_params", "trap_no_wo", **args)),
        Trap(2 * d * d + d * g * dk, _m("gqa_params", "trap_one_of_kv", **args)),
    ]
    explain = _m("gqa_params", "explain", d2=d * d, kv=d * g * dk, total=answer, **args)
    return _typed("gqa_params", _m("gqa_params", "prompt", **args), explain, answer, traps)


def gqa_group(sc: Scene, rng: random.Random) -> Question | None:
    """Which K/V head a query head reads, when h query heads share g K/V heads (Llama's repeat_kv)."""
    h, g = rng.choice([(8, 2), (8, 4), (32, 8), (64, 8), (28, 4), (12, 3), (16, 4)])
    i = rng.randrange(1, h + 1)
    right = (i - 1) // (h // g) + 1

    def opt(j: int) -> Option:
        return Option(_m("gqa_group", "opt", j=j), _m("gqa_group", "why_right" if j == right else "why_wrong", j=j,
                                                      first=(j - 1) * (h // g) + 1, last=j * (h // g)))  # fmt: skip

    wrong = {(i - 1) % g + 1, min(g, math.ceil(i * g / h) + 1), max(1, right - 1), 1, g} - {right}
    args = {"h": h, "g": g, "i": i, "r": h // g}
    return _choice("gqa_group", _m("gqa_group", "prompt", **args), _m("gqa_group", "explain", j=right, **args),
                   opt(right), [opt(j) for j in sorted(wrong)], rng)  # fmt: skip


def cache_step_scores(sc: Scene, rng: random.Random) -> Question:
    """With a KV cache, the step of token t + 1 scores one query against t + 1 keys per head."""
    t = rng.choice([3, 5, 9, 15, 99, 1023] if not _by_hand(sc) else [3, 5, 9])
    n = t + 1
    traps = [
        Trap(n * n, _m("cache_step_scores", "trap_square", n=n)),
        Trap(t, _m("cache_step_scores", "trap_self")),
        Trap(n * (n + 1) // 2, _m("cache_step_scores", "trap_triangle")),
    ]
    explain = _m("cache_step_scores", "explain", t=t, n=n)
    return _typed("cache_step_scores", _m("cache_step_scores", "prompt", t=t, n=n), explain, n, traps)


def recompute_ratio(sc: Scene, rng: random.Random) -> Question:
    """Recomputing the whole causal forward over t tokens costs t times the cached step's matrix FLOPs."""
    t = rng.choice([2, 4, 8, 16, 100, 1000])
    traps = [
        Trap(t * t, _m("recompute_ratio", "trap_square")),
        Trap(t / 2, _m("recompute_ratio", "trap_half")),
        Trap(1, _m("recompute_ratio", "trap_same")),
    ]
    explain = _m("recompute_ratio", "explain", t=t)
    return _typed("recompute_ratio", _m("recompute_ratio", "prompt", t=t), explain, t, traps)


SHIFT_METHODS = ("sinusoidal", "rope", "alibi")
SHIFT_OPTIONS = ("none", "all", "first_row", "grow")


def rope_shift(sc: Scene, rng: random.Random) -> Question | None:
    """Move a sentence s positions later: with RoPE or ALiBi no score changes; with sinusoidal P added to X they can."""
    method, s = rng.choice(SHIFT_METHODS), rng.choice([1, 10, 100, 1000])
    right = "all" if method == "sinusoidal" else "none"

    def opt(name: str) -> Option:
        return Option(_m("rope_shift", f"opt_{name}", s=s), _m("rope_shift", f"why_{name}_{method}", s=s))

    prompt = _m("rope_shift", f"prompt_{method}", s=s)
    return _choice("rope_shift", prompt, _m("rope_shift", f"explain_{method}", s=s), opt(right),
                   [opt(n) for n in SHIFT_OPTIONS if n != right], rng)  # fmt: skip


def alibi_slope(sc: Scene, rng: random.Random) -> Question:
    """ALiBi's bias -m_i d for head i of h (a power of two: m_i = 2^(-8 i / h)) and a key d positions back."""
    if _by_hand(sc):  # slopes of at most two decimals: 0.5, 0.25
        h, i = rng.choice([(8, 1), (8, 2), (4, 1)])
    else:
        h = rng.choice([4, 8, 16])
        i = rng.randrange(1, min(h, 8) + 1)
    d = rng.choice([1, 2, 3, 4, 6, 8, 10])
    m = 2.0 ** (-8 * i / h)
    answer = -m * d
    args = {"h": h, "i": i, "d": d, "m": num(m, 2) if _by_hand(sc) else f"{m:.5g}"}
    traps = [
        Trap(m * d, _m("alibi_slope", "trap_sign")),
        Trap(-m, _m("alibi_slope", "trap_no_d")),
        Trap(-(2.0 ** (-8 * (h - i + 1) / h)) * d, _m("alibi_slope", "trap_reversed", **args)),  # formatted: LaTeX
    ]
    explain = _m("alibi_slope", "explain", answer=f"{answer:.4g}".replace("-", "−"), **args)
    return _typed("alibi_slope", _m("alibi_slope", "prompt", **args), explain, answer, traps, tolerance=0.005)


def window_reach(sc: Scene, rng: random.Random) -> Question:
    """n layers of a causal window of w keys reach n (w - 1) tokens back."""
    w, n = rng.choice([(3, 2), (4, 3), (5, 4), (2, 6), (4096, 32), (8, 5)])
    traps = [
        Trap(n * w, _m("window_reach", "trap_nw")),
        Trap(w - 1, _m("window_reach", "trap_one_layer")),
        Trap(w**n if w**n < 10**9 else n * w * w, _m("window_reach", "trap_power")),
    ]
    explain = _m("window_reach", "explain", w=w, n=n, w_minus=w - 1, answer=n * (w - 1))
    return _typed("window_reach", _m("window_reach", "prompt", w=w, n=n), explain, n * (w - 1), traps)


def online_softmax(sc: Scene, rng: random.Random) -> Question:
    """l after a second block: l1 e^(m1 - m) + e2 e^(b2 - m) with m = max(m1, b2), from shown (rounded) numbers."""
    m1, b2 = round(rng.uniform(-1.0, 2.5), 2), round(rng.uniform(-1.0, 2.5), 2)
    l1, e2 = round(rng.uniform(1.1, 2.0), 2), round(rng.uniform(1.1, 2.0), 2)
    if abs(m1 - b2) < 0.3:
        b2 = round(m1 + 0.8, 2)
    m = max(m1, b2)
    answer = l1 * math.exp(m1 - m) + e2 * math.exp(b2 - m)
    # b2 as it is subtracted in an exponent: a negative one in brackets, e^(s − (−0.96)), never "s − −0.96"
    args = {"m1": num(m1), "l1": num(l1), "b2": num(b2), "e2": num(e2), "b2_sub": factor(b2)}
    traps = [
        Trap(l1 + e2, _m("online_softmax", "trap_no_rescale")),
        Trap(l1 * math.exp(m - m1) + e2, _m("online_softmax", "trap_sign", **args)),  # formatted: LaTeX
        Trap(max(l1, e2), _m("online_softmax", "trap_max")),
    ]
    explain = _m("online_softmax", "explain", m=num(m), m_sub=factor(m), answer=num(answer, 3), **args)
    return _typed("online_softmax", _m("online_softmax", "prompt", **args), explain, answer, traps, tolerance=0.01)


LLM_MAKERS = {
    "kv_cache_mib": kv_cache_mib, "gqa_params": gqa_params, "gqa_group": gqa_group,
    "cache_step_scores": cache_step_scores, "recompute_ratio": recompute_ratio, "rope_shift": rope_shift,
    "alibi_slope": alibi_slope, "window_reach": window_reach, "online_softmax": online_softmax,
}  # fmt: skip
LLM_KINDS: tuple[str, ...] = tuple(LLM_MAKERS)
# Kinds whose question names every size it uses (a published model's, or its own small one): asked in a lesson or a
# live class they are not about the page's setting, which only picks among their draws (small sizes by hand).
OWN_SIZES: frozenset[str] = frozenset(LLM_KINDS)
