"""The question bank: one maker per kind, `(scene, rng) -> Question | None` (None: the kind does not fit).

Each kind reads the notes (/work/shared/seeds, summarised in docs) and, where it asks about this setting,
the Scene. Numbers a student must compute by hand are shown rounded, and the answer is computed from the
rounded numbers shown, so a hand calculation lands inside the tolerance. Strings: i18n/catalog_quiz.py,
keys `quiz.<kind>.*`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

import numpy as np

from .pipeline import Scene
from .presets import WORKED_EXAMPLE
from .quiz_model import Msg, Option, Question, Trap

N_OPTIONS = 4
MARGIN = 0.15  # an argmax question needs the top weight this far above the second (else it is a coin toss)
# (d_model, h) of real models and of the notes, mixed with the current setting for size questions
SIZES: tuple[tuple[int, int], ...] = ((512, 8), (768, 12), (384, 12), (12288, 96), (1024, 16), (64, 8), (256, 4))
SMALL_SIZES: tuple[tuple[int, int], ...] = ((8, 2), (6, 3), (12, 4), (16, 4), (8, 4), (10, 5))
NOTE_Q = {1: ((0.85, -0.05), (-0.29, 0.74)), 2: ((2.15, 0.65), (-1.32, 1.02))}  # note 001's (wrong) Q_1, Q_2
NOTE002 = {"B": 32, "T": 20, "d": 512, "h": 8}


def num(x: float, digits: int = 2) -> str:
    """A number as a student writes it: fixed digits, a real minus sign, no '-0.00'."""
    text = f"{x:.{digits}f}"
    if float(text) == 0:
        text = f"{0:.{digits}f}"
    return text.replace("-", "−")


def factor(x: float, digits: int = 2) -> str:
    """A number inside a product: negative ones in brackets, 0.5·(−0.2)."""
    return f"({num(x, digits)})" if x < 0 else num(x, digits)


def vec(values: Sequence[float], digits: int = 2) -> str:
    return "(" + ", ".join(num(v, digits) for v in values) + ")"


def shape_text(dims: Sequence[int]) -> str:
    return " × ".join(str(d) for d in dims)


def keys_text(keys: Sequence[int], labels: Sequence[str]) -> str:
    """A set of key positions as labels; runs of more than three neighbours are shortened to 'first … last'."""
    runs: list[list[int]] = []
    for j in sorted(keys):
        if runs and j == runs[-1][-1] + 1:
            runs[-1].append(j)
        else:
            runs.append([j])
    parts = [f"{labels[r[0]]} … {labels[r[-1]]}" if len(r) > 3 else ", ".join(labels[j] for j in r) for r in runs]
    return ", ".join(parts) or "—"


def _lit(text: str) -> Msg:
    return Msg.literal(text)


def _m(kind: str, part: str, **args: object) -> Msg:
    return Msg(f"quiz.{kind}.{part}", dict(args))


def _choice(
    kind: str, prompt: Msg, explain: Msg, right: Option, wrong: Sequence[Option], rng: random.Random
) -> Question | None:
    """A multiple-choice question: the right option and up to three distinct wrong ones, shuffled by the seed."""
    seen = {repr(right.label)}
    others: list[Option] = []
    for o in wrong:
        if repr(o.label) not in seen:
            seen.add(repr(o.label))
            others.append(o)
    others = others[: N_OPTIONS - 1]
    if not others:
        return None
    options = [right, *others]
    rng.shuffle(options)
    return Question(kind, prompt, "choice", options.index(right), explain, tuple(options))


def _typed(
    kind: str, prompt: Msg, explain: Msg, answer: float | list[int], traps: Sequence[Trap], tolerance: float = 0.0
) -> Question:
    """A typed question; traps equal to the answer (within the tolerance) or to an earlier trap are dropped."""
    shape = isinstance(answer, list)
    kept: list[Trap] = []
    for t in traps:
        same = (lambda a, b: list(a) == list(b)) if shape else (lambda a, b: abs(a - b) <= tolerance + 1e-9)
        if not same(t.value, answer) and not any(same(t.value, k.value) for k in kept):
            kept.append(t)
    value: float | list[int] = answer if shape else float(answer)
    return Question(kind, prompt, "shape" if shape else "number", value, explain, (), tolerance, tuple(kept))


def _by_hand(sc: Scene) -> bool:
    return sc.settings.preset == "worked"


def _sizes(sc: Scene, rng: random.Random) -> tuple[int, int]:
    """A (d_model, h) pair: this setting's or one of a real model / the notes (small ones on the worked
    example, whose quiz is done by hand), so draws differ."""
    return rng.choice([(sc.d_model, sc.n_heads), *(SMALL_SIZES if _by_hand(sc) else SIZES)])


# ------------------------------------------------------------------ sizes, shapes, counts
def d_k(sc: Scene, rng: random.Random) -> Question:
    d, h = _sizes(sc, rng)
    dk = d // h
    traps = [Trap(d * h, _m("d_k", "trap_mult")), Trap(d, _m("d_k", "trap_d")), Trap(h, _m("d_k", "trap_h"))]
    return _typed("d_k", _m("d_k", "prompt", d=d, h=h), _m("d_k", "explain", d=d, h=h, dk=dk), dk, traps)


SHAPES: dict[str, Callable[[int, int, int, int], list[int]]] = {  # (L, Lk, d, h) -> shape of one tensor
    "q_i": lambda L, Lk, d, h: [L, d // h],
    "k_t": lambda L, Lk, d, h: [d // h, Lk],
    "a_i": lambda L, Lk, d, h: [L, Lk],
    "head_i": lambda L, Lk, d, h: [L, d // h],
    "concat": lambda L, Lk, d, h: [L, d],
    "w_q_i": lambda L, Lk, d, h: [d, d // h],
    "w_o": lambda L, Lk, d, h: [d, d],
}
PER_HEAD = frozenset({"q_i", "k_t", "a_i", "head_i", "w_q_i"})  # one head's tensor (h of them in the layer)
SHAPE_NAMES = {
    "q_i": "Q_i",
    "k_t": "K_iᵀ",
    "a_i": "A_i",
    "head_i": "head_i",
    "concat": "Concat",
    "w_q_i": "W_i^Q",
    "w_o": "W^O",
}


def shape(sc: Scene, rng: random.Random) -> Question:
    L, Lk, d, h = sc.len_q, sc.len_k, sc.d_model, sc.n_heads
    tensor = rng.choice(list(SHAPES))
    answer = SHAPES[tensor](L, Lk, d, h)
    dk = d // h
    swap = {dk: d, d: dk}
    traps = [
        Trap(answer[::-1], _m("shape", "trap_transposed")),
        Trap([swap.get(x, x) if x in (d, dk) else x for x in answer], _m("shape", "trap_dk", d=d, dk=dk)),
    ]
    if tensor in PER_HEAD:  # all h heads' tensors stacked: a slip for one head's tensor, not for Concat or W^O
        traps.append(Trap([h, *answer], _m("shape", "trap_heads", h=h)))
    args = {"L": L, "Lk": Lk, "d": d, "h": h, "dk": dk}
    prompt = _m("shape", "prompt_cross" if sc.settings.cross else "prompt", name=SHAPE_NAMES[tensor], **args)
    return _typed("shape", prompt, _m("shape", f"why_{tensor}", shape=shape_text(answer), **args), answer, traps)


def params(sc: Scene, rng: random.Random) -> Question:
    d, h = _sizes(sc, rng)
    dk = d // h
    traps = [
        Trap(3 * d * d, _m("params", "trap_3d2")),
        Trap(4 * d * d * h, _m("params", "trap_per_head", h=h)),
        Trap(4 * d * dk, _m("params", "trap_one_head")),
        Trap(4 * d * d + 4 * d, _m("params", "trap_bias")),
    ]
    explain = _m("params", "explain", d=d, h=h, dk=dk, per=d * d, total=4 * d * d)
    return _typed("params", _m("params", "prompt", d=d, h=h), explain, 4 * d * d, traps)


def qk_mults(sc: Scene, rng: random.Random) -> Question:
    L, Lk, d, h, dk = sc.len_q, sc.len_k, sc.d_model, sc.n_heads, sc.d_k
    step, scope = rng.choice(["qk", "av"]), rng.choice(["one", "all"])
    answer = L * Lk * (dk if scope == "one" else d)
    traps = [
        Trap(L * Lk * d * h, _m("qk_mults", "trap_dh")),
        Trap(L * Lk * dk, _m("qk_mults", "trap_one")),
        Trap(L * Lk * d, _m("qk_mults", "trap_all")),
        Trap(L * Lk, _m("qk_mults", "trap_entries")),
    ]
    args = {"L": L, "Lk": Lk, "d": d, "h": h, "dk": dk}
    explain = _m("qk_mults", f"explain_{scope}", total=answer, step=_STEP[step], **args)
    return _typed("qk_mults", _m("qk_mults", f"prompt_{scope}", step=_STEP[step], **args), explain, answer, traps)


# Plain text (a message argument is escaped as user text is): Unicode sub- and superscripts where they exist; a
# superscript Q does not (U+A7F4 is missing from common fonts), so the projection is named by its output Q.
_STEP = {"qk": "Qᵢ Kᵢᵀ", "av": "Aᵢ Vᵢ", "proj": "Q = X W"}
_STEP_ALL = {"qk": "Q Kᵀ", "av": "A V", "proj": "Q = X W"}  # all heads at once


def cost_scaling(sc: Scene, rng: random.Random) -> Question:
    """How a multiplication count grows: Q K^T and A V cost L·L_k·d, a projection L·d·d."""
    grow, k, step = rng.choice(["L", "d"]), rng.choice([2, 3, 4, 10]), rng.choice(["qk", "av", "proj"])
    quadratic = (grow == "L") == (step != "proj")  # L twice in Q K^T and A V; d twice in a projection
    answer = k * k if quadratic else k
    traps = [
        Trap(k, _m("cost_scaling", "trap_linear")),
        Trap(k * k, _m("cost_scaling", "trap_square")),
        Trap(k**3, _m("cost_scaling", "trap_cube")),
        Trap(1, _m("cost_scaling", "trap_same")),
    ]
    explain = _m("cost_scaling", f"explain_{step}_{grow}", k=k, answer=answer, step=_STEP_ALL[step])
    prompt = _m("cost_scaling", f"prompt_{grow}", k=k, step=_STEP_ALL[step])
    return _typed("cost_scaling", prompt, explain, answer, traps)


def cross_shape(sc: Scene, rng: random.Random) -> Question:
    if sc.settings.cross and rng.random() < 0.5:
        lq, lk = sc.len_q, sc.len_k
    else:
        lq, lk = rng.sample(range(3, 13), 2)
    traps = [
        Trap([lk, lq], _m("cross_shape", "trap_transposed")),
        Trap([lq, lq], _m("cross_shape", "trap_self")),
        Trap([lk, lk], _m("cross_shape", "trap_keys")),
        Trap([lq, sc.d_k], _m("cross_shape", "trap_dk")),
    ]
    explain = _m("cross_shape", "explain", Lq=lq, Lk=lk)
    return _typed("cross_shape", _m("cross_shape", "prompt", Lq=lq, Lk=lk), explain, [lq, lk], traps)


NOTE002_SHAPES: dict[str, Callable[[int, int, int, int], list[int]]] = {
    "q": lambda B, T, d, h: [B, T, d],
    "q_split": lambda B, T, d, h: [B, h, T, d // h],
    "scores": lambda B, T, d, h: [B, h, T, T],
    "head_out": lambda B, T, d, h: [B, h, T, d // h],
    "concat": lambda B, T, d, h: [B, T, d],
}


def note002_shape(sc: Scene, rng: random.Random) -> Question:
    B, T, d, h = (NOTE002[n] for n in "BTdh")
    if rng.random() < 0.5:  # the note's own numbers, or a second batch of other sizes
        B, T = rng.choice([8, 16, 64]), rng.choice([10, 12, 50])
    tensor = rng.choice(list(NOTE002_SHAPES))
    answer = NOTE002_SHAPES[tensor](B, T, d, h)
    dk = d // h
    traps = [
        Trap([B, T, h, dk], _m("note002_shape", "trap_no_transpose")),
        Trap([B, h, T, T], _m("note002_shape", "trap_scores")),
        Trap([B, T, T], _m("note002_shape", "trap_no_heads")),
        Trap([B, h, T, dk], _m("note002_shape", "trap_split")),
        Trap([h, T, T], _m("note002_shape", "trap_no_batch")),
    ]
    args = {"B": B, "T": T, "d": d, "h": h, "dk": dk}
    prompt = _m("note002_shape", f"prompt_{tensor}", **args)
    return _typed(
        "note002_shape", prompt, _m("note002_shape", f"why_{tensor}", shape=shape_text(answer), **args), answer, traps
    )


def stacked_wq(sc: Scene, rng: random.Random) -> Question:
    """Note 004 writes Q^all = X · BlockDiag(W_1^Q, …): the heads' matrices sit side by side, not on a diagonal."""
    d, h = _sizes(sc, rng)
    dk = d // h
    traps = [
        Trap([h * d, d], _m("stacked_wq", "trap_blockdiag", h=h, d=d, dk=dk)),
        Trap([d, dk], _m("stacked_wq", "trap_one", dk=dk)),
        Trap([h, d, dk], _m("stacked_wq", "trap_stack", h=h, d=d, dk=dk)),
    ]
    explain = _m("stacked_wq", "explain", d=d, h=h, dk=dk)
    return _typed("stacked_wq", _m("stacked_wq", "prompt", d=d, h=h, dk=dk), explain, [d, d], traps)


def heads_params(sc: Scene, rng: random.Random) -> Question:
    """Does h change the parameter count? Not with d_model fixed; yes when d_k is fixed and d_model = h·d_k."""
    fixed = rng.choice(["d", "dk"])
    h1, h2 = rng.choice([(1, 8), (8, 16), (4, 8), (2, 8), (8, 2), (12, 4)])
    if fixed == "d":
        d = rng.choice([48, 96] if _by_hand(sc) else [768, 384, 192, 960])  # divisible by every h below
        p1 = p2 = 4 * d * d
        args: dict[str, object] = {"d": d}
    else:
        dk = rng.choice([2, 4, 8] if _by_hand(sc) else [64, 32, 16])
        p1, p2 = 4 * (h1 * dk) ** 2, 4 * (h2 * dk) ** 2
        args = {"dk": dk}
    r = h2 / h1

    def opt(name: str, value: float) -> Option:
        why = _m("heads_params", f"why_{name}_{fixed}", r=num(r, 2), h1=h1, h2=h2)
        return Option(_m("heads_params", f"opt_{name}", p=f"{round(value):,}"), why)

    options = {"same": p1, "linear": p1 * r, "square": p1 * r * r, "inverse": p1 / r}
    right = "same" if fixed == "d" else "square"
    prompt = _m("heads_params", f"prompt_{fixed}", h1=h1, h2=h2, p1=f"{p1:,}", **args)
    explain = _m("heads_params", f"explain_{fixed}", h1=h1, h2=h2, p1=f"{p1:,}", p2=f"{p2:,}", **args)
    return _choice(
        "heads_params",
        prompt,
        explain,
        opt(right, options[right]),
        [opt(n, v) for n, v in options.items() if n != right],
        rng,
    )  # type: ignore[return-value]


# ------------------------------------------------------------------ computed by hand
def softmax_weight(sc: Scene, rng: random.Random) -> Question:
    """One softmax weight from shown (rounded) scaled scores: the scene's row when it has 2-4 visible keys."""
    rows = [
        (h, i)
        for h in range(sc.n_heads)
        for i in range(sc.len_q)
        if 2 <= int((~sc.mask[h, i]).sum()) <= 4 and np.abs(sc.scores[h, i]).max() <= 10  # e^10: still by hand
    ]
    if rows:
        h, i = rng.choice(rows)
        keys = [j for j in range(sc.len_k) if not sc.mask[h, i, j]]
        shown = [round(float(sc.scores[h, i, j]), 2) for j in keys]
        labels = [sc.kv_labels[j] for j in keys]
        where: dict[str, object] = {"head": h + 1, "query": sc.labels[i]}
        prompt_key = "prompt" if sc.settings.scale else "prompt_unscaled"  # the scene's scores: scaled or not
    else:  # long rows: three made-up scores (a by-hand softmax over 10 keys teaches nothing more)
        shown = [round(rng.uniform(-2, 2), 1) for _ in range(3)]
        while len({round(s, 1) for s in shown}) < 3:
            shown = [round(rng.uniform(-2, 2), 1) for _ in range(3)]
        labels = ["k₁", "k₂", "k₃"]
        where, prompt_key = {}, "prompt_made_up"
    j = rng.randrange(len(shown))
    exps = [math.exp(s) for s in shown]
    answer = exps[j] / sum(exps)
    traps = [
        Trap(1 / len(shown), _m("softmax_weight", "trap_uniform")),
        Trap(exps[j], _m("softmax_weight", "trap_unnormalised")),
        *([Trap(shown[j] / sum(shown), _m("softmax_weight", "trap_ratio"))] if abs(sum(shown)) > 1e-6 else []),
    ]
    # "1:cat = 0.46", not "1:cat: 0.46": Markdown (Streamlit) turns ":cat:" into an emoji and the label disappears
    args = {"scores": ", ".join(f"{lab} = {num(s)}" for lab, s in zip(labels, shown, strict=True)), "kv": labels[j]}
    explain = _m(
        "softmax_weight",
        "explain",
        exps=" + ".join(num(e, 3) for e in exps),
        top=num(exps[j], 3),
        answer=num(answer, 3),
        kv=labels[j],
    )
    return _typed("softmax_weight", _m("softmax_weight", prompt_key, **where, **args), explain, answer, traps, 0.01)


def score_by_hand(sc: Scene, rng: random.Random) -> Question:
    """One scaled score q·k / √d_k from shown rows (the scene's when d_k <= 3, else two short made-up rows)."""
    if sc.d_k <= 3:
        h, i, j = rng.randrange(sc.n_heads), rng.randrange(sc.len_q), rng.randrange(sc.len_k)
        q = [round(float(x), 2) for x in sc.q[h, i]]
        k = [round(float(x), 2) for x in sc.k[h, j]]
        where: dict[str, object] = {"head": h + 1, "query": sc.labels[i], "kv": sc.kv_labels[j]}
        prompt_key = "prompt"
    else:
        q = [round(rng.uniform(-1.5, 1.5), 1) for _ in range(2)]
        k = [round(rng.uniform(-1.5, 1.5), 1) for _ in range(2)]
        where, prompt_key = {}, "prompt_made_up"
    dk = len(q)
    dot = sum(a * b for a, b in zip(q, k, strict=True))
    answer = dot / math.sqrt(dk)
    traps = [
        Trap(dot, _m("score_by_hand", "trap_unscaled")),
        Trap(dot / dk, _m("score_by_hand", "trap_by_dk")),
        Trap(dot * math.sqrt(dk), _m("score_by_hand", "trap_times")),
    ]
    products = " + ".join(f"{factor(a)}·{factor(b)}" for a, b in zip(q, k, strict=True))
    explain = _m("score_by_hand", "explain", products=products, dot=num(dot, 4), dk=dk, answer=num(answer, 3))
    prompt = _m("score_by_hand", prompt_key, q=vec(q), k=vec(k), dk=dk, **where)
    return _typed("score_by_hand", prompt, explain, answer, traps, 0.01)


def note001_entry(sc: Scene, rng: random.Random) -> Question:
    """Note 001's Q_1 and Q_2 = X W_i^Q are wrong in every entry: compute one and compare with the note's."""
    head, r, c = rng.choice([1, 2]), rng.randrange(2), rng.randrange(2)
    row = WORKED_EXAMPLE.x[r]
    col = [w[c] for w in WORKED_EXAMPLE.w_q_heads[head - 1]]
    answer = sum(a * b for a, b in zip(row, col, strict=True))
    note = NOTE_Q[head][r][c]
    products = " + ".join(f"{factor(a, 1)}·{factor(b, 1)}" for a, b in zip(row, col, strict=True))
    args = {"head": head, "r": r + 1, "c": c + 1, "row": vec(row, 1), "col": vec(col, 1), "note": num(note)}
    traps = [Trap(note, _m("note001_entry", "trap_note", note=num(note)))]
    explain = _m("note001_entry", "explain", products=products, answer=num(answer), **args)
    return _typed("note001_entry", _m("note001_entry", "prompt", **args), explain, answer, traps, 0.005)


# ------------------------------------------------------------------ concepts with a right reason
WRONG_CLAIMS = ("q1", "params3", "orthogonal", "blockdiag")  # statements of the notes that are false
TRUE_CLAIMS = ("dk", "cost", "wo", "scores", "free", "scale")


def note_error(sc: Scene, rng: random.Random) -> Question | None:
    wrong = rng.choice(WRONG_CLAIMS)
    right = Option(_m("note_error", f"claim_{wrong}"), _m("note_error", f"why_{wrong}"))
    others = [Option(_m("note_error", f"claim_{c}"), _m("note_error", f"why_{c}")) for c in rng.sample(TRUE_CLAIMS, 3)]
    return _choice("note_error", _m("note_error", "prompt"), _m("note_error", "explain"), right, others, rng)


def entropy_scaling(sc: Scene, rng: random.Random) -> Question | None:
    scaled = rng.random() < 0.5
    a, b = sorted(rng.sample([4, 16, 64, 256], 2))
    n = rng.choice([8, 16, 32])
    names = ("falls", "rises", "same", "uniform")
    right = "same" if scaled else "falls"
    opts = {
        name: Option(
            _m("entropy_scaling", f"opt_{name}", n=n),
            _m("entropy_scaling", f"why_{name}_{'on' if scaled else 'off'}", a=a, b=b),
        )
        for name in names
    }
    prompt = _m("entropy_scaling", "prompt_on" if scaled else "prompt_off", a=a, b=b, n=n)
    explain = _m("entropy_scaling", "explain_on" if scaled else "explain_off", a=a, b=b)
    return _choice("entropy_scaling", prompt, explain, opts[right], [opts[x] for x in names if x != right], rng)


def permutation(sc: Scene, rng: random.Random) -> Question | None:
    """Swap two different input tokens: without positional encoding (and no causal mask) the output rows just swap.
    Two tokens that are the same word, or have the same embedding, are never asked: a student reads "the" and "the"
    as one vector (without positional encoding the same word is), and swapping them changes nothing. The word is
    compared too because the real model's layer input already holds its learned positions, so two occurrences of a
    word differ there. A sentence with no two different tokens far enough apart gets five made-up ones."""
    case = rng.choice(["plain", "pe", "causal"])
    # a token between a and b, so that a causal mask changes a row other than a and b
    first, second = np.triu_indices(sc.len_q, k=2)
    seen: dict[bytes | str, int] = {}
    token = np.array([seen.setdefault(row.tobytes(), len(seen)) for row in sc.x])  # one number per embedding
    word = np.array([seen.setdefault(f"word:{w}", len(seen)) for w in sc.tokens])  # one number per word
    differ = (token[first] != token[second]) & (word[first] != word[second])
    apart = np.flatnonzero(differ) if sc.len_q >= 4 else np.array([], dtype=int)
    if apart.size:
        n, labels = sc.len_q, sc.labels
        pick = int(apart[rng.randrange(apart.size)])
        a, b = int(first[pick]), int(second[pick])
    else:
        n, labels = 5, tuple(str(i) for i in range(5))
        a = rng.randrange(n - 2)
        b = rng.randrange(a + 2, n)
    names = ("swap", "same", "only_ab", "other")
    right = "swap" if case == "plain" else "other"
    opts = {
        x: Option(
            _m("permutation", f"opt_{x}", a=labels[a], b=labels[b]),
            _m("permutation", f"why_{x}_{case}", a=labels[a], b=labels[b]),
        )
        for x in names
    }
    prompt = _m("permutation", f"prompt_{case}", a=labels[a], b=labels[b], n=n)
    explain = _m("permutation", f"explain_{case}", a=labels[a], b=labels[b])
    return _choice("permutation", prompt, explain, opts[right], [opts[x] for x in names if x != right], rng)


def pe_wavelength(sc: Scene, rng: random.Random) -> Question:
    # on the worked example d = 4 or 8, where base^(2j/d) is 10, 100 or 1000: a wavelength by hand
    pool = (4, 8) if _by_hand(sc) else (sc.d_model, 64, 128, 512)
    d = rng.choice(sorted({x for x in pool if x >= 4 and x % 2 == 0}))
    base = float(sc.settings.pe_base)
    j = rng.randrange(1, min(d // 2, 6))
    answer = 2 * math.pi * base ** (2 * j / d)
    traps = [
        Trap(base ** (2 * j / d), _m("pe_wavelength", "trap_no_2pi", base=f"{base:g}")),
        Trap(2 * math.pi * base ** (j / d), _m("pe_wavelength", "trap_j")),
        Trap(2 * math.pi * base ** ((2 * j + 1) / d), _m("pe_wavelength", "trap_cos")),
    ]
    args = {"d": d, "base": f"{base:g}", "j": j, "i0": 2 * j, "i1": 2 * j + 1}
    explain = _m("pe_wavelength", "explain", answer=num(answer, 1), freq=num(base ** (2 * j / d), 2), **args)
    q = _typed("pe_wavelength", _m("pe_wavelength", "prompt", **args), explain, answer, traps, 0.01 * answer)
    return q


# ------------------------------------------------------------------ this setting's mask and weights
def _mask(sc: Scene, rng: random.Random, mask: str) -> Question | None:
    # the padding kind asks about masked keys: the padding batch's [PAD] keys, or keys chosen one by one
    if sc.settings.mask not in ((mask, "chosen") if mask == "padding" else (mask,)) or not sc.mask.any():
        return None
    lk = sc.len_k
    queries = [i for i in range(sc.len_q) if 0 < i < lk - 1] or list(range(sc.len_q))
    i = rng.choice(queries)
    visible = tuple(j for j in range(lk) if not sc.mask[0, i, j])
    if not visible:
        return None
    padded = tuple(j for j in range(lk) if sc.mask[0, i, j])
    kind = f"mask_{mask}"
    if mask == "causal":  # the usual slips: forgetting itself, looking ahead, no mask at all, only itself
        slips = {
            "before": tuple(range(i)),
            "after": tuple(range(i, lk)),
            "all": tuple(range(lk)),
            "future": tuple(range(i + 1, lk)),
            "self": (i,),
        }
    else:  # the usual slips: no mask at all, the padded keys themselves, a causal mask, only itself
        slips = {"all": tuple(range(lk)), "padded": padded, "causal": tuple(range(min(i + 1, lk))), "self": (i,)}
    slips = {name: tuple(j for j in v if j < lk) for name, v in slips.items()}  # cross-attention: fewer keys
    args = {"query": sc.labels[i], "n_visible": len(visible), "len_k": lk, "keys": keys_text(visible, sc.kv_labels)}
    # In cross-attention the key at the query's position is another sentence's token, not the query itself
    own = {"explain", "why_right", "why_before", "why_self"} if mask == "causal" and sc.settings.cross else set()

    def part(name: str) -> str:
        return f"{name}_cross" if name in own else name

    right = Option(_lit(keys_text(visible, sc.kv_labels)), _m(kind, part("why_right"), **args))
    wrong = [
        Option(_lit(keys_text(v, sc.kv_labels)), _m(kind, part(f"why_{name}"), **args))
        for name, v in slips.items()
        if v and v != visible
    ]
    rng.shuffle(wrong)
    prompt = _m(kind, "prompt", query=sc.labels[i])
    return _choice(kind, prompt, _m(kind, part("explain"), **args), right, wrong, rng)


def mask_causal(sc: Scene, rng: random.Random) -> Question | None:
    return _mask(sc, rng, "causal")


def mask_padding(sc: Scene, rng: random.Random) -> Question | None:
    return _mask(sc, rng, "padding")


def argmax(sc: Scene, rng: random.Random) -> Question | None:
    """Which key gets the largest weight: asked only for a row whose top weight leads by at least MARGIN."""
    clear = []
    for h in range(sc.n_heads):
        for i in range(sc.len_q):
            top2 = np.sort(sc.weights[h, i])[::-1][:2]
            if len(top2) == 2 and top2[0] - top2[1] >= MARGIN:
                clear.append((h, i))
    if not clear:
        return None
    h, i = rng.choice(clear)
    row = sc.weights[h, i]
    order = [int(j) for j in np.argsort(-row, kind="stable")]
    best = order[0]
    args = {"head": h + 1, "query": sc.labels[i], "best": sc.kv_labels[best], "weight": num(float(row[best]), 3)}
    right = Option(_lit(sc.kv_labels[best]), _m("argmax", "why_right", **args))
    # the runner-up always, then two other keys (the ones a student might guess: itself, a random one)
    pool = [order[1], *(j for j in rng.sample(order[2:], len(order) - 2))]
    if i < sc.len_k and i != best and i not in pool[:1]:
        pool.insert(1, i)
    wrong = [
        Option(_lit(sc.kv_labels[j]), _m("argmax", "why_wrong", kv=sc.kv_labels[j], w=num(float(row[j]), 3), **args))
        for j in dict.fromkeys(pool)
    ]
    return _choice(
        "argmax",
        _m("argmax", "prompt", head=h + 1, query=sc.labels[i]),
        _m("argmax", "explain", **args),
        right,
        wrong,
        rng,
    )


MAKERS: dict[str, Callable[[Scene, random.Random], Question | None]] = {
    "d_k": d_k,
    "shape": shape,
    "params": params,
    "heads_params": heads_params,
    "qk_mults": qk_mults,
    "cost_scaling": cost_scaling,
    "softmax_weight": softmax_weight,
    "score_by_hand": score_by_hand,
    "note001_entry": note001_entry,
    "note_error": note_error,
    "stacked_wq": stacked_wq,
    "note002_shape": note002_shape,
    "cross_shape": cross_shape,
    "entropy_scaling": entropy_scaling,
    "permutation": permutation,
    "pe_wavelength": pe_wavelength,
    "mask_causal": mask_causal,
    "mask_padding": mask_padding,
    "argmax": argmax,
}
