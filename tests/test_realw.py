"""The real-weights source (all-MiniLM-L6-v2, layer l) against transformers, and the padding batch against
torch.nn.MultiheadAttention with key_padding_mask; settings, links and files of both."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import torch

from explorer import Settings, run_scene, validate
from explorer.settings_io import settings_from_json, settings_to_json
from explorer.sources import flatness, is_flat
from pretrained import loading
from ui.urlstate import check_params

TEXT = "The cat sat on the mat because it was tired ."
SHORT = "A dog ran ."
REAL = dataclasses.replace(Settings(text=TEXT), weight_source="minilm", d_model=384, n_heads=12, add_pe=False)


@pytest.fixture(scope="module")
def hf_model():
    from transformers import BertModel

    return BertModel.from_pretrained(str(loading.model_dir()), attn_implementation="eager").eval()


def _hf_layer(hf_model, texts: list[str], layer: int) -> dict[str, torch.Tensor]:
    """transformers' own run of `texts` (padded by its tokenizer with an attention mask): the layer's input,
    Q/K/V projections, attention weights and attention output (before the residual), captured by hooks."""
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(loading.model_dir() / loading.TOKENIZER_FILE))
    tok.no_truncation()
    tok.enable_padding(pad_id=0, pad_token="[PAD]")
    enc = tok.encode_batch(texts)
    ids = torch.tensor([e.ids for e in enc])
    attention_mask = torch.tensor([e.attention_mask for e in enc])
    block = hf_model.encoder.layer[layer - 1].attention
    seen: dict[str, torch.Tensor] = {}
    hooks = [
        mod.register_forward_hook(lambda _m, _i, out, name=name: seen.__setitem__(name, out.detach()))
        for name, mod in (("q", block.self.query), ("k", block.self.key), ("v", block.self.value),
                          ("output", block.output.dense))
    ]  # fmt: skip
    with torch.no_grad():
        out = hf_model(input_ids=ids, attention_mask=attention_mask, output_attentions=True,
                       output_hidden_states=True)  # fmt: skip
    for h in hooks:
        h.remove()
    seen["x"] = out.hidden_states[layer - 1]
    seen["weights"] = out.attentions[layer - 1]
    seen["tokens"] = [e.tokens for e in enc]
    return seen


@pytest.mark.parametrize("layer", [1, 2, 3, 4, 5, 6])
def test_real_layer_matches_transformers(hf_model, layer):
    sc = run_scene(dataclasses.replace(REAL, layer=layer))
    hf = _hf_layer(hf_model, [TEXT], layer)
    assert list(sc.tokens) == hf["tokens"][0]
    assert sc.tokens[0] == "[CLS]" and sc.tokens[-1] == "[SEP]"
    np.testing.assert_allclose(sc.x_in, hf["x"][0].numpy(), atol=1e-5)
    np.testing.assert_allclose(sc.q_fused, hf["q"][0].numpy(), atol=1e-5)
    np.testing.assert_allclose(sc.k_fused, hf["k"][0].numpy(), atol=1e-5)
    np.testing.assert_allclose(sc.v_fused, hf["v"][0].numpy(), atol=1e-5)
    np.testing.assert_allclose(sc.weights, hf["weights"][0].numpy(), atol=1e-5)
    np.testing.assert_allclose(sc.output, hf["output"][0].numpy(), atol=1e-5)
    assert (sc.d_model, sc.n_heads, sc.weights.shape) == (384, 12, (12, len(sc.tokens), len(sc.tokens)))


def test_real_weights_are_the_layers_own(hf_model):
    sc = run_scene(dataclasses.replace(REAL, layer=4))
    att = hf_model.encoder.layer[3].attention
    np.testing.assert_array_equal(sc.w_q, att.self.query.weight.detach().numpy().T)
    np.testing.assert_array_equal(sc.w_k, att.self.key.weight.detach().numpy().T)
    np.testing.assert_array_equal(sc.w_v, att.self.value.weight.detach().numpy().T)
    np.testing.assert_array_equal(sc.w_o, att.output.dense.weight.detach().numpy().T)


def test_real_padding_batch_matches_transformers(hf_model):
    s = dataclasses.replace(REAL, layer=3, mask="padding", text_pad=SHORT)
    sc = run_scene(s)
    hf = _hf_layer(hf_model, [TEXT, SHORT], 3)
    assert len(sc.batch) == 2
    n = len(hf["tokens"][1]) - hf["tokens"][1].count("[PAD]")
    assert list(sc.batch[1].tokens) == hf["tokens"][1] and sc.batch[1].tokens[n:] == ("[PAD]",) * (len(sc.tokens) - n)
    for b, item in enumerate(sc.batch):
        np.testing.assert_allclose(item.weights, hf["weights"][b].numpy(), atol=1e-5)
        np.testing.assert_allclose(item.output, hf["output"][b].numpy(), atol=1e-5)
    assert np.all(sc.batch[1].weights[:, :, n:] == 0)


def test_real_layer_one_has_a_previous_token_head():
    """The head the pages name (ui.weight_source.PREV_LAYER / PREV_HEAD) really attends to the previous token."""
    from ui.weight_source import PREV_HEAD, PREV_LAYER

    sc = run_scene(dataclasses.replace(REAL, layer=PREV_LAYER))
    a = sc.weights[PREV_HEAD - 1]
    previous = np.array([a[i, i - 1] for i in range(1, len(sc.tokens))])
    assert previous.mean() > 0.9
    assert (a[1:].argmax(axis=1) == np.arange(len(sc.tokens) - 1)).mean() > 0.9


def _torch_oracle(sc, batch_x: np.ndarray, key_padding: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """torch.nn.MultiheadAttention with the scene's weights (no bias, as the random source) on the batch."""
    d, h = sc.d_model, sc.n_heads
    mha = torch.nn.MultiheadAttention(d, h, bias=False, batch_first=True)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.from_numpy(np.concatenate([sc.w_q.T, sc.w_k.T, sc.w_v.T])))
        mha.out_proj.weight.copy_(torch.from_numpy(sc.w_o.T.copy()))
        x = torch.from_numpy(batch_x)
        out, w = mha(x, x, x, key_padding_mask=torch.from_numpy(key_padding), average_attn_weights=False)
    return out.numpy(), w.numpy()


def test_padding_batch_matches_torch_key_padding_mask():
    s = Settings(text=TEXT, mask="padding", text_pad=SHORT)
    sc = run_scene(s)
    assert [len(item.tokens) for item in sc.batch] == [len(sc.tokens)] * 2
    pads = np.array([[t == "[PAD]" for t in item.tokens] for item in sc.batch])
    np.testing.assert_array_equal(sc.key_padding, pads)
    assert pads[1].sum() == len(sc.tokens) - 4 and not pads[0].any()
    out, w = _torch_oracle(sc, np.stack([item.x_in for item in sc.batch]), pads)
    for b, item in enumerate(sc.batch):
        np.testing.assert_allclose(item.weights, w[b], atol=1e-5)
        np.testing.assert_allclose(item.output, out[b], atol=1e-4)
        assert np.all(item.weights[:, :, pads[b]] == 0)  # masked keys get weight 0 in every head and query


def test_padded_sentence_equals_running_it_alone():
    sc = run_scene(Settings(text=TEXT, mask="padding", text_pad=SHORT))
    alone = run_scene(Settings(text=SHORT))
    n = alone.len_q
    item = sc.batch[1]
    assert item.tokens[:n] == alone.tokens
    for name in ("q", "k", "v", "head_outputs"):
        np.testing.assert_allclose(getattr(item, name)[:, :n], getattr(alone, name), atol=1e-5)
    np.testing.assert_allclose(item.weights[:, :n, :n], alone.weights, atol=1e-6)
    np.testing.assert_allclose(item.output[:n], alone.output, atol=1e-5)
    longer = run_scene(Settings(text=TEXT))  # the longer sentence is not padded: the batch changes nothing
    np.testing.assert_allclose(sc.batch[0].output, longer.output, atol=1e-5)


def test_chosen_tokens_keep_the_free_choice():
    sc = run_scene(Settings(text=TEXT, mask="chosen", padded=(1, 3)))
    assert not sc.batch
    assert np.all(sc.weights[:, :, [1, 3]] == 0) and np.all(sc.weights[:, :, [0, 2, 4]] > 0)


def test_random_maps_are_flat_and_real_ones_are_not():
    rnd = run_scene(Settings(text=TEXT))
    top, uniform = flatness(rnd.weights, rnd.mask)
    assert uniform == pytest.approx(1 / rnd.len_k)
    assert top == pytest.approx(rnd.weights.max(axis=-1).mean())
    assert is_flat(top, uniform)
    real = run_scene(REAL)
    assert not is_flat(*flatness(real.weights, real.mask))


def test_real_settings_fix_sizes():
    assert validate(REAL) == []
    for bad in (dict(d_model=64, n_heads=8), dict(cross=True), dict(layer=7), dict(layer=0),
                dict(weight_source="bert")):  # fmt: skip
        assert validate(dataclasses.replace(REAL, **bad)), bad
    assert [p.code for p in validate(Settings(mask="padding", cross=True))] == ["padding_batch"]
    assert [p.code for p in validate(Settings(mask="padding", text_pad="  "))] == ["empty_text"]


def test_old_padding_links_and_files_map_to_chosen_tokens():
    assert check_params({"mask": "padding", "padded": "1,3"})[0]["mask"] == "chosen"
    assert check_params({"mask": "padding"})[0]["mask"] == "padding"
    assert check_params({"source": "minilm", "layer": "3", "text_pad": "Hi ."}) == ({"source": "minilm"}, [])
    assert sorted(check_params({"source": "gpt", "layer": "9"})[1]) == ["layer", "source"]
    old = settings_to_json(Settings(mask="chosen", padded=(1, 2))).replace('"chosen"', '"padding"')
    assert settings_from_json(old)[0].mask == "chosen"
    s = dataclasses.replace(REAL, layer=5)
    assert settings_from_json(settings_to_json(s))[0] == s


def test_quiz_asks_which_keys_a_padded_sentence_sees():
    from explorer.quiz import make_questions

    sc = run_scene(Settings(text="a b c", text_pad="a b c d e f", mask="padding"))
    assert sc.tokens == ("a", "b", "c", "[PAD]", "[PAD]", "[PAD]")
    q = next(q for q in make_questions(sc, 0) if q.kind == "mask_padding")
    assert q.options[q.answer].label.args["text"] == "0:a, 1:b, 2:c"  # every real token, none of the [PAD] keys
