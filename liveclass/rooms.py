"""The rules of a live class, in one place: who may change a room, what a student may send, the limits.

`Rooms` sits on a backend (SQLite or Redis, same primitives) and knows nothing of pages: it takes and gives
plain strings, ints and dicts. Every refusal is a `LiveError` whose `code` names a translated message
(`live.err.<code>`); a backend that cannot be reached raises `StoreUnavailable`.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import threading
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

# No 0/O, 1/I/L, no vowels-only confusion: what a student reads off a projector and types on a phone.
ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LEN = 6


@dataclass(frozen=True)
class Limits:
    max_rooms: int = 200  # open rooms in one store
    max_students: int = 300  # per room
    max_nickname: int = 24  # characters
    max_state: int = 16 * 1024  # bytes of the teacher's state
    max_question: int = 16 * 1024  # bytes of one serialised question
    max_options: int = 12
    max_answer: int = 40  # characters of a typed answer (a number or a shape)
    ttl: float = 12 * 3600.0  # a room expires this long after it was opened
    seen_window: float = 15.0  # a student is connected while their last heartbeat is this recent


class LiveError(ValueError):
    """A refused request; `code` names the translated message `live.err.<code>`, `params` fill it."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code, self.params = code, params


class StoreUnavailable(LiveError):
    """The room store did not answer in time (Redis down, database locked): the app works on its own."""

    def __init__(self) -> None:
        super().__init__("store_down")


@dataclass(frozen=True)
class Ticket:
    """What the teacher gets once: the join code and the teacher key (never stored, only its hash)."""

    code: str
    key: str


@dataclass(frozen=True)
class Room:
    """What anyone in the room may see. `answer` is None until the teacher reveals the question: then the option
    index, or for a typed question the value (a number or a list of dimensions) and `solution` (the value, its
    tolerance and the known slips, liveclass.typed.as_quiz reads it)."""

    code: str
    version: int
    state: dict[str, Any]
    question: dict[str, Any] | None
    qid: str
    revealed: bool
    answer: Any
    expires: float
    solution: dict[str, Any] | None = None


@dataclass(frozen=True)
class Presence:
    joined: int  # students who ever joined (the room's limit counts these)
    connected: int  # heartbeat within the window
    following: int  # connected and following the teacher


@dataclass(frozen=True)
class Answer:
    """One student's answer: `choice` the option index (-1 for a typed answer, whose `value` is the number or the
    dimensions and `right` its grade by the quiz's check)."""

    sid: str
    choice: int
    nickname: str
    at: float
    value: Any = None
    right: bool | None = None


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
    extra: dict[str, Any] = field(default_factory=dict)


class Backend(Protocol):
    """Storage primitives; each call is one short, atomic operation with a fast timeout."""

    def ping(self) -> None: ...
    def insert_room(self, rec: Record, now: float, max_rooms: int) -> bool: ...  # False: code taken
    def load_room(self, code: str) -> Record | None: ...
    def load_version(self, code: str) -> tuple[int, int, float] | None: ...  # (version, ended, expires)
    def update_room(self, code: str, fields: dict[str, Any]) -> int: ...  # bumps and returns the version
    def add_student(self, code: str, sid: str, now: float, max_students: int, expires: float) -> bool: ...
    def has_student(self, code: str, sid: str) -> bool: ...
    def touch(self, code: str, sid: str, now: float, following: bool) -> None: ...
    def presence(self, code: str, since: float) -> tuple[int, int, int]: ...
    def put_answer(self, code: str, qid: str, sid: str, choice: int, nickname: str, now: float,
                   expires: float, value: str = "") -> None: ...  # fmt: skip
    def get_answers(self, code: str, qid: str) -> list[tuple[str, int, str, float, str]]: ...


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


def _valid_sid(sid: object) -> bool:
    return isinstance(sid, str) and 8 <= len(sid) <= 64 and sid.isascii() and all(c.isalnum() or c in "-_" for c in sid)


class Rooms:
    """The room store's interface: create/lead/ask/reveal/end for the teacher, join/heartbeat/submit for students."""

    def __init__(self, backend: Backend, limits: Limits | None = None, clock: Callable[[], float] = time.time) -> None:
        self.backend, self.limits, self.clock = backend, limits or Limits(), clock
        self._recent: dict[str, tuple[float, int]] = {}  # code -> (monotonic time read, version): version(max_age)
        self._recent_lock = threading.Lock()
        self._known: dict[str, None] = {}  # codes this process has found in the store, oldest first (bounded)

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
                    answer if rec.revealed else None, rec.expires, solution)  # fmt: skip

    def version(self, code: object, max_age: float = 0.0) -> int:
        """The room's version: the cheap call a follower polls. Raises when the room is gone.
        With `max_age`, a version this process read less than max_age seconds ago is answered without the store:
        the students of one server process poll the same room every second, and one read serves them all (a change
        made through this process is seen at once; one made through another process at most max_age later)."""
        code = normalise_code(code)
        now = time.monotonic()
        if max_age > 0:
            with self._recent_lock:
                seen = self._recent.get(code)
            if seen is not None and now - seen[0] < max_age:
                return seen[1]
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

    # ---- the teacher
    def create(self) -> Ticket:
        """Open a room: a fresh join code and the teacher key (shown once; only its hash is kept)."""
        now = self.clock()
        key = secrets.token_urlsafe(12)
        for _ in range(20):
            code = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LEN))
            rec = Record(code=code, teacher_hash=_hash(key), created=now, expires=now + self.limits.ttl)
            if self.backend.insert_room(rec, now, self.limits.max_rooms):
                self._found(code)
                return Ticket(code, key)
        raise LiveError("too_many_rooms", limit=self.limits.max_rooms)  # pragma: no cover - 31^6 codes

    def _teacher(self, code: object, key: object) -> Record:
        rec = self._record(code)
        if not isinstance(key, str) or not hmac.compare_digest(_hash(key), rec.teacher_hash):
            raise LiveError("not_teacher")
        return rec

    def check_teacher(self, code: object, key: object) -> str:
        """The canonical code when `key` is this room's teacher key (a reload takes the room back)."""
        return self._teacher(code, key).code

    def lead(self, code: object, key: object, state: dict[str, Any]) -> int:
        """The teacher's page, settings and step; students follow it. Returns the new version."""
        rec = self._teacher(code, key)
        text = json.dumps(state, ensure_ascii=False, sort_keys=True)
        if len(text.encode("utf-8")) > self.limits.max_state:
            raise LiveError("too_big")
        if text == rec.state:
            return rec.version
        return self._update(rec.code, {"state": text})

    def ask(self, code: object, key: object, question: dict[str, Any], answer: Any) -> str:
        """Send a question to every student; the answer stays hidden until `reveal`. Returns its id.
        `answer`: the option index, or for a typed question (answer_type "number" or "shape", no options) its
        solution {"answer", "tolerance", "traps"} (see liveclass.typed)."""
        rec = self._teacher(code, key)
        if isinstance(question, dict) and question.get("answer_type") in ("number", "shape"):
            return self._ask_typed(rec, question, answer)
        options = question.get("options")
        if not isinstance(options, list) or not 2 <= len(options) <= self.limits.max_options:
            raise LiveError("bad_question")
        if not (isinstance(answer, int) and 0 <= answer < len(options)):
            raise LiveError("bad_question")
        text = json.dumps(question, ensure_ascii=False, sort_keys=True)
        if len(text.encode("utf-8")) > self.limits.max_question:
            raise LiveError("too_big")
        qid = secrets.token_hex(6)
        self._update(rec.code, {"question": text, "qid": qid, "answer": answer, "revealed": 0, "solution": ""})
        return qid

    def _ask_typed(self, rec: Record, question: dict[str, Any], solution: Any) -> str:
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
        qid = secrets.token_hex(6)
        self._update(rec.code, {"question": text, "qid": qid, "answer": -1, "revealed": 0, "solution": hidden})
        return qid

    def _quiz(self, rec: Record) -> Any:
        """The quiz Question of the room's typed question (None for a multiple-choice one)."""
        if not rec.solution:
            return None
        from . import typed

        return typed.as_quiz(json.loads(rec.question), json.loads(rec.solution))

    def reveal(self, code: object, key: object) -> None:
        rec = self._teacher(code, key)
        if not rec.qid:
            raise LiveError("no_question")
        self._update(rec.code, {"revealed": 1})

    def end(self, code: object, key: object) -> None:
        rec = self._teacher(code, key)
        self._update(rec.code, {"ended": 1})

    def presence(self, code: object, key: object) -> Presence:
        rec = self._teacher(code, key)
        return Presence(*self.backend.presence(rec.code, self.clock() - self.limits.seen_window))

    def answers(self, code: object, key: object) -> list[Answer]:
        """Every answer to the current question (one per student), oldest first."""
        rec = self._teacher(code, key)
        if not rec.qid:
            return []
        rows = self.backend.get_answers(rec.code, rec.qid)
        q = self._quiz(rec)
        if q is None:
            answers = (Answer(*row[:4]) for row in rows)
        else:
            from . import typed

            answers = (Answer(sid, choice, nick, at, v, typed.grade(q, v) if v is not None else False)
                       for sid, choice, nick, at, text in rows for v in [typed.decode(text)])  # fmt: skip
        return sorted(answers, key=lambda a: (a.at, a.sid))

    def typed_tally(self, code: object, key: object = None) -> list[Any] | None:
        """A typed question's histogram (liveclass.typed.Bar, most frequent first, at most typed.TOP bars): for the
        teacher at any time, for everyone once revealed (None before that, or for a multiple-choice question)."""
        from . import typed

        rec = self._record(code) if key is None else self._teacher(code, key)
        q = self._quiz(rec) if rec.qid else None
        if q is None or (key is None and not rec.revealed):
            return None
        values = [typed.decode(row[4]) for row in self.backend.get_answers(rec.code, rec.qid)]
        return typed.histogram(q, [v for v in values if v is not None])

    def tally(self, code: object, key: object = None) -> list[int] | None:
        """Answers per option of the current question: for the teacher at any time, for everyone once revealed
        (None before that, or when there is no question)."""
        rec = self._record(code) if key is None else self._teacher(code, key)
        if not rec.qid or (key is None and not rec.revealed):
            return None
        counts = [0] * len(json.loads(rec.question).get("options", []))
        for _, choice, *_ in self.backend.get_answers(rec.code, rec.qid):
            if 0 <= choice < len(counts):
                counts[choice] += 1
        return counts

    # ---- students
    def mine(self, code: object, sid: object) -> Answer | None:
        """A student's own answer to the current question (after a reload too); graded only once revealed."""
        rec = self._student(code, sid)
        if not rec.qid:
            return None
        rows = [row for row in self.backend.get_answers(rec.code, rec.qid) if row[0] == sid]
        if not rows:
            return None
        sid_, choice, nick, at, text = rows[0]
        q = self._quiz(rec)
        if q is None:
            return Answer(sid_, choice, nick, at)
        from . import typed

        value = typed.decode(text)
        right = typed.grade(q, value) if rec.revealed and value is not None else None
        return Answer(sid_, choice, nick, at, value, right)

    def join(self, code: object, sid: object = None) -> tuple[str, str]:
        """(canonical code, student id). A known id (a reload) joins again without counting twice."""
        rec = self._record(code)
        if _valid_sid(sid) and self.backend.has_student(rec.code, str(sid)):
            return rec.code, str(sid)
        new = secrets.token_urlsafe(12)
        if not self.backend.add_student(rec.code, new, self.clock(), self.limits.max_students, rec.expires):
            raise LiveError("room_full", limit=self.limits.max_students)
        return rec.code, new

    def _student(self, code: object, sid: object) -> Record:
        rec = self._record(code)
        if not _valid_sid(sid) or not self.backend.has_student(rec.code, str(sid)):
            raise LiveError("not_joined")
        return rec

    def heartbeat(self, code: object, sid: object, following: bool) -> None:
        code = normalise_code(code)
        if not _valid_sid(sid):
            raise LiveError("not_joined")
        self.backend.touch(code, str(sid), self.clock(), bool(following))

    def submit(self, code: object, sid: object, qid: object, choice: object, nickname: object = "") -> None:
        """A student's answer to the current question: the option index, or for a typed question the typed text
        (or value), validated here; sending again replaces it (counted once)."""
        rec = self._student(code, sid)
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
                                    typed.encode(value))  # fmt: skip
            return
        n_options = len(json.loads(rec.question).get("options", []))
        if isinstance(choice, bool) or not isinstance(choice, int) or not 0 <= choice < n_options:
            raise LiveError("bad_choice")
        nick = clean_nickname(nickname, self.limits.max_nickname)
        self.backend.put_answer(rec.code, rec.qid, str(sid), choice, nick, self.clock(), rec.expires)
