"""Large L x L trace matrices live in pooled huge-page memory (mha_core/memory.py), and nothing else changes.

The numbers above the threshold are checked against torch.nn.MultiheadAttention (the independent oracle)
and the scaled-dot-product formula; the memory itself is checked in /proc/self/smaps: the mapping that
holds a matrix is marked for huge pages ("hg"); once no tensor uses it, it is kept for the next matrix of
its size (never while a trace still holds it), up to the pool's limit, and free_cached_memory unmaps it.
"""

from __future__ import annotations

import math
import mmap
import sys
import threading

import pytest
import torch
from torch import nn

from mha_core import MultiHeadAttention, causal_mask, memory
from mha_core.memory import HUGE_PAGE_MIN_BYTES, cached_bytes, free_cached_memory, large_matrix, wants_huge_pages

LINUX_THP = sys.platform.startswith("linux") and hasattr(mmap, "MADV_HUGEPAGE")
needs_thp = pytest.mark.skipif(not LINUX_THP, reason="madvise(MADV_HUGEPAGE) is Linux-only")
TIGHT = {"rtol": 1e-10, "atol": 1e-12}

# float64, B=1, h=2, L=1500: each (B, h, L, L) matrix is 36 MB, above the threshold (and above malloc's 32 MiB)
D_MODEL, HEADS, LENGTH = 8, 2, 1500


@pytest.fixture(autouse=True)
def empty_pool():
    free_cached_memory()
    yield
    free_cached_memory()


def mapping_of(address: int) -> tuple[int, int, set[str]] | None:
    """(start, end, VmFlags) of the mapping in /proc/self/smaps that holds this address, or None."""
    current = None
    with open("/proc/self/smaps") as f:
        for line in f:
            head = line.split(maxsplit=1)[0]
            if "-" in head and not head.endswith(":"):
                start, end = (int(x, 16) for x in head.split("-"))
                current = (start, end) if start <= address < end else None
            elif current and head == "VmFlags:":
                return current[0], current[1], set(line.split()[1:])
    return None


def make_pair() -> tuple[MultiHeadAttention, nn.MultiheadAttention]:
    torch.manual_seed(0)
    ref = nn.MultiheadAttention(D_MODEL, HEADS, batch_first=True, dtype=torch.float64)
    nn.init.normal_(ref.in_proj_bias)
    nn.init.normal_(ref.out_proj.bias)
    return MultiHeadAttention.from_torch(ref), ref


def x_long() -> torch.Tensor:
    return torch.randn(1, LENGTH, D_MODEL, generator=torch.Generator().manual_seed(1), dtype=torch.float64)


def test_the_standard_large_bench_size_is_above_the_threshold_and_the_small_one_below() -> None:
    def nbytes(b: int, h: int, length: int) -> int:
        return b * h * length * length * 4  # float32

    assert nbytes(4, 12, 512) >= HUGE_PAGE_MIN_BYTES > nbytes(1, 8, 128)
    assert 2 * LENGTH * LENGTH * 8 >= HUGE_PAGE_MIN_BYTES  # the size these tests use


def test_small_matrices_and_other_devices_are_left_to_the_operation() -> None:
    cpu = torch.device("cpu")
    assert not wants_huge_pages((2, 3, 4, 4), torch.float32, cpu)
    assert not wants_huge_pages((HUGE_PAGE_MIN_BYTES // 4 - 1,), torch.float32, cpu)
    assert not wants_huge_pages((HUGE_PAGE_MIN_BYTES,), torch.float32, torch.device("meta"))
    assert wants_huge_pages((HUGE_PAGE_MIN_BYTES // 4,), torch.float32, cpu) == LINUX_THP
    assert wants_huge_pages((HUGE_PAGE_MIN_BYTES // 8,), torch.float64, cpu) == LINUX_THP


@needs_thp
def test_a_large_matrix_is_writable_huge_page_memory_kept_for_reuse_once_no_tensor_uses_it() -> None:
    shape = (2, HUGE_PAGE_MIN_BYTES // 8 // 2 + 7)
    nbytes = math.prod(shape) * 8
    t = large_matrix(shape, torch.float64)
    assert t is not None and t.shape == shape and t.dtype == torch.float64 and t.is_contiguous()
    t.fill_(0.5)
    t[1, -1] = 2.0
    assert t.sum().item() == 0.5 * (math.prod(shape) - 1) + 2.0
    start, end, flags = mapping_of(t.data_ptr())
    assert "hg" in flags  # madvise(MADV_HUGEPAGE)
    assert end - start >= nbytes
    address = t.data_ptr()
    view = t[1]
    del t
    assert cached_bytes() == 0  # a view still uses the memory: not handed out again
    other = large_matrix(shape, torch.float64)
    assert other.data_ptr() != address
    del other  # its mapping goes to the pool
    assert cached_bytes() == nbytes
    del view
    assert cached_bytes() == 2 * nbytes
    again = large_matrix(shape, torch.float64)
    assert again.data_ptr() == address  # the most recently freed mapping of this size, already mapped
    assert cached_bytes() == nbytes
    different = large_matrix((nbytes // 8 + 1,), torch.float64)  # another size: a mapping of its own
    assert different.data_ptr() != address and cached_bytes() == nbytes
    del again, different
    assert free_cached_memory() == nbytes + nbytes + (nbytes + 8)
    assert cached_bytes() == 0
    found = mapping_of(address)
    assert found is None or found[:2] != (start, end)  # unmapped


@needs_thp
def test_the_pool_keeps_at_most_its_limit_and_drops_the_longest_unused_first(monkeypatch) -> None:
    shape = (HUGE_PAGE_MIN_BYTES // 4,)
    nbytes = HUGE_PAGE_MIN_BYTES
    monkeypatch.setattr(memory, "POOL_MAX_BYTES", 2 * nbytes)
    tensors = [large_matrix(shape, torch.float32) for _ in range(3)]
    addresses = [t.data_ptr() for t in tensors]
    for i in range(3):
        tensors[i] = None  # freed in order 0, 1, 2: the pool is full after two, so 0 is unmapped
    assert cached_bytes() == 2 * nbytes
    assert mapping_of(addresses[0]) is None or "hg" not in mapping_of(addresses[0])[2]
    reused = large_matrix(shape, torch.float32)
    assert reused.data_ptr() == addresses[2]  # the most recently freed
    assert cached_bytes() == nbytes
    larger = large_matrix((3 * nbytes // 4,), torch.float32)  # 3x the size, more than the whole pool
    del larger  # never kept
    assert cached_bytes() == nbytes


@pytest.mark.parametrize("masks", ["none", "causal", "padding"])
def test_a_trace_above_the_threshold_matches_torch_and_the_formula(masks: str) -> None:
    ours, ref = make_pair()
    x = x_long()
    kwargs = {}
    if masks == "causal":
        kwargs = {"attn_mask": causal_mask(LENGTH, dtype=torch.float64)}
    elif masks == "padding":
        pad = torch.zeros(1, LENGTH, dtype=torch.bool)
        pad[0, LENGTH // 3 :] = True
        kwargs = {"key_padding_mask": pad}
    with torch.no_grad():
        trace = ours(x, **kwargs)
        out, weights = ref(x, x, x, need_weights=True, average_attn_weights=False, **kwargs)
    torch.testing.assert_close(trace.weights, weights, **TIGHT)
    torch.testing.assert_close(trace.output, out, **TIGHT)
    d_k = D_MODEL // HEADS
    torch.testing.assert_close(trace.scores, trace.q @ trace.k.transpose(-2, -1) / math.sqrt(d_k), **TIGHT)
    if masks == "none":
        assert trace.masked_scores is trace.scores
    else:  # three matrices, three separate blocks of memory; the mask never touched the scores
        ptrs = {t.data_ptr() for t in (trace.scores, trace.masked_scores, trace.weights)}
        assert len(ptrs) == 3
        assert torch.isfinite(trace.scores).all()
    if LINUX_THP:
        for t in (trace.scores, trace.masked_scores, trace.weights):
            assert "hg" in mapping_of(t.data_ptr())[2]


def test_with_autograd_above_the_threshold_the_gradients_match_torch() -> None:
    ours, ref = make_pair()
    x = x_long()
    mask = causal_mask(LENGTH, dtype=torch.float64)
    trace = ours(x, attn_mask=mask)  # parameters require grad: the plain path, recorded by autograd
    trace.output.square().sum().backward()
    out, _ = ref(x, x, x, need_weights=True, average_attn_weights=False, attn_mask=mask)
    out.square().sum().backward()
    torch.testing.assert_close(ours.in_proj_weight.grad, ref.in_proj_weight.grad.T, **TIGHT)
    torch.testing.assert_close(ours.out_proj_bias.grad, ref.out_proj.bias.grad, **TIGHT)
    if LINUX_THP:
        assert "hg" not in mapping_of(trace.weights.data_ptr())[2]  # the ops allocated it, as usual


def test_a_kept_trace_is_never_overwritten_by_later_calls_that_reuse_memory() -> None:
    ours, ref = make_pair()
    xs = [
        torch.randn(1, LENGTH, D_MODEL, generator=torch.Generator().manual_seed(i), dtype=torch.float64)
        for i in range(4)
    ]
    with torch.no_grad():
        first = ours(xs[0])
        kept = (first.scores.clone(), first.weights.clone(), first.output.clone())
        for x in xs[1:]:  # each trace goes after its check, so its memory is reused by the next call
            trace = ours(x, causal=True)
            out, weights = ref(
                x,
                x,
                x,
                need_weights=True,
                average_attn_weights=False,
                attn_mask=causal_mask(LENGTH, dtype=torch.float64),
            )
            torch.testing.assert_close(trace.weights, weights, **TIGHT)
            torch.testing.assert_close(trace.output, out, **TIGHT)
            del trace
        if LINUX_THP:
            assert cached_bytes() > 0
        for got, expected in zip((first.scores, first.weights, first.output), kept, strict=True):
            assert torch.equal(got, expected)


def test_threads_sharing_the_pool_each_get_their_own_correct_trace() -> None:
    ours, ref = make_pair()
    xs = [
        torch.randn(1, LENGTH, D_MODEL, generator=torch.Generator().manual_seed(10 + i), dtype=torch.float64)
        for i in range(4)
    ]
    with torch.no_grad():
        expected = [ref(x, x, x, need_weights=True, average_attn_weights=False) for x in xs]
    errors: list[BaseException] = []

    def work(i: int) -> None:
        try:
            with torch.no_grad():
                for _ in range(3):
                    trace = ours(xs[i])
                    torch.testing.assert_close(trace.output, expected[i][0], **TIGHT)
                    torch.testing.assert_close(trace.weights, expected[i][1], **TIGHT)
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(xs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[0]


@needs_thp
def test_without_thp_in_the_kernel_the_memory_is_still_given_and_kept_for_reuse(monkeypatch) -> None:
    class NoHugePages(mmap.mmap):
        def madvise(self, *args: int) -> None:
            raise OSError(22, "Invalid argument")  # what a kernel built without THP answers

    fake = type("mmap_module", (), {name: getattr(mmap, name) for name in dir(mmap) if name.isupper()})
    fake.mmap = NoHugePages
    monkeypatch.setattr(memory, "mmap", fake)
    shape = (HUGE_PAGE_MIN_BYTES // 4,)
    t = large_matrix(shape, torch.float32)
    assert t is not None and t.shape == shape
    t.fill_(3.0)
    assert t.sum().item() == 3.0 * shape[0]
    assert "hg" not in mapping_of(t.data_ptr())[2]
    address = t.data_ptr()
    del t
    assert large_matrix(shape, torch.float32).data_ptr() == address
