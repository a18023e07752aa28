"""The committed checkpoint of the tiny decoder: its pinned bytes, safe loading, what it claims, and that the script
reproduces it (the first steps in every run; the whole run with MHA_FULL_REPRO=1, about a minute of CPU)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os

import numpy as np
import pytest
import torch

from explorer import decoding
from training import checkpoint as ckpt
from training.checkpoint import CHECKPOINT_SHA256, CheckpointError, read_checkpoint, trained_decoder
from training.corpus import token_streams
from training.heads import LABEL_AT, RATIO_OVER_UNTRAINED, repeated_random
from training.train_decoder import CHECKPOINT, Recipe, train_decoder

MAX_BYTES = 3 << 20


def test_the_committed_file_is_small_and_has_the_pinned_sha256():
    data = CHECKPOINT.read_bytes()
    assert len(data) < MAX_BYTES
    assert hashlib.sha256(data).hexdigest() == CHECKPOINT_SHA256


def test_it_holds_tensors_and_a_json_header_only_and_loads_as_the_default_recipe():
    data = CHECKPOINT.read_bytes()
    header = json.loads(data[8 : 8 + int.from_bytes(data[:8], "little")])
    assert all(set(v) == {"dtype", "shape", "data_offsets"} for k, v in header.items() if k != "__metadata__")
    loaded = read_checkpoint()
    assert loaded.recipe == Recipe()
    assert loaded.steps == Recipe().steps
    assert len(loaded.losses) == Recipe().steps // Recipe().log_every
    assert loaded.losses[-1] < loaded.losses[0] / 2


def test_other_bytes_are_refused_with_a_message(tmp_path):
    data = bytearray(CHECKPOINT.read_bytes())
    data[-1] ^= 1  # one bit of one weight
    forged = tmp_path / "tiny_decoder.safetensors"
    forged.write_bytes(bytes(data))
    with pytest.raises(CheckpointError) as err:
        read_checkpoint(forged)
    assert err.value.reason == "altered" and CHECKPOINT_SHA256 in str(err.value)
    with pytest.raises(CheckpointError) as err:
        read_checkpoint(tmp_path / "absent.safetensors")
    assert err.value.reason == "missing"


@pytest.mark.parametrize(
    "data",
    [b"", b"\x10\x00\x00\x00\x00\x00\x00\x00{not json}      ", b"\x02\x00\x00\x00\x00\x00\x00\x00{}"],
)
def test_unreadable_bytes_are_broken_not_a_traceback(tmp_path, data):
    path = tmp_path / "x.safetensors"
    path.write_bytes(data)
    with pytest.raises(CheckpointError) as err:
        read_checkpoint(path, sha256=hashlib.sha256(data).hexdigest())  # pinned as these bytes: read them
    assert err.value.reason == "broken"


def test_a_header_that_does_not_match_its_tensors_is_broken(tmp_path):
    run = dataclasses.replace(read_checkpoint(), recipe=dataclasses.replace(Recipe(), d_model=32))
    state = run.model.state_dict()
    from safetensors.torch import save

    meta = {"format": ckpt.FORMAT, "recipe": json.dumps(dataclasses.asdict(run.recipe)), "steps": "1",
            "vocab": json.dumps(run.vocab.tokens), "losses": "[1.0]", "held_out_loss": "1.0"}  # fmt: skip
    data = save({k: v.contiguous() for k, v in state.items()}, meta)
    path = tmp_path / "x.safetensors"
    path.write_bytes(data)
    with pytest.raises(CheckpointError, match="do not match"):
        read_checkpoint(path, sha256=None)


def test_the_decoding_page_falls_back_to_the_seeded_decoder_when_the_checkpoint_is_refused(monkeypatch):
    def refuse():
        raise CheckpointError("altered", "test")

    monkeypatch.setattr(decoding, "trained_decoder", refuse)
    decoder = decoding.load_decoder("the cat sat")
    assert isinstance(decoder, decoding.SeededDecoder) and not decoder.trained


def test_the_page_gets_the_trained_decoder_and_chinese_gets_real_tokens():
    decoder = decoding.load_decoder("ignored")
    assert decoder is trained_decoder() and decoder.trained
    for sentence in ("猫坐在垫子上，因为它累了。", "多头注意力通过设置多个独立的注意力头来解决这个问题。"):  # note 004
        run = decoding.run_decoding(sentence, 3)
        assert run.trained and "[UNK]" not in run.tokens[: len(run.tokens) - 3]
        assert run.heads is not None
        assert all(s.next_token != "[UNK]" for s in run.steps)  # the decoder never writes UNK


def test_every_step_on_the_page_holds_every_heads_row_as_the_full_forward_computes_it():
    decoder = trained_decoder()
    run = decoding.run_decoding("猫坐在垫子上，因为它累了。", 2)
    ids = [decoder.checkpoint.vocab.tokens.index(tok) for tok in run.tokens]
    with torch.no_grad():
        full = decoder.checkpoint.model(torch.tensor([ids])).weights[:, 0]  # (layers, h, T, T)
    for step in run.steps:
        t = step.position
        assert step.weights.shape == (2, 4, t + 1)
        np.testing.assert_allclose(step.weights, full[:, :, t, : t + 1].numpy(), atol=1e-5)
    assert not np.allclose(run.steps[-1].weights[0, 0], run.steps[-1].weights[0, 1])  # heads differ


# ----- what the checkpoint's heads are -----------------------------------------------------------------------------
def test_the_checkpoint_has_a_labelled_previous_token_head_and_a_labelled_induction_head():
    """Measured from the loaded weights, beside the untrained decoder of the same recipe (its seeded initial weights):
    layer 1 has a previous-token head and layer 2 an induction head (the K-composition the README describes), each
    at least LABEL_AT and RATIO_OVER_UNTRAINED times the best untrained head of that measure."""
    report = ckpt.head_report(read_checkpoint())
    labels = report.labels()
    previous = [lab for lab in labels if lab.measure == "previous" and lab.layer == 0]
    induction = [lab for lab in labels if lab.measure == "induction" and lab.layer == 1]
    assert previous and induction, labels
    for lab in previous + induction:
        best = float(report.untrained[lab.measure].max())
        assert lab.untrained_best == pytest.approx(best)
        assert lab.score >= LABEL_AT and lab.score >= RATIO_OVER_UNTRAINED * best
        assert lab.score == pytest.approx(float(report.trained[lab.measure][lab.layer, lab.head]))


def test_the_labelled_heads_scores_computed_again_with_numpy_loops():
    """The two measures written out again (numpy, one query at a time) on the loaded decoder's attention weights."""
    loaded = read_checkpoint()
    report = trained_decoder().heads
    seed = ckpt.MEASURE_SEED
    text = token_streams().windows(32, loaded.recipe.length, torch.Generator().manual_seed(seed), "held_out")
    repeated = repeated_random(32, report.induction_n, len(loaded.vocab), torch.Generator().manual_seed(seed))
    for lab in report.labels():
        tokens = text if lab.measure == "previous" else repeated
        with torch.no_grad():
            w = loaded.model(tokens).traces[lab.layer].weights[:, lab.head].numpy()  # (B, L, L)
        n = report.induction_n
        picked = (
            [w[b, i, i - 1] for b in range(w.shape[0]) for i in range(1, w.shape[1])]
            if lab.measure == "previous"
            else [w[b, n + j, j + 1] for b in range(w.shape[0]) for j in range(n)]
        )
        assert abs(float(np.mean(picked)) - lab.score) < 1e-5, lab


def test_the_head_measures_are_computed_from_the_loaded_weights():
    loaded = read_checkpoint()
    again = ckpt.head_report(loaded)
    cached = trained_decoder().heads
    for measure in ("previous", "induction"):
        np.testing.assert_allclose(again.trained[measure], cached.trained[measure], atol=1e-6)
        np.testing.assert_allclose(again.untrained[measure], cached.untrained[measure], atol=1e-6)


def test_the_held_out_loss_beats_a_unigram_model_not_only_uniform():
    """The README compares the held-out loss 4.55 with a unigram model of the training text (6.09), the fair baseline,
    and with uniform over the vocabulary (ln 2018 = 7.61): both computed here with numpy."""
    from training.train_decoder import unigram_loss

    streams, length = token_streams(), read_checkpoint().recipe.length
    ids, train = streams.held_out.numpy(), streams.train.numpy()
    n = (len(ids) - 1) // length
    targets = np.concatenate([ids[i * length + 1: i * length + length + 1] for i in range(n)])
    p = np.bincount(train, minlength=len(streams.vocab)) / len(train)
    unigram = float(-np.log(p[targets]).mean())
    assert unigram == pytest.approx(unigram_loss(streams, length), abs=1e-9) and round(unigram, 2) == 6.09
    assert round(np.log(len(streams.vocab)), 2) == 7.61 and len(streams.vocab) == 2018
    held = read_checkpoint().held_out_loss
    assert round(held, 2) == 4.55 and held < unigram < np.log(len(streams.vocab))


def test_the_induction_heads_read_the_previous_token_head_through_their_keys():
    """K-composition, measured: zeroing the previous-token head (its rows of W^O) in the decoder's own forward pass
    drops the induction heads from 0.94 to below 0.1; taking it out of layer 2's keys alone does the same, out of
    its queries alone does not (training.heads.composition, whose unablated scores are the model's own)."""
    import copy

    from training.heads import induction_score

    loaded, report = read_checkpoint(), trained_decoder().heads
    prev = max((lab for lab in report.labels() if lab.measure == "previous"), key=lambda lab: lab.score)
    readers = [lab.head for lab in report.labels() if lab.measure == "induction"]
    gen = torch.Generator().manual_seed(ckpt.MEASURE_SEED)
    repeated = repeated_random(32, report.induction_n, len(loaded.vocab), gen)
    cut = copy.deepcopy(loaded.model)
    d_k = cut.attention[prev.layer].config.d_k
    with torch.no_grad():
        cut.attention[prev.layer].out_proj_weight[prev.head * d_k:(prev.head + 1) * d_k] = 0  # W^O_i = 0
    without = induction_score(cut, repeated)[1]
    assert all(report.trained["induction"][1, i] > 0.9 and without[i] < 0.1 for i in readers)
    c = report.composition
    assert c.writer == (prev.layer, prev.head) and c.reader == 1
    np.testing.assert_allclose(c.before, report.trained["induction"][1], atol=1e-6)
    assert all(c.keys_without[i] < 0.1 and c.queries_without[i] > 0.9 for i in readers)


# ----- the script reproduces it --------------------------------------------------------------------------------------
def test_the_script_reproduces_the_first_steps_of_the_committed_run():
    recipe = Recipe()
    steps = 2 * recipe.log_every
    run = train_decoder(recipe, steps=steps)
    committed = read_checkpoint()
    assert run.streams.vocab == committed.vocab  # the same corpus, split and vocabulary
    np.testing.assert_allclose(run.losses, committed.losses[:2], rtol=2e-3)
    again = train_decoder(recipe, steps=steps)  # the same recipe on the same machine: the same weights
    for (name, a), b in zip(run.model.state_dict().items(), again.model.state_dict().values(), strict=True):
        torch.testing.assert_close(a, b, rtol=1e-6, atol=1e-7, msg=name)


@pytest.mark.skipif(os.environ.get("MHA_FULL_REPRO") != "1", reason="the whole run: about two minutes of CPU")
@pytest.mark.timeout(3600)  # on a busy machine the wall-clock time is many times the CPU time
def test_the_script_reproduces_the_committed_checkpoint():
    run = train_decoder(Recipe())
    committed = read_checkpoint()
    np.testing.assert_allclose(run.losses, committed.losses, rtol=1e-2)
    for (name, a), b in zip(run.model.state_dict().items(), committed.model.state_dict().values(), strict=True):
        torch.testing.assert_close(a, b, rtol=1e-3, atol=1e-3, msg=name)
