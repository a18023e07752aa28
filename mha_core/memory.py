"""Memory for the trace's large (B, h, Lq, Lk) matrices.

torch.nn.MultiheadAttention softmaxes its one L x L buffer in place; the trace keeps two (the scores and
the weights), three with a mask. A matrix that large is fresh memory on every call: glibc's malloc serves
any request of 32 MiB or more (its largest mmap threshold) with a new mapping, and the kernel then zeroes
it one 4 KiB page at a time on first touch. At (B=4, L=512, h=12) one such matrix is 50 MB. On the
project's 2-core machine a softmax of 32-64 MB into fresh 4 KiB pages took ~2.5x as long as into fresh
huge pages, and ~4x as long as into memory already mapped.

For such a matrix (`wants_huge_pages`), `large_matrix` gives it its own anonymous mapping marked
MADV_HUGEPAGE, so the kernel backs it with 2 MiB pages where it can (512 times fewer faults). The tensor
owns the mapping: when the last view of it goes, so does the memory, exactly as with torch.empty. Below
the threshold, off Linux, on another device, or when the mapping fails, the operation allocates as usual.
Nothing is kept between calls.
"""

from __future__ import annotations

import math
import mmap

import torch
from torch import Tensor

HUGE_PAGE_MIN_BYTES = 32 << 20  # below this, malloc reuses freed memory and torch.empty is faster
_HUGE_PAGES = hasattr(mmap, "MADV_HUGEPAGE") and hasattr(mmap, "MAP_ANONYMOUS")


def wants_huge_pages(shape: tuple[int, ...], dtype: torch.dtype, device: torch.device) -> bool:
    """True for a CPU matrix of at least HUGE_PAGE_MIN_BYTES on a system with madvise(MADV_HUGEPAGE)."""
    return _HUGE_PAGES and device.type == "cpu" and math.prod(shape) * dtype.itemsize >= HUGE_PAGE_MIN_BYTES


def large_matrix(shape: tuple[int, ...], dtype: torch.dtype) -> Tensor | None:
    """An uninitialised CPU tensor of this shape in its own mapping marked for huge pages, or None when the
    mapping fails (the operation then allocates as usual). For matrices that `wants_huge_pages`."""
    try:
        buffer = mmap.mmap(-1, math.prod(shape) * dtype.itemsize, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
        buffer.madvise(mmap.MADV_HUGEPAGE)
    except (OSError, ValueError):  # no memory for a mapping, or a kernel without THP: the ordinary way
        return None
    return torch.frombuffer(buffer, dtype=dtype).view(shape)  # the tensor holds the mapping alive
