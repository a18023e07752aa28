"""Positional encoding, tokenizer, embeddings, counts and analysis helpers, each against a formula
evaluated here by hand (Python's math module and loops), never against numbers copied from our output."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest
import torch

from mha_core import (
    AttentionConfig,
    MultiHeadAttention,
    embed_tokens,
    head_similarity,
    operation_counts,
    parameter_count,
    positional_similarity,
    sinusoidal_positional_encoding,
    softmax_entropy,
    token_labels,
    tokenize,
    wavelengths,
)

# ----- sinusoidal positional encoding --------------------------------------------------------------------


def hand_positional_encoding(length: int, d_model: int, base: float = 10000.0) -> list[list[float]]:
    """p[i, 2j] = sin(i / base^(2j/d)), p[i, 2j+1] = cos(i / base^(2j/d)), one scalar at a time."""
    p = [[0.0] * d_model for _ in range(length)]
    for i in range(length):
        for j in range((d_model + 1) // 2):
            angle = i / base ** (2 * j / d_model)
            p[i][2 * j] = math.sin(angle)
            if 2 * j + 1 < d_model:
                p[i][2 * j + 1] = math.cos(angle)
    return p


@pytest.mark.parametrize(("length", "d_model"), [(1, 1), (5, 4), (20, 16), (50, 64), (7, 5), (9, 3)])
def test_positional_encoding_matches_the_formula(length: int, d_model: int) -> None:
    p = sinusoidal_positional_encoding(length, d_model)
    assert p.shape == (length, d_model)
    expected = torch.tensor(hand_positional_encoding(length, d_model), dtype=torch.float64)
    torch.testing.assert_close(p.double(), expected, rtol=0, atol=1e-7)


def test_odd_d_model_ends_with_a_sine_column_without_its_cosine() -> None:
    p = sinusoidal_positional_encoding(6, 5)
    angles = [i / 10000 ** (4 / 5) for i in range(6)]
    expected = torch.tensor([math.sin(a) for a in angles], dtype=torch.float64)
    torch.testing.assert_close(p[:, 4].double(), expected, atol=1e-7, rtol=0)


@pytest.mark.parametrize("base", [2.0, 100, 1e6])
def test_custom_base_matches_the_formula(base: float) -> None:
    p = sinusoidal_positional_encoding(10, 8, base=base)
    expected = torch.tensor(hand_positional_encoding(10, 8, base), dtype=torch.float64)
    torch.testing.assert_close(p.double(), expected, rtol=0, atol=1e-7)


def test_position_zero_is_sin_0_and_cos_0() -> None:
    p = sinusoidal_positional_encoding(3, 6)
    assert p[0].tolist() == [0.0, 1.0, 0.0, 1.0, 0.0, 1.0]


def test_encoding_uses_the_default_dtype() -> None:
    assert sinusoidal_positional_encoding(2, 4).dtype == torch.get_default_dtype()


@pytest.mark.parametrize(("d_model", "base"), [(8, 10000.0), (5, 10000.0), (6, 10.0)])
def test_wavelengths_are_two_pi_base_to_the_two_j_over_d(d_model: int, base: float) -> None:
    lam = wavelengths(d_model, base)
    expected = [2 * math.pi * base ** (2 * j / d_model) for j in range((d_model + 1) // 2)]
    assert lam.shape == (len(expected),)
    torch.testing.assert_close(lam, torch.tensor(expected, dtype=lam.dtype), rtol=1e-12, atol=0)


def test_wavelength_is_the_period_of_its_column_pair() -> None:
    """Column 2j is sin(2 pi i / lambda_j): one wavelength later the encoding repeats."""
    d = 8
    lam = wavelengths(d).tolist()
    p = sinusoidal_positional_encoding(30, d).double()
    for j, lam_j in enumerate(lam):
        for i in range(30):
            assert p[i, 2 * j].item() == pytest.approx(math.sin(2 * math.pi * i / lam_j), abs=1e-7)


def test_positional_similarity_is_the_matrix_of_dot_products() -> None:
    p = sinusoidal_positional_encoding(6, 8).double()
    sim = positional_similarity(p)
    for i in range(6):
        for j in range(6):
            dot = sum(p[i, c].item() * p[j, c].item() for c in range(8))
            assert sim[i, j].item() == pytest.approx(dot, abs=1e-12)


@pytest.mark.parametrize("d_model", [2, 8, 16, 64])
def test_positional_similarity_depends_only_on_the_offset(d_model: int) -> None:
    """P_i . P_j = sum_j cos((i - j) w_j) for an even d_model: constant along every diagonal."""
    length = 12
    sim = positional_similarity(sinusoidal_positional_encoding(length, d_model).double())
    freqs = [1 / 10000 ** (2 * j / d_model) for j in range(d_model // 2)]
    for i in range(length):
        for j in range(length):
            expected = sum(math.cos((i - j) * w) for w in freqs)
            assert sim[i, j].item() == pytest.approx(expected, abs=1e-6)
    assert torch.allclose(sim.diagonal(), torch.full((length,), d_model / 2, dtype=sim.dtype))


# ----- tokenizer ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("The cat sat on the mat.", ["The", "cat", "sat", "on", "the", "mat", "."]),
        ("Hello, world!", ["Hello", ",", "world", "!"]),
        ("don't stop", ["don't", "stop"]),
        ("it's the cat's", ["it's", "the", "cat's"]),
        ("don’t", ["don’t"]),  # a typographic apostrophe joins like a straight one
        ("'quoted'", ["'", "quoted", "'"]),
        ("3.14 is pi", ["3", ".", "14", "is", "pi"]),
        ("e-mail", ["e", "-", "mail"]),
        ("snake_case", ["snake_case"]),
        ("我爱你", ["我", "爱", "你"]),
        ("我爱你。", ["我", "爱", "你", "。"]),
        ("日本語のテキスト", ["日", "本", "語", "の", "テ", "キ", "ス", "ト"]),
        ("hello世界 ok", ["hello", "世", "界", "ok"]),
        ("注意力 attention 机制", ["注", "意", "力", "attention", "机", "制"]),
        ("I 😀 you", ["I", "😀", "you"]),
        ("😀😀", ["😀", "😀"]),
        ("I ❤️ tea", ["I", "❤️", "tea"]),  # the variation selector stays with its heart
        ("👍🏽", ["👍🏽"]),  # a skin tone stays with its emoji
        ("café", ["café"]),
        ("cafe\u0301", ["café"]),  # decomposed accent: same token as the precomposed one
        ("हिन्दी भाषा", ["हिन्दी", "भाषा"]),  # vowel signs and virama stay inside the word
        ("", []),
        ("   \n\t ", []),
    ],
)
def test_tokenize(text: str, tokens: list[str]) -> None:
    assert tokenize(text) == tokens


def test_tokenize_keeps_duplicates_as_separate_positions() -> None:
    tokens = tokenize("the cat and the dog and the bird")
    assert Counter(tokens)["the"] == 3 and Counter(tokens)["and"] == 2
    assert len(tokens) == 8


@pytest.mark.parametrize("control", ["\x00", "\x07", "\x1b", "\x7f", "\u200b", "\ufeff"])
def test_tokenize_drops_control_characters(control: str) -> None:
    tokens = tokenize(f"a{control}b {control}cat{control}")
    assert tokens == ["a", "b", "cat"]
    assert all(ch.isprintable() for tok in tokens for ch in tok)


def test_tokenize_drops_a_stray_combining_mark_instead_of_making_an_invisible_token() -> None:
    assert tokenize("\u0301 a \ufe0f") == ["a"]


def test_token_labels_keep_duplicates_apart() -> None:
    assert token_labels(["the", "cat", "the"]) == ["0:the", "1:cat", "2:the"]
    assert token_labels([]) == []


# ----- embeddings --------------------------------------------------------------------------------------


def test_embed_tokens_gives_one_row_per_token() -> None:
    x = embed_tokens(["the", "cat", "sat"], 16)
    assert x.shape == (3, 16) and x.dtype == torch.get_default_dtype()


def test_same_token_gets_the_same_row_in_any_sentence() -> None:
    a = embed_tokens(["the", "cat", "the"], 8)
    b = embed_tokens(["a", "dog", "saw", "the"], 8)
    assert torch.equal(a[0], a[2]) and torch.equal(a[0], b[3])
    assert not torch.equal(a[0], a[1])


def test_embedding_seed_changes_the_rows_reproducibly() -> None:
    tokens = ["the", "cat"]
    assert torch.equal(embed_tokens(tokens, 8, seed=3), embed_tokens(tokens, 8, seed=3))
    assert not torch.equal(embed_tokens(tokens, 8, seed=0), embed_tokens(tokens, 8, seed=1))


def test_embedding_ignores_the_global_rng() -> None:
    torch.manual_seed(0)
    a = embed_tokens(["x"], 8)
    torch.manual_seed(1)
    assert torch.equal(a, embed_tokens(["x"], 8))


def test_embedding_entries_look_standard_normal() -> None:
    x = embed_tokens([f"w{i}" for i in range(200)], 50)
    assert abs(x.mean().item()) < 0.05 and abs(x.std().item() - 1) < 0.05


def test_empty_token_list_gives_an_empty_matrix() -> None:
    assert embed_tokens([], 8).shape == (0, 8)


# ----- parameter counts --------------------------------------------------------------------------------


@pytest.mark.parametrize("d_model", [1, 8, 12, 64, 96, 512])
def test_parameter_count_is_4_d_squared_plus_4_d_for_every_head_count(d_model: int) -> None:
    for n_heads in (h for h in range(1, d_model + 1) if d_model % h == 0):
        count = parameter_count(d_model, n_heads)
        assert (count.w_q, count.w_k, count.w_v, count.w_o) == (d_model**2,) * 4
        assert count.biases == 4 * d_model
        assert count.weights == 4 * d_model**2
        assert count.total == 4 * d_model**2 + 4 * d_model
        assert parameter_count(d_model, n_heads, bias=False).total == 4 * d_model**2


@pytest.mark.parametrize(("d_model", "n_heads", "bias"), [(8, 2, True), (12, 3, False), (16, 16, True)])
def test_parameter_count_equals_the_parameters_of_real_modules(d_model: int, n_heads: int, bias: bool) -> None:
    expected = parameter_count(d_model, n_heads, bias=bias).total
    ref = torch.nn.MultiheadAttention(d_model, n_heads, bias=bias)
    ours = MultiHeadAttention(AttentionConfig(d_model=d_model, n_heads=n_heads, bias=bias))
    assert sum(p.numel() for p in ref.parameters()) == expected
    assert sum(p.numel() for p in ours.parameters()) == expected


# ----- operation counts: an instrumented scalar implementation counts for us ---------------------------


class Tally:
    """Counts scalar operations per step while a naive attention runs on Counted numbers."""

    def __init__(self) -> None:
        self.step = ""
        self.counts: dict[str, Counter] = {}

    def add(self, kind: str) -> None:
        self.counts.setdefault(self.step, Counter())[kind] += 1


class Counted:
    def __init__(self, value: float, tally: Tally) -> None:
        self.value, self.tally = value, tally

    def _wrap(self, value: float) -> Counted:
        return Counted(value, self.tally)

    def __add__(self, other: Counted) -> Counted:
        self.tally.add("adds")
        return self._wrap(self.value + other.value)

    def __mul__(self, other: Counted | float) -> Counted:
        self.tally.add("mults")
        return self._wrap(self.value * getattr(other, "value", other))

    def __truediv__(self, other: Counted) -> Counted:
        self.tally.add("other")
        return self._wrap(self.value / other.value)

    def exp(self) -> Counted:
        self.tally.add("other")
        return self._wrap(math.exp(self.value))


def naive_attention_count(len_q: int, len_k: int, d: int, h: int, bias: bool, scale: bool) -> dict[str, Counter]:
    """Multi-head attention with one scalar operation at a time, as note 000 counts them."""
    tally = Tally()
    rng = random.Random(0)

    def num() -> Counted:
        return Counted(rng.uniform(-1, 1), tally)

    def matrix(rows: int, cols: int) -> list[list[Counted]]:
        return [[num() for _ in range(cols)] for _ in range(rows)]

    def dot(a: list[Counted], b: list[Counted]) -> Counted:  # n multiplications, n - 1 additions
        total = a[0] * b[0]
        for x, y in zip(a[1:], b[1:], strict=True):
            total = total + x * y
        return total

    def project(x: list[list[Counted]], w: list[list[Counted]], b: list[Counted] | None) -> list[list[Counted]]:
        cols = [[w[r][c] for r in range(len(w))] for c in range(len(w[0]))]
        out = [[dot(row, col) for col in cols] for row in x]
        return [[v + b[c] for c, v in enumerate(row)] for row in out] if b else out

    x_q, x_kv = matrix(len_q, d), matrix(len_k, d)
    w_q, w_k, w_v, w_o = (matrix(d, d) for _ in range(4))
    b_q, b_k, b_v, b_o = ([num() for _ in range(d)] if bias else None for _ in range(4))
    d_k = d // h
    tally.step = "q_proj"
    q = project(x_q, w_q, b_q)
    tally.step = "k_proj"
    k = project(x_kv, w_k, b_k)
    tally.step = "v_proj"
    v = project(x_kv, w_v, b_v)
    heads = []
    for i in range(h):
        cols = range(i * d_k, (i + 1) * d_k)
        q_i = [[row[c] for c in cols] for row in q]
        k_i = [[row[c] for c in cols] for row in k]
        v_i = [[row[c] for c in cols] for row in v]
        tally.step = "qk"
        s_i = [[dot(qr, kr) for kr in k_i] for qr in q_i]
        tally.step = "scale"
        if scale:
            s_i = [[s * (1 / math.sqrt(d_k)) for s in row] for row in s_i]
        tally.step = "softmax"
        a_i = []
        for row in s_i:
            e = [s.exp() for s in row]
            total = e[0]
            for term in e[1:]:
                total = total + term
            a_i.append([t / total for t in e])
        tally.step = "weights_v"
        v_cols = [[v_i[r][c] for r in range(len_k)] for c in range(d_k)]
        heads.append([[dot(a_row, col) for col in v_cols] for a_row in a_i])
    concat = [[v for head in heads for v in head[r]] for r in range(len_q)]
    tally.step = "out_proj"
    project(concat, w_o, b_o)
    return tally.counts


@pytest.mark.parametrize(
    ("len_q", "len_k", "d_model", "n_heads", "bias", "scale"),
    [(3, 3, 4, 2, False, True), (2, 4, 6, 3, True, True), (4, 2, 4, 1, False, False), (3, 5, 6, 6, True, False),
     (1, 1, 2, 2, False, True)],
)  # fmt: skip
def test_operation_counts_equal_a_counted_naive_implementation(len_q, len_k, d_model, n_heads, bias, scale) -> None:
    counted = naive_attention_count(len_q, len_k, d_model, n_heads, bias, scale)
    steps = operation_counts(len_q, d_model, n_heads, len_k=len_k, bias=bias, scale=scale)
    assert [s.step for s in steps] == [
        "q_proj", "k_proj", "v_proj", "qk", "scale", "softmax", "weights_v", "out_proj"
    ]  # fmt: skip
    for s in steps:
        c = counted.get(s.step, Counter())
        assert (s.mults, s.adds, s.other) == (c["mults"], c["adds"], c["other"]), s.step


@pytest.mark.parametrize(("length", "d_model", "n_heads"), [(5, 8, 2), (10, 12, 3), (7, 16, 16), (4, 6, 1)])
def test_qk_costs_l_l_d_multiplications_and_l_l_dk_minus_1_h_additions(length, d_model, n_heads) -> None:
    """Note 000: a dot product of length d_k costs d_k multiplications and d_k - 1 additions."""
    d_k = d_model // n_heads
    qk = {s.step: s for s in operation_counts(length, d_model, n_heads)}["qk"]
    assert qk.mults == length * length * d_model
    assert qk.adds == length * length * (d_k - 1) * n_heads


def test_self_attention_counts_default_len_k_to_len_q() -> None:
    assert operation_counts(5, 8, 2) == operation_counts(5, 8, 2, len_k=5)


# ----- softmax entropy ---------------------------------------------------------------------------------


@pytest.mark.parametrize("len_k", [1, 2, 5, 64])
def test_entropy_of_a_uniform_row_is_log_lk(len_k: int) -> None:
    w = torch.full((3, len_k), 1 / len_k, dtype=torch.float64)
    torch.testing.assert_close(softmax_entropy(w), torch.full((3,), math.log(len_k), dtype=torch.float64))


def test_entropy_of_a_one_hot_row_is_zero() -> None:
    w = torch.eye(4)
    assert torch.equal(softmax_entropy(w), torch.zeros(4))


def test_entropy_handles_zeros_and_fully_masked_rows() -> None:
    w = torch.tensor([[0.5, 0.5, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]], dtype=torch.float64)
    h = softmax_entropy(w)
    assert not torch.isnan(h).any()
    torch.testing.assert_close(h, torch.tensor([math.log(2), 0.0], dtype=torch.float64))


def test_entropy_matches_the_hand_formula_on_attention_weights() -> None:
    trace = MultiHeadAttention(AttentionConfig(d_model=8, n_heads=2))(torch.randn(2, 5, 8))
    ent = softmax_entropy(trace.weights)
    assert ent.shape == (2, 2, 5) and ent.dtype == trace.weights.dtype
    for idx in [(0, 0, 0), (1, 1, 4), (0, 1, 2)]:
        row = trace.weights[idx].tolist()
        assert ent[idx].item() == pytest.approx(-sum(p * math.log(p) for p in row if p > 0), rel=1e-5)


# ----- head similarity ---------------------------------------------------------------------------------


def hand_cosine(a: torch.Tensor, b: torch.Tensor) -> float:
    xs, ys = a.flatten().tolist(), b.flatten().tolist()
    dot = sum(x * y for x, y in zip(xs, ys, strict=True))
    na, nb = math.sqrt(sum(x * x for x in xs)), math.sqrt(sum(y * y for y in ys))
    return 0.0 if na == 0 or nb == 0 else dot / (na * nb)


def test_head_similarity_is_the_cosine_of_flattened_head_outputs() -> None:
    heads = torch.randn(4, 5, 3, dtype=torch.float64)
    sim = head_similarity(heads)
    assert sim.shape == (4, 4)
    for i in range(4):
        for j in range(4):
            assert sim[i, j].item() == pytest.approx(hand_cosine(heads[i], heads[j]), abs=1e-12)


def test_head_similarity_is_symmetric_with_unit_diagonal_and_bounded() -> None:
    sim = head_similarity(torch.randn(3, 6, 8, 2))
    assert sim.shape == (3, 6, 6)
    assert torch.allclose(sim, sim.transpose(-2, -1))
    assert torch.allclose(sim.diagonal(dim1=-2, dim2=-1), torch.ones(3, 6))
    assert (sim >= -1 - 1e-6).all() and (sim <= 1 + 1e-6).all()


def test_identical_and_opposite_heads_have_similarity_one_and_minus_one() -> None:
    a = torch.randn(4, 3, dtype=torch.float64)
    sim = head_similarity(torch.stack([a, 2.5 * a, -a]))
    torch.testing.assert_close(sim[0], torch.tensor([1.0, 1.0, -1.0], dtype=torch.float64))


def test_a_zero_head_has_similarity_zero_even_with_itself() -> None:
    heads = torch.randn(3, 4, 2)
    heads[1] = 0
    sim = head_similarity(heads)
    assert not torch.isnan(sim).any()
    assert torch.equal(sim[1], torch.zeros(3)) and torch.equal(sim[:, 1], torch.zeros(3))
