"""What the room store keeps of people, and for how long (docs/PRIVACY.md says it to a school; this is where it is
decided).

- A room and everything in it (seats, answers with their nicknames, questions, screens, invites) is deleted
  automatically `Rooms.retention` after the room was opened (13 h): it is open for `Limits.ttl` (12 h) at most, and
  kept `GRACE` (1 h) longer, unreadable, so that a late student is told that the class has expired rather than that
  the code is wrong. Redis deletes a room's keys itself (each key's expiry); a sweep (`Rooms.sweep`, every
  `SWEEP_EVERY` seconds in each server process, `start_sweeper`) deletes what is left in SQLite, and in Redis the
  room's index entries, and has the append-only file rewritten so that the deleted data leaves the disk too.
- The teacher deletes a class and its answers at once (`Rooms.delete`).
- A network address is never written to the store, nor the network it counts as (network.addresses.address_key: an
  IPv4 address, an IPv6 /64). What the store keeps of a network is its digest (`network_digest`: an HMAC-SHA256 under a
  random key the store makes once and keeps, `Backend.secret`; 16 hexadecimal characters): the same network gives the
  same digest in every server process, so the rates per network (token buckets, `Backend.take`), a seat's network
  ("yours" or "other n" on the console) and a network the teacher removed ("n:<digest>") work, and nothing in the store
  reads as an address. A digest goes with what holds it: a seat and a removal with their class, a token bucket once it
  is full again (with the default rates, at most an hour after its network's last request). Whoever holds the store's
  key as well as a digest can test addresses against it (an IPv4 address among 2^32 tries): a digest hides an address,
  it does not make it anonymous; what makes the store forget a network is that its digests are deleted.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import threading
import weakref
from typing import Protocol

from .errors import LiveError

GRACE = 3600.0  # seconds a room is kept after it expired (unreadable: a late student hears "expired")
SWEEP_EVERY = 600.0  # seconds between two sweeps of one server process
DIGEST_HEX = 16  # hex digits of a network's digest: 64 bits (no two networks of a server's lifetime share one)
SECRET_REFRESH = 60.0  # seconds a server process uses the store's key before it reads it again


def network_digest(secret: str, network: str) -> str:
    """What the store keeps of a network (an address key: `network.addresses.address_key`): 64 bits of its HMAC-SHA256
    under the store's key `secret`."""
    return hmac.new(secret.encode(), f"mha-network|{network}".encode(), hashlib.sha256).hexdigest()[:DIGEST_HEX]


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
