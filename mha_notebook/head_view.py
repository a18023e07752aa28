"""Any model's heads in a notebook, in the shape of BertViz's `head_view(attention, tokens)`: the weights a Hugging Face
model returns with `output_attentions=True` (a tuple of (B, h, L, L), one per layer), what `generate(...,
output_attentions=True, return_dict_in_generate=True)` returns (one such tuple per generated token), or the core's
AttentionTraces; shown as the layer x head grid, one head's map with its tokens, and the tokens' lines.

Grouped-query models return every query head's weights (h per layer, not g): `kv_heads=g` (or a trace's own g) names
in each tile the K/V head it shares. Generated tokens become the rows a full causal forward of the whole text would
have: step t's one new query row against every key so far, 0 on the keys after it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from figures import attention_lines, matrix_heatmap, tiled_heads
from i18n import t
from mha_core import AttentionTrace

from .page import DEFAULTS, Chart, style_for
from .view import NotebookError, View

MAX_GRID_CELLS = 400_000  # cells of the layer x head grid drawn at once (72 maps of 48 x 48 are 166k)
GRID_TICK_FONT = 11  # px: the grid's tick labels at least this large (every k-th of them where they would overlap)
PREFIXES = ("Ġ", "▁", "##")  # GPT-2's byte-level space, SentencePiece's space, WordPiece's continuation


def _array(x: object) -> np.ndarray:
    """A torch tensor (any device or dtype) or array-like as float64 numpy."""
    if hasattr(x, "detach"):
        x = x.detach().float().cpu().numpy()  # type: ignore[union-attr]
    return np.asarray(x, dtype=float)


def _layer(x: object, batch: int) -> np.ndarray:
    """One layer's weights, (B, h, Lq, Lk) or (h, Lq, Lk) or an AttentionTrace, as (h, Lq, Lk) of item `batch`."""
    if isinstance(x, AttentionTrace):
        x = x.weights
    a = _array(x)
    if a.ndim == 4:
        a = a[batch]
    if a.ndim != 3:
        raise ValueError(f"a layer of shape {a.shape}")
    return a


def _generated(steps: Sequence[Sequence[object]], batch: int) -> tuple[np.ndarray, int]:
    """Generation steps (each a tuple of layers; step 0 the prompt's (h, P, P), step t one row (h, 1, P + t)) as one
    (layers, h, L, L) stack, L = P + steps - 1, 0 where a row's key comes after it; and P, the prompt's length."""
    first = [_layer(x, batch) for x in steps[0]]
    prompt = first[0].shape[-1]
    length = prompt + len(steps) - 1
    stack = np.zeros((len(first), first[0].shape[0], length, length))
    for i, layer in enumerate(first):
        stack[i, :, : layer.shape[1], : layer.shape[2]] = layer
    for step, layers in enumerate(steps[1:], start=1):
        for i, x in enumerate(layers):
            row = _layer(x, batch)  # (h, 1, P + step)
            stack[i, :, prompt + step - 1 : prompt + step, : row.shape[-1]] = row
    return stack, prompt


def attention_stack(attention: object, batch: int = 0) -> tuple[np.ndarray, int | None, int | None]:
    """(weights (layers, h, L, L), the K/V heads g of core traces or None, the prompt's length for generated tokens
    or None) of any of the accepted forms (module docstring); `batch` picks the item of a batch."""
    got = type(attention).__name__
    attentions = getattr(attention, "attentions", None)  # a model's output object, or generate's
    if attentions is not None and not isinstance(attention, (tuple, list)):
        attention = attentions
    try:
        if isinstance(attention, (tuple, list)) and attention and isinstance(attention[0], (tuple, list)):
            if len(attention) == 1:
                attention = attention[0]  # one step: the prompt alone
            else:
                stack, prompt = _generated(attention, batch)
                return stack, None, prompt
        if isinstance(attention, (tuple, list)):
            kv = {x.n_kv_heads for x in attention if isinstance(x, AttentionTrace)}
            return np.stack([_layer(x, batch) for x in attention]), (kv.pop() if len(kv) == 1 else None), None
        a = _array(attention)
        if a.ndim == 5:
            a = a[:, batch]
        elif a.ndim == 3:
            a = a[None]
        elif a.ndim == 2:
            a = a[None, None]
        if a.ndim != 4:
            raise ValueError(f"shape {a.shape}")
        return a, None, None
    except (ValueError, TypeError, IndexError) as exc:
        raise NotebookError(t("nb.error.attention", "en", got=f"{got} ({exc})")) from None


def token_text(token: str) -> str:
    """A tokenizer's token as text: GPT-2's Ġ and SentencePiece's ▁ (a space before the word) and WordPiece's ## (a
    word going on) dropped, Ċ as a line break, a space alone as ␣."""
    if token in ("Ġ", "▁", " "):
        return "␣"
    for prefix in PREFIXES:
        if token.startswith(prefix) and len(token) > len(prefix):
            return token[len(prefix):]
    return token.replace("Ċ", "\\n")


def tokens_of(tokenizer: object, ids: Sequence[int]) -> list[str]:
    """The tokens of `ids` as readable text, one label per token, as the tokenizer itself decodes them (any Hugging
    Face tokenizer: decode, convert_ids_to_tokens): each token's text is what it adds to the decoded text so far. A
    byte-level BPE (GPT-2, Llama 3, Qwen) may split a Chinese character over tokens; each of them shows the character,
    with "…" on the side where the rest of it is ("小猫…", "…猫"), never its bytes as Latin letters."""
    ids = [int(i) for i in _array(ids).reshape(-1)]
    raw = [str(x) for x in tokenizer.convert_ids_to_tokens(ids)]  # type: ignore[attr-defined]
    out: list[str] = []
    before, waiting = "", []  # the complete text so far; tokens that end inside a character not complete yet
    for k, token_id in enumerate(ids):
        text = tokenizer.decode(ids[: k + 1])  # type: ignore[attr-defined]
        complete = text.rstrip("\ufffd")
        # what this token adds; or, where the decoder tidied earlier text (a space before punctuation), itself alone
        tidied = not complete.startswith(before)
        own = tokenizer.decode([token_id]).rstrip("\ufffd") if tidied else complete[len(before):]  # type: ignore[attr-defined]
        label = own.strip()
        if waiting and label:  # this token completes the character the waiting ones began
            for j in waiting:
                out[j] += label[0] + "…"
            label, waiting = "…" + label, []
        out.append(label)
        if text != complete:
            waiting.append(k)
        before = complete
    return [label or token_text(raw[k]) for k, label in enumerate(out)]


def _pick(name: str, value: int | None, high: int, lang: str) -> int:
    """A layer or head counted from 1 (as the tiles are) -> its index."""
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 1 <= value <= high:
        raise NotebookError(t("nb.error.pick", lang, name=name, value=value, high=high))
    return int(value) - 1


class HeadView(View):
    """Every head of a model: `weights` (layers, h, L, L) as given, `tokens` one per row."""

    def __init__(self, weights: np.ndarray, tokens: Sequence[object], *, layer: int | None = None,
                 head: int | None = None, layers: Sequence[int] | None = None, heads: Sequence[int] | None = None,
                 kv_heads: int | None = None, prompt: int | None = None, lang: str = "en",
                 dark: bool = False) -> None:  # fmt: skip
        self.lang = lang if lang in ("en", "zh") else "en"
        self.dark = dark
        self.weights = weights
        n_layers, n_heads, length = weights.shape[0], weights.shape[1], weights.shape[2]
        tokens = [str(x) for x in tokens]
        if len(tokens) < length:
            raise NotebookError(t("nb.error.tokens", self.lang, n=len(tokens), length=length))
        self.tokens = tokens[:length]  # generate's last token has no row of its own
        self.key_tokens = tokens[: weights.shape[3]]
        self.layer = _pick("layer", layer, n_layers, self.lang)
        self.head = _pick("head", head, n_heads, self.lang)
        self.layers = [_pick("layers", k, n_layers, self.lang) for k in layers] if layers else list(range(n_layers))
        self.heads = [_pick("heads", k, n_heads, self.lang) for k in heads] if heads else list(range(n_heads))
        if kv_heads is not None and (kv_heads < 1 or n_heads % kv_heads):
            raise NotebookError(f"kv_heads={kv_heads} must divide the {n_heads} heads")
        self.kv_heads = kv_heads if kv_heads is not None and kv_heads < n_heads else None
        self.prompt = prompt
        cells = len(self.layers) * len(self.heads) * length * weights.shape[3]
        if cells > MAX_GRID_CELLS:
            raise NotebookError(t("nb.error.too_big", self.lang, cells=f"{cells:,}", limit=f"{MAX_GRID_CELLS:,}"))
        self.title = t("nb.model.title", self.lang, layers=n_layers, h=n_heads, n=length)

    @property
    def lines(self) -> list[str]:
        lang, out = self.lang, []
        n_layers, n_heads = self.weights.shape[:2]
        if self.kv_heads:
            out.append(t("nb.model.gqa", lang, g=self.kv_heads, r=n_heads // self.kv_heads))
        if self.prompt is not None and self.prompt < len(self.tokens):
            out.append(t("nb.model.generated", lang, first=self.prompt, last=len(self.tokens) - 1))
        if len(self.layers) < n_layers or len(self.heads) < n_heads:
            out.append(t("nb.model.subset", lang, layers=", ".join(str(k + 1) for k in self.layers),
                         heads=", ".join(str(k + 1) for k in self.heads)))  # fmt: skip
        return out

    def _tile(self, layer: int, head: int) -> str:
        if self.kv_heads:
            kv = head // (self.weights.shape[1] // self.kv_heads) + 1
            return t("nb.tile_kv", self.lang, layer=layer + 1, head=head + 1, kv=kv)
        return t("nb.tile", self.lang, layer=layer + 1, head=head + 1)

    def _charts(self) -> list[Chart]:
        lang, w = self.lang, self.weights
        rows, cols = self.tokens, self.key_tokens
        grid = w[np.ix_(self.layers, self.heads)]  # (layers shown, heads shown, L, L)
        titles = [self._tile(la, h) for la in self.layers for h in self.heads]
        # every head of a layer in one row; labels thinned to every k-th where a tile is too small for all of them
        style = style_for(self.dark, max_tile_cols=len(self.heads), min_tick_font=GRID_TICK_FONT)
        layer, head = self.layer + 1, self.head + 1
        one = w[self.layer, self.head]
        return [
            Chart("grid", tiled_heads(grid.reshape(-1, *grid.shape[2:]), rows, cols, tile_titles=titles,
                                      max_cols=len(self.heads), kind="weights", lang=lang, style=style),
                  t("nb.grid", lang), t("nb.grid.text", lang)),
            Chart("head", matrix_heatmap(one, rows, cols, kind="weights", lang=lang, style=style_for(self.dark)),
                  t("nb.head", lang, layer=layer, head=head), t("nb.head.text", lang)),
            Chart("lines", attention_lines(w[self.layer], rows, cols, heads=[self.head], lang=lang,
                                           style=style_for(self.dark)),
                  t("nb.model.lines", lang, layer=layer, head=head), t("nb.lines.text", lang)),
        ]  # fmt: skip


def head_view(attention: object, tokens: Sequence[object], *, layer: int | None = None, head: int | None = None,
              layers: Sequence[int] | None = None, heads: Sequence[int] | None = None, kv_heads: int | None = None,
              batch: int = 0, lang: str | None = None, dark: bool | None = None) -> HeadView:  # fmt: skip
    """The heads of any model, shown inline (BertViz's head_view, offline): `attention` as a model returns it
    (output_attentions=True: a tuple of (B, h, L, L) per layer; generate's tuple of such tuples per step; a model's
    output object; the core's AttentionTraces; or one array (layers, B, h, L, L), (layers, h, L, L) or (h, L, L)),
    `tokens` one per position (tokens_of(tokenizer, ids) makes them readable, Chinese included). `layer`, `head`: the
    head drawn large and as lines (counted from 1, as the tiles; default 1, 1); `layers`, `heads`: which the grid
    shows (all by default); `kv_heads`: a grouped-query model's g (its config's num_key_value_heads); lang, dark:
    DEFAULTS when not given."""
    weights, trace_kv, prompt = attention_stack(attention, batch)
    lang, dark = DEFAULTS.pick(lang, dark)
    return HeadView(weights, tokens, layer=layer, head=head, layers=layers, heads=heads,
                    kv_heads=kv_heads if kv_heads is not None else trace_kv, prompt=prompt, lang=lang,
                    dark=dark)  # fmt: skip
