"""Worked example: note 001's d_model = 4, h = 2 example, every multiplication written out with its numbers.

Always the note's settings (no positional encoding, scaled, no mask), whatever the sidebar says. Every number
comes from the core's Scene; the page only lays out products and sums that the student redoes by hand.
"""

import dataclasses
from itertools import count

import numpy as np
import streamlit as st

from explorer import Settings, apply_preset, output_by_head, run_scene
from figures.numbers import by_hand, hand_matrix, softmax_as_shown
from frame import outside_frame
from ui import keep
from ui.context import get_context
from ui.errata_links import errata_links
from ui.handout import handout_css

# Q_1 and Q_2 exactly as note 001 prints them (its arithmetic is off; shown next to the computed ones)
NOTE_Q = (np.array([[0.85, -0.05], [-0.29, 0.74]]), np.array([[2.15, 0.65], [-1.32, 1.02]]))

if outside_frame():
    st.stop()
ctx = get_context()
tr = ctx.t
handout_css()  # equations wrap instead of being cut; prints as a handout
settings = apply_preset(Settings(), "worked")  # scaled, no positional encoding, no mask: the note's formulas
scene = run_scene(settings)
unscaled = run_scene(dataclasses.replace(settings, scale=False))  # its scores are Q_i K_i^T before the division

st.title(tr("worked.title"))
st.markdown(tr("worked.intro"))
errata_links(ctx, "worked")
st.info(tr("worked.setting"), icon=":material/push_pin:")
more = st.toggle(tr("worked.more_decimals"), key="worked_more_decimals", help=tr("worked.more_decimals_help"))
digits = 4 if more else 2
step = count(1)
heads = range(scene.n_heads)


def given(m: np.ndarray) -> str:
    """A matrix the note (or the app) gives: always 2 decimals."""
    return hand_matrix(m, digits=2)


def num(m: np.ndarray) -> str:
    """A computed matrix at the chosen precision, rounded as by hand (0.145 -> 0.15)."""
    return hand_matrix(m, digits=digits)


def header(key: str) -> None:
    st.header(tr("worked.step", n=next(step), title=tr(f"worked.{key}.title")), divider="gray")


def eq(*sides: str) -> None:
    """lhs = a = b = ...: one line per '=' after the first, so that a wide product never runs off the page."""
    lhs, *rest = sides
    st.latex(r"\begin{aligned} " + lhs + " &= " + r" \\ &= ".join(rest) + r" \end{aligned}")


def term(x: float) -> str:
    return f"({x:g})" if x < 0 else f"{x:g}"


def expansion(row: np.ndarray, col: np.ndarray, result: float) -> str:
    """One entry by hand: x_1 w_1 + ... + x_n w_n = result."""
    products = " + ".join(rf"{term(a)} \cdot {term(b)}" for a, b in zip(row, col, strict=True))
    return f"{products} = {by_hand(result, digits)}"


def projections(name: str, w: np.ndarray, out: np.ndarray) -> None:
    for i in heads:
        eq(rf"{name}_{i + 1}", rf"X W_{i + 1}^{name} = {given(scene.x)} {given(w[i])}", num(out[i]))


# ---- the input and the weights
header("inputs")
st.markdown(tr("worked.inputs.text"))
st.latex(rf"X = {given(scene.x)}")
st.latex(r",\quad ".join(rf"W_{i + 1}^Q = {given(scene.w_q_heads[i])}" for i in heads))
st.latex(rf"W^O = {given(scene.w_o)}")
st.info(tr("worked.chosen"), icon=":material/build:")
for name, w in (("K", scene.w_k_heads), ("V", scene.w_v_heads)):
    st.latex(r",\quad ".join(rf"W_{i + 1}^{name} = {given(w[i])}" for i in heads))

# ---- queries, with the note's printed values where they differ
header("q")
st.markdown(tr("worked.q.text"))
for i in heads:
    eq(rf"Q_{i + 1}", rf"X W_{i + 1}^Q = {given(scene.x)} {given(scene.w_q_heads[i])}", num(scene.q[i]))
    wrong = np.abs(NOTE_Q[i] - scene.q[i])
    if wrong.max() > 0.005:
        r, c = np.unravel_index(int(np.argmax(wrong)), wrong.shape)
        st.warning(tr(
            "worked.erratum", note=rf"Q_{i + 1} = {given(NOTE_Q[i])}", row=r + 1, col=c + 1,
            expansion=expansion(scene.x[r], scene.w_q_heads[i][:, c], scene.q[i][r, c]),
            note_value=f"{NOTE_Q[i][r, c]:g}",
        ), icon=":material/error:")  # fmt: skip

header("k")
st.markdown(tr("worked.kv.text"))
projections("K", scene.w_k_heads, scene.k)
header("v")
st.markdown(tr("worked.kv.text"))
projections("V", scene.w_v_heads, scene.v)

# ---- scores, scaling, softmax
header("qk")
st.markdown(tr("worked.qk.text"))
for i in heads:
    eq(rf"Q_{i + 1} K_{i + 1}^\top", rf"{num(scene.q[i])} {num(scene.k[i].T)}", num(unscaled.scores[i]))
header("scale")
st.markdown(tr("worked.scale.text"))
for i in heads:
    eq(rf"S_{i + 1}", rf"\frac{{Q_{i + 1} K_{i + 1}^\top}}{{\sqrt{{{scene.d_k}}}}}",
       rf"\frac{{1}}{{{by_hand(scene.d_k**0.5, 3)}}} {num(unscaled.scores[i])}", num(scene.scores[i]))  # fmt: skip
header("softmax")
for i in heads:
    st.latex(rf"A_{i + 1} = \operatorname{{softmax}}(S_{i + 1}) = {num(scene.weights[i])}")
st.markdown(tr("worked.softmax.text"))
rows = [(h, r) for h in heads for r in range(scene.len_q)]
row_key = keep.kept("worked_softmax_row", rows[0], ctx.lang, valid=rows.__contains__)  # labels follow the language
h, r = st.selectbox(
    tr("worked.softmax_row"), rows, key=row_key, on_change=keep.remember, args=("worked_softmax_row", row_key),
    format_func=lambda hr: tr("worked.softmax_row_option", head=hr[0] + 1, row=hr[1] + 1, token=scene.tokens[hr[1]]),
)  # fmt: skip
# the student's route: the scores as shown, e^ of those, Σ of the rounded e, each e / Σ (one more decimal)
read, exps, by_hand_weights, e_sum = softmax_as_shown(scene.scores[h, r], digits + 1)
st.latex(r",\quad ".join(rf"e^{{{a}}} = {b}" for a, b in zip(read, exps, strict=True)))
st.latex(r"\Sigma = " + " + ".join(str(e) for e in exps) + f" = {e_sum}")
st.latex(r",\quad ".join(rf"\frac{{{e}}}{{{e_sum}}} = {a}" for e, a in zip(exps, by_hand_weights, strict=True)))
st.caption(tr("worked.softmax_check", total=str(sum(by_hand_weights))))
st.caption(tr("worked.core_weights", weights=", ".join(f"{a:.6f}" for a in scene.weights[h, r])))

# ---- weighted values, concatenation, output
header("av")
st.markdown(tr("worked.av.text"))
for i in heads:
    eq(rf"\mathrm{{head}}_{i + 1}", rf"A_{i + 1} V_{i + 1} = {num(scene.weights[i])} {num(scene.v[i])}",
       num(scene.head_outputs[i]))  # fmt: skip
header("concat")
st.markdown(tr("worked.concat.text"))
parts = r" \;\Big|\; ".join(num(scene.head_outputs[i]) for i in heads)
eq(r"\mathrm{Concat}", rf"\left[\, {parts} \,\right]", num(scene.concat))
header("out")
st.markdown(tr("worked.out.text"))
eq(r"\mathrm{Output}", rf"\mathrm{{Concat}}\, W^O = {num(scene.concat)} {given(scene.w_o)}", num(scene.output))
header("sum")
st.markdown(tr("worked.sum.text"))
contributions = output_by_head(scene).contributions  # head_i W^O_i, the split of the core's concat @ W^O
for i in heads:
    eq(rf"\mathrm{{head}}_{i + 1} W^O_{i + 1}", rf"{num(scene.head_outputs[i])} {given(scene.w_o_heads[i])}",
       num(contributions[i]))  # fmt: skip
terms = " + ".join(rf"\mathrm{{head}}_{i + 1} W^O_{i + 1}" for i in heads)
eq(terms, r" \\ &\quad + ".join(num(c) for c in contributions), rf"{num(scene.output)} = \mathrm{{Output}}")
st.success(tr("worked.done"), icon=":material/check_circle:")
