"""Rooms in one SQLite file (the default): no set-up, survives a restart, shared by every server process on
the machine (WAL: readers never wait for the writer). Connections are reused from a small pool (Streamlit runs
every script run in a new thread: a connection per thread opened one, with its PRAGMAs, on every run of every
student's timer, a tenth of the server's time in a follow of 60 students); every call is short and
gives up after `timeout` seconds instead of waiting on a lock. The timeout is 2 s, not Redis's 0.5 s: a lock is
only ever held for one short transaction, but with 60 students joining at once through two processes a holder
may wait for its process's GIL, and 0.5 s turned some joins into "store unavailable" (bench/live_class.py)."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

try:
    import fcntl
except ImportError:  # pragma: no cover - not on Linux or macOS
    fcntl = None  # type: ignore[assignment]

from .errors import StoreUnavailable
from .rooms import Record, RoomCaps, ScreenRow, SeatCaps, StudentRow, room_bucket

SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY, teacher_hash TEXT NOT NULL, created REAL NOT NULL, expires REAL NOT NULL,
    ended INTEGER NOT NULL DEFAULT 0, version INTEGER NOT NULL DEFAULT 0, state TEXT NOT NULL DEFAULT '{}',
    question TEXT NOT NULL DEFAULT '', qid TEXT NOT NULL DEFAULT '', answer INTEGER NOT NULL DEFAULT -1,
    revealed INTEGER NOT NULL DEFAULT 0, solution TEXT NOT NULL DEFAULT '', owner TEXT NOT NULL DEFAULT '',
    address TEXT NOT NULL DEFAULT '', beat REAL NOT NULL DEFAULT 0, size INTEGER NOT NULL DEFAULT 0,
    locked INTEGER NOT NULL DEFAULT 0, joined INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS students (
    code TEXT NOT NULL, sid TEXT NOT NULL, joined REAL NOT NULL, seen REAL NOT NULL,
    following INTEGER NOT NULL DEFAULT 1, client TEXT NOT NULL DEFAULT '', address TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (code, sid));
CREATE TABLE IF NOT EXISTS answers (
    code TEXT NOT NULL, qid TEXT NOT NULL, sid TEXT NOT NULL, choice INTEGER NOT NULL, nickname TEXT NOT NULL,
    at REAL NOT NULL, value TEXT NOT NULL DEFAULT '', PRIMARY KEY (code, qid, sid));
CREATE TABLE IF NOT EXISTS screens (
    code TEXT NOT NULL, sid TEXT NOT NULL, role TEXT NOT NULL, client TEXT NOT NULL, status TEXT NOT NULL,
    seen REAL NOT NULL, created REAL NOT NULL, PRIMARY KEY (code, sid));
CREATE TABLE IF NOT EXISTS invites (
    code TEXT NOT NULL, token TEXT NOT NULL, role TEXT NOT NULL, uses INTEGER NOT NULL, until REAL NOT NULL,
    PRIMARY KEY (code, token));
CREATE TABLE IF NOT EXISTS questions (
    code TEXT NOT NULL, n INTEGER NOT NULL, qid TEXT NOT NULL, body TEXT NOT NULL, at REAL NOT NULL,
    PRIMARY KEY (code, n));
CREATE TABLE IF NOT EXISTS banned (code TEXT NOT NULL, who TEXT NOT NULL, PRIMARY KEY (code, who));
CREATE TABLE IF NOT EXISTS buckets (
    key TEXT PRIMARY KEY, tokens REAL NOT NULL, at REAL NOT NULL, full_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS secret (one INTEGER PRIMARY KEY CHECK (one = 1), value TEXT NOT NULL);
"""
# Columns added since the first schema: a file made by an older version gets them when it is opened.
ADDED = (("rooms", "solution", "TEXT NOT NULL DEFAULT ''"), ("answers", "value", "TEXT NOT NULL DEFAULT ''"),
         ("rooms", "owner", "TEXT NOT NULL DEFAULT ''"), ("rooms", "address", "TEXT NOT NULL DEFAULT ''"),
         ("rooms", "beat", "REAL NOT NULL DEFAULT 0"), ("students", "client", "TEXT NOT NULL DEFAULT ''"),
         ("students", "address", "TEXT NOT NULL DEFAULT ''"), ("rooms", "size", "INTEGER NOT NULL DEFAULT 0"),
         ("rooms", "locked", "INTEGER NOT NULL DEFAULT 0"),
         ("rooms", "joined", "INTEGER NOT NULL DEFAULT 0"))  # fmt: skip
SWEEP_BUCKETS = 500  # takes between two sweeps of the full token buckets (besides each new room's)
CHECK_EVERY = 1.0  # seconds between two looks at whether the file at the path is still the one this process opened
LINE_SECONDS = 5.0  # the longest a write waits for this process's other writers (they hold the line for milliseconds)
UPDATABLE = {"state", "question", "qid", "answer", "revealed", "ended", "solution", "size", "locked"}
ROOMS = ("code, teacher_hash, created, expires, ended, version, state, question, qid, answer, revealed, solution,"
         " owner, address, beat, size, locked, joined")  # fmt: skip
GONE = ("answers", "students", "screens", "invites", "questions", "banned")  # a room's rows in other tables


def default_path() -> Path:
    """`MHA_LIVE_DB`, else a file in the system's temporary folder (writable by a non-root container user)."""
    return Path(os.environ.get("MHA_LIVE_DB") or Path(tempfile.gettempdir()) / "mha-explorer-live.sqlite3")


@contextlib.contextmanager
def _folder_lock(path: str) -> Iterator[None]:
    """The store's folder locked against the other processes of this app while one of them makes or mends the file
    (an advisory lock on the folder itself: no file of its own; none where the system has no fcntl)."""
    if fcntl is None:  # pragma: no cover - not on Linux or macOS
        yield
        return
    fd = os.open(os.path.dirname(os.path.abspath(path)) or ".", os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


# How a process mends the store when its file was removed or replaced (`SqliteBackend._rescue`): what it still reads
# from the file it opened goes into the file now at the path. A room keeps the newer of its two versions; any other
# row the new file already has stays as it is (it is newer: written there since).
MERGE = {"rooms": "ON CONFLICT (code) DO UPDATE SET {sets} WHERE excluded.version > rooms.version"}


class SqliteBackend:
    """The store in one SQLite file. The file is checked once a second (`CHECK_EVERY`): when it was removed or replaced
    (a cleaner of the temporary folder, a copy put in its place), this process writes what it holds into the file now
    at the path (made when missing) and goes on there, so nothing a student was told was sent is lost, and every other
    process on the path sees the same rooms again; when that cannot be done (the folder is gone), the store is down."""

    def __init__(self, path: str | Path | None = None, timeout: float = 2.0) -> None:
        self.path, self.timeout = str(path or default_path()), timeout
        self._idle: list[tuple[int, sqlite3.Connection]] = []  # connections not in a transaction, at most MAX_IDLE
        self._lock = threading.Lock()
        # One writer of this process at a time waits here, in line, instead of in SQLite's busy handler, which
        # sleeps and polls: with 60 students joining at once the lock's holder waited for the GIL between polls of
        # the others, and some joins ran out of time. Writers of other processes still meet in SQLite.
        self._writer = threading.Lock()
        self._generation = 0  # the file's: connections to a file the path no longer names are not given back
        self._check_lock = threading.Lock()
        self._next_check = time.monotonic() + CHECK_EVERY
        self._anchor: sqlite3.Connection | None = None  # open on this process's file: what it holds, readable
        self._takes = 0  # token buckets taken from (every SWEEP_BUCKETS-th sweeps the full ones away)
        try:
            self._open_file()
        except (sqlite3.Error, OSError):
            raise StoreUnavailable() from None

    MAX_IDLE = 8  # more threads than this at once open a connection of their own and close it after

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA secure_delete=ON")  # a deleted row's bytes are overwritten, not left in a free page
        return db

    def _stat(self, suffix: str = "") -> tuple[int, int] | None:
        """(device, inode) of the file at the path (or its -wal, -shm), None when there is none."""
        try:
            st = os.stat(self.path + suffix)
        except FileNotFoundError:
            return None
        return st.st_dev, st.st_ino

    def _prepare(self) -> None:
        """Under the folder's lock: the file at the path, made when missing (without the -wal and -shm of a removed one,
        which another process may still write to: SQLite would take them for the new file's), with every table."""
        if self._stat() is None:
            for suffix in ("-wal", "-shm"):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(self.path + suffix)  # the name only: a process that has them open keeps them
        db = self._connect()
        try:
            db.executescript(SCHEMA)
            for table, column, decl in ADDED:
                if column not in {row[1] for row in db.execute(f"PRAGMA table_info({table})")}:
                    db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {decl}")
        finally:
            db.close()

    def _open_file(self) -> None:
        with _folder_lock(self.path):
            self._prepare()
            anchor = self._connect()
            anchor.execute("SELECT COUNT(*) FROM rooms").fetchone()  # from now on it holds the file's -wal open
            self._files = (self._stat(), self._stat("-wal"), self._stat("-shm"))
        self._anchor = anchor

    def _check(self) -> None:
        """Once a second: is the file at the path still this process's? If not, mend (`_rescue`)."""
        if time.monotonic() < self._next_check:
            return
        with self._check_lock:
            if time.monotonic() < self._next_check:
                return
            self._next_check = time.monotonic() + CHECK_EVERY / 2  # a failed mend is tried again soon, not at once
            try:
                moved = self._stat() != self._files[0]
                if moved:
                    self._rescue()
            except (sqlite3.Error, OSError):
                raise StoreUnavailable() from None
            self._next_check = time.monotonic() + CHECK_EVERY

    def _rescue(self) -> None:
        """The file at the path is not the one this process opened (removed, or replaced): what this process can still
        read of its own file (the anchor's) goes into the one at the path (made when missing), and every connection
        from now on opens that one. The other processes on the path do the same when they notice."""
        if not self._writer.acquire(timeout=LINE_SECONDS):  # no write of this process is under way meanwhile
            raise StoreUnavailable()
        try:
            with _folder_lock(self.path):
                if self._stat() is not None:  # replaced: this process's -wal and -shm are no part of the new file
                    for suffix, mine in (("-wal", self._files[1]), ("-shm", self._files[2])):
                        if mine is not None and self._stat(suffix) == mine:
                            os.unlink(self.path + suffix)
                self._prepare()
                self._merge()
                anchor = self._connect()
                anchor.execute("SELECT COUNT(*) FROM rooms").fetchone()
                old, self._anchor = self._anchor, anchor
                self._files = (self._stat(), self._stat("-wal"), self._stat("-shm"))
            with self._lock:
                self._generation += 1
                idle, self._idle = self._idle, []
            for _, db in idle:
                db.close()
            if old is not None:
                old.close()
        finally:
            self._writer.release()

    def _merge(self) -> None:
        """Every row of this process's file (the anchor's) into the file at the path, attached as `fresh`."""
        db = self._anchor
        assert db is not None
        db.execute("ATTACH DATABASE ? AS fresh", (self.path,))
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                for table in ("rooms", "students", "answers", "screens", "invites", "questions", "banned", "buckets",
                              "secret"):  # fmt: skip
                    mine = [row[1] for row in db.execute(f"PRAGMA main.table_info({table})")]
                    theirs = {row[1] for row in db.execute(f"PRAGMA fresh.table_info({table})")}
                    cols = ", ".join(c for c in mine if c in theirs)
                    sets = ", ".join(f"{c} = excluded.{c}" for c in mine if c in theirs)
                    tail = MERGE[table].format(sets=sets) if table in MERGE else ""
                    verb = "INSERT" if tail else "INSERT OR IGNORE"
                    db.execute(f"{verb} INTO fresh.{table} ({cols}) SELECT {cols} FROM main.{table} WHERE true {tail}")
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        finally:
            db.execute("DETACH DATABASE fresh")

    def _take(self) -> tuple[int, sqlite3.Connection]:
        with self._lock:
            if self._idle:
                return self._idle.pop()
            generation = self._generation
        return generation, self._connect()

    def _give(self, generation: int, db: sqlite3.Connection) -> None:
        with self._lock:
            if generation == self._generation and len(self._idle) < self.MAX_IDLE:
                self._idle.append((generation, db))
                return
        db.close()

    class _Tx:
        def __init__(self, backend: SqliteBackend, write: bool) -> None:
            self.backend, self.write = backend, write

        def __enter__(self) -> sqlite3.Connection:
            self.db: sqlite3.Connection | None = None
            self.backend._check()
            if self.write and not self.backend._writer.acquire(timeout=LINE_SECONDS):
                raise StoreUnavailable()
            try:
                self.generation, self.db = self.backend._take()
                self.db.execute("BEGIN IMMEDIATE" if self.write else "BEGIN")
            except sqlite3.Error:
                if self.db is not None:  # a broken connection is not given back
                    self.db.close()
                if self.write:
                    self.backend._writer.release()
                raise StoreUnavailable() from None
            return self.db

        def __exit__(self, kind, exc, tb) -> bool:
            assert self.db is not None
            try:
                self.db.execute("ROLLBACK" if kind else "COMMIT")
            except sqlite3.Error:
                self.db.close()
                raise StoreUnavailable() from None
            finally:
                if self.write:
                    self.backend._writer.release()
            self.backend._give(self.generation, self.db)
            if kind is not None and issubclass(kind, sqlite3.Error):
                raise StoreUnavailable() from exc
            return False

    def _tx(self, write: bool = True) -> SqliteBackend._Tx:
        return SqliteBackend._Tx(self, write)

    # ---- primitives
    def ping(self) -> None:
        with self._tx(write=False) as db:
            db.execute("SELECT 1").fetchone()

    def insert_room(self, rec: Record, now: float, caps: RoomCaps) -> tuple[str, float]:
        with self._tx() as db:
            for table in GONE:  # rooms long gone take their rows along
                db.execute(f"DELETE FROM {table} WHERE code IN (SELECT code FROM rooms WHERE expires <= ?)", (now,))
            db.execute("DELETE FROM rooms WHERE expires <= ?", (now,))
            db.execute("DELETE FROM buckets WHERE full_at <= ?", (now,))  # a full bucket is no bucket
            # abandoned: no screen of theirs seen for room_idle (unjoined_idle when no student ever joined)
            db.execute("UPDATE rooms SET ended = 1, version = version + 1 WHERE ended = 0 AND (beat < ? OR"
                       " (joined = 0 AND beat < ?))", (caps.idle_before, caps.unjoined_before))  # fmt: skip
            (open_rooms, free_at) = db.execute(
                "SELECT COUNT(*), MIN(MIN(expires, beat + CASE WHEN joined THEN ? ELSE ? END)) FROM rooms"
                " WHERE ended = 0", (caps.room_idle, caps.unjoined_idle)).fetchone()  # fmt: skip
            if open_rooms >= caps.max_rooms:
                return "full", free_at or now
            if caps.per_client and rec.owner:
                (n,) = db.execute("SELECT COUNT(*) FROM rooms WHERE ended = 0 AND owner = ?", (rec.owner,)).fetchone()
                if n >= caps.per_client:
                    return "client", now
            cur = db.execute(
                f"INSERT OR IGNORE INTO rooms ({ROOMS}) VALUES (?, ?, ?, ?, 0, 0, '{{}}', '', '', -1, 0, '', ?, ?, ?,"
                " 0, 0, 0)", (rec.code, rec.teacher_hash, rec.created, rec.expires, rec.owner, rec.address, rec.beat),
            )  # fmt: skip
            return ("ok" if cur.rowcount == 1 else "taken"), now

    def load_room(self, code: str) -> Record | None:
        with self._tx(write=False) as db:
            row = db.execute(f"SELECT {ROOMS} FROM rooms WHERE code = ?", (code,)).fetchone()
        return Record(*row) if row else None

    def load_version(self, code: str) -> tuple[int, int, float] | None:
        with self._tx(write=False) as db:
            return db.execute("SELECT version, ended, expires FROM rooms WHERE code = ?", (code,)).fetchone()

    def update_room(self, code: str, fields: dict[str, Any]) -> int:
        names = sorted(fields)
        assert set(names) <= UPDATABLE, names
        sets = "".join(f"{n} = ?, " for n in names)
        with self._tx() as db:
            db.execute(f"UPDATE rooms SET {sets}version = version + 1 WHERE code = ?",
                       [fields[n] for n in names] + [code])  # fmt: skip
            (version,) = db.execute("SELECT version FROM rooms WHERE code = ?", (code,)).fetchone()
        return version

    def set_state(self, code: str, text: str, base: str) -> int | None:
        with self._tx() as db:
            cur = db.execute("UPDATE rooms SET state = ?, version = version + 1 WHERE code = ? AND state = ?",
                             (text, code, base))  # fmt: skip
            if cur.rowcount != 1:
                return None
            (version,) = db.execute("SELECT version FROM rooms WHERE code = ?", (code,)).fetchone()
        return version

    def add_student(self, code: str, sid: str, now: float, expires: float, client: str, network: str,
                    caps: SeatCaps) -> str:  # fmt: skip
        with self._tx() as db:
            marks = ", ".join("?" * len(caps.bans))
            if caps.bans and db.execute(f"SELECT 1 FROM banned WHERE code = ? AND who IN ({marks})",
                                        (code, *caps.bans)).fetchone():  # fmt: skip
                return "banned"
            size, locked = db.execute("SELECT size, locked FROM rooms WHERE code = ?", (code,)).fetchone() or (0, 0)
            if locked:
                return "locked"
            size = min(size or caps.max_students, caps.max_students)
            (n,) = db.execute("SELECT COUNT(*) FROM students WHERE code = ?", (code,)).fetchone()
            if n >= size:  # full: seats of students gone for a while are given back
                db.execute("DELETE FROM students WHERE code = ? AND seen < ?", (code, caps.idle_before))
                (n,) = db.execute("SELECT COUNT(*) FROM students WHERE code = ?", (code,)).fetchone()
                if n >= size:
                    return "full"
            if caps.per_client and client:
                (held,) = db.execute("SELECT COUNT(*) FROM students WHERE code = ? AND client = ?",
                                     (code, client)).fetchone()  # fmt: skip
                if held >= caps.per_client:
                    return "client"
            db.execute("INSERT OR IGNORE INTO students (code, sid, joined, seen, client, address)"
                       " VALUES (?, ?, ?, ?, ?, ?)", (code, sid, now, now, client, network))  # fmt: skip
            db.execute("UPDATE rooms SET joined = 1 WHERE code = ? AND joined = 0", (code,))
        return "ok"

    def student_client(self, code: str, sid: str) -> str | None:
        with self._tx(write=False) as db:
            row = db.execute("SELECT client FROM students WHERE code = ? AND sid = ?", (code, sid)).fetchone()
        return None if row is None else row[0]

    def touch(self, code: str, sid: str, now: float, following: bool) -> bool:
        with self._tx() as db:
            cur = db.execute("UPDATE students SET seen = ?, following = ? WHERE code = ? AND sid = ?",
                             (now, int(following), code, sid))  # fmt: skip
            return cur.rowcount == 1

    def presence(self, code: str, since: float) -> tuple[int, int, int]:
        with self._tx(write=False) as db:
            return db.execute(
                "SELECT COUNT(*), COALESCE(SUM(seen > ?), 0), COALESCE(SUM(seen > ? AND following = 1), 0)"
                " FROM students WHERE code = ?", (since, since, code),
            ).fetchone()  # fmt: skip

    def get_students(self, code: str) -> list[StudentRow]:
        with self._tx(write=False) as db:
            rows = db.execute("SELECT sid, joined, seen, following, client, address FROM students WHERE code = ?",
                              (code,)).fetchall()  # fmt: skip
        return [(sid, joined, seen, bool(following), client, network) for sid, joined, seen, following, client, network
                in rows]  # fmt: skip

    def ban(self, code: str, who: list[str], expires: float) -> None:
        with self._tx() as db:
            db.executemany("INSERT OR IGNORE INTO banned (code, who) VALUES (?, ?)", [(code, w) for w in who])

    def remove_students(self, code: str, sids: list[str]) -> int:
        with self._tx() as db:
            removed = 0
            for sid in sids:
                removed += db.execute("DELETE FROM students WHERE code = ? AND sid = ?", (code, sid)).rowcount
                db.execute("DELETE FROM answers WHERE code = ? AND sid = ?", (code, sid))
        return removed

    def take(self, key: str, now: float, burst: float, per_second: float, queue: float = 0.0,
             cost: float = 1.0) -> float:  # fmt: skip
        per_second = max(per_second, 1e-9)
        self._takes += 1
        with self._tx() as db:
            if self._takes % SWEEP_BUCKETS == 0:  # a full bucket is no bucket: the table holds the networks of the hour
                db.execute("DELETE FROM buckets WHERE full_at <= ?", (now,))
            row = db.execute("SELECT tokens, at FROM buckets WHERE key = ?", (key,)).fetchone()
            tokens = burst if row is None else min(burst, row[0] + max(0.0, now - row[1]) * per_second)
            wait = 0.0 if tokens >= cost else (cost - tokens) / per_second
            if wait > queue:
                return -wait
            tokens -= cost
            full_at = now + max(0.0, burst - tokens) / per_second
            db.execute("INSERT OR REPLACE INTO buckets (key, tokens, at, full_at) VALUES (?, ?, ?, ?)",
                       (key, tokens, now, full_at))  # fmt: skip
        return wait

    def put_screen(self, code: str, row: ScreenRow, max_screens: int, expires: float, stale_before: float,
                   gone_before: float) -> bool:  # fmt: skip
        with self._tx() as db:
            db.execute("DELETE FROM screens WHERE code = ? AND ((status != 'accepted' AND seen < ?) OR seen < ?)",
                       (code, stale_before, gone_before))  # fmt: skip
            (n,) = db.execute("SELECT COUNT(*) FROM screens WHERE code = ?", (code,)).fetchone()
            if n >= max_screens:
                return False
            db.execute("INSERT INTO screens (code, sid, role, client, status, seen, created)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?)", (code, *row))  # fmt: skip
        return True

    def get_screens(self, code: str) -> list[ScreenRow]:
        with self._tx(write=False) as db:
            return db.execute("SELECT sid, role, client, status, seen, created FROM screens WHERE code = ?",
                              (code,)).fetchall()  # fmt: skip

    def set_screen(self, code: str, sid: str, status: str) -> None:
        with self._tx() as db:
            db.execute("UPDATE screens SET status = ? WHERE code = ? AND sid = ?", (status, code, sid))

    def touch_screen(self, code: str, sid: str, now: float) -> None:
        with self._tx() as db:
            db.execute("UPDATE screens SET seen = ? WHERE code = ? AND sid = ?", (now, code, sid))
            db.execute("UPDATE rooms SET beat = MAX(beat, ?) WHERE code = ?", (now, code))

    def put_invite(self, code: str, token_hash: str, role: str, uses: int, until: float) -> None:
        with self._tx() as db:
            db.execute("DELETE FROM invites WHERE code = ? AND until <= ?", (code, until - 86400))
            db.execute("INSERT OR REPLACE INTO invites (code, token, role, uses, until) VALUES (?, ?, ?, ?, ?)",
                       (code, token_hash, role, uses, until))  # fmt: skip

    def take_invite(self, code: str, token_hash: str, now: float) -> str | None:
        with self._tx() as db:
            row = db.execute("SELECT role, uses, until FROM invites WHERE code = ? AND token = ?",
                             (code, token_hash)).fetchone()  # fmt: skip
            if row is None or row[1] < 1 or row[2] <= now:
                return None
            db.execute("UPDATE invites SET uses = uses - 1 WHERE code = ? AND token = ?", (code, token_hash))
            return row[0]

    def put_question(self, code: str, n: int, qid: str, text: str, now: float, expires: float, keep: int) -> None:
        with self._tx() as db:
            db.execute("INSERT OR REPLACE INTO questions (code, n, qid, body, at) VALUES (?, ?, ?, ?, ?)",
                       (code, n, qid, text, now))  # fmt: skip
            db.execute("DELETE FROM questions WHERE code = ? AND n <= ?", (code, n - keep))

    def get_questions(self, code: str) -> list[tuple[int, str, str, float]]:
        with self._tx(write=False) as db:
            return db.execute("SELECT n, qid, body, at FROM questions WHERE code = ? ORDER BY n", (code,)).fetchall()

    def put_answer(self, code: str, qid: str, sid: str, choice: int, nickname: str, now: float,
                   expires: float, value: str = "") -> None:  # fmt: skip
        with self._tx() as db:
            db.execute(
                "INSERT INTO answers (code, qid, sid, choice, nickname, at, value) VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (code, qid, sid) DO UPDATE SET choice = excluded.choice, nickname = excluded.nickname,"
                " value = excluded.value",
                (code, qid, sid, choice, nickname, now, value),
            )

    def get_answers(self, code: str, qid: str) -> list[tuple[str, int, str, float, str]]:
        with self._tx(write=False) as db:
            return db.execute("SELECT sid, choice, nickname, at, value FROM answers WHERE code = ? AND qid = ?",
                              (code, qid)).fetchall()  # fmt: skip

    def secret(self, candidate: str) -> str:
        with self._tx() as db:
            db.execute("INSERT OR IGNORE INTO secret (one, value) VALUES (1, ?)", (candidate,))
            return db.execute("SELECT value FROM secret WHERE one = 1").fetchone()[0]

    # ---- deleting (liveclass/privacy.py)
    def delete_room(self, code: str) -> None:
        with self._tx() as db:
            for table in (*GONE, "rooms"):
                db.execute(f"DELETE FROM {table} WHERE code = ?", (code,))
            prefix = room_bucket(code)
            db.execute("DELETE FROM buckets WHERE substr(key, 1, ?) = ?", (len(prefix), prefix))
        self._scrub()

    def purge(self, before: float, now: float) -> int:
        with self._tx() as db:
            gone = db.execute("DELETE FROM rooms WHERE expires <= ?", (before,)).rowcount
            for table in GONE:  # the rows of every room that is no longer there (expired now, or earlier)
                db.execute(f"DELETE FROM {table} WHERE code NOT IN (SELECT code FROM rooms)")
            db.execute("DELETE FROM buckets WHERE full_at <= ?", (now,))  # a full bucket is no bucket (a room's too)
        self._scrub()  # and what the log still holds of rooms deleted since the last sweep (insert_room deletes too)
        return gone

    def _scrub(self) -> None:
        """The write-ahead log still holds the pages as they were before a deletion: copy it into the file (whose
        deleted bytes secure_delete zeroed) and truncate it. A reader in the way makes it wait for the next one."""
        generation, db = self._take()
        try:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        except sqlite3.Error:
            db.close()
            return
        self._give(generation, db)
