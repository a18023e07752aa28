"""Worked example: note 001's d_model = 4, h = 2 example, every multiplication written out with its numbers.

Always the note's setting (no positional encoding, scaled, no mask), whatever the sidebar says. Every number
comes from the core's Scene; the page only lays out products and sums that the student redoes by hand.
"""

import dataclasses
from itertools import count

import numpy as np
import streamlit as st

from explorer import Settings, apply_preset, run_scene
from figures.numbers import by_hand, hand_matrix, softmax_by_hand
from ui import keep
from ui.context import get_context
from ui.frame import outside_frame
from ui.handout import handout_css

# Q_1 and Q_2 exactly as note 001 prints them (its arithmetic is off; shown next to the computed ones)
NOTE_Q = (np.array([[0.85, -0.05], [-0.29, 0.74]]), np.array([[2.15, 0.65], [-1.32, 1.02]]))

if outside_frame():
    st.stop()
ctx = get_context()
tr = ctx.t
handout_css()  # equations wrap instead of being cut; prints as a handout
setting = apply_preset(Settings(), "worked")  # scaled, no positional encoding, no mask: the note's formulas
sc = run_scene(setting)
unscaled = run_scene(dataclasses.replace(setting, scale=False))  # its scores are Q_i K_i^T before the division

st.title(tr("worked.title"))
st.markdown(tr("worked.intro"))
st.info(tr("worked.setting"), icon=":material/push_pin:")
more = st.toggle(tr("worked.more_decimals"), key="worked_more_decimals", help=tr("worked.more_decimals_help"))
digits = 4 if more else 2
step = count(1)
heads = range(sc.n_heads)


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
        eq(rf"{name}_{i + 1}", rf"X W_{i + 1}^{name} = {given(sc.x)} {given(w[i])}", num(out[i]))


# ---- the input and the weights
header("inputs")
st.markdown(tr("worked.inputs.text"))
st.latex(rf"X = {given(sc.x)}")
st.latex(r",\quad ".join(rf"W_{i + 1}^Q = {given(sc.w_q_heads[i])}" for i in heads))
st.latex(rf"W^O = {given(sc.w_o)}")
st.info(tr("worked.chosen"), icon=":material/build:")
for name, w in (("K", sc.w_k_heads), ("V", sc.w_v_heads)):
    st.latex(r",\quad ".join(rf"W_{i + 1}^{name} = {given(w[i])}" for i in heads))

# ---- queries, with the note's printed values where they differ
header("q")
st.markdown(tr("worked.q.text"))
for i in heads:
    eq(rf"Q_{i + 1}", rf"X W_{i + 1}^Q = {given(sc.x)} {given(sc.w_q_heads[i])}", num(sc.q[i]))
    wrong = np.abs(NOTE_Q[i] - sc.q[i])
    if wrong.max() > 0.005:
        r, c = np.unravel_index(int(np.argmax(wrong)), wrong.shape)
        st.warning(tr(
            "worked.erratum", note=rf"Q_{i + 1} = {given(NOTE_Q[i])}", row=r + 1, col=c + 1,
            expansion=expansion(sc.x[r], sc.w_q_heads[i][:, c], sc.q[i][r, c]), note_value=f"{NOTE_Q[i][r, c]:g}",
        ), icon=":material/error:")  # fmt: skip

header("k")
st.markdown(tr("worked.kv.text"))
projections("K", sc.w_k_heads, sc.k)
header("v")
st.markdown(tr("worked.kv.text"))
projections("V", sc.w_v_heads, sc.v)

# ---- scores, scaling, softmax
header("qk")
st.markdown(tr("worked.qk.text"))
for i in heads:
    eq(rf"Q_{i + 1} K_{i + 1}^\top", rf"{num(sc.q[i])} {num(sc.k[i].T)}", num(unscaled.scores[i]))
header("scale")
st.markdown(tr("worked.scale.text"))
for i in heads:
    eq(rf"S_{i + 1}", rf"\frac{{Q_{i + 1} K_{i + 1}^\top}}{{\sqrt{{{sc.d_k}}}}}",
       rf"\frac{{1}}{{{by_hand(sc.d_k**0.5, 3)}}} {num(unscaled.scores[i])}", num(sc.scores[i]))  # fmt: skip
header("softmax")
for i in heads:
    st.latex(rf"A_{i + 1} = \operatorname{{softmax}}(S_{i + 1}) = {num(sc.weights[i])}")
st.markdown(tr("worked.softmax.text"))
rows = [(h, r) for h in heads for r in range(sc.len_q)]
row_key = keep.kept("worked_softmax_row", rows[0], ctx.lang, valid=rows.__contains__)  # labels follow the language
h, r = st.selectbox(
    tr("worked.softmax_row"), rows, key=row_key, on_change=keep.remember, args=("worked_softmax_row", row_key),
    format_func=lambda hr: tr("worked.softmax_row_option", head=hr[0] + 1, row=hr[1] + 1, token=sc.tokens[hr[1]]),
)  # fmt: skip
# the student's route: the scores as shown, e^ of those, Σ of the rounded e, each e / Σ (one more decimal)
read, exps, by_hand_weights, e_sum = softmax_by_hand(sc.scores[h, r], digits + 1)
st.latex(r",\quad ".join(rf"e^{{{a}}} = {b}" for a, b in zip(read, exps, strict=True)))
st.latex(r"\Sigma = " + " + ".join(str(e) for e in exps) + f" = {e_sum}")
st.latex(r",\quad ".join(rf"\frac{{{e}}}{{{e_sum}}} = {a}" for e, a in zip(exps, by_hand_weights, strict=True)))
st.caption(tr("worked.softmax_check", total=str(sum(by_hand_weights))))
st.caption(tr("worked.core_weights", weights=", ".join(f"{a:.6f}" for a in sc.weights[h, r])))

# ---- weighted values, concatenation, output
header("av")
st.markdown(tr("worked.av.text"))
for i in heads:
    eq(rf"\mathrm{{head}}_{i + 1}", rf"A_{i + 1} V_{i + 1} = {num(sc.weights[i])} {num(sc.v[i])}",
       num(sc.head_outputs[i]))  # fmt: skip
header("concat")
st.markdown(tr("worked.concat.text"))
parts = r" \;\Big|\; ".join(num(sc.head_outputs[i]) for i in heads)
eq(r"\mathrm{Concat}", rf"\left[\, {parts} \,\right]", num(sc.concat))
header("out")
st.markdown(tr("worked.out.text"))
eq(r"\mathrm{Output}", rf"\mathrm{{Concat}}\, W^O = {num(sc.concat)} {given(sc.w_o)}", num(sc.output))
header("sum")
st.markdown(tr("worked.sum.text"))
contributions = [sc.head_outputs[i] @ sc.w_o_heads[i] for i in heads]  # the split of the core's concat @ W^O
for i in heads:
    eq(rf"\mathrm{{head}}_{i + 1} W^O_{i + 1}", rf"{num(sc.head_outputs[i])} {given(sc.w_o_heads[i])}",
       num(contributions[i]))  # fmt: skip
terms = " + ".join(rf"\mathrm{{head}}_{i + 1} W^O_{i + 1}" for i in heads)
eq(terms, r" \\ &\quad + ".join(num(c) for c in contributions), rf"{num(sc.output)} = \mathrm{{Output}}")
st.success(tr("worked.done"), icon=":material/check_circle:")
