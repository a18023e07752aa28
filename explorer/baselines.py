"""A random baseline beside every measure of head specialisation on the real model: all-MiniLM-L6-v2's trained
heads against heads with seeded random weights of the same shapes, fed the same input of each layer.

Without a baseline a number cannot say "specialised": random, untrained heads already give contributions with a
low cosine to each other (note 004 reads low correlation as complementary heads), and attention spread evenly
over L keys already has a mean distance of about L/3.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import torch

from mha_core import AttentionConfig, MultiHeadAttention, contribution_similarity
from mha_core.analysis import mean_attention_distance
from pretrained.encoder import encode_text
from pretrained.patterns import PATTERNS, pattern_scores

from .pipeline import run_scene
from .settings import Settings

RANDOM_SEEDS = (1, 2, 3)  # random layers per real layer: the baseline is a range, not one draw


@lru_cache(maxsize=4)
def _random_layers(d_model: int, n_heads: int) -> tuple[MultiHeadAttention, ...]:
    """Seeded random layers (the core's xavier-uniform draw), one per seed of RANDOM_SEEDS."""
    return tuple(MultiHeadAttention(AttentionConfig(d_model=d_model, n_heads=n_heads, bias=False, seed=s))
                 for s in RANDOM_SEEDS)  # fmt: skip


def _mean_abs_off(sim: np.ndarray) -> float:
    """Mean |cos| between different heads of one (h, h) similarity matrix."""
    h = sim.shape[0]
    return float(np.abs(sim[~np.eye(h, dtype=bool)]).mean()) if h > 1 else 0.0


@dataclass(frozen=True)
class RealHeadsBaseline:
    """Per layer of the real model, and the same for random layers (seeds RANDOM_SEEDS) on the same input.

    contrib_*: mean |cos| between different heads' contributions head_i W^O_i, (layers,) trained and
    (layers, seeds) random. distance_*: mean attention distance of each head in positions, (layers, heads) trained
    and (layers, seeds, heads) random; distance_uniform: a head that gives every key the same weight.
    patterns_*: the strongest head's score of each pattern of pretrained.patterns, trained and random."""

    tokens: tuple[str, ...]
    contrib_trained: np.ndarray
    contrib_random: np.ndarray
    distance_trained: np.ndarray
    distance_random: np.ndarray
    distance_uniform: float
    patterns_trained: dict[str, float]
    patterns_random: dict[str, float]


@lru_cache(maxsize=8)  # a few kilobytes each
def real_heads_baseline(text: str) -> RealHeadsBaseline:
    """Raises pretrained.loading.ModelUnavailable when the model is not installed."""
    enc = encode_text(text)
    length = len(enc.tokens)
    c_tr, c_rand, d_tr, d_rand, w_rand = [], [], [], [], []
    for layer in enc.layers:
        att = layer.attention  # unbatched: weights (h, L, L), query (L, d_model)
        h, d = att.n_heads, att.d_model
        c_tr.append(_mean_abs_off(contribution_similarity(att.head_outputs, att.w_o_heads.detach()).numpy()))
        d_tr.append(mean_attention_distance(att.weights).numpy())
        cs, ds, ws = [], [], []
        for rand in _random_layers(d, h):
            with torch.no_grad():
                tr = rand(att.query)
            cs.append(_mean_abs_off(contribution_similarity(tr.head_outputs, tr.w_o_heads.detach()).numpy()))
            ds.append(mean_attention_distance(tr.weights).numpy())
            ws.append(tr.weights.numpy())
        c_rand.append(cs)
        d_rand.append(ds)
        w_rand.append(np.stack(ws))  # (seeds, h, L, L)
    uniform = float(mean_attention_distance(torch.full((length, length), 1.0 / length)))
    trained = pattern_scores(enc.weights.numpy())  # {pattern: (layers, heads)}
    random = pattern_scores(np.stack(w_rand))  # {pattern: (layers, seeds, heads)}
    best = {p: float(np.nanmax(trained[p])) for p in PATTERNS if not np.isnan(trained[p]).all()}
    best_random = {p: float(np.nanmax(random[p])) for p in best}
    return RealHeadsBaseline(
        tuple(enc.tokens), np.array(c_tr), np.array(c_rand), np.array(d_tr), np.array(d_rand), uniform, best,
        best_random,
    )


@lru_cache(maxsize=16)  # two floats each
def random_contrib_range(s: Settings) -> tuple[float, float]:
    """Mean |cos| between different heads' contributions for random layers of the setting's shapes (seeds
    RANDOM_SEEDS) on the setting's own input: the baseline beside the heads' cosine on the Heads page. For h = 1
    there is nothing to compare: (0, 0)."""
    sc = run_scene(s)
    if sc.n_heads < 2:
        return 0.0, 0.0
    x = torch.tensor(np.array(sc.x_in))
    kv = torch.tensor(np.array(sc.x_kv_in)) if s.cross else None
    values = []
    for layer in _random_layers(sc.d_model, sc.n_heads):
        with torch.no_grad():
            tr = layer(x, key=kv)
        values.append(_mean_abs_off(contribution_similarity(tr.head_outputs, tr.w_o_heads.detach()).numpy()))
    return min(values), max(values)
