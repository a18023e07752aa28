"""The module makes its views W^Q, W^K, W^V, b^Q, b^K, b^V once per parameter (mha_core/attention.py,
MultiHeadAttention.qkv_weights). Every way the app, the real-model loader and the training lab change
weights must still reach the forward: checked against torch.nn.MultiheadAttention given the same change."""

from __future__ import annotations

import torch
from torch import nn

from mha_core import MultiHeadAttention

D, H = 8, 2


def pair(seed: int = 0) -> tuple[MultiHeadAttention, nn.MultiheadAttention, torch.Tensor]:
    torch.manual_seed(seed)
    ref = nn.MultiheadAttention(D, H, batch_first=True)
    nn.init.normal_(ref.in_proj_bias, std=0.1)
    nn.init.normal_(ref.out_proj.bias, std=0.1)
    return MultiHeadAttention.from_torch(ref), ref, torch.randn(2, 5, D)


def torch_output(ref: nn.MultiheadAttention, x: torch.Tensor) -> torch.Tensor:
    with torch.no_grad():
        return ref(x, x, x, need_weights=False)[0]


def ours_output(mha: MultiHeadAttention, x: torch.Tensor) -> torch.Tensor:
    with torch.no_grad():
        return mha(x).output


def test_in_place_edits_of_the_weights_reach_the_next_forward() -> None:
    mha, ref, x = pair()
    ours_output(mha, x)  # the views exist now
    with torch.no_grad():
        mha.in_proj_weight[3, D + 1] = 2.5  # W^K[3, 1], as the weight editor would set it
        ref.in_proj_weight[D + 1, 3] = 2.5  # torch stores the transpose, rows [W^Q; W^K; W^V]
        mha.in_proj_bias[2 * D] += 1.0  # b^V[0]
        ref.in_proj_bias[2 * D] += 1.0
    torch.testing.assert_close(ours_output(mha, x), torch_output(ref, x))
    assert mha.w_k[3, 1].item() == 2.5


def test_copied_weights_reach_the_next_forward() -> None:
    mha, ref, x = pair()
    ours_output(mha, x)
    _, other, _ = pair(seed=1)
    with torch.no_grad():
        mha.in_proj_weight.copy_(other.in_proj_weight.T)
        mha.in_proj_bias.copy_(other.in_proj_bias)
        ref.in_proj_weight.copy_(other.in_proj_weight)
        ref.in_proj_bias.copy_(other.in_proj_bias)
    torch.testing.assert_close(ours_output(mha, x), torch_output(ref, x))


def test_new_parameters_or_new_memory_reach_the_next_forward() -> None:
    mha, ref, x = pair()
    ours_output(mha, x)
    _, other, _ = pair(seed=2)
    with torch.no_grad():  # other: a new in-projection with the same out-projection
        other.out_proj.weight.copy_(ref.out_proj.weight)
        other.out_proj.bias.copy_(ref.out_proj.bias)
    mha.in_proj_weight = nn.Parameter(other.in_proj_weight.detach().T.clone())  # a new parameter
    mha.in_proj_bias.data = other.in_proj_bias.detach().clone()  # the same parameter, new memory
    torch.testing.assert_close(ours_output(mha, x), torch_output(other, x))


def test_a_dtype_change_reaches_the_next_forward() -> None:
    mha, ref, x = pair()
    ours_output(mha, x)
    mha.double()
    out = ours_output(mha, x.double())
    assert out.dtype == torch.float64
    torch.testing.assert_close(out, torch_output(ref.double(), x.double()))


def test_gradients_reach_the_parameters_after_a_forward_without_autograd() -> None:
    mha, ref, x = pair()
    ours_output(mha, x)  # views made under no_grad must not cut the graph of a later training step
    mha(x).output.pow(2).sum().backward()
    ref(x, x, x, need_weights=False)[0].pow(2).sum().backward()
    torch.testing.assert_close(mha.in_proj_weight.grad, ref.in_proj_weight.grad.T)
    torch.testing.assert_close(mha.in_proj_bias.grad, ref.in_proj_bias.grad)


def test_an_optimiser_step_reaches_the_next_forward_without_autograd() -> None:
    mha, ref, x = pair()
    before = ours_output(mha, x)
    for module, out in ((mha, lambda: mha(x).output), (ref, lambda: ref(x, x, x, need_weights=False)[0])):
        opt = torch.optim.SGD(module.parameters(), lr=0.5)
        out().pow(2).sum().backward()
        opt.step()
    after = ours_output(mha, x)
    torch.testing.assert_close(after, torch_output(ref, x), rtol=1e-4, atol=1e-4)
    assert (after - before).abs().max() > 0.1  # the step did change the output
