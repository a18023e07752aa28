"""Memory for the trace's large (B, h, Lq, Lk) matrices.

torch.nn.MultiheadAttention softmaxes its one L x L buffer in place; the trace keeps two (the scores and
the weights), three with a mask. Matrices that large tend to be fresh memory on every call, which the
kernel zeroes one 4 KiB page at a time on first touch: glibc's malloc serves any request of 32 MiB or more
with a new mapping, and smaller ones come from a heap that is handed back to the kernel once enough of it
is free, as it is when a trace goes. At (B=4, L=512, h=12) one matrix is 50 MB; at (1, 512, 768, 12) the
trace's 12 MB matrices cost ~3000 page faults per call (torch's module: ~10). On the project's 2-core
machine a softmax of 32-64 MB into fresh 4 KiB pages took ~2.5x as long as into fresh huge pages, and
~4x as long as into memory already mapped.

So for such a matrix (`wants_huge_pages`: from 4 MiB), `large_matrix` gives it an anonymous mapping of
its own, marked MADV_HUGEPAGE: the kernel backs it with 2 MiB pages where it can (512 times fewer faults).
When the last view of that tensor goes, the mapping is not unmapped but kept for the next matrix of the
same byte size, up to POOL_MAX_BYTES in all (the longest unused go first). A repeated forward at the same
size then writes into memory that is already mapped (~13 faults per call at (1, 512, 768, 12)); without
reuse, the first touches of fresh huge pages by two threads at once on a VM sometimes took twice as long.
A mapping is only handed out again once no tensor uses it. `free_cached_memory()` unmaps what is kept.
Below the threshold (where handing out pooled memory, ~6 us, costs more than malloc's ~1 us), off Linux,
on another device, or when the mapping fails, the operation allocates as usual.
"""

from __future__ import annotations

import contextlib
import ctypes
import math
import mmap
import threading
import weakref

import torch
from torch import Tensor

HUGE_PAGE_MIN_BYTES = 4 << 20  # below this malloc is faster than the pool, and its memory stays mapped
POOL_MAX_BYTES = 256 << 20  # kept for reuse at most: two sets of (scores, weights) at (4, 512, 768, 12)
_HUGE_PAGES = hasattr(mmap, "MADV_HUGEPAGE") and hasattr(mmap, "MAP_ANONYMOUS")

_free: list[tuple[int, mmap.mmap]] = []  # (byte size, mapping) that no tensor uses, oldest first
# Reentrant: a garbage collection inside a locked block may free a trace, whose finalizers lock again.
_lock = threading.RLock()


def wants_huge_pages(shape: tuple[int, ...], dtype: torch.dtype, device: torch.device) -> bool:
    """True for a CPU matrix of at least HUGE_PAGE_MIN_BYTES on a system with madvise(MADV_HUGEPAGE)."""
    return _HUGE_PAGES and device.type == "cpu" and math.prod(shape) * dtype.itemsize >= HUGE_PAGE_MIN_BYTES


def large_matrix(shape: tuple[int, ...], dtype: torch.dtype) -> Tensor | None:
    """An uninitialised CPU tensor of this shape in huge-page memory, or None when no mapping can be made
    (the operation then allocates as usual). For matrices that `wants_huge_pages`."""
    nbytes = math.prod(shape) * dtype.itemsize
    buffer = None
    with _lock:
        for i in range(len(_free) - 1, -1, -1):  # the most recently freed of this size
            if _free[i][0] == nbytes:
                buffer = _free.pop(i)[1]
                break
    if buffer is None:
        try:
            buffer = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
        except (OSError, ValueError):  # no memory for a mapping: the ordinary way
            return None
        with contextlib.suppress(OSError):  # a kernel built without THP: 4 KiB pages, still kept for reuse
            buffer.madvise(mmap.MADV_HUGEPAGE)
    # The tensor holds this window on the mapping; when the tensor's last view goes, so does the window,
    # and only then does the mapping go back to the pool.
    window = (ctypes.c_byte * nbytes).from_buffer(buffer)
    weakref.finalize(window, _give_back, buffer, nbytes).atexit = False
    return torch.frombuffer(window, dtype=dtype).view(shape)


def _give_back(buffer: mmap.mmap, nbytes: int) -> None:
    """Keep a mapping no tensor uses any more for the next matrix of its size; to make room, the
    longest-unused mappings are unmapped (a mapping larger than the whole pool is unmapped itself)."""
    if nbytes > POOL_MAX_BYTES:
        return  # the last reference goes with this call, and the mapping with it
    with _lock:
        _free.append((nbytes, buffer))
        dropped = []
        while cached_bytes() > POOL_MAX_BYTES:
            dropped.append(_free.pop(0)[1])
    del dropped  # unmapped here, outside the lock


def cached_bytes() -> int:
    """Bytes of huge-page memory kept for reuse (no tensor uses them)."""
    with _lock:
        return sum(size for size, _ in _free)


def free_cached_memory() -> int:
    """Unmap every mapping kept for reuse; returns the bytes freed. Tensors in use are not touched."""
    with _lock:
        freed, buffers = cached_bytes(), [buffer for _, buffer in _free]
        _free.clear()
    for buffer in buffers:
        # No tensor uses it, so this unmaps now (BufferError: a window on it is still being torn down in
        # another thread; the mapping then goes with that window).
        with contextlib.suppress(BufferError):
            buffer.close()
    return freed
