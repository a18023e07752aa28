"""The tiny decoder (training/decoder.py), its corpus (training/corpus.py) and the head measures (training/heads.py).

Oracles: the decoder's step with a KV cache against its own full causal forward; the measures against loops written
here over hand-made attention patterns (exactly previous-token, exactly induction, uniform).
"""

from __future__ import annotations

import dataclasses
import hashlib
from types import SimpleNamespace

import numpy as np
import pytest
import torch

from mha_core import MultiHeadAttention, tokenize
from training.corpus import CORPUS_DIR, NOTES, UNK, Vocabulary, clean_note, documents, token_streams
from training.decoder import DecoderConfig, TinyDecoder
from training.heads import (
    HeadReport,
    induction_score,
    previous_token_score,
    repeated_random,
    uniform_induction,
    uniform_previous,
)

SMALL = DecoderConfig(vocab_size=23, d_model=16, n_heads=4, n_kv_heads=2, n_layers=2, max_len=12, seed=3)


@pytest.mark.parametrize("change", [{}, {"rope": False}, {"n_kv_heads": None}, {"n_kv_heads": 1}, {"d_ff": 32}])
def test_forward_is_causal_and_every_layer_is_the_cores_attention(change):
    model = TinyDecoder(dataclasses.replace(SMALL, **change))
    out = model(torch.randint(23, (3, 10)))
    assert out.logits.shape == (3, 10, 23)
    assert all(isinstance(m, MultiHeadAttention) for m in model.attention)
    w = out.weights  # (layers, B, h, L, L)
    assert w.shape == (2, 3, 4, 10, 10)
    assert torch.all(w.triu(diagonal=1) == 0)  # a masked weight is exactly 0 (the core's rule)
    assert torch.allclose(w.sum(-1), torch.ones(()), atol=1e-6)
    g = model.config.n_kv_heads or model.config.n_heads
    assert out.traces[0].k.shape == (3, g, 10, 4)  # K with g heads (grouped-query attention)


@pytest.mark.parametrize("change", [{}, {"rope": False}, {"d_ff": 32}, {"n_kv_heads": 1}])
def test_one_token_at_a_time_with_the_cache_equals_the_full_forward(change):
    model = TinyDecoder(dataclasses.replace(SMALL, **change))
    tokens = torch.randint(23, (9,))
    full = model(tokens[None])
    caches = model.new_caches()
    for t, tok in enumerate(tokens.tolist()):
        logits, traces = model.step(tok, caches)
        torch.testing.assert_close(logits, full.logits[0, t], atol=1e-5, rtol=1e-5)
        for layer, trace in enumerate(traces):
            torch.testing.assert_close(trace.weights[:, 0], full.traces[layer].weights[0, :, t, : t + 1], atol=1e-6,
                                       rtol=1e-5)  # fmt: skip
    assert [len(c) for c in caches] == [9, 9]


def test_same_seed_same_weights_and_the_global_rng_is_left_alone():
    torch.manual_seed(5)
    before = torch.rand(2)
    torch.manual_seed(5)
    a, b = TinyDecoder(SMALL), TinyDecoder(SMALL)
    assert torch.equal(torch.rand(2), before)
    for pa, pb in zip(a.state_dict().values(), b.state_dict().values(), strict=True):
        assert torch.equal(pa, pb)
    assert not torch.equal(a.embed.weight, TinyDecoder(dataclasses.replace(SMALL, seed=4)).embed.weight)


# ----- corpus ------------------------------------------------------------------------------------------------------
NOTE_SHA256 = {  # the course's seeds, as listed in training/corpus/README.md
    "note_000.txt": "36e0345ee719b5a78aa34b2fd3ce62754c4e99503949f52f24f0f91687c53cbd",
    "note_001.txt": "6e9884804680cfad991461bdabb278807a0d8510e85bb25238304750a9ea822d",
    "note_002.txt": "c2254d3a9fa7f5b5e68494c151d59490d18363871e0335b753c79847d7f7e952",
    "note_003.txt": "c936deb6ca258c405b949b25a641d33bd1218f349ba892b9ffb1bf4d1ae6cffd",
    "note_004.txt": "bce3ec12bf9650c822a903d0a6a43edf1829da1571295909a730bae4f7b01214",
}


def test_the_notes_are_the_courses_bytes_and_the_readme_lists_them():
    readme = (CORPUS_DIR / "README.md").read_text(encoding="utf-8")
    for name in NOTES:
        digest = hashlib.sha256((CORPUS_DIR / name).read_bytes()).hexdigest()
        assert digest == NOTE_SHA256[name]
        assert f"{digest}  {name}" in readme


def test_cleaning_drops_the_editors_artefacts_only():
    text = "头的数量 **h** 越多。 ^59530b\n![[Pasted image 20250314210038.png|600]]\n$A_i = QK^T$ ^572aa1\n"
    assert clean_note(text) == "头的数量 **h** 越多。\n\n$A_i = QK^T$\n"
    joined = "".join(documents().values())
    assert "![[" not in joined and "Pasted image" not in joined
    assert "猫坐在垫子上" in joined and "W_i^Q" in joined  # prose and formulas stay


def test_vocabulary_starts_with_unk_and_knows_the_pages_sentences():
    vocab = token_streams().vocab
    assert vocab.tokens[0] == UNK and len(vocab) == len(set(vocab.tokens))
    for sentence in ("The cat sat on the mat because it was tired .", "小猫坐在垫子上，因为它累了。",
                     "猫坐在垫子上，因为它累了。", "多头注意力"):  # fmt: skip
        ids = vocab.encode(sentence)
        assert len(ids) == len(tokenize(sentence)) and 0 not in ids, sentence
    assert vocab.encode("zyxwvut") == [0]


def test_vocabulary_is_every_token_seen_twice_most_frequent_first():
    vocab = Vocabulary.build([["b", "a", "b", "c"], ["a", "c", "d", "b"]], min_count=2)
    assert vocab.tokens == (UNK, "b", "a", "c")  # b x3, then a and c x2 in code-point order; d once: out
    with pytest.raises(ValueError):
        Vocabulary(("a", UNK))


def test_held_out_is_the_tail_of_every_text_and_windows_are_seeded():
    streams = token_streams()
    total = sum(len(tokenize(t)) for t in documents().values())
    assert len(streams.train) + len(streams.held_out) == total
    assert 0.08 < len(streams.held_out) / total < 0.12
    a = streams.windows(4, 16, torch.Generator().manual_seed(1))
    b = streams.windows(4, 16, torch.Generator().manual_seed(1))
    assert a.shape == (4, 16) and torch.equal(a, b)


# ----- measures ----------------------------------------------------------------------------------------------------
class FixedPattern(torch.nn.Module):
    """A stand-in model whose every head has the given weights (L, L) on any input."""

    def __init__(self, pattern: torch.Tensor, layers: int = 2, heads: int = 3) -> None:
        super().__init__()
        self.pattern, self.layers, self.heads = pattern, layers, heads

    def forward(self, tokens: torch.Tensor) -> SimpleNamespace:
        w = self.pattern.expand(tokens.shape[0], self.heads, *self.pattern.shape)
        return SimpleNamespace(traces=tuple(SimpleNamespace(weights=w) for _ in range(self.layers)))


def causal_uniform(length: int) -> torch.Tensor:
    return torch.tril(torch.ones(length, length)) / torch.arange(1, length + 1)[:, None]


def test_previous_token_score_is_one_for_the_pattern_and_the_mean_of_1_over_i_plus_1_for_uniform():
    length = 8
    prev = torch.diag(torch.ones(length - 1), -1)
    prev[0, 0] = 1.0  # the first query has no previous token: it looks at itself
    tokens = torch.zeros(2, length, dtype=torch.int64)
    assert np.allclose(previous_token_score(FixedPattern(prev), tokens), 1.0)
    want = sum(1 / (i + 1) for i in range(1, length)) / (length - 1)  # query i spreads 1 / (i + 1)
    assert np.allclose(previous_token_score(FixedPattern(causal_uniform(length)), tokens), want)
    assert uniform_previous(length) == pytest.approx(want)


def test_induction_score_is_one_for_the_pattern_and_known_for_uniform():
    n = 5
    tokens = repeated_random(3, n, 40, torch.Generator().manual_seed(0))
    pattern = torch.zeros(2 * n, 2 * n)
    for j in range(n):
        pattern[n + j, j + 1] = 1.0  # the token after the earlier copy of the current token
    for i in range(n):
        pattern[i, i] = 1.0
    assert np.allclose(induction_score(FixedPattern(pattern), tokens), 1.0)
    want = np.mean([1 / (n + j + 1) for j in range(n)])
    assert np.allclose(induction_score(FixedPattern(causal_uniform(2 * n)), tokens), want)
    assert uniform_induction(n) == pytest.approx(want)


def test_the_measures_equal_loops_over_a_real_models_weights():
    model = TinyDecoder(SMALL)
    tokens = torch.randint(1, 23, (2, 10))
    w = model(tokens).weights.detach().numpy()  # (layers, B, h, L, L)
    loop = np.zeros((2, 4))
    for layer in range(2):
        for head in range(4):
            loop[layer, head] = np.mean([w[layer, b, head, i, i - 1] for b in range(2) for i in range(1, 10)])
    assert np.allclose(previous_token_score(model, tokens), loop, atol=1e-6)
    rep = repeated_random(2, 5, 23, torch.Generator().manual_seed(2))
    w = model(rep).weights.detach().numpy()
    loop = np.array([[np.mean([w[ly, b, hd, 5 + j, j + 1] for b in range(2) for j in range(5)]) for hd in range(4)]
                     for ly in range(2)])  # fmt: skip
    assert np.allclose(induction_score(model, rep), loop, atol=1e-6)


def test_repeated_random_is_distinct_tokens_twice_and_never_unk():
    rep = repeated_random(6, 7, 30, torch.Generator().manual_seed(4))
    assert rep.shape == (6, 14)
    assert torch.equal(rep[:, :7], rep[:, 7:])
    assert all(len(set(row[:7].tolist())) == 7 for row in rep)
    assert int(rep.min()) >= 1 and int(rep.max()) <= 29


def test_a_head_is_labelled_only_above_the_threshold_and_the_untrained_baseline():
    trained = {"previous": np.array([[0.9, 0.2], [0.4, 0.1]]), "induction": np.array([[0.0, 0.0], [0.5, 0.8]])}
    untrained = {"previous": np.array([[0.1, 0.12], [0.1, 0.11]]), "induction": np.array([[0.02, 0.2], [0.0, 0.0]])}
    report = HeadReport(trained, untrained, {"previous": 0.1, "induction": 0.03}, 24)
    got = {(lab.layer, lab.head, lab.measure) for lab in report.labels()}
    # previous: 0.9 and 0.4 >= 0.3 and >= 3 x 0.12; induction: 0.8 >= 3 x 0.2 but 0.5 < 0.6
    assert got == {(0, 0, "previous"), (1, 0, "previous"), (1, 1, "induction")}
    assert {lab.untrained_best for lab in report.labels() if lab.measure == "induction"} == {0.2}


# ----- the training batches ------------------------------------------------------------------------------------------
def test_a_repeated_row_has_its_run_twice_and_a_target_on_the_second_copy_only():
    from training.tasks import IGNORE
    from training.train_decoder import MIN_RUN, repeated_rows

    inputs, targets = repeated_rows(64, 32, 50, torch.Generator().manual_seed(0))
    assert inputs.shape == targets.shape == (64, 32) and int(inputs.min()) >= 1  # never UNK
    distances = set()
    for x, y in zip(inputs.tolist(), targets.tolist(), strict=True):
        where = [i for i, v in enumerate(y) if v != IGNORE]
        n = len(where) + 1  # targets at every token of the second copy but its last
        assert n >= MIN_RUN and where == list(range(where[0], where[0] + n - 1))
        start = where[0]  # the second copy's first token
        assert x[start : start + n - 1] == x[start - n : start - 1]  # the first copy, just before
        assert y[start : start + n - 1] == x[start - n + 1 : start]  # the target: the run's next token
        assert len(set(x[start - n : start])) == n
        distances.add(n)
    assert len(distances) > 5  # no fixed distance back finds the earlier copy


def test_batches_mix_text_rows_and_repeated_rows_and_are_seeded():
    from training.train_decoder import Recipe, batch

    streams = token_streams()
    recipe = Recipe()
    a = batch(streams, recipe, torch.Generator().manual_seed(1))
    b = batch(streams, recipe, torch.Generator().manual_seed(1))
    assert all(torch.equal(x, y) for x, y in zip(a, b, strict=True))
    inputs, targets = a
    assert inputs.shape == (recipe.batch, recipe.length)
    text_rows = [r for r in range(recipe.batch) if r % recipe.repeat_every]
    assert torch.equal(targets[text_rows, :-1], inputs[text_rows, 1:])  # text: the next token everywhere
    assert bool((targets[:: recipe.repeat_every] == -100).any())
