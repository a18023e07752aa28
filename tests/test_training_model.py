"""The tiny model, its settings, the pattern score, the CPU sharing helpers and the per-session lab."""

from __future__ import annotations

import dataclasses
import threading
import time

import pytest
import torch

from mha_core import AttentionTrace
from training import (
    LIMITS,
    TASKS,
    ModelConfig,
    TinyTransformer,
    TrainConfig,
    Trainer,
    TrainingError,
    pattern_score,
    single_thread,
)
from training.session import MAX_CACHED, Lab
from training.trainer import schedule


def test_forward_gives_logits_and_one_trace_per_layer():
    cfg = ModelConfig(vocab_size=9, seq_len=6, d_model=16, n_heads=4, n_layers=2, causal=True, see_self=False)
    out = TinyTransformer(cfg)(torch.randint(9, (3, 6)))
    assert out.logits.shape == (3, 6, 9)
    assert len(out.traces) == 2 and all(isinstance(t, AttentionTrace) for t in out.traces)
    assert out.weights.shape == (2, 3, 4, 6, 6)


def test_the_mask_hides_later_keys_and_the_query_itself():
    cfg = ModelConfig(vocab_size=5, seq_len=4, causal=True, see_self=False)
    assert cfg.attention_mask().tolist() == [
        [True, True, True, True],  # position 0 sees nothing: its weights are all 0 (mha_core's rule)
        [False, True, True, True],
        [False, False, True, True],
        [False, False, False, True],
    ]
    w = TinyTransformer(cfg)(torch.randint(5, (2, 4))).weights  # (layers, B, h, L, L)
    assert torch.all(w[..., cfg.attention_mask()] == 0)
    assert torch.allclose(w.sum(-1)[..., 1:], torch.ones(()))  # every other row is a distribution
    assert torch.all(w.sum(-1)[..., 0] == 0)


def test_bidirectional_mask_hides_only_the_query_itself():
    cfg = ModelConfig(vocab_size=5, seq_len=3, causal=False, see_self=False)
    assert cfg.attention_mask().tolist() == [[True, False, False], [False, True, False], [False, False, True]]


def test_same_seed_same_initial_weights_and_the_global_rng_is_left_alone():
    cfg = ModelConfig(vocab_size=7, seq_len=5, seed=3)
    torch.manual_seed(123)
    before = torch.rand(3)
    torch.manual_seed(123)
    a, b = TinyTransformer(cfg), TinyTransformer(cfg)
    assert torch.equal(torch.rand(3), before)  # building a model did not draw from the global generator
    for pa, pb in zip(a.parameters(), b.parameters(), strict=True):
        assert torch.equal(pa, pb)
    c = TinyTransformer(dataclasses.replace(cfg, seed=4))
    assert not torch.equal(a.embed.weight, c.embed.weight)


def test_gradients_reach_every_attention_weight():
    cfg = ModelConfig(vocab_size=7, seq_len=5, n_layers=2, causal=True, see_self=False)
    model = TinyTransformer(cfg)
    model(torch.randint(7, (4, 5))).logits.sum().backward()
    for mha in model.attention:
        assert mha.in_proj_weight.grad is not None and mha.in_proj_weight.grad.abs().sum() > 0
        assert torch.isfinite(mha.in_proj_weight.grad).all()  # the fully masked first row gives no NaN


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"task": "copy"}, "bad_task"),
        ({"d_model": 20}, "not_allowed"),
        ({"n_heads": 3}, "not_allowed"),
        ({"n_layers": 3}, "not_allowed"),
        ({"lr": 0.5}, "not_allowed"),
        ({"steps": 5}, "out_of_range"),
        ({"steps": LIMITS.max_steps + 1}, "out_of_range"),
        ({"steps": 100.0}, "out_of_range"),
        ({"seed": -1}, "out_of_range"),
        ({"seed": True}, "out_of_range"),
    ],
)
def test_invalid_settings_raise_one_clear_error(change, code):
    with pytest.raises(TrainingError) as err:
        dataclasses.replace(TrainConfig(), **change)
    assert err.value.code == code
    assert isinstance(err.value, ValueError)


def test_every_allowed_size_is_valid():
    for d_model in LIMITS.d_models:
        for n_heads in LIMITS.heads:
            config = TrainConfig(d_model=d_model, n_heads=n_heads).model_config()  # raises unless h divides d_model
            assert (config.d_model, config.n_heads) == (d_model, n_heads) and d_model % n_heads == 0


def test_schedule_starts_at_zero_ends_at_the_budget_and_is_dense_early():
    steps = sorted(schedule(600, 40))
    assert steps[0] == 0 and steps[-1] == 600
    assert len(steps) <= 40
    early = [s for s in steps if s <= 60]
    assert len(early) >= 10  # a quarter of the snapshots in the first tenth of training
    assert sorted(schedule(10, 40)) == list(range(11))


def test_pattern_score_is_one_for_the_needed_pattern_and_the_spread_for_uniform_weights():
    expected = torch.tensor([[[0, 0, 0], [1, 0, 0], [0, 1, 0]]], dtype=torch.float32)  # previous token
    perfect = expected[None, :, None]  # (layers=1, B=1, h=1, L, L)
    assert pattern_score(perfect, expected).tolist() == [[1.0]]
    uniform = torch.tensor([[0, 0, 0], [1, 0, 0], [0.5, 0.5, 0]])[None, None, None]
    assert pattern_score(uniform, expected).tolist() == [[0.75]]  # rows 1 and 2: (1 + 0.5) / 2


def test_uniform_pattern_matches_evenly_spread_attention():
    trainer = Trainer(TrainConfig("previous", steps=10))
    # previous, L=10, keys before the query only: query i spreads 1/i over i keys, needed key gets 1/i
    want = sum(1 / i for i in range(1, 10)) / 9
    assert trainer.uniform_pattern() == pytest.approx(want, rel=1e-6)


def test_single_thread_sets_one_thread_and_restores_the_count_when_the_last_user_leaves():
    before = torch.get_num_threads()
    with single_thread():
        assert torch.get_num_threads() == 1
        with single_thread():
            assert torch.get_num_threads() == 1
        assert torch.get_num_threads() == 1
    assert torch.get_num_threads() == before


def test_stopping_keeps_the_model_and_records_the_step_it_stopped_at():
    trainer = Trainer(TrainConfig("previous", steps=500))
    trainer.run(37)
    trainer.stop()
    assert trainer.done and trainer.stopped and trainer.step == 37
    assert trainer.history.steps[-1] == 37 and trainer.snapshots[-1].step == 37
    trainer.run(10)
    assert trainer.step == 37  # a stopped trainer does not train on


def test_a_run_never_goes_past_its_budget():
    trainer = Trainer(TrainConfig("reverse", steps=25))
    trainer.run(1000)
    assert trainer.step == 25 and trainer.done and not trainer.stopped
    assert trainer.history.steps[0] == 0 and trainer.history.steps[-1] == 25
    assert [s.step for s in trainer.snapshots][-1] == 25


def test_lab_trains_a_new_config_and_reuses_a_finished_one():
    lab = Lab()
    cfg = TrainConfig("previous", steps=20)
    assert lab.start(cfg) is True and lab.running
    while lab.running:
        assert lab.advance(0.05)
    first = lab.current
    assert first.done and not lab.from_cache
    assert lab.start(cfg) is False and not lab.running  # same settings: shown from the cache
    assert lab.current is first and lab.from_cache


def test_lab_retrains_a_run_that_was_stopped():
    lab = Lab()
    cfg = TrainConfig("previous", steps=200)
    lab.start(cfg)
    lab.current.run(5)
    lab.stop()
    assert not lab.running and lab.current.stopped
    assert lab.start(cfg) is True and lab.current.step == 0


def test_lab_keeps_only_a_few_runs():
    lab = Lab()
    for seed in range(MAX_CACHED + 2):
        lab.start(TrainConfig("previous", steps=10, seed=seed))
    assert len(lab.runs) == MAX_CACHED
    assert TrainConfig("previous", steps=10, seed=0) not in lab.runs


def test_lab_trains_one_run_at_a_time():
    lab = Lab()
    lab.start(TrainConfig("previous", steps=50))
    result: list[bool] = []
    with lab.lock:  # another run of the same session is still inside advance()
        t = threading.Thread(target=lambda: result.append(lab.advance(0.05)))
        t.start()
        t.join(0.3)
        assert t.is_alive() and lab.current.step == 0  # waits for that run's chunk instead of training alongside
    t.join()
    assert result == [True] and lab.current.step > 0


def test_stop_waits_for_the_chunk_a_previous_run_is_training():
    """A click on Stop runs in a new script thread while the old one is still training (Streamlit's fast reruns):
    the trainer is stopped only once that chunk is done, so what the page then reads is whole and stays put."""
    lab = Lab()
    lab.start(TrainConfig("previous", steps=2000))
    old_run = threading.Thread(target=lab.advance, args=(30.0,))
    old_run.start()
    deadline = time.monotonic() + 60
    while lab.current.step == 0 and old_run.is_alive() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert lab.current.step > 0  # the old run is training (a failed thread must not hang the suite)
    lab.stop()
    assert not old_run.is_alive()  # it ended after its chunk, long before its 30 s
    t, h = lab.current, lab.current.history
    assert t.stopped and not lab.running
    assert len(h.steps) == len(h.loss) == len(h.accuracy) == len(h.pattern)
    assert h.steps[-1] == t.snapshots[-1].step == t.step
    step = t.step
    time.sleep(0.1)
    assert lab.current.step == step


def test_tasks_fit_the_model_limits():
    for task in TASKS.values():
        assert task.seq_len <= 32 and task.vocab_size <= 16
