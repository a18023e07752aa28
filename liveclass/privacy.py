"""What the room store keeps of people, and for how long (docs/PRIVACY.md says it to a school; this is where it is
decided).

- A room and everything in it (seats, answers with their nicknames, questions, screens, invites) is deleted
  automatically `Rooms.retention` after the room was opened (13 h): it is open for `Limits.ttl` (12 h) at most, and
  kept `GRACE` (1 h) longer, unreadable, so that a late student is told that the class has expired rather than that
  the code is wrong. Redis deletes a room's keys itself (each key's expiry); a sweep (`Rooms.sweep`, every
  `SWEEP_EVERY` seconds in each server process, `start_sweeper`) deletes what is left in SQLite, and in Redis the
  room's index entries, and has the append-only file rewritten so that the deleted data leaves the disk too.
- The teacher deletes a class and its answers at once (`Rooms.delete`).
- A network address is never written to the store: a seat and a room carry only its bucket (`address_bucket`: 16
  bits of a hash, shared by 65,536 IPv4 addresses), which serves only to count the seats and rooms one address holds.
"""

from __future__ import annotations

import contextlib
import hashlib
import threading
import weakref
from typing import Protocol

from .errors import LiveError

GRACE = 3600.0  # seconds a room is kept after it expired (unreadable: a late student hears "expired")
SWEEP_EVERY = 600.0  # seconds between two sweeps of one server process
BUCKET_HEX = 4  # hex digits of an address's bucket: 16 bits


def address_bucket(address: str) -> str:
    """What the store keeps of a network address: 16 bits of its SHA-256 ('' for no address). Each bucket is shared by
    65,536 IPv4 addresses (and far more IPv6 ones), so it names none; two addresses of one class share a bucket
    rarely (a class of 300 on distinct addresses: two or three pairs), and then count together toward a limit."""
    if not address:
        return ""
    return hashlib.sha256(f"mha-address|{address}".encode()).hexdigest()[:BUCKET_HEX]


class Sweeps(Protocol):
    def sweep(self) -> int: ...  # liveclass.rooms.Rooms.sweep


def start_sweeper(rooms: Sweeps, every: float = SWEEP_EVERY) -> threading.Thread:
    """A daemon thread that sweeps `rooms` now and then every `every` seconds (a store that is down is tried again at
    the next sweep). It holds `rooms` weakly and ends when the store is gone."""
    ref = weakref.ref(rooms)
    stop = threading.Event()

    def run() -> None:
        while True:
            store = ref()
            if store is None:
                return
            with contextlib.suppress(LiveError):  # the store is down: the next sweep
                store.sweep()
            del store
            if stop.wait(every):
                return

    thread = threading.Thread(target=run, name="mha-live-sweeper", daemon=True)
    weakref.finalize(rooms, stop.set)
    thread.start()
    return thread
