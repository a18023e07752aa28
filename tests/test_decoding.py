"""The decoding page's numbers (explorer/decoding.py) against independent computations: the decoder's steps against
the same decoder run as one causal forward, the cache rows against earlier snapshots, the counted FLOPs against
torch's FlopCounterMode, the cache bytes against the formula.

Here on the seeded decoder (what load_decoder returns when the trained checkpoint is refused); the trained decoder's
steps against its own full forward: tests/test_decoder_checkpoint.py."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from torch.utils.flop_counter import FlopCounterMode

from explorer import decoding
from explorer.decoding import DECODING_CACHE, MAX_NEW, MAX_PROMPT, SeededDecoder, load_decoder, run_decoding
from mha_core import kv_cache_bytes
from training.checkpoint import CheckpointError

PROMPT = "The cat sat on the mat because it was tired ."


@pytest.fixture(autouse=True)
def seeded_decoder(monkeypatch):
    """load_decoder as when the trained checkpoint is refused: the seeded decoder (and no run cached from another)."""

    def refused():
        raise CheckpointError("altered", "the seeded decoder's tests")

    monkeypatch.setattr(decoding, "trained_decoder", refused)
    DECODING_CACHE.clear()
    yield
    DECODING_CACHE.clear()


def full_forward(decoder: SeededDecoder, ids: list[int]) -> tuple[torch.Tensor, list[torch.Tensor]]:
    """The same decoder run over all tokens at once, causal (no cache): logits (L, V) and each layer's weights."""
    x = decoder.embedding[ids]  # (L, d)
    weights = []
    with torch.no_grad():
        for norm, layer in zip(decoder.norms[:-1], decoder.layers, strict=True):
            trace = layer(norm(x), causal=True)
            x = x + trace.output
            weights.append(trace.weights)
        return decoder.norms[-1](x) @ decoder.unembedding.T, weights


def test_each_step_equals_the_full_causal_forward_and_earlier_cache_rows_never_change() -> None:
    decoder = load_decoder(PROMPT)
    ids = decoder.encode(PROMPT)
    caches, snapshots = decoder.new_caches(), []
    logits_full, weights_full = full_forward(decoder, ids)
    for t, token in enumerate(ids):
        logits, traces = decoder.step(token, caches)
        torch.testing.assert_close(logits, logits_full[t], rtol=1e-5, atol=1e-5)
        for layer, trace in enumerate(traces):
            assert trace.q.shape == (decoder.config.n_heads, 1, decoder.config.d_k)  # one new query row
            torch.testing.assert_close(trace.weights[:, 0], weights_full[layer][:, t, : t + 1], rtol=1e-5, atol=1e-6)
        snapshots.append([(c.k.clone(), c.v.clone()) for c in caches])
        assert all(len(c) == t + 1 for c in caches)  # one new K row and one new V row per layer
    for t, snapshot in enumerate(snapshots):  # the rows stored at step t are the same, bit for bit, at the end
        for (k, v), cache in zip(snapshot, caches, strict=True):
            assert torch.equal(cache.k[..., : t + 1, :], k) and torch.equal(cache.v[..., : t + 1, :], v)


def test_a_run_feeds_the_prompt_then_its_own_guesses() -> None:
    run = run_decoding(PROMPT, 3)
    n_prompt = len(load_decoder(PROMPT).encode(PROMPT))
    assert len(run.steps) == n_prompt + 3 and not run.trained
    assert [s.generated for s in run.steps] == [False] * n_prompt + [True] * 3
    for before, after in zip(run.steps[n_prompt - 1 : -1], run.steps[n_prompt:], strict=True):
        assert after.token == before.next_token  # a generated token is the guess of the step before
    for t, step in enumerate(run.steps):
        assert step.weights.shape == (run.n_layers, run.config.n_heads, t + 1)  # keys 0..t only: causal
        np.testing.assert_allclose(step.weights.sum(-1), 1.0, atol=1e-5)
    rows = run.weights_until(4, 0)
    assert np.isnan(rows[:, 0, 1:]).all() and not np.isnan(rows[:, 4]).any()  # the future is hidden


def test_counted_costs_equal_the_flop_counter_and_the_cache_formula() -> None:
    run = run_decoding(PROMPT, 2)
    decoder = load_decoder(PROMPT)
    ids = [decoder.vocab.index(tok) for tok in run.tokens]
    caches = decoder.new_caches()
    for t, step in enumerate(run.steps):
        with FlopCounterMode(display=False) as cached:
            decoder.step(ids[t], caches)
        with FlopCounterMode(display=False) as full:
            full_forward(decoder, ids[: t + 1])
        # the decoder's own logits (against the output embeddings) are not attention: counted out on both sides
        head = 2 * decoder.config.d_model * len(decoder.vocab)
        assert step.flops_cached == cached.get_total_flops() - head
        assert step.flops_recompute == full.get_total_flops() - head * (t + 1)
        assert step.flops_recompute == (t + 1) * step.flops_cached  # "t times as many"
        c = run.config
        assert step.cache_bytes == sum(ca.nbytes for ca in caches) == run.cache_formula(t)
        assert step.cache_bytes == 2 * run.n_layers * c.kv_heads * c.d_k * (t + 1) * 4
        assert step.cache_bytes == kv_cache_bytes(t + 1, c.kv_heads, c.d_k, run.n_layers, 4)


def test_long_and_empty_prompts_are_bounded() -> None:
    run = run_decoding(" ".join(f"w{i}" for i in range(40)), 99)
    assert len(run.steps) == MAX_PROMPT + MAX_NEW
    assert run_decoding("   ", 3).steps == ()


@pytest.mark.parametrize("prompt", ["猫坐在垫子上，因为它累了。", "<b>*bold*</b> $x$ `code`"])
def test_any_prompt_decodes(prompt: str) -> None:
    run = run_decoding(prompt, 2)
    assert run.tokens[: len(run.tokens) - 2] == tuple(load_decoder(prompt).vocab[i] for i in
                                                      load_decoder(prompt).encode(prompt))  # fmt: skip
