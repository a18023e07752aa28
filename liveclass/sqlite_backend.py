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

from .errors import LiveError, StoreUnavailable
from .rooms import Record

SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY, teacher_hash TEXT NOT NULL, created REAL NOT NULL, expires REAL NOT NULL,
    ended INTEGER NOT NULL DEFAULT 0, version INTEGER NOT NULL DEFAULT 0, state TEXT NOT NULL DEFAULT '{}',
    question TEXT NOT NULL DEFAULT '', qid TEXT NOT NULL DEFAULT '', answer INTEGER NOT NULL DEFAULT -1,
    revealed INTEGER NOT NULL DEFAULT 0, solution TEXT NOT NULL DEFAULT '');
CREATE TABLE IF NOT EXISTS students (
    code TEXT NOT NULL, sid TEXT NOT NULL, joined REAL NOT NULL, seen REAL NOT NULL,
    following INTEGER NOT NULL DEFAULT 1, PRIMARY KEY (code, sid));
CREATE TABLE IF NOT EXISTS answers (
    code TEXT NOT NULL, qid TEXT NOT NULL, sid TEXT NOT NULL, choice INTEGER NOT NULL, nickname TEXT NOT NULL,
    at REAL NOT NULL, value TEXT NOT NULL DEFAULT '', PRIMARY KEY (code, qid, sid));
"""
# Columns added since the first schema: a file made by an older version gets them when it is opened.
ADDED = (("rooms", "solution", "TEXT NOT NULL DEFAULT ''"), ("answers", "value", "TEXT NOT NULL DEFAULT ''"))
LINE_SECONDS = 5.0  # the longest a write waits for this process's other writers (they hold the line for milliseconds)
UPDATABLE = {"state", "question", "qid", "answer", "revealed", "ended", "solution"}


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

    def insert_room(self, rec: Record, now: float, max_rooms: int) -> bool:
        with self._tx() as db:
            for table in ("answers", "students"):  # rooms long gone take their students and answers along
                db.execute(f"DELETE FROM {table} WHERE code IN (SELECT code FROM rooms WHERE expires <= ?)", (now,))
            db.execute("DELETE FROM rooms WHERE expires <= ?", (now,))
            (open_rooms,) = db.execute("SELECT COUNT(*) FROM rooms WHERE ended = 0").fetchone()
            if open_rooms >= max_rooms:
                raise LiveError("too_many_rooms", limit=max_rooms)
            cur = db.execute(
                "INSERT OR IGNORE INTO rooms (code, teacher_hash, created, expires) VALUES (?, ?, ?, ?)",
                (rec.code, rec.teacher_hash, rec.created, rec.expires),
            )
            return cur.rowcount == 1

    def load_room(self, code: str) -> Record | None:
        with self._tx(write=False) as db:
            row = db.execute(
                "SELECT code, teacher_hash, created, expires, ended, version, state, question, qid, answer, revealed,"
                " solution FROM rooms WHERE code = ?", (code,),
            ).fetchone()  # fmt: skip
        return Record(*row) if row else None

    def load_version(self, code: str) -> tuple[int, int, float] | None:
        with self._tx(write=False) as db:
            return db.execute("SELECT version, ended, expires FROM rooms WHERE code = ?", (code,)).fetchone()

    def update_room(self, code: str, fields: dict[str, Any]) -> int:
        names = sorted(fields)
        assert set(names) <= UPDATABLE, names
        sets = ", ".join(f"{n} = ?" for n in names)
        with self._tx() as db:
            db.execute(f"UPDATE rooms SET {sets}, version = version + 1 WHERE code = ?",
                       [fields[n] for n in names] + [code])  # fmt: skip
            (version,) = db.execute("SELECT version FROM rooms WHERE code = ?", (code,)).fetchone()
        return version

    def add_student(self, code: str, sid: str, now: float, max_students: int, expires: float) -> bool:
        with self._tx() as db:
            (n,) = db.execute("SELECT COUNT(*) FROM students WHERE code = ?", (code,)).fetchone()
            if n >= max_students:
                return False
            db.execute("INSERT OR IGNORE INTO students (code, sid, joined, seen) VALUES (?, ?, ?, ?)",
                       (code, sid, now, now))  # fmt: skip
        return True

    def has_student(self, code: str, sid: str) -> bool:
        with self._tx(write=False) as db:
            return db.execute("SELECT 1 FROM students WHERE code = ? AND sid = ?", (code, sid)).fetchone() is not None

    def touch(self, code: str, sid: str, now: float, following: bool) -> None:
        with self._tx() as db:
            db.execute("UPDATE students SET seen = ?, following = ? WHERE code = ? AND sid = ?",
                       (now, int(following), code, sid))  # fmt: skip

    def presence(self, code: str, since: float) -> tuple[int, int, int]:
        with self._tx(write=False) as db:
            return db.execute(
                "SELECT COUNT(*), COALESCE(SUM(seen > ?), 0), COALESCE(SUM(seen > ? AND following = 1), 0)"
                " FROM students WHERE code = ?", (since, since, code),
            ).fetchone()  # fmt: skip

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
