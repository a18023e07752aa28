"""Training with each task's defaults (seed 0) learns the task, the heads take on the pattern the task needs, and
the same seed gives exactly the same run. How long it takes is a benchmark's figure (bench/bench_core.py), not a
test's: a busy or slower machine takes several times longer (54 s against 2-8 s seen)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import torch

from training import DEFAULTS, TASKS, Trainer, pattern_score, train

# (accuracy on 256 held-out examples, best head's pattern score in the last layer) after the default budget
STATED = {
    "previous": (0.99, 0.90),
    "reverse": (0.99, 0.80),
    "sort": (0.99, 0.40),
    "induction": (0.98, 0.90),
}


@pytest.fixture(scope="module")
def trained() -> dict[str, Trainer]:
    return {name: train(DEFAULTS[name]) for name in TASKS}


@pytest.mark.parametrize("name", list(TASKS))
def test_default_training_reaches_the_stated_accuracy(trained, name):
    t = trained[name]
    accuracy, _ = STATED[name]
    assert t.step == DEFAULTS[name].steps and not t.stopped
    assert t.history.accuracy[0] < 0.3  # it starts near chance
    assert t.history.accuracy[-1] >= accuracy, t.history.accuracy[-10:]
    assert t.history.loss[-1] < t.history.loss[0] / 20


@pytest.mark.parametrize("name", list(TASKS))
def test_a_head_takes_on_the_pattern_the_task_needs(trained, name):
    t = trained[name]
    _, needed = STATED[name]
    start, end = t.history.pattern[0], t.history.pattern[-1]  # (n_layers, h) each
    assert end[-1].max() > needed, end
    assert start.max() < t.uniform_pattern() + 0.15  # it starts from spread-out attention


def test_sort_heads_beat_spread_attention_several_times_over(trained):
    t = trained["sort"]
    assert t.history.pattern[-1].max() > 2.5 * t.uniform_pattern()


def test_induction_uses_a_previous_token_head_in_layer_1_and_an_induction_head_in_layer_2(trained):
    t = trained["induction"]
    assert t.history.pattern[-1][1].max() > 0.9  # layer 2 looks at the token after the earlier copy
    assert t.history.pattern[-1][0].max() < 0.3  # layer 1 does not
    length = t.task.seq_len
    previous = torch.diag(torch.ones(length - 1), -1).expand(len(t.eval_batch.tokens), length, length)
    with torch.no_grad():
        weights = t.model(t.eval_batch.tokens).weights
    assert pattern_score(weights, previous)[0].max() > 0.5  # layer 1 has a previous-token head


def test_the_previous_token_head_looks_one_back_on_the_probe(trained):
    t = trained["previous"]
    final = t.snapshots[-1].weights[0]  # (h, L, L)
    one_back = np.stack([np.diagonal(w, offset=-1) for w in final])  # (h, L-1): query i+1 -> key i
    assert one_back.mean(axis=1).max() > 0.9


def test_same_seed_gives_the_same_loss_curve_whatever_the_chunk_size():
    cfg = dataclasses.replace(DEFAULTS["previous"], steps=120)
    a, b = train(cfg, chunk=100), train(cfg, chunk=7)
    assert a.history.steps == b.history.steps
    # the same computations in the same order; to within rounding, which a BLAS (MKL) may do differently for the
    # same product in another buffer
    np.testing.assert_allclose(a.history.loss, b.history.loss, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(a.history.accuracy, b.history.accuracy, rtol=0, atol=1e-9)
    for sa, sb in zip(a.snapshots, b.snapshots, strict=True):
        assert sa.step == sb.step
        np.testing.assert_allclose(sa.weights, sb.weights, rtol=1e-6, atol=1e-9)
    c = train(dataclasses.replace(cfg, seed=1))
    assert c.history.loss != a.history.loss


def test_training_does_not_touch_the_global_random_state():
    torch.manual_seed(7)
    want = torch.rand(4)
    torch.manual_seed(7)
    train(dataclasses.replace(DEFAULTS["reverse"], steps=15))
    assert torch.equal(torch.rand(4), want)
