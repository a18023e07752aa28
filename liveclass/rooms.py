"""The rules of a live class, in one place: who may change a room, what a student may send, the limits.

`Rooms` sits on a backend (SQLite or Redis, same primitives) and knows nothing of pages: it takes and gives
plain strings, ints and dicts. Every refusal is a `LiveError` whose `code` names a translated message
(`live.err.<code>`); a backend that cannot be reached raises `StoreUnavailable`.

Who is who:
- The **teacher key** is made when a room is opened and shown once, on the teacher's console. It opens a console (on
  another device, or after a reload); it is never needed for anything else.
- A **screen** is a console or a projector of the room. It acts with a `Pass` (its id and its browser), which works
  only while the screen is accepted. The browser that opened the room, and a browser that already has an accepted
  screen of that kind, are accepted at once; any other is accepted by an open console (or comes with an invite an
  open console made). A console with the key is accepted at once only when no console is open.
- A **student** holds a seat: an id bound to the browser that joined. A link with someone else's id (`me=`) opened in
  another browser gets a seat of its own, never theirs.
- A **client** is one browser (the hash of a secret it keeps) at one network address. A browser may hold a few seats per
  room and open a few rooms. A network (an address: a whole school behind its NAT is one) is never capped, only slowed:
  its joins of a room, the rooms it opens and the codes it gets wrong each have a rate (a token bucket in the store,
  shared by every server process: `Backend.take`). The store knows a network only by its keyed digest (`Rooms.network`,
  liveclass/privacy.py), never its address. A join beyond its network's rate waits in line; a missed code beyond it
  makes every code of that network wait, so codes cannot be guessed fast from anywhere, and an unknown, ended or expired
  room answers alike to anyone who does not hold a seat in it.
- The **teacher** chooses the room's size, locks it once everyone is in, sees every seat and removes seats (their
  browsers, or their whole networks, cannot join again). Seats of students gone for a while are given back when the
  room is full; a room none of whose screens was seen for a while frees its place (within minutes when no student ever
  joined it).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import math
import secrets
import threading
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from network.addresses import address_key

from .errors import LiveError, StoreUnavailable
from .privacy import GRACE, SECRET_REFRESH, network_digest

MAX_BEATS = 20_000  # seats whose last heartbeat a process remembers (Rooms.heartbeat; a few dozen bytes each)

# No 0/O, 1/I/L, no vowels-only confusion: what a student reads off a projector and types on a phone.
ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LEN = 6
CONSOLE, PROJECTOR = "console", "projector"
ACCEPTED, WAITING, REFUSED = "accepted", "waiting", "refused"
OK = "ok"  # a backend's answer when a limit did not stop an insert


@dataclass(frozen=True)
class Limits:
    max_rooms: int = 200  # open rooms in one store
    max_students: int = 300  # the largest room a teacher may choose, and a new room's size
    max_nickname: int = 24  # characters
    max_state: int = 16 * 1024  # bytes of the teacher's state
    max_question: int = 16 * 1024  # bytes of one serialised question
    max_options: int = 12
    max_answer: int = 40  # characters of a typed answer (a number or a shape)
    max_questions: int = 100  # questions a room keeps for its CSV
    max_screens: int = 8  # consoles and projectors of one room (waiting ones included)
    ttl: float = 12 * 3600.0  # a room expires this long after it was opened
    seen_window: float = 15.0  # a student or a screen is connected while its last heartbeat is this recent
    seats_per_client: int = 3  # seats one browser may hold in one room
    rooms_per_client: int = 3  # open rooms one browser may have opened
    # rates per network (an address; an IPv6 client's /64), each a burst and then a steady rate (docs/deploy.md)
    join_burst: int = 60  # joins of one room from one network at once ...
    joins_per_minute: int = 300  # ... then this many a minute; a join beyond waits in line (join_queue) ...
    join_queue: float = 60.0  # ... up to this many seconds, else it is told when to try again
    start_burst: int = 30  # rooms one network may open at once ...
    starts_per_hour: int = 30  # ... then this many an hour
    miss_burst: int = 30  # codes one network may get wrong at once (a join, the version route, a take-back) ...
    misses_per_hour: int = 360  # ... then this many an hour; beyond, every code it sends waits
    seat_idle: float = 600.0  # a seat not seen for this long is given back when the room is full (its answers stay)
    room_idle: float = 2 * 3600.0  # a room none of whose screens was seen for this long frees its place
    unjoined_idle: float = 300.0  # ... this long, when no student ever joined it
    invite_ttl: float = 3600.0  # an invite (a private link to a projector or a console) works this long

    @property
    def rate_kept(self) -> float:
        """The longest a network's token bucket is kept after its last request, in seconds: until it is full again
        (then it is gone). A join's bucket may be emptied below zero by the joins waiting in line."""
        joins = self.joins_per_minute / 60.0
        return max(self.start_burst / self.starts_per_hour * 3600.0, self.miss_burst / self.misses_per_hour * 3600.0,
                   (self.join_burst + self.join_queue * joins) / joins)  # fmt: skip


@dataclass(frozen=True)
class Client:
    """One browser as the server can tell it: `id` the hash of a secret the browser keeps ('' when it sent none),
    `address` its network address ('' for this machine: the server's own user, or a proxy that did not say)."""

    id: str = ""
    address: str = ""


@dataclass(frozen=True)
class Pass:
    """What a teacher screen (console or projector) acts with: its id in the room and its browser's id."""

    sid: str
    client: str


@dataclass(frozen=True)
class Ticket:
    """What the teacher gets once: the join code and the teacher key (never stored, only its hash)."""

    code: str
    key: str


@dataclass(frozen=True)
class Room:
    """What anyone in the room may see. `answer` is None until the teacher reveals the question: then the option
    index, or for a typed question the value (a number or a list of dimensions) and `solution` (the value, its
    tolerance and the known slips, liveclass.typed.as_quiz reads it). A closed question is no question."""

    code: str
    version: int
    state: dict[str, Any]
    question: dict[str, Any] | None
    qid: str
    revealed: bool
    answer: Any
    expires: float
    solution: dict[str, Any] | None = None
    size: int = 0  # seats the room holds (the teacher's choice)
    locked: bool = False  # no new seats (the teacher locked the room once everyone was in)


@dataclass(frozen=True)
class Seat:
    """A seat as the teacher's console lists it: its place in the order of joining (1, 2, ...), when it joined and
    was last seen, the nickname of its latest answer, and its network: 0 the console's own, 1, 2, ... the others in
    the order of their first seat (the store holds only each network's digest, never an address)."""

    sid: str
    n: int
    joined: float
    seen: float
    connected: bool
    following: bool
    nickname: str
    network: int


@dataclass(frozen=True)
class Presence:
    joined: int  # seats held (the room's limit counts these)
    connected: int  # heartbeat within the window
    following: int  # connected and following the teacher


@dataclass(frozen=True)
class Screen:
    """A console or projector of a room, as the consoles see the list."""

    sid: str
    role: str
    status: str  # accepted, waiting, refused
    seen: float
    created: float
    open: bool  # seen within the window


@dataclass(frozen=True)
class Answer:
    """One student's answer: `choice` the option index (-1 for a typed answer, whose `value` is the number or the
    dimensions, `text` what the student typed, and `right` its grade by the quiz's check)."""

    sid: str
    choice: int
    nickname: str
    at: float
    value: Any = None
    right: bool | None = None
    text: str = ""


@dataclass(frozen=True)
class Asked:
    """A question the room was asked (for the teacher's CSV): its id, the question, its answer (option index or a
    typed question's solution), when, and its number in the class (1, 2, ...)."""

    qid: str
    question: dict[str, Any]
    answer: Any
    at: float
    n: int


@dataclass
class Record:
    """A room as a backend stores it (every field a plain value)."""

    code: str
    teacher_hash: str
    created: float
    expires: float
    ended: int = 0
    version: int = 0
    state: str = "{}"
    question: str = ""
    qid: str = ""
    answer: int = -1
    revealed: int = 0
    solution: str = ""  # a typed question's solution (JSON), hidden until the reveal
    owner: str = ""  # the client id of the browser that opened the room
    address: str = ""  # nothing: the store keeps nothing of the network a room was opened from (older files' column)
    beat: float = 0.0  # the last heartbeat of any of its screens (a room whose screens are all gone is abandoned)
    size: int = 0  # seats it holds (0: Limits.max_students)
    locked: int = 0  # 1: no new seats
    joined: int = 0  # 1 once any student took a seat


@dataclass(frozen=True)
class RoomCaps:
    """What an insert of a room checks, atomically: the server's and the client's open rooms. Rooms whose screens were
    all gone since `idle_before` (since `unjoined_before` when no student ever joined them) are ended first; a full
    server says when a place frees (a room's last beat plus `room_idle`, or `unjoined_idle`)."""

    max_rooms: int
    per_client: int
    idle_before: float
    unjoined_before: float
    room_idle: float
    unjoined_idle: float


@dataclass(frozen=True)
class SeatCaps:
    """What a new seat checks, atomically: the room's size (from the room, at most `max_students`), its lock, the
    client's seats, and whether the browser or its network was removed (`bans`: "c:<client>", "n:<network's digest>").
    Seats not seen since `idle_before` are given back first when the room is full."""

    max_students: int
    per_client: int
    idle_before: float
    bans: tuple[str, ...] = ()


ScreenRow = tuple[str, str, str, str, float, float]  # sid, role, client, status, seen, created
StudentRow = tuple[str, float, float, bool, str, str]  # sid, joined, seen, following, client, network (its digest)
CLOSED = ("unknown_room", "lost", "ended", "expired")  # a code that names no open room


class Backend(Protocol):
    """Storage primitives; each call is one short, atomic operation with a fast timeout."""

    def ping(self) -> None: ...
    # rooms: "ok", "taken" (code in use), "full", "client"; and when full, the time a place frees up
    def insert_room(self, rec: Record, now: float, caps: RoomCaps) -> tuple[str, float]: ...
    def load_room(self, code: str) -> Record | None: ...
    def load_version(self, code: str) -> tuple[int, int, float] | None: ...  # (version, ended, expires)
    def update_room(self, code: str, fields: dict[str, Any]) -> int: ...  # bumps and returns the version
    def set_state(self, code: str, text: str, base: str) -> int | None: ...  # only if the state is `base` (else None)
    # seats: "ok", "full", "client", "locked", "banned"
    def add_student(self, code: str, sid: str, now: float, expires: float, client: str, network: str,
                    caps: SeatCaps) -> str: ...  # fmt: skip
    def student_client(self, code: str, sid: str) -> str | None: ...  # None: no such seat
    def touch(self, code: str, sid: str, now: float, following: bool) -> bool: ...  # False: no such seat
    def presence(self, code: str, since: float) -> tuple[int, int, int]: ...
    def get_students(self, code: str) -> list[StudentRow]: ...
    def ban(self, code: str, who: list[str], expires: float) -> None: ...  # "c:<client>", "n:<network's digest>"
    def remove_students(self, code: str, sids: list[str]) -> int: ...  # the seats and their answers; how many
    def put_answer(self, code: str, qid: str, sid: str, choice: int, nickname: str, now: float,
                   expires: float, value: str = "") -> None: ...  # fmt: skip
    def get_answers(self, code: str, qid: str) -> list[tuple[str, int, str, float, str]]: ...
    # a token bucket: `burst` tokens, refilled at `per_second`; takes `cost` (a negative cost gives back). Returns 0
    # when a token was there, the seconds to wait when it will be within `queue` (taken now: the caller waits its
    # turn), or minus the seconds to wait when it will not (nothing taken). A bucket is gone once it is full again.
    def take(self, key: str, now: float, burst: float, per_second: float, queue: float = 0.0,
             cost: float = 1.0) -> float: ...  # fmt: skip
    # screens and invites
    # a new screen (False: the room has max_screens); screens not accepted and not seen since stale_before, and
    # screens not seen since gone_before, go first
    def put_screen(self, code: str, row: ScreenRow, max_screens: int, expires: float, stale_before: float,
                   gone_before: float) -> bool: ...  # fmt: skip
    def get_screens(self, code: str) -> list[ScreenRow]: ...
    def set_screen(self, code: str, sid: str, status: str) -> None: ...
    def touch_screen(self, code: str, sid: str, now: float) -> None: ...  # and the room's beat
    def put_invite(self, code: str, token_hash: str, role: str, uses: int, until: float) -> None: ...
    def take_invite(self, code: str, token_hash: str, now: float) -> str | None: ...  # the role; one use spent
    # the questions a room was asked, for the CSV
    def put_question(self, code: str, n: int, qid: str, text: str, now: float, expires: float, keep: int) -> None: ...
    def get_questions(self, code: str) -> list[tuple[int, str, str, float]]: ...  # n, qid, JSON text, at
    # deleting (liveclass/privacy.py): everything of one room at once (its token buckets too); everything of the rooms
    # that expired before `before`, and every token bucket full again by `now` (returns how many rooms went)
    def delete_room(self, code: str) -> None: ...
    def purge(self, before: float, now: float) -> int: ...
    # the key of the networks' digests (liveclass/privacy.py): the one the store holds, else `candidate`, kept from now
    def secret(self, candidate: str) -> str: ...


def room_bucket(code: str, network: str = "") -> str:
    """The token bucket of a network's joins of room `code` (`network`: its digest); with no network, the start of
    every such key of the room (they go with the room)."""
    return f"join|{code}|{network}"


def _hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def normalise_code(raw: object) -> str:
    """A typed or linked join code in its canonical form; LiveError('bad_code') when it cannot be one."""
    text = str(raw or "").strip().upper().replace(" ", "").replace("-", "")
    if len(text) != CODE_LEN or any(c not in ALPHABET for c in text):
        raise LiveError("bad_code", n=CODE_LEN)
    return text


def clean_nickname(raw: object, limit: int) -> str:
    """An optional nickname: control characters dropped, whitespace collapsed; too long is refused.
    Markup is kept as typed and must be shown as text (the UI escapes it)."""
    text = "".join(c for c in str(raw or "") if unicodedata.category(c)[0] != "C")
    text = " ".join(text.split())
    if len(text) > limit:
        raise LiveError("nickname_too_long", limit=limit)
    return text


def _seat_for(client: str, code: str, attempt: str) -> str | None:
    """The seat id of one attempt of a known browser to join a room (None without a browser or an attempt)."""
    if not client or not attempt:
        return None
    return hashlib.sha256(f"seat|{client}|{code}|{attempt}".encode()).hexdigest()[:22]


def _fresh_room() -> tuple[str, str]:
    """(join code, teacher key) of a room opened without an attempt: random."""
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LEN)), secrets.token_urlsafe(12)


def _screen_for(client: str, code: str, role: str, attempt: str) -> str | None:
    """The screen id of one attempt of a known browser to open a console or projector (None without an attempt)."""
    if not client or not attempt:
        return None
    return hashlib.sha256(f"screen|{client}|{code}|{role}|{attempt}".encode()).hexdigest()[:22]


def _room_for(client: str, attempt: str, n: int) -> tuple[str, str] | None:
    """(join code, teacher key) of one attempt of a known browser to open a room, its n-th choice of code (None
    without a browser or an attempt). Both derive from the browser's own id and the attempt, which no one else knows."""
    if not client or not attempt:
        return None
    digest = int.from_bytes(hashlib.sha256(f"room|{client}|{attempt}|{n}".encode()).digest(), "big")
    code = ""
    for _ in range(CODE_LEN):
        digest, i = divmod(digest, len(ALPHABET))
        code += ALPHABET[i]
    key = base64.urlsafe_b64encode(hashlib.sha256(f"key|{client}|{attempt}|{n}".encode()).digest()[:12]).decode()
    return code, key


def valid_id(sid: object) -> bool:
    """A seat's, screen's or invite's id as the store makes them (URL-safe, 8 to 64 characters)."""
    return isinstance(sid, str) and 8 <= len(sid) <= 64 and sid.isascii() and all(c.isalnum() or c in "-_" for c in sid)


def _minutes(seconds: float) -> int:
    return max(1, math.ceil(seconds / 60))


def _seconds(seconds: float) -> int:
    return max(1, math.ceil(seconds))


MAX_BLOCKED = 10_000  # networks this process remembers as waiting after too many missed codes (a few dozen bytes each)


class Rooms:
    """The room store's interface: create/lead/ask/reveal/close/end for the teacher's screens, join/heartbeat/submit
    for students."""

    def __init__(self, backend: Backend, limits: Limits | None = None, clock: Callable[[], float] = time.time) -> None:
        self.backend, self.limits, self.clock = backend, limits or Limits(), clock
        self._recent: dict[str, tuple[float, int]] = {}  # code -> (monotonic time read, version): version(max_age)
        self._recent_lock = threading.Lock()
        self._known: dict[str, None] = {}  # codes this process has found in the store, oldest first (bounded)
        self._beats: dict[tuple[str, str, bool], float] = {}  # (room, seat, following) -> when written (heartbeat)
        self._blocked: dict[str, float] = {}  # network -> time (clock) until which its codes wait (missed codes)
        self._turns: dict[tuple[str, str, str], float] = {}  # (room, browser, attempt) -> when its join's turn comes
        self._secret: tuple[str, float] = ("", 0.0)  # the store's key of network digests, until when (monotonic)

    def _found(self, code: str) -> None:
        with self._recent_lock:
            if code not in self._known:
                if len(self._known) >= 4 * self.limits.max_rooms:  # a few bytes a code
                    self._known.pop(next(iter(self._known)))
                self._known[code] = None

    def _missing(self, code: str) -> LiveError:
        """A code the store does not have. One this process has found there before was lost by the store (a Redis
        restarted without its append-only file, a store emptied or deleted): saying "check the code" would be
        wrong, above all to the teacher who opened it."""
        with self._recent_lock:
            lost = code in self._known
        return LiveError("lost" if lost else "unknown_room", room=code)

    # ---- anyone
    def ping(self) -> None:
        self.backend.ping()

    def _record(self, code: object) -> Record:
        code = normalise_code(code)
        rec = self.backend.load_room(code)
        if rec is None:
            raise self._missing(code)
        self._found(code)
        if rec.ended:
            raise LiveError("ended", room=code)
        if rec.expires <= self.clock():
            raise LiveError("expired", room=code)
        return rec

    def room(self, code: object) -> Room:
        """The room as a student sees it (the right answer only after the reveal)."""
        rec = self._record(code)
        question = json.loads(rec.question) if rec.question else None
        solution = json.loads(rec.solution) if rec.solution and rec.revealed else None
        answer = (solution or {}).get("answer") if rec.solution else rec.answer
        return Room(rec.code, rec.version, json.loads(rec.state or "{}"), question, rec.qid, bool(rec.revealed),
                    answer if rec.revealed else None, rec.expires, solution, self._size(rec),
                    bool(rec.locked))  # fmt: skip

    def _size(self, rec: Record) -> int:
        """The seats a room holds: the teacher's choice, at most the server's largest room."""
        return min(rec.size or self.limits.max_students, self.limits.max_students)

    # ---- networks: what the store keeps of them
    def network(self, address: str) -> str:
        """What the store keeps of the network of `address` (network.addresses.address_key): its digest under the
        store's own key (liveclass/privacy.py), the same in every server process on the store."""
        return self._digest(address_key(address))

    def _digest(self, net: str) -> str:
        secret, until = self._secret
        if time.monotonic() >= until:  # read again now and then: a store that lost its key gets this one back
            secret = self.backend.secret(secret or secrets.token_hex(32))
            self._secret = (secret, time.monotonic() + SECRET_REFRESH)
        return network_digest(secret, net)

    # ---- codes that name no open room: slowed per network, answered alike
    def guard(self, address: str) -> str:
        """The network of `address` (what the rates count); LiveError 'slow_down' while that network's missed codes
        are over their rate (this process remembers until when, in its memory only, so a network that waits costs no
        store call)."""
        net = address_key(address)
        with self._recent_lock:
            until = self._blocked.get(net)
        left = (until or 0.0) - self.clock()
        if left > 0:
            raise LiveError("slow_down", seconds=_seconds(left))
        return net

    def missed(self, net: str) -> None:
        """Network `net` sent a code that names no open room (or a wrong teacher key): one of its missed codes.
        LiveError 'slow_down' when that was one too many: it waits, and so does every code it sends meanwhile."""
        lim, now = self.limits, self.clock()
        wait = self.backend.take(f"miss|{self._digest(net)}", now, lim.miss_burst, lim.misses_per_hour / 3600.0)
        if wait < 0:
            with self._recent_lock:
                if len(self._blocked) >= MAX_BLOCKED:
                    self._blocked = {k: v for k, v in self._blocked.items() if v > now}
                    if len(self._blocked) >= MAX_BLOCKED:
                        self._blocked.clear()
                self._blocked[net] = now - wait
            raise LiveError("slow_down", seconds=_seconds(-wait))

    def _open_record(self, code: object, net: str) -> Record:
        """The open room a code someone typed or linked names. A code that names none (unknown, ended, expired, or
        lost by the store) is one missed code of network `net`, and answers the same whatever the reason: a guesser
        learns nothing from which."""
        try:
            return self._record(code)
        except LiveError as err:
            if err.code not in CLOSED:
                raise
            self.missed(net)
            raise LiveError("unknown_room", room=err.params.get("room", "")) from None

    def holds_seat(self, code: str, sid: object) -> bool:
        """True when `sid` is a seat of room `code` (an ended room's too): its holder may hear why the room closed."""
        return valid_id(sid) and self.backend.student_client(code, str(sid)) is not None

    def recent_version(self, code: object, max_age: float) -> int | None:
        """The version this process read of `code` less than max_age seconds ago, else None: no store, no wait."""
        try:
            code = normalise_code(code)
        except LiveError:
            return None
        with self._recent_lock:
            seen = self._recent.get(code)
        return seen[1] if seen is not None and time.monotonic() - seen[0] < max_age else None

    def version(self, code: object, max_age: float = 0.0) -> int:
        """The room's version: the cheap call a follower polls. Raises when the room is gone.
        With `max_age`, a version this process read less than max_age seconds ago is answered without the store:
        the students of one server process poll the same room every second, and one read serves them all (a change
        made through this process is seen at once; one made through another process at most max_age later)."""
        code = normalise_code(code)
        now = time.monotonic()
        recent = self.recent_version(code, max_age) if max_age > 0 else None
        if recent is not None:
            return recent
        row = self.backend.load_version(code)
        if row is None:
            raise self._missing(code)
        version, ended, expires = row
        if ended:
            raise LiveError("ended", room=code)
        if expires <= self.clock():
            raise LiveError("expired", room=code)
        with self._recent_lock:
            if len(self._recent) >= self.limits.max_rooms:  # bounded: a few bytes a room, at most max_rooms rooms
                self._recent.clear()  # (only a memo: the next reads go to the store)
            self._recent[code] = (now, version)
        return version

    def _update(self, code: str, fields: dict[str, Any]) -> int:
        """A change of the room (its version moves): this process's remembered version is dropped."""
        version = self.backend.update_room(code, fields)
        with self._recent_lock:
            self._recent.pop(code, None)
        return version

    # ---- opening a room, and its screens
    def create(self, client: Client = Client(), attempt: str = "") -> Ticket:
        """Open a room: a fresh join code and the teacher key (shown once; only its hash is kept). Refused when the
        server, this browser or this address has as many open rooms as it may: the message says when a place frees.

        `attempt` names one try of a known browser to open a room (the console passes an id kept in its session):
        asked again with the same attempt, the store gives the room it opened the first time while that room is
        open, so a try cut off after the store said yes (a page run stopped half-way by a second click) leaves no
        orphan room counting against the browser's limit. Its code and key derive from the browser's own id and the
        attempt (`_room_for`); an ended room of the attempt is passed over, and the attempt opens a new one."""
        lim, now = self.limits, self.clock()
        caps = RoomCaps(lim.max_rooms, lim.rooms_per_client if client.id else 0, now - lim.room_idle,
                        now - lim.unjoined_idle, lim.room_idle, lim.unjoined_idle)  # fmt: skip
        net, start = address_key(client.address), ""
        for n in range(20):
            derived = _room_for(client.id, attempt, n)
            code, key = derived or _fresh_room()
            if derived is not None and self.backend.load_room(code) is not None:
                if self._open_and_opened_by(code, key, client.id, now):
                    return Ticket(code, key)  # this attempt's room: asked again
                continue  # another's room, or this attempt's ended one: the next code
            if not start:  # a room is opened now: one of this network's starts (given back if none is opened)
                start = f"start|{self._digest(net)}"
                wait = self.backend.take(start, now, lim.start_burst, lim.starts_per_hour / 3600.0)
                if wait < 0:
                    raise LiveError("starting_fast", minutes=_minutes(-wait))
            rec = Record(code=code, teacher_hash=_hash(key), created=now, expires=now + lim.ttl, owner=client.id,
                         beat=now)  # fmt: skip
            status, free_at = self.backend.insert_room(rec, now, caps)
            if status == OK:
                self._found(code)
                return Ticket(code, key)
            if status in ("full", "client"):
                self.backend.take(start, now, lim.start_burst, lim.starts_per_hour / 3600.0, cost=-1.0)
            if status == "full":
                raise LiveError("too_many_rooms", limit=lim.max_rooms, minutes=_minutes(free_at - now))
            if status == "client":
                raise LiveError("rooms_per_client", limit=lim.rooms_per_client)
            if derived is not None and self._open_and_opened_by(code, key, client.id, now):
                return Ticket(code, key)  # taken by a twin of this attempt that got there first
        raise LiveError("too_many_rooms", limit=lim.max_rooms, minutes=1)  # pragma: no cover - 31^6 codes

    def _open_and_opened_by(self, code: str, key: str, client: str, now: float) -> bool:
        """True when room `code` is open and was opened by `client` with `key` (an attempt's own room)."""
        rec = self.backend.load_room(code)
        return (rec is not None and not rec.ended and rec.expires > now and bool(rec.owner)
                and hmac.compare_digest(rec.owner, client) and self._key_ok(rec, key))  # fmt: skip

    def _key_ok(self, rec: Record, key: object) -> bool:
        return isinstance(key, str) and hmac.compare_digest(_hash(key), rec.teacher_hash)

    def _screen(self, rec: Record, sid: str) -> ScreenRow | None:
        return next((row for row in self.backend.get_screens(rec.code) if row[0] == sid), None)

    def _teacher(self, code: object, auth: object, roles: tuple[str, ...] = (CONSOLE,)) -> Record:
        """The room, when `auth` is its teacher key or the pass of one of its accepted screens in `roles`."""
        rec = self._record(code)
        self._check_teacher(rec, auth, roles)
        return rec

    def _check_teacher(self, rec: Record, auth: object, roles: tuple[str, ...]) -> None:
        """LiveError('not_teacher') unless `auth` is the teacher key or the pass of an accepted screen in `roles`."""
        if isinstance(auth, Pass):
            row = self._screen(rec, auth.sid)
            if row is None or not hmac.compare_digest(row[2], auth.client) or row[1] not in roles or row[3] != ACCEPTED:
                raise LiveError("not_teacher")
        elif not self._key_ok(rec, auth):
            raise LiveError("not_teacher")

    def check_teacher(self, code: object, key: object) -> str:
        """The canonical code when `key` is this room's teacher key."""
        return self._teacher(code, key).code

    def open_screen(self, code: object, role: str, client: str, key: object = None, invite: object = None,
                    sid: object = None, attempt: str = "", address: str = "") -> tuple[str, Screen]:  # fmt: skip
        """A console or projector of the room for this browser: (code, screen). With `sid` of this browser's own
        screen (a reload), that screen again; asked again with the same `attempt` (a try cut off after the store made
        the screen), the screen that attempt made, not a second one. Accepted at once when the invite is good, when this
        browser opened the room or has an accepted screen of this role, or (a console with the key) when no console is
        open; otherwise waiting for an open console. A console needs the key or an invite; a projector may just ask.
        `address`: where the request comes from (a code that names no open room, or a wrong key, is one of its
        network's missed codes)."""
        net = self.guard(address)
        rec = self._open_record(code, net)
        now, lim = self.clock(), self.limits
        if role not in (CONSOLE, PROJECTOR) or not client:
            raise LiveError("not_teacher")
        rows = self.backend.get_screens(rec.code)
        derived = _screen_for(client, rec.code, role, attempt)
        for own in (sid, derived):
            if not valid_id(own):
                continue
            mine = next((r for r in rows if r[0] == own and r[1] == role and hmac.compare_digest(r[2], client)), None)
            if mine is not None and mine[3] != REFUSED:
                self.backend.touch_screen(rec.code, mine[0], now)
                return rec.code, self._as_screen(mine, now)
        invited = valid_id(invite) and self.backend.take_invite(rec.code, _hash(str(invite)), now) == role
        has_key = key is not None and self._key_ok(rec, key)
        if key is not None and not has_key:
            self.missed(net)
            raise LiveError("not_teacher")
        if role == CONSOLE and not (has_key or invited):
            raise LiveError("not_teacher")
        open_consoles = [r for r in rows if r[1] == CONSOLE and r[3] == ACCEPTED and now - r[4] < lim.seen_window]
        known = any(r[1] == role and r[3] == ACCEPTED and hmac.compare_digest(r[2], client) for r in rows)
        accepted = invited or known or (client == rec.owner and bool(rec.owner))
        accepted = accepted or (has_key and role == CONSOLE and not open_consoles)
        if derived is not None and any(r[0] == derived for r in rows):
            derived = None  # that attempt's screen was refused: a new one
        status = ACCEPTED if accepted else WAITING
        row: ScreenRow = (derived or secrets.token_urlsafe(9), role, client, status, now, now)
        stale, gone = now - 4 * lim.seen_window, now - lim.seat_idle
        if not self.backend.put_screen(rec.code, row, lim.max_screens, rec.expires, stale, gone):
            raise LiveError("too_many_screens", limit=lim.max_screens)
        self.backend.touch_screen(rec.code, row[0], now)
        return rec.code, self._as_screen(row, now)

    def _as_screen(self, row: ScreenRow, now: float) -> Screen:
        sid, role, _, status, seen, created = row
        return Screen(sid, role, status, seen, created, now - seen < self.limits.seen_window)

    def screen_beat(self, code: object, auth: Pass) -> Screen:
        """A screen's heartbeat: its status now (an accepted one keeps the room from being abandoned). A screen that is
        gone or refused is told so (LiveError 'not_teacher' / 'refused')."""
        rec = self._record(code)
        row = self._screen(rec, auth.sid)
        if row is None or not hmac.compare_digest(row[2], auth.client):
            raise LiveError("not_teacher")
        if row[3] == REFUSED:
            raise LiveError("refused")
        now = self.clock()
        self.backend.touch_screen(rec.code, auth.sid, now)
        return self._as_screen((*row[:4], now, row[5]), now)

    def screens(self, code: object, auth: object) -> list[Screen]:
        """Every console and projector of the room, oldest first (for a console)."""
        rec = self._teacher(code, auth)
        now = self.clock()
        return sorted((self._as_screen(r, now) for r in self.backend.get_screens(rec.code)), key=lambda s: s.created)

    def decide(self, code: object, auth: object, sid: object, accept: bool) -> None:
        """An open console accepts or refuses a waiting screen, or closes an accepted one (accept False)."""
        rec = self._teacher(code, auth)
        if isinstance(auth, Pass) and sid == auth.sid:
            raise LiveError("not_teacher")  # a console does not close itself this way (it leaves)
        if not any(r[0] == sid for r in self.backend.get_screens(rec.code)):
            raise LiveError("not_teacher")
        self.backend.set_screen(rec.code, str(sid), ACCEPTED if accept else REFUSED)
        self._update(rec.code, {})  # the screens notice at their next look at the version

    def invite(self, code: object, auth: object, role: str) -> str:
        """A private link's token that opens one more screen of `role`, accepted at once: once for a console, for a
        while (invite_ttl) for a projector (the same window may be opened again)."""
        rec = self._teacher(code, auth)
        if role not in (CONSOLE, PROJECTOR):
            raise LiveError("not_teacher")
        token = secrets.token_urlsafe(12)
        uses = 1 if role == CONSOLE else 20
        self.backend.put_invite(rec.code, _hash(token), role, uses, min(self.clock() + self.limits.invite_ttl,
                                                                         rec.expires))  # fmt: skip
        return token

    # ---- the teacher's screens
    def lead(self, code: object, auth: object, state: dict[str, Any], base: dict[str, Any] | None = None) -> int:
        """What the class shows (page, settings, step, ...): a console's or a projector's. Returns the new version.
        With `base` (the state this change was made from), the change is made only if the class still shows `base`:
        two screens that move the class at once (the projector's clicker, the console) never undo each other's move
        (LiveError 'moved': read the room again)."""
        rec = self._teacher(code, auth, roles=(CONSOLE, PROJECTOR))
        text = json.dumps(state, ensure_ascii=False, sort_keys=True)
        if len(text.encode("utf-8")) > self.limits.max_state:
            raise LiveError("too_big")
        if text == rec.state:
            return rec.version
        if base is None:
            return self._update(rec.code, {"state": text})
        version = self.backend.set_state(rec.code, text, json.dumps(base, ensure_ascii=False, sort_keys=True))
        with self._recent_lock:
            self._recent.pop(rec.code, None)
        if version is None:
            raise LiveError("moved")
        return version

    def ask(self, code: object, auth: object, question: dict[str, Any], answer: Any) -> str:
        """Send a question to every student; the answer stays hidden until `reveal`. Returns its id.
        `answer`: the option index, or for a typed question (answer_type "number" or "shape", no options) its
        solution {"answer", "tolerance", "traps"} (see liveclass.typed)."""
        rec = self._teacher(code, auth)
        if isinstance(question, dict) and question.get("answer_type") in ("number", "shape"):
            fields = self._typed_fields(question, answer)
        else:
            options = question.get("options") if isinstance(question, dict) else None
            if not isinstance(options, list) or not 2 <= len(options) <= self.limits.max_options:
                raise LiveError("bad_question")
            if isinstance(answer, bool) or not (isinstance(answer, int) and 0 <= answer < len(options)):
                raise LiveError("bad_question")
            text = json.dumps(question, ensure_ascii=False, sort_keys=True)
            if len(text.encode("utf-8")) > self.limits.max_question:
                raise LiveError("too_big")
            fields = {"question": text, "answer": answer, "solution": ""}
        qid = secrets.token_hex(6)
        asked = self.backend.get_questions(rec.code)
        n = max((row[0] for row in asked), default=0) + 1
        record = json.dumps({"question": question, "answer": answer}, ensure_ascii=False, sort_keys=True)
        self.backend.put_question(rec.code, n, qid, record, self.clock(), rec.expires, self.limits.max_questions)
        self._update(rec.code, {**fields, "qid": qid, "revealed": 0})
        return qid

    def _typed_fields(self, question: dict[str, Any], solution: Any) -> dict[str, Any]:
        from . import typed

        if question.get("options"):
            raise LiveError("bad_question")
        q = typed.as_quiz(question, solution)
        hint = question.get("tolerance", q.tolerance)
        if hint != q.tolerance:  # the students read the tolerance they are graded with
            raise LiveError("bad_question")
        text = json.dumps(question, ensure_ascii=False, sort_keys=True)
        hidden = json.dumps(solution, ensure_ascii=False, sort_keys=True)
        if len(text.encode("utf-8")) + len(hidden.encode("utf-8")) > self.limits.max_question:
            raise LiveError("too_big")
        return {"question": text, "answer": -1, "solution": hidden}

    def _quiz(self, rec: Record) -> Any:
        """The quiz Question of the room's typed question (None for a multiple-choice one)."""
        if not rec.solution:
            return None
        from . import typed

        return typed.as_quiz(json.loads(rec.question), json.loads(rec.solution))

    def reveal(self, code: object, auth: object) -> None:
        rec = self._teacher(code, auth)
        if not rec.qid:
            raise LiveError("no_question")
        self._update(rec.code, {"revealed": 1})

    def close(self, code: object, auth: object) -> None:
        """The question leaves every screen (its answers stay, for the CSV); answering it is over."""
        rec = self._teacher(code, auth)
        if not rec.qid:
            raise LiveError("no_question")
        self._update(rec.code, {"question": "", "qid": "", "answer": -1, "revealed": 0, "solution": ""})

    def end(self, code: object, auth: object) -> None:
        rec = self._teacher(code, auth)
        self._update(rec.code, {"ended": 1})

    # ---- deleting (liveclass/privacy.py: what is kept, and for how long)
    @property
    def retention(self) -> float:
        """Seconds after a room was opened by which everything of it is deleted (its ttl and the grace)."""
        return self.limits.ttl + GRACE

    def delete(self, code: object, auth: object) -> None:
        """Delete the room and everything in it at once: its seats, the answers with their nicknames, its questions,
        screens and invites, the browsers and networks it removed, its token buckets, the teacher key's hash. The
        teacher key or an accepted console's pass; an ended or expired room too (the teacher ends the class, downloads
        the answers, then deletes it). A room that is not in the store is no error. Students' pages then hear that there
        is no such class."""
        code = normalise_code(code)
        rec = self.backend.load_room(code)
        if rec is None:
            return
        self._check_teacher(rec, auth, (CONSOLE,))
        self.backend.delete_room(code)
        with self._recent_lock:  # this process's memos of the room: nothing of it stays here either
            self._recent.pop(code, None)
            self._known.pop(code, None)
            for beat in [b for b in self._beats if b[0] == code]:
                del self._beats[beat]
            for turn in [t for t in self._turns if t[0] == code]:
                del self._turns[turn]

    def sweep(self) -> int:
        """Delete every room that expired more than the grace ago, and everything in it (the rooms' own expiry does
        it in Redis; this clears what is left). Returns how many rooms went. liveclass.privacy.start_sweeper calls
        it every few minutes."""
        now = self.clock()
        return self.backend.purge(now - GRACE, now)

    def presence(self, code: object, auth: object) -> Presence:
        rec = self._teacher(code, auth)
        return Presence(*self.backend.presence(rec.code, self.clock() - self.limits.seen_window))

    def asked(self, code: object, auth: object) -> list[Asked]:
        """Every question the room was asked (at most max_questions, the latest), in order."""
        rec = self._teacher(code, auth)
        out = []
        for n, qid, text, at in sorted(self.backend.get_questions(rec.code)):
            data = json.loads(text)
            out.append(Asked(qid, data["question"], data["answer"], at, n))
        return out

    def answers(self, code: object, auth: object, asked: Asked | None = None) -> list[Answer]:
        """Every answer to the current question (or to `asked`, one of `asked()`), one per student, oldest first;
        typed answers graded (the teacher's view: before the reveal too)."""
        rec = self._teacher(code, auth)
        qid = asked.qid if asked is not None else rec.qid
        if not qid:
            return []
        rows = self.backend.get_answers(rec.code, qid)
        if asked is not None:
            q = None
            if isinstance(asked.question, dict) and asked.question.get("answer_type") in ("number", "shape"):
                from . import typed

                q = typed.as_quiz(asked.question, asked.answer)
        else:
            q = self._quiz(rec)
        if q is None:
            answers = (Answer(*row[:4]) for row in rows)
        else:
            from . import typed

            answers = (Answer(sid, choice, nick, at, v, typed.grade(q, v) if v is not None else False, t)
                       for sid, choice, nick, at, raw in rows for v, t in [typed.decode(raw)])  # fmt: skip
        return sorted(answers, key=lambda a: (a.at, a.sid))

    def typed_tally(self, code: object, auth: object = None) -> list[Any] | None:
        """A typed question's histogram (liveclass.typed.Bar, most frequent first, at most typed.TOP bars): for the
        teacher at any time, for everyone once revealed (None before that, or for a multiple-choice question)."""
        from . import typed

        rec = self._record(code) if auth is None else self._teacher(code, auth)
        q = self._quiz(rec) if rec.qid else None
        if q is None or (auth is None and not rec.revealed):
            return None
        rows = sorted(self.backend.get_answers(rec.code, rec.qid), key=lambda row: (row[3], row[0]))  # oldest first
        given = [typed.decode(row[4]) for row in rows]
        given = [(v, t) for v, t in given if v is not None]
        return typed.histogram(q, [v for v, _ in given], [t for _, t in given])

    def tally(self, code: object, auth: object = None) -> list[int] | None:
        """Answers per option of the current question: for the teacher at any time, for everyone once revealed
        (None before that, or when there is no question)."""
        rec = self._record(code) if auth is None else self._teacher(code, auth)
        if not rec.qid or (auth is None and not rec.revealed):
            return None
        counts = [0] * len(json.loads(rec.question).get("options", []))
        for _, choice, *_ in self.backend.get_answers(rec.code, rec.qid):
            if 0 <= choice < len(counts):
                counts[choice] += 1
        return counts

    # ---- students
    def join(self, code: object, sid: object = None, client: Client = Client(), attempt: str = "",
             queue: float = 0.0, on_wait: Callable[[float], None] = time.sleep) -> tuple[str, str]:  # fmt: skip
        """(canonical code, seat id). This browser's own seat again (a reload, `me=` in its link); another browser's
        id gets a seat of its own. Refused when the room is full (its size, seats of students gone for seat_idle are
        given back first), locked, or removed this browser or its network, or when this browser holds as many seats
        as it may. A code that names no open room answers alike whatever the reason (and is a missed code).

        A new seat is one of its network's joins of this room (Limits.join_burst, then joins_per_minute): beyond them
        the join waits its turn when that comes within `queue` seconds (`on_wait(seconds)` is called, which waits;
        the app says so meanwhile), else it is refused and told when to try again (LiveError 'joining_fast').

        `attempt` names one try of a known browser to join (the app passes its session's id): asked again with the
        same attempt, the store gives the seat it made the first time, so a try that was cut off after the store said
        yes (a page run stopped half-way) does not leave a second seat behind. That seat's id is derived from the
        browser's own id, which no other browser knows, so no one can take it by replaying a link."""
        try:
            net = self.guard(client.address)
        except LiveError:  # a network that waits: its students already in (a reload, another server) still come back
            back = self._own_seat(code, sid, client, attempt)  # their seat's id is a secret no guesser has
            if back is None:
                raise
            return back
        rec = self._open_record(code, net)
        back = self._own_seat(rec.code, sid, client, attempt, rec)
        if back is not None:
            return back
        lim, now = self.limits, self.clock()
        with self._recent_lock:  # this attempt's turn, taken by a try that was cut off: the same turn
            turn = self._turns.get((rec.code, client.id, attempt)) if attempt else None
        if turn is None:
            wait = self.backend.take(room_bucket(rec.code, self._digest(net)), now, lim.join_burst,
                                     lim.joins_per_minute / 60.0, queue)  # fmt: skip
            if wait < 0:
                raise LiveError("joining_fast", seconds=_seconds(-wait))
            turn = now + wait
            if attempt:
                with self._recent_lock:
                    if len(self._turns) >= MAX_BEATS:
                        self._turns.clear()
                    self._turns[(rec.code, client.id, attempt)] = turn
        wait = turn - now
        if wait > 0:
            on_wait(wait)
        now = self.clock()
        network = self._digest(net)
        bans = (f"c:{client.id}",) * bool(client.id) + (f"n:{network}",)
        caps = SeatCaps(self._size(rec), lim.seats_per_client if client.id else 0, now - lim.seat_idle, bans)
        new = _seat_for(client.id, rec.code, attempt) or secrets.token_urlsafe(12)
        status = self.backend.add_student(rec.code, new, now, rec.expires, client.id, network, caps)
        if status == "full":
            raise LiveError("room_full", limit=self._size(self._record(rec.code)))
        if status == "locked":
            raise LiveError("locked", room=rec.code)
        if status == "banned":
            raise LiveError("removed", room=rec.code)
        if status == "client":
            raise LiveError("seats_per_client", limit=lim.seats_per_client)
        return rec.code, new

    def _own_seat(self, code: object, sid: object, client: Client, attempt: str,
                  rec: Record | None = None) -> tuple[str, str] | None:  # fmt: skip
        """(code, seat) when this browser already holds a seat of the open room `code` (its record `rec`, when read
        already): the one in its link, or its attempt's; None otherwise (and for a code that names no open room: no
        missed code is counted here)."""
        if rec is None:
            try:
                rec = self._record(code)
            except LiveError:
                return None
        for mine in (sid, _seat_for(client.id, rec.code, attempt)):
            if valid_id(mine):
                owner = self.backend.student_client(rec.code, str(mine))
                if owner is not None and hmac.compare_digest(owner, client.id):
                    return rec.code, str(mine)
        return None

    # ---- the teacher's seat tools
    def configure(self, code: object, auth: object, size: int | None = None, locked: bool | None = None) -> Room:
        """The room's size (1 to max_students; a smaller size than the seats held only stops new seats) and its lock,
        from a console. Returns the room."""
        rec = self._teacher(code, auth)
        fields: dict[str, Any] = {}
        if size is not None:
            if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= self.limits.max_students:
                raise LiveError("bad_size", limit=self.limits.max_students)
            fields["size"] = size
        if locked is not None:
            fields["locked"] = int(bool(locked))
        if fields:
            self._update(rec.code, fields)
        return self.room(rec.code)

    def seats(self, code: object, auth: object, viewer: str = "") -> list[Seat]:
        """Every seat of the room, in the order they joined, for a console at address `viewer`."""
        rec = self._teacher(code, auth)
        rows = sorted(self.backend.get_students(rec.code), key=lambda r: (r[1], r[0]))
        nicknames: dict[str, str] = {}
        asked = self.backend.get_questions(rec.code)
        for qid in dict.fromkeys(([rec.qid] if rec.qid else []) + [row[1] for row in reversed(asked)][:1]):
            for sid, _, nick, _, _ in self.backend.get_answers(rec.code, qid):
                if nick and sid not in nicknames:
                    nicknames[sid] = nick
        networks = {self.network(viewer): 0}
        out, now = [], self.clock()
        for n, (sid, joined, seen, following, _, digest) in enumerate(rows, start=1):
            network = networks.setdefault(digest, len(networks))
            connected = now - seen < self.limits.seen_window
            out.append(Seat(sid, n, joined, seen, connected, connected and following, nicknames.get(sid, ""), network))
        return out

    def remove(self, code: object, auth: object, sids: list[str], networks: bool = False, viewer: str = "") -> int:
        """Remove seats (and their answers): their browsers cannot join this room again; with `networks`, neither can
        anyone of their networks, and every seat of those networks goes too, except the network of the console at
        `viewer` (a hostile student in the teacher's own school does not take the class with them). Returns the seats
        removed."""
        rec = self._teacher(code, auth)
        rows = self.backend.get_students(rec.code)
        chosen = {str(s) for s in sids if valid_id(s)}
        nets = {digest for sid, _, _, _, _, digest in rows if sid in chosen} if networks else set()
        nets.discard(self.network(viewer))
        if nets:  # first, so that no one of those networks joins meanwhile; then every seat they hold goes
            self.backend.ban(rec.code, sorted(f"n:{net}" for net in nets), rec.expires)
            rows = self.backend.get_students(rec.code)
        gone = sorted(sid for sid, _, _, _, _, digest in rows if sid in chosen or digest in nets)
        browsers = sorted({f"c:{client}" for sid, _, _, _, client, _ in rows if sid in gone and client})
        if browsers:
            self.backend.ban(rec.code, browsers, rec.expires)
        removed = self.backend.remove_students(rec.code, gone) if gone else 0
        if removed:
            self._update(rec.code, {})  # the tallies move: every screen reads the room again
        return removed

    def _student(self, code: object, sid: object, client: str) -> Record:
        rec = self._record(code)
        owner = self.backend.student_client(rec.code, str(sid)) if valid_id(sid) else None
        if owner is None or not hmac.compare_digest(owner, client):
            raise LiveError("not_joined")
        return rec

    def heartbeat(self, code: object, sid: object, following: bool, every: float = 0.0) -> bool:
        """A student is here (and following or not); False when the seat is gone (given back after a long absence:
        join again). With `every`, a heartbeat of the same seat, following or exploring as this one says, that this
        process wrote less than `every` seconds ago stands for this one: a following phone's polls (liveclass/http.py)
        and its page's runs (classroom.follower.bar) share one write per beat; a change to or from following is
        written at once."""
        code = normalise_code(code)
        if not valid_id(sid):
            raise LiveError("not_joined")
        if every > 0 and self.recent_beat(code, str(sid), following, every):
            return True
        held = self.backend.touch(code, str(sid), self.clock(), bool(following))
        if held:
            with self._recent_lock:
                if len(self._beats) >= MAX_BEATS:  # bounded: only a memo (the next heartbeats are written again)
                    self._beats.clear()
                self._beats[(code, str(sid), bool(following))] = time.monotonic()
        return held

    def recent_beat(self, code: str, sid: str, following: bool, every: float) -> bool:
        """True when this process wrote the heartbeat of seat `sid` of room `code`, with the same `following`, less
        than `every` seconds ago (no store, no wait)."""
        with self._recent_lock:
            written = self._beats.get((code, sid, bool(following)))
        return written is not None and time.monotonic() - written < every

    def mine(self, code: object, sid: object, client: str = "") -> Answer | None:
        """A student's own answer to the current question (after a reload too); graded only once revealed."""
        rec = self._student(code, sid, client)
        if not rec.qid:
            return None
        rows = [row for row in self.backend.get_answers(rec.code, rec.qid) if row[0] == sid]
        if not rows:
            return None
        sid_, choice, nick, at, raw = rows[0]
        q = self._quiz(rec)
        if q is None:
            return Answer(sid_, choice, nick, at)
        from . import typed

        value, text = typed.decode(raw)
        right = typed.grade(q, value) if rec.revealed and value is not None else None
        return Answer(sid_, choice, nick, at, value, right, text)

    def submit(self, code: object, sid: object, qid: object, choice: object, nickname: object = "",
               client: str = "") -> None:  # fmt: skip
        """A student's answer to the current question: the option index, or for a typed question the typed text
        (or value), validated here; sending again replaces it (counted once). Only the browser that holds the seat."""
        rec = self._student(code, sid, client)
        if not rec.qid or qid != rec.qid:
            raise LiveError("no_question")
        if rec.revealed:
            raise LiveError("closed")
        q = self._quiz(rec)
        if q is not None:
            from . import typed

            value = typed.read(q.answer_type, choice, self.limits.max_answer)
            nick = clean_nickname(nickname, self.limits.max_nickname)
            self.backend.put_answer(rec.code, rec.qid, str(sid), -1, nick, self.clock(), rec.expires,
                                    typed.encode(value, choice))  # fmt: skip
            return
        n_options = len(json.loads(rec.question).get("options", []))
        if isinstance(choice, bool) or not isinstance(choice, int) or not 0 <= choice < n_options:
            raise LiveError("bad_choice")
        nick = clean_nickname(nickname, self.limits.max_nickname)
        self.backend.put_answer(rec.code, rec.qid, str(sid), choice, nick, self.clock(), rec.expires)


__all__ = [
    "ACCEPTED", "ALPHABET", "CLOSED", "CODE_LEN", "CONSOLE", "PROJECTOR", "REFUSED", "WAITING", "Answer", "Asked",
    "Backend", "Client", "Limits", "LiveError", "Pass", "Presence", "Record", "Room", "RoomCaps", "Rooms", "Screen",
    "Seat", "SeatCaps", "StoreUnavailable", "StudentRow", "Ticket", "clean_nickname", "normalise_code", "valid_id",
]  # fmt: skip
