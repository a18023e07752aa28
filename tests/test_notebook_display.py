"""The notebook display (mha_notebook): a trace of the core and any model's heads as offline HTML, its numbers checked
against independent oracles (torch.nn.MultiheadAttention, transformers' own attentions, numpy written here), both
languages, the app's colours, hover texts and accessible names, and no address outside the machine."""

from __future__ import annotations

import base64
import csv
import html
import io
import json
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest
import torch
from torch import nn

import mha_notebook as nb
from figures.describe import describe
from figures.heads import tile_geometry
from figures.style import DIVERGING, HEAD_COLORS
from i18n import t
from mha_core import AttentionConfig, KVCache, MultiHeadAttention, embed_tokens, tokenize
from mha_notebook import page
from mha_notebook.page import style_for

TOKENS = tokenize("the cat sat on the <mat> because it was tired")
ZH = tokenize("小猫坐在垫子上，因为它累了。")


def figure_spec(view: nb.View, key: str) -> dict:
    return json.loads(page.figure_json(next(c.figure for c in view.charts if c.key == key)))


def tiles(spec: dict, n: int, rows: int, cols: int, *, max_cols: int = 4, style=None) -> list[np.ndarray]:
    """The n tiles of a tiled_heads figure (figures/heads.py: whole NaN cells between them)."""
    z = np.array(spec["data"][0]["z"], dtype=float)
    geo = tile_geometry(n, rows, cols, max_cols=max_cols, style=style or style_for(False))
    out = []
    for k in range(n):
        tr, tc = divmod(k, geo.grid_cols)
        r0, c0 = tr * (rows + geo.gap_rows), tc * (cols + geo.gap_cols)
        out.append(z[r0 : r0 + rows, c0 : c0 + cols])
    return out


def plot_divs(fragment: str) -> list[dict[str, str]]:
    """Each drawing's attributes (data-figure, data-key, data-label) in a view's HTML."""
    divs = re.findall(r'<div class="mha-nb-plot"([^>]*)>', fragment)
    return [dict(re.findall(r'data-(\w+)="([^"]*)"', attributes)) for attributes in divs]


def test_a_trace_shows_torchs_weights_and_output_in_every_head():
    """A layer copied from torch.nn.MultiheadAttention: the weights tiles and the output map hold torch's numbers."""
    torch.manual_seed(0)
    ref = nn.MultiheadAttention(16, 4, batch_first=True).eval()
    x = embed_tokens(TOKENS, 16, 0).unsqueeze(0)
    with torch.no_grad():
        out, weights = ref(x, x, x, need_weights=True, average_attn_weights=False)
        trace = MultiHeadAttention.from_torch(ref)(x)
    view = nb.show(trace, TOKENS)
    assert view.keys == ["scores", "weights", "heads", "concat", "w_o", "output", "lines"]
    shown = tiles(figure_spec(view, "weights"), 4, len(TOKENS), len(TOKENS))
    for head in range(4):
        np.testing.assert_allclose(shown[head], weights[0, head].numpy(), rtol=1e-3, atol=1e-6)  # 4 digits in JSON
    np.testing.assert_allclose(figure_spec(view, "output")["data"][0]["z"], out[0].numpy(), rtol=1e-3, atol=1e-5)
    assert t("nb.trace.batch", "en", b=1, item=0) in view.lines  # a batched trace says which item it shows
    two = MultiHeadAttention.from_torch(ref)(torch.cat([x, x.flip(1)]))
    np.testing.assert_array_equal(nb.show(two, batch=1).arrays.weights, two.weights[1].detach().numpy())
    assert t("nb.trace.batch", "en", b=2, item=1) in nb.show(two, batch=1).lines


def test_scores_concat_and_w_o_are_the_numpy_computation():
    """Every intermediate the view draws, against numpy written here from the layer's weights."""
    mha = MultiHeadAttention(AttentionConfig(d_model=8, n_heads=2, seed=3))
    x = embed_tokens(TOKENS, 8, 0)
    trace = mha(x, causal=True)
    w_q, w_k, w_v, w_o = (m.detach().numpy().astype(float) for m in (mha.w_q, mha.w_k, mha.w_v, mha.w_o))
    xn, length = x.numpy().astype(float), len(TOKENS)
    future = np.triu(np.ones((length, length), dtype=bool), 1)
    heads = []
    view = nb.show(trace, TOKENS)
    score_tiles = tiles(figure_spec(view, "scores"), 2, length, length)
    for i in range(2):
        cols = slice(4 * i, 4 * i + 4)
        s = (xn @ w_q[:, cols]) @ (xn @ w_k[:, cols]).T / 2.0
        shown = score_tiles[i]
        np.testing.assert_allclose(shown[~future], s[~future], rtol=1e-3, atol=1e-5)
        assert np.isnan(shown[future]).all()  # masked: drawn as hatched cells, not as numbers
        a = np.exp(np.where(future, -np.inf, s) - s.max(axis=1, keepdims=True))
        heads.append(a / a.sum(axis=1, keepdims=True) @ (xn @ w_v[:, cols]))
    concat = np.concatenate(heads, axis=1)
    np.testing.assert_allclose(figure_spec(view, "concat")["data"][0]["z"], concat, rtol=1e-3, atol=1e-5)
    np.testing.assert_allclose(figure_spec(view, "w_o")["data"][0]["z"], w_o, rtol=1e-3, atol=1e-6)
    np.testing.assert_allclose(figure_spec(view, "output")["data"][0]["z"], concat @ w_o, rtol=1e-3, atol=1e-5)
    masked = int(future.sum())
    assert t("nb.trace.masked", "en", n=masked, total=length * length) in view.lines


def test_a_grouped_query_rope_layer_with_a_kv_cache_names_its_positions_and_groups():
    mha = MultiHeadAttention(AttentionConfig(d_model=32, n_heads=8, n_kv_heads=2, rope=True, seed=0))
    x = embed_tokens(TOKENS, 32, 0)
    cache = KVCache()
    with torch.no_grad():
        mha(x[:-2], causal=True, cache=cache)
        step = mha(x[-2:], causal=True, cache=cache)  # two new tokens against every key so far
        full = mha(x, causal=True)
    view = nb.show(step, TOKENS)
    n = len(TOKENS)
    assert view.query_labels == [f"{n - 2}:was", f"{n - 1}:tired"] and view.key_labels[0] == "0:the"
    text = " ".join(view.lines)
    assert "g = 2 K/V heads, each shared by 4 query heads" in text and "heads 5–8" in text
    assert t("nb.trace.cache", "en", lq=2, lk=n) in view.lines
    shown = tiles(figure_spec(view, "weights"), 8, 2, n)
    for head in range(8):  # the step's rows are the full forward's last two rows
        np.testing.assert_allclose(np.nan_to_num(shown[head]), full.weights[head, -2:].numpy(), rtol=1e-3, atol=1e-6)
    assert "Multi-query attention" in " ".join(nb.show(MultiHeadAttention(
        AttentionConfig(d_model=16, n_heads=4, n_kv_heads=1, seed=0))(x[:, :16])).lines)


def test_alibi_and_a_window_show_as_masked_and_biased_scores():
    x = embed_tokens(TOKENS, 16, 0)
    windowed = MultiHeadAttention(AttentionConfig(d_model=16, n_heads=4, seed=0))(x, causal=True, window=3)
    view = nb.show(windowed, TOKENS)
    length = len(TOKENS)
    seen = sum(min(i + 1, 3) for i in range(length))
    assert t("nb.trace.masked", "en", n=length * length - seen, total=length * length) in view.lines
    alibi = MultiHeadAttention(AttentionConfig(d_model=16, n_heads=4, alibi=True, seed=0))(x, causal=True)
    shown = tiles(figure_spec(nb.show(alibi), "scores"), 4, length, length)
    lower = np.tril(np.ones((length, length), dtype=bool))
    np.testing.assert_allclose(shown[3][lower], alibi.scores[3].detach().numpy()[lower], rtol=1e-3, atol=1e-5)


def test_every_chart_is_named_by_its_text_alternative_and_has_its_numbers():
    view = nb.show(MultiHeadAttention(AttentionConfig(d_model=16, n_heads=4, seed=0))(embed_tokens(TOKENS, 16, 0)),
                   TOKENS)
    fragment = view.html(with_plotly_js=False)
    divs = plot_divs(fragment)
    assert [d["key"] for d in divs] == view.keys
    for chart, div in zip(view.charts, divs, strict=True):
        spec_text = page.figure_json(chart.figure)
        name, summary = describe(spec_text, "en", chart.heading)
        assert html.unescape(div["label"]) == summary and len(summary) > 40  # figures/describe.py, as the app
        assert html.escape(t("a11y.csv", "en", title=name)) in fragment
    weights_csv = re.search(r'download="weights.csv" href="data:text/csv;charset=utf-8;base64,([^"]+)"', fragment)
    rows = list(csv.reader(io.StringIO(base64.b64decode(weights_csv.group(1)).decode())))
    assert len(rows) == 1 + 4 * len(TOKENS) ** 2  # a header, then every cell of every head
    assert "5:&lt;" in fragment and "5:<" not in fragment  # the token "<" is text, not markup


def test_the_app_colours_and_hover_texts_come_with_the_figures():
    view = nb.show(MultiHeadAttention(AttentionConfig(d_model=16, n_heads=4, seed=0))(embed_tokens(TOKENS, 16, 0)),
                   TOKENS)
    scores = figure_spec(view, "scores")["data"][0]
    assert scores["colorscale"] == DIVERGING and "%{customdata}" in scores["hovertemplate"]
    lines = figure_spec(view, "lines")["data"]
    assert {d["line"]["color"] for d in lines if d.get("mode") == "lines" and d.get("showlegend")} <= set(HEAD_COLORS)
    hover = json.dumps(figure_spec(view, "weights")["data"][0]["customdata"], ensure_ascii=False)
    assert "head 1 · 0:the → 1:cat" in hover
    dark = nb.show(MultiHeadAttention(AttentionConfig(d_model=16, n_heads=4, seed=0))(embed_tokens(TOKENS, 16, 0)),
                   dark=True)
    assert figure_spec(dark, "weights")["layout"]["paper_bgcolor"] == "#0e1117" and "mha-nb-dark" in dark.html(False)


def test_in_chinese_the_view_says_nothing_in_english():
    trace = MultiHeadAttention(AttentionConfig(d_model=16, n_heads=4, n_kv_heads=2, seed=0))(
        embed_tokens(ZH, 16, 0), causal=True)
    fragment = nb.show(trace, ZH, lang="zh").html(with_plotly_js=False)
    assert 'lang="zh"' in fragment and "每个头的注意力权重" in fragment and "分组查询注意力" in fragment
    visible = html.unescape(re.sub(r"<script.*?</script>|<style>.*?</style>|<[^>]+>", " ", fragment, flags=re.S))
    assert not re.findall(r"\b[A-Za-z]{3,} [a-z]{3,}\b", visible), "English words in the Chinese view"
    spec = json.dumps(figure_spec(nb.show(trace, ZH, lang="zh"), "weights"), ensure_ascii=False)
    assert "头 1 · 0:小 → 0:小" in spec and "head" not in spec


def test_nothing_is_loaded_from_outside_and_plotly_js_comes_once():
    page.BUNDLE.sent, page.BUNDLE.every_view = False, False
    view = nb.show(MultiHeadAttention(AttentionConfig(d_model=8, n_heads=2, seed=0))(embed_tokens(TOKENS, 8, 0)))
    first, second = view._repr_mimebundle_(), view._repr_mimebundle_()
    bundle = page.plotly_js()
    assert bundle in first["text/html"] and bundle not in second["text/html"] and "text/plain" in first
    assert bundle.startswith("/**\n* plotly.js (cartesian - minified) v")  # the app's bundle, beside the packages
    outside = first["text/html"].replace(bundle, "")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", outside), "a request would leave the machine"
    assert not re.search(r"@import|url\(", outside)
    page.BUNDLE.every_view = True
    assert bundle in view._repr_html_()
    page.BUNDLE.every_view = False


def test_a_trace_shows_itself_in_ipython():
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    nb.load_ipython_extension(shell)
    trace = MultiHeadAttention(AttentionConfig(d_model=8, n_heads=2, seed=0))(embed_tokens(TOKENS, 8, 0))
    data, _ = shell.display_formatter.format(trace)
    assert 'class="mha-nb"' in data["text/html"] and data["text/plain"].startswith("<TraceView")
    nb.DEFAULTS.lang, nb.DEFAULTS.dark = "zh", True  # a Chinese, dark notebook: every view unless its call says
    try:
        data, _ = shell.display_formatter.format(trace)
        assert 'lang="zh"' in data["text/html"] and "mha-nb-dark" in data["text/html"]
        assert nb.head_view(np.full((1, 1, 2, 2), 0.5), ["a", "b"], lang="en").lang == "en"
    finally:
        nb.DEFAULTS.lang, nb.DEFAULTS.dark = "en", False


# ---- any model's heads ----------------------------------------------------------------------------------------------


def test_head_view_takes_what_a_model_returns_and_draws_every_layer_and_head():
    rng = np.random.default_rng(0)
    e = np.exp(rng.normal(size=(3, 2, 4, 5, 5)))
    attentions = tuple(torch.tensor(layer / layer.sum(-1, keepdims=True)) for layer in e)  # (B, h, L, L) per layer
    view = nb.head_view(attentions, list("abcde"), layer=2, head=3, batch=1)
    assert view.keys == ["grid", "head", "lines"] and view.title == t("nb.model.title", "en", layers=3, h=4, n=5)
    style = style_for(False, max_tile_cols=4, min_tick_font=11)
    grid = tiles(figure_spec(view, "grid"), 12, 5, 5, max_cols=4, style=style)
    for k, tile in enumerate(grid):
        np.testing.assert_allclose(tile, attentions[k // 4][1, k % 4].numpy(), rtol=1e-3)
    np.testing.assert_allclose(figure_spec(view, "head")["data"][0]["z"], attentions[1][1, 2].numpy(), rtol=1e-3)
    assert figure_spec(view, "grid")["layout"]["annotations"][5]["text"] == "L2 H2"
    with pytest.raises(nb.NotebookError, match="counted from 1"):
        nb.head_view(attentions, list("abcde"), layer=0)
    with pytest.raises(nb.NotebookError, match="5 rows"):
        nb.head_view(attentions, list("abc"))
    with pytest.raises(nb.NotebookError, match="output_attentions"):
        nb.head_view("not attention", list("abc"))


def test_head_view_names_the_kv_head_each_query_head_shares():
    x = embed_tokens(ZH, 16, 0)
    layers = [MultiHeadAttention(AttentionConfig(d_model=16, n_heads=4, n_kv_heads=2, rope=True, seed=s))(
        x, causal=True) for s in range(2)]
    view = nb.head_view(layers, ZH, lang="zh")  # the core's traces carry g themselves
    titles = [a["text"] for a in figure_spec(view, "grid")["layout"]["annotations"]]
    assert titles[:4] == ["层1 头1 · K/V 1", "层1 头2 · K/V 1", "层1 头3 · K/V 2", "层1 头4 · K/V 2"]
    assert "0:小" in figure_spec(view, "head")["layout"]["yaxis"]["ticktext"]


def test_a_grid_too_large_to_draw_says_how_to_pick_a_part():
    big = np.full((32, 32, 40, 40), 1 / 40)
    with pytest.raises(nb.NotebookError, match="layers=… and heads=…"):
        nb.head_view(big, [str(i) for i in range(40)])
    view = nb.head_view(big, [str(i) for i in range(40)], layers=[1, 32], heads=[1, 2, 3])
    assert len(figure_spec(view, "grid")["layout"]["annotations"]) == 6
    assert t("nb.model.subset", "en", layers="1, 32", heads="1, 2, 3") in view.lines


def test_token_text_reads_the_tokenizers_markers():
    tokens = ("Ġcat", "▁猫", "##ing", "Ċ", "[CLS]", "Ġ")
    assert [nb.token_text(x) for x in tokens] == ["cat", "猫", "ing", "\\n", "[CLS]", "␣"]


@pytest.fixture(scope="module")
def transformers():
    return pytest.importorskip("transformers")


def _tiny_llama(transformers, seed: int = 0):
    torch.manual_seed(seed)
    cfg = transformers.LlamaConfig(vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                                   num_attention_heads=4, num_key_value_heads=2,
                                   max_position_embeddings=64)  # fmt: skip
    cfg._attn_implementation = "eager"
    return transformers.LlamaForCausalLM(cfg).eval()


def test_generated_tokens_are_the_rows_of_the_whole_texts_forward_pass(transformers):
    """generate()'s attentions (the prompt, then one row per new token) against the model's own forward pass over the
    whole text: the same (L, L) weights in every layer and head, 0 after each row's position."""
    model = _tiny_llama(transformers)
    prompt = torch.tensor([[5, 9, 17, 3, 22]])
    with torch.no_grad():
        gen = model.generate(prompt, max_new_tokens=4, do_sample=False, output_attentions=True,
                             return_dict_in_generate=True, pad_token_id=0)  # fmt: skip
        ids = gen.sequences[0]
        full = model(ids[None, :-1], output_attentions=True).attentions  # the last token is never read
    tokens = [f"t{i}" for i in ids.tolist()]
    stack, kv, prompt_len = nb.attention_stack(gen)
    assert stack.shape == (2, 4, 8, 8) and prompt_len == 5 and kv is None
    for layer in range(2):
        np.testing.assert_allclose(stack[layer], full[layer][0].numpy(), atol=1e-5)
    view = nb.head_view(gen, tokens, kv_heads=model.config.num_key_value_heads, layer=2, head=4)
    assert t("nb.model.generated", "en", first=5, last=7) in view.lines
    assert view.tokens == tokens[:8]


def test_chinese_tokens_of_a_byte_level_tokenizer_read_as_characters(transformers):
    tokenizers = pytest.importorskip("tokenizers")
    bpe = tokenizers.ByteLevelBPETokenizer()
    bpe.train_from_iterator(["小猫坐在垫子上。", "the cat sat on the mat"] * 3, vocab_size=300, min_frequency=1)
    tok = transformers.PreTrainedTokenizerFast(tokenizer_object=bpe._tokenizer)
    for text in ("小猫 cat", "猫坐在垫子上。", "the mat 上"):
        ids = tok(text)["input_ids"]
        labels = nb.tokens_of(tok, ids)
        assert len(labels) == len(ids) and all(labels)
        assert not re.search("[\u00a0-\u024f\ufffd]", "".join(labels)), labels  # no byte shown as a Latin letter
        assert set(text.replace(" ", "")) <= set("".join(labels)), labels
        assert [x.replace("…", "") for x in labels if "…" not in x] == [x for x in labels if "…" not in x]
    assert nb.tokens_of(tok, tok("猫坐")["input_ids"])[-1].startswith("…")  # the token that ends a character


def test_a_real_models_attentions_through_transformers(transformers):
    from pretrained.loading import ModelUnavailable, model_dir

    try:
        folder = str(model_dir())
    except ModelUnavailable:
        pytest.skip("the all-MiniLM-L6-v2 weights package is not installed")
    tok = transformers.AutoTokenizer.from_pretrained(folder)
    model = transformers.AutoModel.from_pretrained(folder, attn_implementation="eager").eval()
    enc = tok("The cat sat on the mat.", return_tensors="pt")
    with torch.no_grad():
        attentions = model(**enc, output_attentions=True).attentions
    view = nb.head_view(attentions, nb.tokens_of(tok, enc["input_ids"][0]), layer=1, head=3)
    np.testing.assert_allclose(figure_spec(view, "head")["data"][0]["z"], attentions[0][0, 2].numpy(), rtol=1e-3,
                               atol=1e-6)  # fmt: skip
    assert figure_spec(view, "head")["layout"]["yaxis"]["ticktext"][:2] == ["0:[CLS]", "1:the"]


# ---- files ---------------------------------------------------------------------------------------------------------


def test_a_view_saved_as_html_opens_on_its_own():
    view = nb.head_view(np.full((1, 2, 3, 3), 1 / 3), ["猫", "坐", "。"], lang="zh")
    text = view.to_html()
    assert text.startswith("<!DOCTYPE html>") and '<html lang="zh">' in text and page.plotly_js() in text
    assert f"<title>{view.title}</title>" in text


@pytest.mark.skipif(nb.find_browser() is None, reason="no Chromium or Chrome to draw the image with")
def test_svg_and_png_of_a_chart_are_drawn_offline(tmp_path):
    view = nb.head_view(np.full((1, 2, 3, 3), 1 / 3), ["the", "猫", "."])
    svg = view.save_svg(tmp_path / "head.svg", "head")
    root = ET.parse(svg).getroot()
    assert root.tag.endswith("svg") and "Layer 1, head 1" in svg.read_text(encoding="utf-8")  # the title, as text
    png = view.save_png(tmp_path / "grid.png", "grid", width=600, scale=1)
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(data[16:20], "big") == 600
    with pytest.raises(nb.NotebookError, match="its charts are"):
        view.save_svg(tmp_path / "x.svg", "nope")

