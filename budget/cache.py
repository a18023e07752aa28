"""A thread-safe least-recently-used cache bounded by bytes."""

from __future__ import annotations

import contextlib
import functools
import os
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Iterator
from typing import Any, Generic, TypeVar

import numpy as np

V = TypeVar("V")


def _env_seconds(name: str, default: float) -> float:
    raw = os.environ.get(name, "")
    return float(raw) if raw.isascii() and raw.isdecimal() and len(raw) < 8 else default


IDLE_SECONDS = _env_seconds("MHA_CACHE_IDLE_S", 900.0)  # an entry unused this long is dropped
_REGISTRY: weakref.WeakSet[ByteLRU] = weakref.WeakSet()


def array_bytes(arrays: Iterable[np.ndarray]) -> int:
    """The bytes of memory that `arrays` span together: views of one buffer (a transpose, a slice, the same
    array twice) are counted once, as the union of their address ranges."""
    spans = sorted(np.lib.array_utils.byte_bounds(a) for a in arrays if isinstance(a, np.ndarray) and a.size)
    total, end = 0, -1
    for lo, hi in spans:
        if lo >= end:
            total += hi - lo
            end = hi
        elif hi > end:
            total += hi - end
            end = hi
    return total


class ByteLRU(Generic[V]):
    """At most `max_bytes` of values (each measured once, when it is put in); least recently used first out.
    A value larger than `max_bytes * max_item_fraction` is not kept at all: one giant entry would flush
    everything the other users need. `max_idle` (seconds): `expire()` drops entries unused that long."""

    def __init__(self, name: str, max_bytes: int, max_item_fraction: float = 0.25,
                 max_idle: float | None = None) -> None:
        self.name = name
        self.max_bytes = int(max_bytes)
        self.max_item_bytes = int(max_bytes * max_item_fraction)
        self.max_idle = IDLE_SECONDS if max_idle is None else max_idle
        self._data: OrderedDict[Hashable, tuple[V, int, float]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.evicted_bytes = 0  # since the last release_memory(): tells the janitor whether trimming can help
        self._flights: dict[Hashable, threading.Event] = {}  # keys being computed now (flight)
        _REGISTRY.add(self)

    @property
    def nbytes(self) -> int:
        return self._bytes

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key: Hashable) -> bool:
        with self._lock:
            return key in self._data

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            hit = self._data.get(key)
            if hit is None:
                return None
            self._data[key] = (hit[0], hit[1], time.monotonic())
            self._data.move_to_end(key)
            return hit[0]

    def put(self, key: Hashable, value: V, nbytes: int) -> bool:
        """Keep `value` (of `nbytes`); False when it is too large to keep."""
        if nbytes > self.max_item_bytes:
            return False
        with self._lock:
            old = self._data.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
            self._data[key] = (value, nbytes, time.monotonic())
            self._bytes += nbytes
            while self._bytes > self.max_bytes and self._data:
                _, (_, size, _) = self._data.popitem(last=False)
                self._bytes -= size
                self.evicted_bytes += size
        return True

    def recount(self, key: Hashable, value: V, nbytes: int) -> bool:
        """`value`, kept under `key`, has grown to `nbytes` (a figure that keeps its text alternatives once read):
        count its new size, dropping the least recently used others if the budget is exceeded, or drop it when it
        has outgrown max_item_bytes. False (nothing changed) when `key` no longer holds this very `value`."""
        with self._lock:
            hit = self._data.get(key)
            if hit is None or hit[0] is not value:
                return False
            self._bytes += nbytes - hit[1]
            if nbytes > self.max_item_bytes:
                del self._data[key]
                self._bytes -= nbytes
                self.evicted_bytes += nbytes
                return True
            self._data[key] = (value, nbytes, hit[2])
            while self._bytes > self.max_bytes and len(self._data) > 1:
                oldest = next(iter(self._data))
                if oldest == key:
                    self._data.move_to_end(key)
                    continue
                _, size, _ = self._data.pop(oldest)
                self._bytes -= size
                self.evicted_bytes += size
        return True

    @contextlib.contextmanager
    def flight(self, key: Hashable, wait: float = 30.0) -> Iterator[None]:
        """One computation of `key` at a time: the first thread to miss it computes it in the body; a thread
        missing it meanwhile waits (up to `wait` seconds) until the first is done, then runs the body too, which
        looks in the cache again (and computes the value itself only if it is still missing: the first failed,
        or the value was too large to keep). When a teacher changes h, a whole class misses the same entries at
        once; without this, every student's session computed them again, all at the same time."""
        with self._lock:
            running = self._flights.get(key)
            if running is None:
                mine = self._flights[key] = threading.Event()
        if running is not None:
            running.wait(wait)
            yield
            return
        try:
            yield
        finally:
            with self._lock:
                del self._flights[key]
            mine.set()

    def expire(self, now: float | None = None) -> int:
        """Drop entries unused for more than max_idle seconds; the bytes dropped."""
        now = time.monotonic() if now is None else now
        dropped = 0
        with self._lock:
            for key in [k for k, (_, _, used) in self._data.items() if now - used > self.max_idle]:
                _, size, _ = self._data.pop(key)
                dropped += size
            self._bytes -= dropped
            self.evicted_bytes += dropped
        return dropped

    def clear(self) -> None:
        with self._lock:
            self.evicted_bytes += self._bytes
            self._data.clear()
            self._bytes = 0


def registered_caches() -> list[ByteLRU]:
    return list(_REGISTRY)


def memoize(cache: ByteLRU, size_of: Callable[[Any], int]) -> Callable:
    """Decorator: cache f(*args) in `cache` (args hashable), each result measured by `size_of`. Sessions missing
    the same key at once wait for one computation of it (ByteLRU.flight)."""

    def wrap(f: Callable) -> Callable:
        @functools.wraps(f)
        def cached(*args: Hashable) -> Any:
            hit = cache.get(args)
            if hit is not None:
                return hit
            with cache.flight(args):
                value = cache.get(args)  # another session's computation, which this one waited for
                if value is None:
                    value = f(*args)
                    cache.put(args, value, size_of(value))
            return value

        cached.cache = cache  # type: ignore[attr-defined]
        cached.cache_clear = cache.clear  # type: ignore[attr-defined]
        return cached

    return wrap
