"""Rooms in one SQLite file (the default): no set-up, survives a restart, shared by every server process on
the machine (WAL: readers never wait for the writer). Connections are reused from a small pool (Streamlit runs
every script run in a new thread: a connection per thread opened one, with its PRAGMAs, on every run of every
student's timer, a tenth of the server's time in a follow of 60 students); every call is short and
gives up after `timeout` seconds instead of waiting on a lock. The timeout is 2 s, not Redis's 0.5 s: a lock is
only ever held for one short transaction, but with 60 students joining at once through two processes a holder
may wait for its process's GIL, and 0.5 s turned some joins into "store unavailable" (bench/live_class.py)."""

from __future__ import annotations

import os
import sqlite3
import tempfile
import threading
from pathlib import Path
from typing import Any

from .errors import StoreUnavailable
from .rooms import Record, RoomCaps, ScreenRow, SeatCaps

SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY, teacher_hash TEXT NOT NULL, created REAL NOT NULL, expires REAL NOT NULL,
    ended INTEGER NOT NULL DEFAULT 0, version INTEGER NOT NULL DEFAULT 0, state TEXT NOT NULL DEFAULT '{}',
    question TEXT NOT NULL DEFAULT '', qid TEXT NOT NULL DEFAULT '', answer INTEGER NOT NULL DEFAULT -1,
    revealed INTEGER NOT NULL DEFAULT 0, solution TEXT NOT NULL DEFAULT '', owner TEXT NOT NULL DEFAULT '',
    address TEXT NOT NULL DEFAULT '', beat REAL NOT NULL DEFAULT 0);
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
"""
# Columns added since the first schema: a file made by an older version gets them when it is opened.
ADDED = (("rooms", "solution", "TEXT NOT NULL DEFAULT ''"), ("answers", "value", "TEXT NOT NULL DEFAULT ''"),
         ("rooms", "owner", "TEXT NOT NULL DEFAULT ''"), ("rooms", "address", "TEXT NOT NULL DEFAULT ''"),
         ("rooms", "beat", "REAL NOT NULL DEFAULT 0"), ("students", "client", "TEXT NOT NULL DEFAULT ''"),
         ("students", "address", "TEXT NOT NULL DEFAULT ''"))  # fmt: skip
LINE_SECONDS = 5.0  # the longest a write waits for this process's other writers (they hold the line for milliseconds)
UPDATABLE = {"state", "question", "qid", "answer", "revealed", "ended", "solution"}
ROOMS = "code, teacher_hash, created, expires, ended, version, state, question, qid, answer, revealed, solution, owner, address, beat"  # noqa: E501
GONE = ("answers", "students", "screens", "invites", "questions")  # a room's rows in other tables


def default_path() -> Path:
    """`MHA_LIVE_DB`, else a file in the system's temporary folder (writable by a non-root container user)."""
    return Path(os.environ.get("MHA_LIVE_DB") or Path(tempfile.gettempdir()) / "mha-explorer-live.sqlite3")


class SqliteBackend:
    def __init__(self, path: str | Path | None = None, timeout: float = 2.0) -> None:
        self.path, self.timeout = str(path or default_path()), timeout
        self._idle: list[sqlite3.Connection] = []  # connections not in a transaction, at most MAX_IDLE
        self._lock = threading.Lock()
        # One writer of this process at a time waits here, in line, instead of in SQLite's busy handler, which
        # sleeps and polls: with 60 students joining at once the lock's holder waited for the GIL between polls of
        # the others, and some joins ran out of time. Writers of other processes still meet in SQLite.
        self._writer = threading.Lock()
        try:
            db = self._take()
            db.executescript(SCHEMA)
            for table, column, decl in ADDED:
                if column not in {row[1] for row in db.execute(f"PRAGMA table_info({table})")}:
                    db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {decl}")
            self._give(db)
        except sqlite3.Error:
            raise StoreUnavailable() from None

    MAX_IDLE = 8  # more threads than this at once open a connection of their own and close it after

    def _take(self) -> sqlite3.Connection:
        with self._lock:
            if self._idle:
                return self._idle.pop()
        db = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA secure_delete=ON")  # a deleted row's bytes are overwritten, not left in a free page
        return db

    def _give(self, db: sqlite3.Connection) -> None:
        with self._lock:
            if len(self._idle) < self.MAX_IDLE:
                self._idle.append(db)
                return
        db.close()

    class _Tx:
        def __init__(self, backend: SqliteBackend, write: bool) -> None:
            self.backend, self.write = backend, write

        def __enter__(self) -> sqlite3.Connection:
            self.db: sqlite3.Connection | None = None
            if self.write and not self.backend._writer.acquire(timeout=LINE_SECONDS):
                raise StoreUnavailable()
            try:
                self.db = self.backend._take()
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
            self.backend._give(self.db)
            if kind is not None and issubclass(kind, sqlite3.Error):
                raise StoreUnavailable() from exc
            return False

    def _tx(self, write: bool = True) -> SqliteBackend._Tx:
        return SqliteBackend._Tx(self, write)

    # ---- primitives
    def ping(self) -> None:
        with self._tx(write=False) as db:
            db.execute("SELECT 1").fetchone()

    def insert_room(self, rec: Record, now: float, caps: RoomCaps, room_idle: float) -> tuple[str, float]:
        with self._tx() as db:
            for table in GONE:  # rooms long gone take their rows along
                db.execute(f"DELETE FROM {table} WHERE code IN (SELECT code FROM rooms WHERE expires <= ?)", (now,))
            db.execute("DELETE FROM rooms WHERE expires <= ?", (now,))
            db.execute("UPDATE rooms SET ended = 1, version = version + 1 WHERE ended = 0 AND beat < ?",
                       (caps.idle_before,))  # abandoned: no screen of theirs seen for room_idle  # fmt: skip
            (open_rooms, free_at) = db.execute(
                "SELECT COUNT(*), MIN(MIN(expires, beat + ?)) FROM rooms WHERE ended = 0", (room_idle,)).fetchone()
            if open_rooms >= caps.max_rooms:
                return "full", free_at or now
            for column, value, cap, why in (("owner", rec.owner, caps.per_client, "client"),
                                            ("address", rec.address, caps.per_address, "address")):  # fmt: skip
                if cap and value:
                    (n,) = db.execute(f"SELECT COUNT(*) FROM rooms WHERE ended = 0 AND {column} = ?",
                                      (value,)).fetchone()  # fmt: skip
                    if n >= cap:
                        return why, now
            cur = db.execute(
                f"INSERT OR IGNORE INTO rooms ({ROOMS}) VALUES (?, ?, ?, ?, 0, 0, '{{}}', '', '', -1, 0, '', ?, ?, ?)",
                (rec.code, rec.teacher_hash, rec.created, rec.expires, rec.owner, rec.address, rec.beat),
            )
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

    def add_student(self, code: str, sid: str, now: float, expires: float, client: str, address: str,
                    caps: SeatCaps) -> str:  # fmt: skip
        with self._tx() as db:
            db.execute("DELETE FROM students WHERE code = ? AND seen < ?", (code, caps.idle_before))  # given back
            (n,) = db.execute("SELECT COUNT(*) FROM students WHERE code = ?", (code,)).fetchone()
            if n >= caps.max_students:
                return "full"
            for column, value, cap, why in (("client", client, caps.per_client, "client"),
                                            ("address", address, caps.per_address, "address")):  # fmt: skip
                if cap and value:
                    (held,) = db.execute(f"SELECT COUNT(*) FROM students WHERE code = ? AND {column} = ?",
                                         (code, value)).fetchone()  # fmt: skip
                    if held >= cap:
                        return why
            db.execute("INSERT OR IGNORE INTO students (code, sid, joined, seen, client, address)"
                       " VALUES (?, ?, ?, ?, ?, ?)", (code, sid, now, now, client, address))  # fmt: skip
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

    # ---- deleting (liveclass/privacy.py)
    def delete_room(self, code: str) -> None:
        with self._tx() as db:
            for table in (*GONE, "rooms"):
                db.execute(f"DELETE FROM {table} WHERE code = ?", (code,))
        self._scrub()

    def purge(self, before: float) -> int:
        with self._tx() as db:
            gone = db.execute("DELETE FROM rooms WHERE expires <= ?", (before,)).rowcount
            for table in GONE:  # the rows of every room that is no longer there (expired now, or earlier)
                db.execute(f"DELETE FROM {table} WHERE code NOT IN (SELECT code FROM rooms)")
        self._scrub()  # and what the log still holds of rooms deleted since the last sweep (insert_room deletes too)
        return gone

    def _scrub(self) -> None:
        """The write-ahead log still holds the pages as they were before a deletion: copy it into the file (whose
        deleted bytes secure_delete zeroed) and truncate it. A reader in the way makes it wait for the next one."""
        db = self._take()
        try:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        except sqlite3.Error:
            db.close()
            return
        self._give(db)
