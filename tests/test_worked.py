"""The worked-example page: note 001's numbers, checked by an independent numpy computation, on screen in both
languages, the note's arithmetic mistake shown as such."""

from __future__ import annotations

import numpy as np
import pytest

from explorer import WORKED_EXAMPLE, Settings, apply_preset, run_scene

PAGE = "app_pages/worked.py"

# note 001, copied from the note itself
X = np.array([[1, 0.5, -1, 2], [-0.5, 1, 0.3, -2]])
W_Q = [
    np.array([[0.1, 0.4], [-0.2, 0.3], [1.0, -0.5], [0.5, 0.2]]),
    np.array([[-0.3, 0.2], [1.1, 0.6], [-0.4, 0.8], [0.7, -0.1]]),
]
W_O = np.array([[0.5, -0.2, 1.1, 0.3], [0.1, 0.8, -0.4, 0.6], [-0.3, 0.7, 0.2, 1.0], [0.9, -0.5, 0.3, -0.8]])
# the note leaves these out: the app's choice
W_K = [np.array(w) for w in WORKED_EXAMPLE.w_k_heads]
W_V = [np.array(w) for w in WORKED_EXAMPLE.w_v_heads]


def round_half_up(v: float, digits: int) -> str:
    """A student's rounding, written out independently of figures.numbers: shift the decimal digits of the
    shortest decimal of v, add one half, cut."""
    text = repr(float(v))
    sign = "-" if text.startswith("-") else ""
    whole, _, frac = text.lstrip("-").partition(".")
    frac = frac.ljust(digits + 1, "0")
    units = int(whole + frac[:digits]) + (1 if frac[digits] >= "5" else 0)
    out = f"{units:0{digits + 1}d}"
    result = f"{out[:-digits]}.{out[-digits:]}"
    return "0" if units == 0 else sign + result


def softmax_rows(s: np.ndarray) -> np.ndarray:
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


@pytest.fixture(scope="module")
def scene():
    return run_scene(apply_preset(Settings(), "worked"))


@pytest.fixture(scope="module")
def oracle():
    """Note 001's layer by hand in numpy: scaled by sqrt(d_k) = sqrt(2), no positional encoding, no mask."""
    q = [X @ w for w in W_Q]
    k = [X @ w for w in W_K]
    v = [X @ w for w in W_V]
    scores = [qi @ ki.T / np.sqrt(2) for qi, ki in zip(q, k, strict=True)]
    weights = [softmax_rows(s) for s in scores]
    heads = [a @ vi for a, vi in zip(weights, v, strict=True)]
    concat = np.hstack(heads)
    return {"q": q, "k": k, "v": v, "scores": scores, "weights": weights, "heads": heads, "output": concat @ W_O}


def test_worked_preset_carries_the_notes_matrices(scene):
    np.testing.assert_allclose(scene.x, X, atol=1e-6)
    np.testing.assert_allclose(scene.w_q_heads, np.stack(W_Q), atol=1e-6)
    np.testing.assert_allclose(scene.w_o, W_O, atol=1e-6)
    assert scene.settings.scale and not scene.settings.add_pe and scene.settings.mask == "none"


@pytest.mark.parametrize("name", ["q", "k", "v", "scores", "weights"])
def test_every_intermediate_matches_numpy(scene, oracle, name):
    np.testing.assert_allclose(getattr(scene, name), np.stack(oracle[name]), atol=1e-5)


def test_head_outputs_concat_and_output_match_numpy(scene, oracle):
    np.testing.assert_allclose(scene.head_outputs, np.stack(oracle["heads"]), atol=1e-5)
    np.testing.assert_allclose(scene.concat, np.hstack(oracle["heads"]), atol=1e-5)
    np.testing.assert_allclose(scene.output, oracle["output"], atol=1e-5)


def test_output_is_the_sum_of_each_heads_part_of_w_o(scene, oracle):
    parts = [oracle["heads"][i] @ W_O[2 * i : 2 * i + 2] for i in range(2)]
    np.testing.assert_allclose(scene.w_o_heads, np.stack([W_O[:2], W_O[2:]]), atol=1e-6)
    np.testing.assert_allclose(sum(parts), scene.output, atol=1e-5)


def test_the_notes_printed_q_is_not_its_own_product(oracle):
    # by hand: row 1 of X times column 2 of W_1^Q is 1*0.4 + 0.5*0.3 + (-1)*(-0.5) + 2*0.2 = 1.45
    np.testing.assert_allclose(oracle["q"][0], [[0, 1.45], [-0.95, -0.45]], atol=1e-9)
    np.testing.assert_allclose(oracle["q"][1], [[2.05, -0.5], [-0.27, 0.94]], atol=1e-9)
    assert not np.allclose(oracle["q"][0], [[0.85, -0.05], [-0.29, 0.74]], atol=0.01)


# ---------------------------------------------------------------- the page
def open_page(make_app, **state):
    at = make_app(**state)
    at.run()
    at.run()
    at.switch_page(PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def plain(tex: str) -> str:
    """An equation as one line: the aligned environment that wraps long ones and its & and line breaks removed."""
    tex = tex.strip("$\n ").replace(r"\begin{aligned}", "").replace(r"\end{aligned}", "")
    return " ".join(tex.replace("&", "").replace(r" \\ ", " ").split())


def latex_with(at, start: str) -> str:
    found = [plain(el.value) for el in at.latex if plain(el.value).startswith(start)]
    assert found, start
    return found[0]


def test_page_shows_computed_numbers_whatever_the_sidebar_says(make_app, scene):
    at = open_page(make_app, mask="causal", scale=False, add_pe=True)  # the page keeps the note's setting
    q1 = latex_with(at, "Q_1 = X W_1^Q")
    assert "1.45" in q1 and "-0.95" in q1 and "0.85" not in q1
    assert not any("0.85 & -0.05" in el.value for el in at.latex)  # the note's Q_1 only in the erratum box
    errata = [w.value for w in at.warning if "arithmetic is off" in w.value]
    assert len(errata) == 2 and "0.85" in errata[0] and "2.15" in errata[1]
    assert "1.45" in errata[0]  # the entry written out by hand
    output = latex_with(at, r"\mathrm{Output} = \mathrm{Concat}")
    assert f"{scene.output[0, 1]:.2f}" in output
    headers = [h.value for h in at.header]
    assert headers[0].startswith("Step 1") and headers[-1].startswith("Step 11")

    at.toggle(key="worked_more_decimals").set_value(True).run()
    assert "1.4500" in latex_with(at, "Q_1 = X W_1^Q")
    at.selectbox(key="worked_softmax_row__en").set_value((1, 1)).run()
    assert not at.exception
    exp_line = latex_with(at, "e^")
    read = round_half_up(scene.scores[1, 1, 0], 5)  # the score as the page shows it
    assert f"e^{{{read}}} = {round_half_up(np.exp(float(read)), 5)}" in exp_line


def test_page_runs_in_chinese(make_app):
    at = open_page(make_app, lang="zh")
    assert any(h.value.startswith("第 1 步") for h in at.header)
    assert any("笔记在这里算错了" in w.value for w in at.warning)
    assert "1.45" in latex_with(at, "Q_1 = X W_1^Q")


@pytest.mark.parametrize(("v", "digits", "written"), [
    (0.145, 2, "0.15"), (-0.145, 2, "-0.15"), (2.675, 2, "2.68"), (1.005, 2, "1.01"), (0.144999, 2, "0.14"),
    (0.0049, 2, "0"), (1.45, 1, "1.5"), (0.12345, 4, "0.1235"),
])  # fmt: skip
def test_numbers_are_rounded_like_a_student_rounds(v, digits, written):
    from figures.numbers import by_hand

    assert round_half_up(v, digits) == written  # the test's own rounding agrees with the table above
    assert by_hand(v, digits) == written


@pytest.mark.parametrize("digits", [3, 5])
def test_softmax_as_shown_carries_the_digits_shown(scene, digits):
    """Every row of the worked example redone the student's way: read the scores as shown, e^ of those,
    rounded; the sum of the rounded e; each e over that sum, rounded."""
    from figures.numbers import softmax_as_shown

    for head in range(scene.n_heads):
        for row in range(scene.len_q):
            read, exps, weights, total = softmax_as_shown(scene.scores[head, row], digits)
            shown = [round_half_up(s, digits) for s in scene.scores[head, row]]
            assert [str(r) for r in read] == shown
            e = [round_half_up(np.exp(float(s)), digits) for s in shown]
            assert [str(x) for x in exps] == e
            assert float(total) == pytest.approx(sum(float(x) for x in e), abs=1e-12)
            assert [str(w) for w in weights] == [round_half_up(float(x) / float(total), digits) for x in e]
            # and the by-hand weights are the core's to within the rounding
            np.testing.assert_allclose([float(w) for w in weights], scene.weights[head, row], atol=3 * 10.0**-digits)
