"""Fair share of the CPU: heavy builds (large figures and scenes) take one of a few server-wide slots.

Streamlit runs every session's script in a thread of one process. A build of a figure of 65,000 cells is
Python holding the GIL for a second or more; four or eight of them at once leave a light page of another
user (a cache hit, or the default setting) waiting its turn for the interpreter. The gate lets at most
`slots` heavy builds run at once; the others wait in line with a visible message (the `Waiter` the UI sets
for its thread), and light work never enters the gate at all.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Protocol

HEAVY_CELLS = 16_384  # numbers drawn or computed above which a build is heavy (64 x 256; the default is ~6,000)


class Waiter(Protocol):
    """What a waiting session shows: `tick` every poll (it may raise to end the wait: a rerun), `done` once."""

    def tick(self, waited: float, ahead: int) -> None: ...

    def done(self) -> None: ...


def default_slots() -> int:
    """MHA_HEAVY_SLOTS, else half the cores (at least 1): the other half stays free for light pages."""
    env = os.environ.get("MHA_HEAVY_SLOTS", "")
    if env.isascii() and env.isdecimal() and 0 < int(env) <= 64:
        return int(env)
    return max(1, (os.cpu_count() or 2) // 2)


class HeavyGate:
    """A bounded semaphore with a queue count, per-thread re-entry and a per-thread waiter."""

    def __init__(self, slots: int | None = None, poll: float = 0.5) -> None:
        self.slots = slots or default_slots()
        self.poll = poll
        self._sem = threading.BoundedSemaphore(self.slots)
        self._lock = threading.Lock()
        self._local = threading.local()
        self.waiting = 0  # sessions in line now
        self.waits = 0  # how many builds had to wait, since start
        self.running = 0

    def set_waiter(self, factory: Callable[[], Waiter] | None) -> None:
        """The waiter this thread shows when it has to wait (None: wait silently)."""
        self._local.factory = factory

    @staticmethod
    def is_heavy(cells: int) -> bool:
        return cells > HEAVY_CELLS

    @contextmanager
    def slot(self, heavy: bool = True) -> Iterator[None]:
        """Run the body in a slot when `heavy` (waiting for one if needed); light work runs at once."""
        if not heavy or getattr(self._local, "held", False):  # light, or this thread holds a slot already
            yield
            return
        if not self._sem.acquire(blocking=False):
            self._wait()
        self._local.held = True
        with self._lock:
            self.running += 1
        try:
            yield
        finally:
            self._local.held = False
            with self._lock:
                self.running -= 1
            self._sem.release()

    def _wait(self) -> None:
        factory = getattr(self._local, "factory", None)
        waiter = factory() if factory is not None else None
        with self._lock:
            self.waiting += 1
            self.waits += 1
        start = time.monotonic()
        try:
            while not self._sem.acquire(timeout=self.poll):
                if waiter is not None:
                    waiter.tick(time.monotonic() - start, self.waiting - 1 + self.running)
        finally:
            with self._lock:
                self.waiting -= 1
            if waiter is not None:
                with contextlib.suppress(Exception):  # the page is being stopped or rerun: nothing to clear
                    waiter.done()


GATE = HeavyGate()
