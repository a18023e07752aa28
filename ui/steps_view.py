"""The nine steps of the pipeline (notes 000/002), each a function that draws formula, shapes and tensor."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

import numpy as np
import pandas as pd
import streamlit as st

from explorer import LIMITS, shape_table
from explorer.pipeline import MAX_SHAPE_BATCH, NOTE_002_SIZES
from figures import matrix_heatmap, tiled_heads
from figures.style import FigureStyle
from ui.chart_element import show
from ui.context import Context
from ui.figure_cache import cached_figure
from ui.latex import latex_matrix

STEP_KEYS: tuple[str, ...] = ("input", "proj", "split", "scores", "mask", "softmax", "av", "concat", "out")


class StepsView:
    """Draws step n of the pipeline for one context; `numbers_head` picks the head whose numbers are printed."""

    def __init__(self, ctx: Context, numbers_head: int = 0, compact: bool = False) -> None:
        self.ctx, self.tr, self.scene, self.settings = ctx, ctx.t, ctx.scene, ctx.settings
        self.numbers_head = numbers_head
        # compact (presentation): formula, one line of text and the chart; the rest waits for an expander
        self.compact = compact
        # presenting: the large figures, except on a phone (one that follows a presenting class, or a phone's own
        # presentation), whose own style fits its width (two heads a row; four big tiles' titles ran into each other)
        self.style = FigureStyle.present().with_(dark=ctx.style.dark) if compact and not ctx.narrow else ctx.style
        self._later: list[Callable[[], None]] = []
        self.heads = [self.tr("common.head_n", n=i + 1) for i in range(self.settings.n_heads)]
        self.small = self.scene.len_q * max(self.settings.d_model, self.scene.len_k) <= LIMITS.max_numbers_cells
        self.steps: dict[str, Callable[[], None]] = {k: getattr(self, f"_{k}") for k in STEP_KEYS}

    def title(self, key: str) -> str:
        return self.tr(f"steps.{key}.title")

    def draw(self, n: int) -> None:
        key = STEP_KEYS[n]
        if not self.compact:
            st.header(f"{n + 1}. {self.title(key)}", anchor=f"step-{n + 1}")
        st.latex(self.tr(f"steps.{key}.latex"))
        self._later = []
        self.steps[key]()
        if self._later:
            with st.expander(self.tr("present.more"), icon=":material/unfold_more:"):
                for part in self._later:
                    part()

    def _defer(self, part: Callable[[], None]) -> None:
        """Draw now, or (compact) inside the step's expander after the chart."""
        if self.compact:
            self._later.append(part)
        else:
            part()

    # ---- helpers
    def _text(self, key: str, **kw: object) -> None:
        text = self.tr(f"steps.{key}.text", **kw)
        if self.compact:
            first = first_sentence(text)
            st.markdown(first)
            if first != text:
                self._later.append(lambda: st.markdown(text))
        else:
            st.markdown(text)

    def _numbers(self, label: str, m: np.ndarray) -> None:
        tex = latex_matrix(m, max_cells=LIMITS.max_numbers_cells) if self.small else None
        if tex is not None:
            self._defer(lambda: st.latex(f"{label} = {tex}"))

    def _matrix(
        self, m: np.ndarray, rows: tuple[str, ...], title: str, key: str, value_name: str | None = None
    ) -> None:
        tr = self.tr
        fig = cached_figure(
            matrix_heatmap, m, list(rows), None, title=title, kind="signed", row_title=tr("axis.token"),
            col_title=tr("axis.dimension"), value_name=value_name or tr("axis.value"),
            lang=self.ctx.lang, style=self.style,
        )  # fmt: skip
        show(fig, key=key, tensor=m, rows=self._labels(rows))

    def _heads(
        self, stack: np.ndarray, rows: tuple[str, ...], cols: tuple[str, ...] | None, kind: str, key: str, title: str
    ) -> None:
        fig = cached_figure(
            tiled_heads, stack, list(rows), None if cols is None else list(cols), tile_titles=self.heads, kind=kind,
            lang=self.ctx.lang, style=self.style,
        )  # fmt: skip
        col_labels = None if cols is None else self._labels(cols)
        show(fig, key=key, tensor=stack, rows=self._labels(rows), cols=col_labels, title=title)

    @staticmethod
    def _labels(tokens: tuple[str, ...]) -> list[str]:
        return [f"{i}:{t}" for i, t in enumerate(tokens)]

    # ---- the steps
    def _input(self) -> None:
        scene, settings = self.scene, self.settings
        self._text("input", L=scene.len_q, d=settings.d_model)
        self._matrix(scene.x_in, scene.tokens, "X" + (" + P" if settings.add_pe else ""), "steps_x")
        self._numbers("X", scene.x_in)

    def _proj(self) -> None:
        scene, settings, tr = self.scene, self.settings, self.tr
        if self.compact:  # one chart per screen: Q, K or V
            text_col, pick_col = st.columns([3, 2], vertical_alignment="center")
            with text_col:
                self._text("proj", d=settings.d_model, dk=settings.d_k, h=settings.n_heads)
            name = pick_col.segmented_control(tr("steps.proj.view"), ["Q", "K", "V"], default="Q", required=True,
                                              key="proj_present_view", label_visibility="collapsed")  # fmt: skip
            m, rows = {"Q": (scene.q, scene.tokens), "K": (scene.k, scene.kv_tokens),
                       "V": (scene.v, scene.kv_tokens)}[name]
            self._heads(m, rows, None, "signed", f"steps_{name}_heads", f"{name}_i = X W_i^{name}")
            self._numbers(f"Q_{{{self.numbers_head + 1}}}", scene.q[self.numbers_head])
            return
        self._text("proj", d=settings.d_model, dk=settings.d_k, h=settings.n_heads)
        # A segmented control, not tabs: tabs render both views (six charts); this draws only the chosen three.
        views = {"per_head": tr("steps.proj.per_head"), "fused": tr("steps.proj.fused")}
        view = st.segmented_control(tr("steps.proj.view"), list(views), format_func=views.__getitem__,
                                    default="per_head", required=True, key="proj_view")  # fmt: skip
        if view == "fused":
            st.caption(tr("steps.proj.fused_caption", dk=settings.d_k))
            for name, m, rows in (("Q", scene.q_fused, scene.tokens), ("K", scene.k_fused, scene.kv_tokens),
                                  ("V", scene.v_fused, scene.kv_tokens)):  # fmt: skip
                self._matrix(m, rows, f"{name} = X W^{name}", f"steps_{name}_fused", value_name=name)
        else:
            for name, m, rows in (("Q", scene.q, scene.tokens), ("K", scene.k, scene.kv_tokens),
                                  ("V", scene.v, scene.kv_tokens)):  # fmt: skip
                st.markdown(f"${name}_i = X W_i^{name}$")  # LaTeX, as every formula
                self._heads(m, rows, None, "signed", f"steps_{name}_heads", f"{name}_i = X W_i^{name}")
        self._numbers(f"Q_{{{self.numbers_head + 1}}}", scene.q[self.numbers_head])

    def _split(self) -> None:
        scene, settings, tr = self.scene, self.settings, self.tr
        self._text("split", h=settings.n_heads, dk=settings.d_k)
        default_batch = max(1, len(scene.batch))
        batch = int(st.session_state.get("shape_batch", default_batch)) if self.compact else default_batch
        note002 = bool(st.session_state.get("shape_note002", False))
        if not self.compact:
            cols = st.columns(2, vertical_alignment="bottom")
            note002 = cols[1].toggle(tr("steps.split.note002"), key="shape_note002")
            batch = cols[0].number_input(
                tr("steps.split.batch"), min_value=1, max_value=MAX_SHAPE_BATCH, value=default_batch, step=1,
                key="shape_batch", help=tr("steps.split.batch_help", max=MAX_SHAPE_BATCH), disabled=note002,
            )  # fmt: skip
        n2 = NOTE_002_SIZES
        sizes = (n2["batch"], n2["len_q"], n2["len_k"], n2["d_model"], n2["n_heads"]) if note002 else (
            min(int(batch), MAX_SHAPE_BATCH), scene.len_q, scene.len_k, settings.d_model, settings.n_heads)
        b, lq, lk, d, h = sizes
        table = shape_table(replace(settings, d_model=d, n_heads=h), lq, lk, batch=b, one=tr("steps.one_head"),
                            every=tr("steps.all_heads"))  # fmt: skip
        columns = [tr("steps.col_tensor"), tr("steps.col_shape"), tr("steps.col_now")]
        if self.compact and not self.ctx.narrow:  # one screen: the table's two halves side by side (shapes unbroken)
            half = (len(table) + 1) // 2
            halves = st.container(key="steps_shapes").columns(2, gap="small")
            for col, rows in zip(halves, (table[:half], table[half:]), strict=True):
                col.table(pd.DataFrame(rows, columns=columns), hide_index=True)
        else:
            st.table(pd.DataFrame(table, columns=columns))
        self._defer(lambda: st.caption(tr("steps.split.computed", B=b, L=lq, Lk=lk, d=d, h=h)))

    def _scores(self) -> None:
        scene, settings = self.scene, self.settings
        if settings.scale or not self.compact:
            self._text("scores", dk=settings.d_k, factor=f"{scene.scale_factor:.4f}")
        if not settings.scale:
            st.warning(self.tr("steps.scores.unscaled"))
        self._heads(scene.scores, scene.tokens, scene.kv_tokens, "signed", "steps_scores", self.title("scores"))
        self._numbers(f"S_{{{self.numbers_head + 1}}}", scene.scores[self.numbers_head])

    def _mask(self) -> None:
        self._text("mask")
        if self.settings.mask == "none":
            st.info(self.tr("steps.mask.none"))
        else:
            if not self.compact:
                st.caption(self.tr(f"steps.mask.{self.settings.mask}"))
            self._heads(self.scene.masked_scores, self.scene.tokens, self.scene.kv_tokens, "signed", "steps_masked",
                        self.title("mask"))

    def _softmax(self) -> None:
        self._text("softmax")
        self._heads(self.scene.weights, self.scene.tokens, self.scene.kv_tokens, "weights", "steps_weights",
                    self.title("softmax"))
        self._numbers(f"A_{{{self.numbers_head + 1}}}", self.scene.weights[self.numbers_head])

    def _av(self) -> None:
        self._text("av", dk=self.settings.d_k)
        self._heads(self.scene.head_outputs, self.scene.tokens, None, "signed", "steps_head_outputs", self.title("av"))
        self._numbers(f"\\mathrm{{head}}_{{{self.numbers_head + 1}}}", self.scene.head_outputs[self.numbers_head])

    def _concat(self) -> None:
        settings = self.settings
        self._text("concat", h=settings.n_heads, dk=settings.d_k, d=settings.d_model)
        self._matrix(self.scene.concat, self.scene.tokens, self.tr("steps.concat.title"), "steps_concat")
        self._numbers(r"\mathrm{Concat}", self.scene.concat)

    def _out(self) -> None:
        self._text("out", d=self.settings.d_model)
        title = self.tr("steps.out.chart", L=self.scene.len_q, d=self.settings.d_model)  # it draws Y, not W^O
        self._matrix(self.scene.output, self.scene.tokens, title, "steps_output")
        self._numbers(r"\mathrm{Output}", self.scene.output)


def first_sentence(text: str) -> str:
    """The first sentence of a step's text (English or Chinese): what fits one line on a projector."""
    parts = re.split(r"(?<=\.)\s+(?=[A-Z])|(?<=。)(?=\S)", text.strip(), maxsplit=1)
    return parts[0]
