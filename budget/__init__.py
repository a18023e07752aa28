"""Memory and CPU budgets shared by every session of one server (plain Python, no streamlit).

- `ByteLRU`: a cache bounded by the bytes of what it keeps, not by a count of entries; entries unused for
  longer than `max_idle` seconds are dropped by the janitor, so memory goes back when the class leaves.
- `memoize(cache, size_of)`: a function cached in a `ByteLRU` on its (hashable) arguments; sessions that miss
  the same arguments at once compute it once (`ByteLRU.flight`).
- `HeavyGate`: a server-wide bounded semaphore for heavy builds; light work never waits for it.
- `release_memory()`: gc + glibc's malloc_trim, which hands freed heap pages back to the system.
"""

from . import pool
from .cache import ByteLRU, array_bytes, memoize, registered_caches
from .gate import GATE, HeavyGate
from .release import janitor_started, on_idle, on_sweep, release_memory, start_janitor, sweep

__all__ = [
    "GATE",
    "ByteLRU",
    "HeavyGate",
    "array_bytes",
    "janitor_started",
    "memoize",
    "on_idle",
    "on_sweep",
    "pool",
    "registered_caches",
    "release_memory",
    "start_janitor",
    "sweep",
]
