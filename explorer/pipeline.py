"""Settings -> Scene: every number the pages show, computed once by mha_core and cached."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, fields
from functools import lru_cache

import numpy as np
import torch

from budget import ByteLRU, array_bytes, memoize
from mha_core import (
    AttentionConfig,
    MultiHeadAttention,
    ParameterCount,
    StepCost,
    contribution_similarity,
    embed_tokens,
    head_similarity,
    operation_counts,
    parameter_count,
    positional_similarity,
    sinusoidal_positional_encoding,
    softmax_entropy,
    token_labels,
    tokenize,
    wavelengths,
)

from .presets import WORKED_EXAMPLE
from .settings import LIMITS, Settings, validate
from .sources import batch_inputs

EMBEDDING_SEED = 0  # token embeddings stay fixed when the weight seed changes
# Scenes are kept by the bytes of their arrays (38 MB at d_model 1024, h 16, 64 tokens), not by a count.
# Building one takes < 0.05 s even then (torch, outside the GIL), so scenes do not take a heavy-build slot.
SCENE_CACHE = ByteLRU("scenes", 160 << 20)  # five scenes of the largest setting (~30 MB each)


@dataclass(frozen=True)
class Scene:
    """Numpy views (read-only) of one forward pass for one Settings. Shapes: h heads, L tokens.

    x, p, x_in: (Lq, d) embeddings, positional encoding, and the layer input (x + p if add_pe);
    the *_kv fields are the key/value sequence (the same as the query one in self-attention).
    q, k, v (h, L, d_k); scores, masked_scores, weights (h, Lq, Lk); head_outputs (h, Lq, d_k);
    concat, output (Lq, d); w_q, w_k, w_v, w_o (d, d); w_*_heads (h, d, d_k); w_o_heads (h, d_k, d).
    """

    settings: Settings
    tokens: tuple[str, ...]
    kv_tokens: tuple[str, ...]
    labels: tuple[str, ...]
    kv_labels: tuple[str, ...]
    x: np.ndarray
    p: np.ndarray
    x_in: np.ndarray
    x_kv: np.ndarray
    p_kv: np.ndarray
    x_kv_in: np.ndarray
    q: np.ndarray
    k: np.ndarray
    v: np.ndarray
    q_fused: np.ndarray
    k_fused: np.ndarray
    v_fused: np.ndarray
    scores: np.ndarray
    masked_scores: np.ndarray
    weights: np.ndarray
    head_outputs: np.ndarray
    concat: np.ndarray
    output: np.ndarray
    w_q: np.ndarray
    w_k: np.ndarray
    w_v: np.ndarray
    w_o: np.ndarray
    w_q_heads: np.ndarray
    w_k_heads: np.ndarray
    w_v_heads: np.ndarray
    w_o_heads: np.ndarray
    mask: np.ndarray  # (h, Lq, Lk) bool, True where a key is masked (all False without a mask)
    entropy: np.ndarray  # (h, Lq) softmax entropy of each row, nats
    head_sim: np.ndarray  # (h, h) cosine similarity rho_ij of head outputs (note 004)
    contrib_sim: np.ndarray  # (h, h) cosine similarity of head_i W^O_i (unchanged by value-space rotations)
    pe_sim: np.ndarray  # (Lq, Lq) P P^T
    pe_wavelengths: np.ndarray  # (ceil(d/2),)
    params: ParameterCount
    costs: tuple[StepCost, ...]
    scale_factor: float
    # the padding batch (mask "padding"): each sentence's own Scene (with batch=()), this one is batch[0]
    batch: tuple[Scene, ...] = ()
    key_padding: np.ndarray | None = None  # (B, L) True at [PAD], with the batch
    truncated: bool = False  # the real tokenizer's wordpieces were cut to LIMITS.max_tokens
    in_proj_bias: np.ndarray | None = None  # (3 d,) [b^Q | b^K | b^V] of a layer with biases (the real model's)
    out_proj_bias: np.ndarray | None = None  # (d,) b^O

    @property
    def n_heads(self) -> int:
        return self.settings.n_heads

    @property
    def d_model(self) -> int:
        return self.settings.d_model

    @property
    def d_k(self) -> int:
        return self.settings.d_k

    @property
    def len_q(self) -> int:
        return len(self.tokens)

    @property
    def len_k(self) -> int:
        return len(self.kv_tokens)

    def qk_biases(self, head: int) -> tuple[np.ndarray | None, np.ndarray | None]:
        """(b^Q_i, b^K_i) of head i (d_k,) each, or (None, None) for a layer without biases."""
        if self.in_proj_bias is None:
            return None, None
        d, dk = self.d_model, self.d_k
        return self.in_proj_bias[head * dk:(head + 1) * dk], self.in_proj_bias[d + head * dk:d + (head + 1) * dk]

    def arrays(self) -> dict[str, np.ndarray]:
        """Every array field by name (for exports)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if isinstance(getattr(self, f.name), np.ndarray)}


def _apply_edits(m: torch.Tensor, edits: tuple[tuple[int, int, float], ...]) -> torch.Tensor:
    """Cell edits (row, col, value); edits outside the matrix (left from an older size) are ignored."""
    if not edits:
        return m
    m = m.clone()
    for r, c, value in edits:
        if 0 <= r < m.shape[0] and 0 <= c < m.shape[1]:
            m[r, c] = float(value)
    return m


def _inputs(s: Settings) -> tuple[list[str], torch.Tensor, list[str], torch.Tensor]:
    if s.preset == "worked":
        tokens = list(WORKED_EXAMPLE.tokens)
        x = torch.tensor(WORKED_EXAMPLE.x)
        return tokens, x, tokens, x
    tokens = tokenize(s.text)
    x = embed_tokens(tokens, s.d_model, EMBEDDING_SEED)
    if not s.cross:
        return tokens, x, tokens, x
    kv_tokens = tokenize(s.text_kv)
    return tokens, x, kv_tokens, embed_tokens(kv_tokens, s.d_model, EMBEDDING_SEED)


def _module(s: Settings) -> MultiHeadAttention:
    if s.preset == "worked":
        w = WORKED_EXAMPLE
        mha = MultiHeadAttention.from_head_weights(
            torch.tensor(w.w_q_heads), torch.tensor(w.w_k_heads), torch.tensor(w.w_v_heads),
            torch.tensor(w.w_o), scale=s.scale,
        )  # fmt: skip
    else:
        mha = MultiHeadAttention(
            AttentionConfig(d_model=s.d_model, n_heads=s.n_heads, bias=False, scale=s.scale, seed=s.seed)
        )
    if s.w_edits:
        mats = {name: getattr(mha, name).detach() for name in ("w_q", "w_k", "w_v", "w_o")}
        for name in mats:
            mats[name] = _apply_edits(mats[name], tuple((r, c, v) for n, r, c, v in s.w_edits if n == name))
        mha = MultiHeadAttention.from_weights(
            s.n_heads, mats["w_q"], mats["w_k"], mats["w_v"], mats["w_o"], scale=s.scale
        )
    return mha


def _ro(t: torch.Tensor) -> np.ndarray:
    a = np.ascontiguousarray(t.detach().numpy())
    a.flags.writeable = False
    return a


def scene_bytes(scene: Scene) -> int:
    """The memory the arrays of a scene span (views of one buffer counted once)."""
    return array_bytes(scene.arrays().values())


@memoize(SCENE_CACHE, scene_bytes)
def run_scene(s: Settings) -> Scene:
    """The whole pipeline for valid settings (raises ValueError on invalid ones: validate first)."""
    problems = validate(s)
    if problems:
        raise ValueError(f"invalid settings: {[p.code for p in problems]}")
    if s.preset == "worked" and (s.d_model, s.n_heads) != (4, 2):
        raise ValueError("the worked example has d_model = 4 and h = 2")
    if s.real or s.mask == "padding":
        return _batch_scene(s)
    tokens, x, kv_tokens, x_kv = _inputs(s)
    x = _apply_edits(x, s.x_edits)
    if not s.cross:
        x_kv = x
    d = s.d_model
    p = sinusoidal_positional_encoding(len(tokens), d, s.pe_base)
    p_kv = p if not s.cross else sinusoidal_positional_encoding(len(kv_tokens), d, s.pe_base)
    x_in = x + p if s.add_pe else x
    x_kv_in = (x_kv + p_kv if s.add_pe else x_kv) if s.cross else x_in
    mha = _module(s)
    key_padding = None
    if s.mask == "chosen" and s.padded:
        key_padding = torch.zeros(len(kv_tokens), dtype=torch.bool)
        for i in s.padded:
            if i < len(kv_tokens):
                key_padding[i] = True
    with torch.no_grad():
        trace = mha(
            x_in,
            key=x_kv_in if s.cross else None,
            key_padding_mask=key_padding,
            causal=s.mask == "causal",
        )
    return _scene(s, tokens, kv_tokens, (x, p, x_in), (x_kv, p_kv, x_kv_in), trace, None)


def _scene(s: Settings, tokens: list[str], kv_tokens: list[str], q_side: tuple, kv_side: tuple,
           trace, b: int | None, **extra: object) -> Scene:  # fmt: skip
    """The Scene of batch item b of `trace` (None: an unbatched trace). q_side / kv_side: (x, p, x_in)."""

    def at(t: torch.Tensor) -> np.ndarray:
        return _ro(t if b is None else t[b])

    (x, p, x_in), (x_kv, p_kv, x_kv_in) = q_side, kv_side
    d = s.d_model
    mask = trace.mask if trace.mask is not None else torch.zeros_like(trace.weights, dtype=torch.bool)
    weights = trace.weights if b is None else trace.weights[b]
    head_outputs = trace.head_outputs if b is None else trace.head_outputs[b]
    with torch.no_grad():
        return Scene(
            settings=s,
            tokens=tuple(tokens), kv_tokens=tuple(kv_tokens),
            labels=tuple(token_labels(tokens)), kv_labels=tuple(token_labels(kv_tokens)),
            x=_ro(x), p=_ro(p), x_in=_ro(x_in), x_kv=_ro(x_kv), p_kv=_ro(p_kv), x_kv_in=_ro(x_kv_in),
            q=at(trace.q), k=at(trace.k), v=at(trace.v),
            q_fused=at(trace.q_fused), k_fused=at(trace.k_fused), v_fused=at(trace.v_fused),
            scores=at(trace.scores), masked_scores=at(trace.masked_scores), weights=at(trace.weights),
            head_outputs=at(trace.head_outputs), concat=at(trace.concat), output=at(trace.output),
            w_q=_ro(trace.w_q), w_k=_ro(trace.w_k), w_v=_ro(trace.w_v), w_o=_ro(trace.w_o),
            w_q_heads=_ro(trace.w_q_heads), w_k_heads=_ro(trace.w_k_heads), w_v_heads=_ro(trace.w_v_heads),
            w_o_heads=_ro(trace.w_o_heads),
            mask=at(mask),
            entropy=_ro(softmax_entropy(weights)),
            head_sim=_ro(head_similarity(head_outputs)),
            contrib_sim=_ro(contribution_similarity(head_outputs, trace.w_o_heads)),
            pe_sim=_ro(positional_similarity(p)),
            pe_wavelengths=_ro(wavelengths(d, s.pe_base)),
            params=parameter_count(d, s.n_heads, bias=s.real),
            costs=tuple(operation_counts(len(tokens), d, s.n_heads, len_k=len(kv_tokens), bias=s.real,
                                         scale=s.scale)),
            scale_factor=trace.scale_factor,
            in_proj_bias=None if trace.in_proj_bias is None else _ro(trace.in_proj_bias),
            out_proj_bias=None if trace.out_proj_bias is None else _ro(trace.out_proj_bias),
            **extra,
        )  # fmt: skip


def _batch_scene(s: Settings) -> Scene:
    """The real layer (B = 1) or the padding batch (B = 2, random or real weights), as one batched trace."""
    inp = batch_inputs(s, EMBEDDING_SEED)
    x, x_in = inp.x, inp.x_in
    if not s.real:
        x = x.clone()
        x[0] = _apply_edits(x[0], s.x_edits)
        x_in = x + inp.p if s.add_pe else x
    mha = inp.module if inp.module is not None else _module(s)
    key_padding = inp.key_padding
    if s.mask == "chosen" and s.padded:  # the free choice of masked keys, on the one real sentence
        key_padding = torch.zeros(x.shape[:2], dtype=torch.bool)
        key_padding[0, [i for i in s.padded if i < x.shape[1]]] = True
    with torch.no_grad():
        trace = mha(x_in, key_padding_mask=key_padding, causal=s.mask == "causal")
    items = []
    for b, tokens in enumerate(inp.tokens):
        side = (x[b], inp.p, x_in[b])
        items.append(_scene(s, list(tokens), list(tokens), side, side, trace, b, truncated=inp.truncated))
    if s.mask != "padding":
        return items[0]
    padding = inp.key_padding if inp.key_padding is not None else torch.zeros(x.shape[:2], dtype=torch.bool)
    return dataclasses.replace(items[0], batch=tuple(items), key_padding=_ro(padding))


NOTE_002_SIZES = {"batch": 32, "len_q": 20, "len_k": 20, "d_model": 512, "n_heads": 8}  # note 002's B, T, d_model, h
MAX_SHAPE_BATCH = 64  # the shape table runs the core on a batch this large at most (B x L x d_model floats)


@lru_cache(maxsize=8)
def traced_shapes(batch: int, len_q: int, len_k: int, d_model: int, n_heads: int) -> dict[str, tuple[int, ...]]:
    """The shapes of a real forward pass on a random batch of `batch` sequences: the core is run (not its shapes
    relabelled), and each tensor of note 002's table is read from the trace. "q_i", "scores_i" and "head_i" are
    ONE head (index 0 of the head axis); "q", "scores" and "head_outputs" hold all h heads."""
    if not 1 <= batch <= MAX_SHAPE_BATCH:
        raise ValueError(f"batch must be 1 to {MAX_SHAPE_BATCH}, got {batch}")
    gen = torch.Generator().manual_seed(0)
    x = torch.randn(batch, len_q, d_model, generator=gen)  # (B, L, d_model)
    mem = torch.randn(batch, len_k, d_model, generator=gen)  # (B, L_k, d_model)
    mha = MultiHeadAttention(AttentionConfig(d_model=d_model, n_heads=n_heads, bias=False))
    with torch.no_grad():
        tr = mha(x, key=mem if len_k != len_q else None)
    q_split = tr.q_fused.reshape(batch, len_q, n_heads, d_model // n_heads)  # before the transpose
    shapes = {
        "x": tr.query, "w": tr.w_q, "w_i": tr.w_q_heads[0], "q_fused": tr.q_fused, "k_fused": tr.k_fused,
        "q_split": q_split, "q": tr.q, "q_i": tr.q[:, 0], "k": tr.k, "scores": tr.weights, "scores_i": tr.weights[:, 0],
        "head_outputs": tr.head_outputs, "head_i": tr.head_outputs[:, 0], "merge": tr.head_outputs.transpose(1, 2),
        "concat": tr.concat, "w_o": tr.w_o, "output": tr.output,
    }  # fmt: skip
    return {name: tuple(t.shape) for name, t in shapes.items()}


def shape_table(s: Settings, len_q: int, len_k: int, batch: int = 1, one: str = "one head",
                every: str = "all heads") -> list[tuple[str, str, str]]:
    """Note 002's table, live: (tensor, symbolic shape, shape of the tensor in a real forward pass) for the current
    sizes and a batch of `batch` sentences (traced_shapes runs the core on such a batch). The rows follow
    MultiHeadAttention.forward line by line; rows marked "one head" are head i alone (note 002 writes head_i with
    the h axis of all heads). The names are notation and PyTorch code, the same in every language, except the words
    `one` and `every` (translated by the caller). Cells are Markdown: st.table draws their LaTeX."""
    got = traced_shapes(batch, len_q, len_k, s.d_model, s.n_heads)
    rows = [
        ("$X$", "B × L × d_model", "x"),
        ("$W^Q, W^K, W^V$", "d_model × d_model", "w"),
        ("$W_i^Q, W_i^K, W_i^V$", "d_model × d_k", "w_i"),
        ("$Q = X W^Q$", "B × L × d_model", "q_fused"),
        ("$K = X W^K,\\ V = X W^V$", "B × L_k × d_model", "k_fused"),
        ("`split_heads(Q)`: `.reshape(B, L, h, d_k)`", "B × L × h × d_k", "q_split"),
        (f"$Q_1 \\dots Q_h$: `.transpose(1, 2)` ({every})", "B × h × L × d_k", "q"),
        (f"$Q_i$ ({one})", "B × L × d_k", "q_i"),
        (f"$K_1 \\dots K_h,\\ V_1 \\dots V_h$ ({every})", "B × h × L_k × d_k", "k"),
        (f"$S = QK^\\top / \\sqrt{{d_k}},\\ A = \\mathrm{{softmax}}(S)$ ({every})", "B × h × L × L_k", "scores"),
        (f"$S_i, A_i$ ({one})", "B × L × L_k", "scores_i"),
        (f"$\\mathrm{{head}}_1 \\dots \\mathrm{{head}}_h$ = $A V$ ({every})", "B × h × L × d_k", "head_outputs"),
        (f"$\\mathrm{{head}}_i = A_i V_i$ ({one})", "B × L × d_k", "head_i"),
        ("`merge_heads`: `.transpose(1, 2)`", "B × L × h × d_k", "merge"),
        ("$\\mathrm{Concat}$: `.reshape(B, L, h·d_k)`", "B × L × d_model", "concat"),
        ("$W^O$", "(h·d_k) × d_model", "w_o"),
        ("$Y = \\mathrm{Concat}\\, W^O$", "B × L × d_model", "output"),
    ]
    return [(name, symbolic, " × ".join(str(n) for n in got[key])) for name, symbolic, key in rows]


__all__ = ["LIMITS", "MAX_SHAPE_BATCH", "NOTE_002_SIZES", "Scene", "run_scene", "shape_table", "traced_shapes"]
