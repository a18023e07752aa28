"""One attention layer's trace in a notebook: its scores, weights, head outputs, concatenation, Wᴼ, output and the
token-to-token lines, drawn by the app's own figure builders (figures/).

A trace comes from the core (`show(MultiHeadAttention(...)(x))`, any variant: shared K/V heads, RoPE, ALiBi, a
window, a KV cache step) or from a setting of the app (`explore(...)`, `open_link(url)`: the app's own pipeline,
explorer.run_scene, so the numbers are the app's), which also gives the link that opens it in the app (`link()`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from torch import Tensor

from explorer import PRESETS, Scene, Settings, apply_preset, run_scene, validate
from explorer.links import link, link_query, settings_from_link
from figures import attention_lines, matrix_heatmap, tiled_heads
from i18n import message_text, t, translator
from mha_core import AttentionTrace

from .page import DEFAULTS, Chart, style_for
from .view import NotebookError, View

APP_URL = "http://localhost:8501/"  # where README's first command serves the app


@dataclass(frozen=True, eq=False)
class TraceArrays:
    """One batch item of a trace as numpy arrays. h query heads, g K/V heads, Lq queries, Lk keys.

    q (h, Lq, d_k); k, v (g, Lk, d_k); scores, masked_scores, weights (h, Lq, Lk); head_outputs (h, Lq, d_k);
    concat, output (Lq, d_model); w_o (d_model, d_model); mask (h, Lq, Lk) True where masked, or None;
    batch: B of a batched trace (None: unbatched), item: the one shown; cached: the keys include tokens before these
    queries (a KV cache).
    """

    q: np.ndarray
    k: np.ndarray
    v: np.ndarray
    scores: np.ndarray
    masked_scores: np.ndarray
    weights: np.ndarray
    head_outputs: np.ndarray
    concat: np.ndarray
    output: np.ndarray
    w_o: np.ndarray
    mask: np.ndarray | None
    n_heads: int
    n_kv_heads: int
    scale_factor: float
    batch: int | None = None
    item: int = 0
    cached: bool = False

    @property
    def d_model(self) -> int:
        return self.w_o.shape[0]

    @property
    def d_k(self) -> int:
        return self.d_model // self.n_heads

    @property
    def len_q(self) -> int:
        return self.weights.shape[1]

    @property
    def len_k(self) -> int:
        return self.weights.shape[2]

    @classmethod
    def of_trace(cls, trace: AttentionTrace, item: int = 0) -> TraceArrays:
        """Batch item `item` of a core trace (an unbatched trace is its own item)."""
        batched = trace.weights.dim() == 4

        def a(x: Tensor | None) -> np.ndarray | None:
            if x is None:
                return None
            x = x.detach().cpu()
            return (x[item] if batched else x).numpy().astype(float)

        if batched and not 0 <= item < trace.weights.shape[0]:
            raise NotebookError(f"batch item {item} is out of range: 0 … {trace.weights.shape[0] - 1}")
        mask = a(trace.mask)
        return cls(
            q=a(trace.q), k=a(trace.k), v=a(trace.v), scores=a(trace.scores), masked_scores=a(trace.masked_scores),
            weights=a(trace.weights), head_outputs=a(trace.head_outputs), concat=a(trace.concat),
            output=a(trace.output), w_o=trace.w_o.detach().cpu().numpy().astype(float),
            mask=mask.astype(bool) if mask is not None and mask.any() else None, n_heads=trace.n_heads,
            n_kv_heads=trace.n_kv_heads, scale_factor=float(trace.scale_factor),
            batch=trace.weights.shape[0] if batched else None, item=item if batched else 0,
            cached=trace.k.shape[-2] > trace.key.shape[-2],
        )  # fmt: skip

    @classmethod
    def of_scene(cls, scene: Scene) -> TraceArrays:
        """The app's Scene of a setting (its first sentence, as the app's pages show it)."""
        return cls(
            q=scene.q, k=scene.k, v=scene.v, scores=scene.scores, masked_scores=scene.masked_scores,
            weights=scene.weights, head_outputs=scene.head_outputs, concat=scene.concat, output=scene.output,
            w_o=scene.w_o, mask=scene.mask if scene.mask.any() else None, n_heads=scene.n_heads,
            n_kv_heads=scene.n_heads, scale_factor=float(scene.scale_factor),
        )  # fmt: skip


def _labels(tokens: Sequence[object] | None, n: int, first: int, what: str) -> list[str]:
    """Axis labels "position:token" for n rows starting at position `first`; tokens may be all of them (a KV cache:
    the queries are the last n) or exactly n."""
    if tokens is None:
        return [str(first + i) for i in range(n)]
    tokens = [str(x) for x in tokens]
    if len(tokens) == first + n:
        tokens = tokens[first:]
    elif len(tokens) != n:
        raise NotebookError(f"{len(tokens)} {what} tokens were given for {n} rows (or {first + n} with the cache)")
    return [f"{first + i}:{tok}" for i, tok in enumerate(tokens)]


class TraceView(View):
    """The display of one trace. `arrays` holds its numbers; `settings` is the app's setting it was made from (None
    for a trace of the core), `link()` the address that opens it in the app."""

    def __init__(self, arrays: TraceArrays, *, tokens: Sequence[object] | None = None,
                 kv_tokens: Sequence[object] | None = None, lang: str = "en", dark: bool = False,
                 settings: Settings | None = None, rejected: Sequence[str] = ()) -> None:  # fmt: skip
        self.arrays = arrays
        self.lang = lang if lang in ("en", "zh") else "en"
        self.dark = dark
        self.settings = settings
        self.rejected = tuple(rejected)
        a = arrays
        first_query = a.len_k - a.len_q if a.cached else 0
        keys = kv_tokens if kv_tokens is not None else tokens
        self.key_labels = _labels(keys, a.len_k, 0, "key")
        if a.cached or kv_tokens is None:  # self-attention: the queries are (the last of) the same tokens
            self.query_labels = _labels(tokens, a.len_q, first_query, "query")
        else:
            self.query_labels = _labels(tokens, a.len_q, 0, "query")
        self.title = t("nb.trace.title", self.lang)

    @property
    def lines(self) -> list[str]:
        a, lang = self.arrays, self.lang
        out = [t("nb.trace.sizes", lang, h=a.n_heads, dk=a.d_k, d=a.d_model, lq=a.len_q, lk=a.len_k)]
        if a.batch is not None:
            out.append(t("nb.trace.batch", lang, b=a.batch, item=a.item))
        g, h = a.n_kv_heads, a.n_heads
        if g == 1 and h > 1:
            out.append(t("nb.trace.mqa", lang, h=h))
        elif g < h:
            r = h // g
            groups = t("a11y.sep", lang).join(
                t("nb.trace.group", lang, j=j + 1, heads=f"{j * r + 1}–{(j + 1) * r}") for j in range(g))
            out.append(t("nb.trace.gqa", lang, g=g, r=r, groups=groups))
        if a.cached:
            out.append(t("nb.trace.cache", lang, lq=a.len_q, lk=a.len_k))
        if a.mask is not None:
            out.append(t("nb.trace.masked", lang, n=int(a.mask[0].sum()), total=a.len_q * a.len_k))
        if self.rejected:
            out.append(t("nb.trace.rejected", lang, names=", ".join(self.rejected)))
        return out

    @property
    def app_link(self) -> tuple[str, str] | None:
        return None if self.settings is None else (t("nb.trace.setting", self.lang), self.link())

    def _charts(self) -> list[Chart]:
        a, lang, style = self.arrays, self.lang, style_for(self.dark)
        rows, cols = self.query_labels, self.key_labels
        dims = [str(j) for j in range(a.d_k)]
        scaled = a.scale_factor != 1.0
        common = {"lang": lang, "style": style, "numbered": False}
        return [
            Chart("scores", tiled_heads(a.masked_scores, rows, cols, kind="signed", **common),
                  t("nb.scores" if scaled else "nb.scores_unscaled", lang), t("nb.scores.text", lang)),
            Chart("weights", tiled_heads(a.weights, rows, cols, kind="weights", **common), t("nb.weights", lang),
                  t("nb.weights.text", lang)),
            Chart("heads", tiled_heads(a.head_outputs, rows, dims, kind="signed", col_title=t("nb.axis.dim", lang),
                                       **common),
                  t("nb.heads", lang), t("nb.heads.text", lang, dk=a.d_k)),
            Chart("concat", matrix_heatmap(a.concat, rows, None, kind="signed", col_title=t("nb.axis.dim", lang),
                                           **common),
                  t("nb.concat", lang), t("nb.concat.text", lang, h=a.n_heads, d=a.d_model)),
            Chart("w_o", matrix_heatmap(a.w_o, None, None, kind="signed", lang=lang, style=style), t("nb.w_o", lang),
                  t("nb.w_o.text", lang)),
            Chart("output", matrix_heatmap(a.output, rows, None, kind="signed", col_title=t("nb.axis.dim", lang),
                                           **common),
                  t("nb.output", lang), t("nb.output.text", lang)),
            Chart("lines", attention_lines(a.weights, rows, cols, heads=list(range(a.n_heads)), **common),
                  t("nb.lines", lang), t("nb.lines.text", lang)),
        ]  # fmt: skip

    def link(self, base: str = APP_URL, page: str = "steps", *, lang: str | None = None,
             step: int | None = None) -> str:  # fmt: skip
        """The address that opens this trace's setting in the app (served at `base`, on `page`), in `lang` (the
        view's by default). Only a trace made from a setting (explore, open_link) has one."""
        if self.settings is None:
            raise NotebookError(t("nb.error.not_a_setting", self.lang))
        page_url = base.rstrip("/") + "/" + page.strip("/") if page else base
        return link(page_url, self.settings, lang or self.lang, step)


def show(trace: AttentionTrace, tokens: Sequence[object] | None = None, kv_tokens: Sequence[object] | None = None,
         *, batch: int = 0, lang: str | None = None, dark: bool | None = None) -> TraceView:  # fmt: skip
    """A trace of the core, shown inline: `tokens` name the positions (with a KV cache: every token so far, or the
    new ones only), `kv_tokens` the keys of cross-attention; `batch` picks the item of a batched trace; lang "en" or
    "zh"; dark for a dark notebook (both: DEFAULTS when not given)."""
    if not isinstance(trace, AttentionTrace):
        raise NotebookError(f"show() takes an AttentionTrace (MultiHeadAttention(...)(x)), got {type(trace).__name__}")
    lang, dark = DEFAULTS.pick(lang, dark)
    return TraceView(TraceArrays.of_trace(trace, batch), tokens=tokens, kv_tokens=kv_tokens, lang=lang, dark=dark)


def _setting_error(problems: Sequence, lang: str) -> NotebookError:
    tr = translator(lang)
    text = " ".join(message_text(tr, p.key, p.kwargs) for p in problems)
    return NotebookError(t("nb.error.setting", lang, problems=text))


def view_of(settings: Settings, *, lang: str | None = None, dark: bool | None = None,
            rejected: Sequence[str] = ()) -> TraceView:  # fmt: skip
    """The view of a valid setting of the app, computed by the app's own pipeline."""
    lang, dark = DEFAULTS.pick(lang, dark)
    problems = validate(settings)
    if problems:
        raise _setting_error(problems, lang)
    scene = run_scene(settings)
    return TraceView(TraceArrays.of_scene(scene), tokens=scene.tokens, kv_tokens=scene.kv_tokens, lang=lang,
                     dark=dark, settings=settings, rejected=rejected)  # fmt: skip


SETTING_FIELDS = tuple(f.name for f in dataclasses.fields(Settings) if f.name not in ("x_edits", "w_edits"))


def explore(preset: str | None = None, *, lang: str | None = None, dark: bool | None = None,
            **fields: object) -> TraceView:  # fmt: skip
    """A setting of the app, as its pages compute it: `preset` ("en", "zh", "worked", "paper") brings its sentence and
    sizes as the app's preset does, then any Settings field (text, d_model, n_heads, seed, mask, padded, scale, cross,
    text_kv, add_pe, weight_source, layer, text_pad) changes it. The view's link() opens the same setting in the app:
    a setting the app would open otherwise (the worked example's fixed sizes, the real model's, chosen tokens beyond
    the sentence) is refused with the fields that differ."""
    lang, dark = DEFAULTS.pick(lang, dark)
    unknown = sorted(set(fields) - set(SETTING_FIELDS))
    if unknown:
        raise NotebookError(t("nb.error.unknown_setting", lang, name=unknown[0], names=", ".join(SETTING_FIELDS)))
    if preset is not None and preset not in PRESETS:
        raise NotebookError(message_text(translator(lang), "problem.bad_choice", {"name": "preset", "value": preset}))
    if "padded" in fields:
        fields["padded"] = tuple(sorted(set(fields["padded"])))  # type: ignore[call-overload]
    settings = dataclasses.replace(apply_preset(Settings(), preset) if preset else Settings(), **fields)  # type: ignore[arg-type]
    problems = validate(settings)
    if problems:
        raise _setting_error(problems, lang)
    opened = settings_from_link(link_query(settings, lang)).settings
    differ = [name for name in SETTING_FIELDS if getattr(opened, name) != getattr(settings, name)]
    if differ:
        raise NotebookError(t("nb.error.not_in_app", lang, fields=", ".join(differ)))
    return view_of(settings, lang=lang, dark=dark)


def open_link(url: str, *, lang: str | None = None, dark: bool | None = None,
              real_available: bool | None = None) -> TraceView:  # fmt: skip
    """A link of the app ("http://…/steps?d_model=32&n_heads=4&lang=zh", or just its query) as the same setting
    here: read as the app reads it (explorer.links.settings_from_link), in the link's language unless `lang` says
    otherwise. A link whose setting the app refuses raises NotebookError with the app's message (the app shows that
    message and its last good setting instead)."""
    read = settings_from_link(url, real_available=real_available)
    lang, dark = DEFAULTS.pick(lang or read.lang, dark)
    if read.problems:
        raise _setting_error(read.problems, lang)
    return view_of(read.settings, lang=lang, dark=dark, rejected=read.rejected)
