"""Giving memory back: gc, glibc's malloc_trim, and a janitor thread that expires idle cache entries.

CPython frees a large string or array with free(); glibc keeps freed heap pages mapped for reuse, so the
resident size of the server stays at its peak after caches drop entries. malloc_trim(0) returns them
(measured in bench/soak.py). Elsewhere than glibc it is skipped.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import gc
import threading
from collections.abc import Callable

from .cache import _env_seconds, registered_caches

_LIBC: list = []
_STARTED = threading.Event()
_IDLE_HOOKS: list[Callable[[], object]] = []
_SWEEP_HOOKS: list[Callable[[], object]] = []


def _malloc_trim() -> bool:
    if not _LIBC:
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
            _LIBC.append(libc.malloc_trim)
        except (OSError, AttributeError):
            _LIBC.append(None)
    trim = _LIBC[0]
    return bool(trim(0)) if trim is not None else False


M_TRIM_THRESHOLD, M_MMAP_THRESHOLD, M_ARENA_MAX = -1, -3, -8  # glibc's mallopt parameters


def tune_malloc(mmap_threshold: int = 1 << 20, arenas: int = 2) -> bool:
    """glibc only: blocks from 1 MiB up (figure JSON, arrays) get pages of their own that free() hands back
    at once; by default glibc raises that threshold to the largest block freed so far (up to 32 MiB), after
    which such blocks come from the heap and stay resident. At most `arenas` heaps for all threads (one per
    script thread by default, each keeping its own freed memory)."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        ok = libc.mallopt(M_MMAP_THRESHOLD, mmap_threshold) == 1
        ok = libc.mallopt(M_TRIM_THRESHOLD, 2 * mmap_threshold) == 1 and ok
        return libc.mallopt(M_ARENA_MAX, arenas) == 1 and ok
    except (OSError, AttributeError):
        return False


def release_memory() -> bool:
    """gc.collect() and malloc_trim(0); True when the C library returned memory to the system."""
    gc.collect()
    for cache in registered_caches():
        cache.evicted_bytes = 0
    return _malloc_trim()


def on_idle(hook: Callable[[], object]) -> None:
    """Call `hook` when every cache has gone idle (e.g. the core's pool of huge pages gives them back)."""
    if hook not in _IDLE_HOOKS:
        _IDLE_HOOKS.append(hook)


def on_sweep(hook: Callable[[], object]) -> None:
    """Call `hook` on every round of the janitor; a truthy result (something was dropped) asks for a trim."""
    if hook not in _SWEEP_HOOKS:
        _SWEEP_HOOKS.append(hook)


def sweep(trim_after: int = 1) -> None:
    """One round of the janitor: expire idle entries; trim when bytes left the caches since the last trim
    (malloc_trim takes a few milliseconds; freed pages that are not handed back keep the RSS at its peak)."""
    for cache in registered_caches():
        cache.expire()
    caches = registered_caches()
    if caches and all(len(c) == 0 for c in caches):
        for hook in _IDLE_HOOKS:
            hook()
    dropped = [bool(hook()) for hook in _SWEEP_HOOKS]
    if any(dropped) or sum(c.evicted_bytes for c in caches) >= trim_after:
        release_memory()


def start_janitor(every: float | None = None) -> None:
    """A daemon thread that sweeps every `every` seconds (MHA_JANITOR_S, default 30; once per process)."""
    every = _env_seconds("MHA_JANITOR_S", 30.0) if every is None else every
    if _STARTED.is_set():
        return
    _STARTED.set()
    tune_malloc()

    def loop() -> None:
        while True:
            threading.Event().wait(every)
            with contextlib.suppress(Exception):  # a janitor must never die
                sweep()

    threading.Thread(target=loop, name="mha-janitor", daemon=True).start()


def janitor_started() -> bool:
    return _STARTED.is_set()
