"""The forward builds its trace with AttentionTrace._of and reads W^O, b^O from views kept per parameter
(mha_core/attention.py). The trace must be the same frozen dataclass the generated __init__ builds, and a
new W^O or b^O must reach the next forward (oracle: torch.nn.MultiheadAttention given the same change)."""

from __future__ import annotations

import dataclasses

import pytest
import torch
from torch import nn

from mha_core import AttentionTrace
from tests.test_core_views import pair


def test_the_trace_equals_the_one_the_dataclass_init_builds() -> None:
    mha, _, x = pair()
    trace = mha(x, key_padding_mask=torch.tensor([[False] * 4 + [True], [False] * 5]))
    values = [getattr(trace, f.name) for f in dataclasses.fields(AttentionTrace)]
    built = AttentionTrace(*values)
    assert type(trace) is AttentionTrace
    assert vars(trace).keys() == vars(built).keys() == {f.name for f in dataclasses.fields(AttentionTrace)}
    assert all(vars(trace)[name] is vars(built)[name] for name in vars(built))


def test_the_trace_is_frozen() -> None:
    mha, _, x = pair()
    trace = mha(x)
    with pytest.raises(dataclasses.FrozenInstanceError):
        trace.weights = torch.zeros(1)  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del trace.output


def test_the_trace_needs_every_field() -> None:
    with pytest.raises(ValueError):
        AttentionTrace._of(*range(len(dataclasses.fields(AttentionTrace)) - 1))


def test_a_new_output_projection_reaches_the_next_forward() -> None:
    mha, ref, x = pair()
    with torch.no_grad():
        mha(x)  # W^O and b^O are kept now
        _, other, _ = pair(seed=3)
        ref.out_proj.weight.copy_(other.out_proj.weight)
        ref.out_proj.bias.copy_(other.out_proj.bias)
        mha.out_proj_weight = nn.Parameter(other.out_proj.weight.detach().T.clone())  # a new parameter
        mha.out_proj_bias.data = other.out_proj.bias.detach().clone()  # the same parameter, new memory
        ours = mha(x)
        expected = ref(x, x, x, need_weights=False)[0]
    torch.testing.assert_close(ours.output, expected)
    assert ours.out_proj_weight is mha.out_proj_weight and ours.w_o is mha.out_proj_weight


def test_in_place_edits_of_w_o_reach_the_next_forward() -> None:
    mha, ref, x = pair()
    with torch.no_grad():
        mha(x)
        mha.out_proj_weight[1, 2] = 3.0  # W^O[1, 2] as the weight editor would set it
        ref.out_proj.weight[2, 1] = 3.0  # torch stores the transpose
        mha.out_proj_bias[0] -= 1.0
        ref.out_proj.bias[0] -= 1.0
        torch.testing.assert_close(mha(x).output, ref(x, x, x, need_weights=False)[0])
