"""Properties that hold for every size, input and mask (hypothesis draws them; small sizes, fast).

Which cells are masked is worked out here from the drawn masks, independently of the core:
key j is hidden from query i when attn_mask[i, j] is True (or -inf), key j is padding, or causal and j > i.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from mha_core import AttentionConfig, MultiHeadAttention

FAST = settings(max_examples=50, deadline=None)


@dataclass
class Case:
    mha: MultiHeadAttention
    query: torch.Tensor
    key: torch.Tensor | None
    masks: dict
    hidden: torch.Tensor  # (B, Lq, Lk) bool: the cells no head may attend to
    batched: bool
    formulation: str

    def run(self):
        return self.mha(self.query, self.key, **self.masks, formulation=self.formulation)


@st.composite
def cases(draw: st.DrawFn) -> Case:
    d_k, n_heads = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    d_model = d_k * n_heads
    batched = draw(st.booleans())
    bsz = draw(st.integers(1, 3)) if batched else 1
    len_q = draw(st.integers(1, 5))
    cross = draw(st.booleans())
    len_k = draw(st.integers(1, 5)) if cross else len_q
    seed = draw(st.integers(0, 2**16))
    gen = torch.Generator().manual_seed(seed)
    config = AttentionConfig(d_model, n_heads, bias=draw(st.booleans()), scale=draw(st.booleans()), seed=seed)
    mha = MultiHeadAttention(config)
    query = torch.randn(bsz, len_q, d_model, generator=gen) * draw(st.sampled_from([0.1, 1.0, 10.0]))
    key = torch.randn(bsz, len_k, d_model, generator=gen) if cross else None

    hidden = torch.zeros(bsz, len_q, len_k, dtype=torch.bool)
    masks: dict = {}
    attn_kind = draw(st.sampled_from(["none", "bool", "float"]))
    if attn_kind != "none":
        cells = torch.tensor(draw(st.lists(st.booleans(), min_size=len_q * len_k, max_size=len_q * len_k)))
        cells = cells.view(len_q, len_k)
        hidden |= cells
        if attn_kind == "bool":
            masks["attn_mask"] = cells
        else:  # finite additive values where visible, -inf where hidden
            masks["attn_mask"] = torch.randn(len_q, len_k, generator=gen).masked_fill(cells, float("-inf"))
    if draw(st.booleans()):
        pad = torch.tensor(draw(st.lists(st.booleans(), min_size=bsz * len_k, max_size=bsz * len_k)))
        pad = pad.view(bsz, len_k)
        hidden |= pad[:, None, :]
        masks["key_padding_mask"] = pad if batched else pad[0]
    if draw(st.booleans()):
        masks["causal"] = True
        hidden |= torch.tensor([[j > i for j in range(len_k)] for i in range(len_q)])
    if not batched:
        query = query[0]
        key = None if key is None else key[0]
    formulation = draw(st.sampled_from(["fused", "per_head"]))
    return Case(mha, query, key, masks, hidden, batched, formulation)


@FAST
@given(cases())
def test_every_trace_field_has_the_documented_shape(case: Case) -> None:
    trace = case.run()
    h, d = case.mha.config.n_heads, case.mha.config.d_model
    d_k = d // h
    bsz, len_q, len_k = case.hidden.shape
    lead = (bsz,) if case.batched else ()
    expected = {
        "query": (*lead, len_q, d),
        "key": (*lead, len_k, d),
        "value": (*lead, len_k, d),
        "q": (*lead, h, len_q, d_k),
        "k": (*lead, h, len_k, d_k),
        "v": (*lead, h, len_k, d_k),
        "scores": (*lead, h, len_q, len_k),
        "masked_scores": (*lead, h, len_q, len_k),
        "weights": (*lead, h, len_q, len_k),
        "head_outputs": (*lead, h, len_q, d_k),
        "concat": (*lead, len_q, d),
        "output": (*lead, len_q, d),
    }
    for name, shape in expected.items():
        assert tuple(getattr(trace, name).shape) == shape, name
    assert trace.w_q_heads.shape == (h, d, d_k) and trace.w_o_heads.shape == (h, d_k, d)
    if trace.mask is not None:
        assert trace.mask.shape == expected["weights"] and trace.mask.dtype == torch.bool


@FAST
@given(cases())
def test_weights_rows_sum_to_one_except_fully_masked_rows_which_sum_to_zero(case: Case) -> None:
    trace = case.run()
    weights = trace.weights if case.batched else trace.weights.unsqueeze(0)  # (B, h, Lq, Lk)
    dead = case.hidden.all(dim=-1)[:, None, :].expand(weights.shape[:-1])  # (B, h, Lq)
    sums = weights.sum(dim=-1)
    torch.testing.assert_close(sums[~dead], torch.ones_like(sums[~dead]), rtol=0, atol=1e-5)
    assert torch.equal(sums[dead], torch.zeros_like(sums[dead]))


@FAST
@given(cases())
def test_masked_cells_are_exactly_zero_and_visible_cells_match_the_mask(case: Case) -> None:
    trace = case.run()
    weights = trace.weights if case.batched else trace.weights.unsqueeze(0)
    hidden = case.hidden[:, None].expand(weights.shape)
    assert (weights[hidden] == 0).all()
    if trace.mask is not None:
        mask = trace.mask if case.batched else trace.mask.unsqueeze(0)
        assert torch.equal(mask, hidden)
    else:
        assert not case.hidden.any()


@FAST
@given(cases())
def test_no_nan_anywhere_and_weights_between_zero_and_one(case: Case) -> None:
    trace = case.run()
    for name in ("q", "k", "v", "scores", "weights", "head_outputs", "concat", "output"):
        assert not torch.isnan(getattr(trace, name)).any(), name
    assert not torch.isnan(trace.masked_scores).any()
    assert ((trace.weights >= 0) & (trace.weights <= 1)).all()


@FAST
@given(cases())
def test_fully_masked_queries_have_zero_head_outputs(case: Case) -> None:
    trace = case.run()
    heads = trace.head_outputs if case.batched else trace.head_outputs.unsqueeze(0)  # (B, h, Lq, d_k)
    dead = case.hidden.all(dim=-1)  # (B, Lq)
    assert (heads.transpose(1, 2)[dead] == 0).all()
