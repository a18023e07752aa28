"""Rooms in Redis, for several app replicas on several machines (`MHA_REDIS_URL=redis://host:6379/0`).

Each primitive is one round trip (a pipeline or a short Lua script, so limits hold under concurrency). Calls
time out fast; after a failure the backend does not try again for `cooldown` seconds, so a Redis that is
down costs the app nothing but a message, and the next call after the pause reconnects.
"""

from __future__ import annotations

import json
import math
import threading
import time
from typing import Any

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from .errors import LiveError, StoreUnavailable
from .rooms import Record

P = "mha:live:"
INDEX = P + "rooms"  # sorted set: open room code -> expiry time
GRACE = 3600  # a room's keys outlive its expiry by an hour, so a late student hears "expired", not "unknown"

INSERT_ROOM = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return -1 end
redis.call('HSET', KEYS[2], 'code', ARGV[3], 'teacher_hash', ARGV[4], 'created', ARGV[5], 'expires', ARGV[6],
    'ended', 0, 'version', 0, 'state', '{}', 'question', '', 'qid', '', 'answer', -1, 'revealed', 0, 'solution', '')
redis.call('EXPIRE', KEYS[2], ARGV[7])
redis.call('ZADD', KEYS[1], ARGV[6], ARGV[3])
return 1
"""
ADD_STUDENT = """
if redis.call('ZSCORE', KEYS[1], ARGV[3]) then return 1 end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[4])
return 1
"""
TOUCH = """
if not redis.call('ZSCORE', KEYS[1], ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
if ARGV[3] == '1' then
    redis.call('SREM', KEYS[2], ARGV[2])
else
    redis.call('SADD', KEYS[2], ARGV[2])
    local ttl = redis.call('TTL', KEYS[1])
    if ttl > 0 then redis.call('EXPIRE', KEYS[2], ttl) end
end
return 1
"""
FIELDS = ("code", "teacher_hash", "created", "expires", "ended", "version", "state", "question", "qid", "answer",
          "revealed", "solution")  # fmt: skip
TYPES = {"created": float, "expires": float, "ended": int, "version": int, "answer": int, "revealed": int}


def _room(code: str) -> str:
    return f"{P}room:{code}"


class RedisBackend:
    def __init__(self, url: str, timeout: float = 0.5, cooldown: float = 2.0) -> None:
        self.url, self.cooldown = url, cooldown
        self.client = redis.Redis.from_url(
            url, socket_timeout=timeout, socket_connect_timeout=timeout, retry=Retry(NoBackoff(), 0),
            decode_responses=True, health_check_interval=30,
        )  # fmt: skip
        self._down_until = 0.0
        self._lock = threading.Lock()
        scripts = {"insert": INSERT_ROOM, "add": ADD_STUDENT, "touch": TOUCH}
        self._scripts = {name: self.client.register_script(src) for name, src in scripts.items()}

    def _call(self, fn, *args, **kwargs):
        if time.monotonic() < self._down_until:
            raise StoreUnavailable()
        try:
            return fn(*args, **kwargs)
        except redis.exceptions.ResponseError:
            raise
        except (redis.exceptions.RedisError, OSError):
            with self._lock:
                self._down_until = time.monotonic() + self.cooldown
            raise StoreUnavailable() from None

    @staticmethod
    def _ttl(expires: float, now: float) -> int:
        """Seconds the keys of a room live (relative: the store's clock and ours need not agree)."""
        return max(math.ceil(expires - now), 1) + GRACE

    # ---- primitives
    def ping(self) -> None:
        self._call(self.client.ping)

    def insert_room(self, rec: Record, now: float, max_rooms: int) -> bool:
        res = self._call(
            self._scripts["insert"], keys=[INDEX, _room(rec.code)],
            args=[now, max_rooms, rec.code, rec.teacher_hash, rec.created, rec.expires, self._ttl(rec.expires, now)],
        )  # fmt: skip
        if res == -1:
            raise LiveError("too_many_rooms", limit=max_rooms)
        return res == 1

    def load_room(self, code: str) -> Record | None:
        values = self._call(self.client.hmget, _room(code), FIELDS)
        if values[0] is None:
            return None
        data = {f: TYPES.get(f, str)(v) for f, v in zip(FIELDS, values, strict=True) if v is not None}
        return Record(**data)

    def load_version(self, code: str) -> tuple[int, int, float] | None:
        version, ended, expires = self._call(self.client.hmget, _room(code), ("version", "ended", "expires"))
        if version is None:
            return None
        return int(version), int(ended), float(expires)

    def update_room(self, code: str, fields: dict[str, Any]) -> int:
        def run() -> int:
            pipe = self.client.pipeline(transaction=True)
            pipe.hset(_room(code), mapping=fields)
            pipe.hincrby(_room(code), "version", 1)
            if fields.get("ended"):
                pipe.zrem(INDEX, code)
            return pipe.execute()[1]

        return int(self._call(run))

    def add_student(self, code: str, sid: str, now: float, max_students: int, expires: float) -> bool:
        seen = f"{_room(code)}:seen"
        args = [now, max_students, sid, self._ttl(expires, now)]
        return self._call(self._scripts["add"], keys=[seen], args=args) == 1

    def has_student(self, code: str, sid: str) -> bool:
        return self._call(self.client.zscore, f"{_room(code)}:seen", sid) is not None

    def touch(self, code: str, sid: str, now: float, following: bool) -> None:
        self._call(self._scripts["touch"], keys=[f"{_room(code)}:seen", f"{_room(code)}:away"],
                   args=[now, sid, "1" if following else "0"])  # fmt: skip

    def presence(self, code: str, since: float) -> tuple[int, int, int]:
        def run() -> tuple[int, int, int]:
            pipe = self.client.pipeline(transaction=False)
            pipe.zcard(f"{_room(code)}:seen")
            pipe.zrangebyscore(f"{_room(code)}:seen", f"({since}", "+inf")
            pipe.smembers(f"{_room(code)}:away")
            joined, recent, away = pipe.execute()
            return int(joined), len(recent), sum(1 for s in recent if s not in away)

        return self._call(run)

    def put_answer(self, code: str, qid: str, sid: str, choice: int, nickname: str, now: float,
                   expires: float, value: str = "") -> None:  # fmt: skip
        key = f"{_room(code)}:ans:{qid}"

        def run() -> None:
            old = self.client.hget(key, sid)
            at = json.loads(old)["at"] if old else now  # the first answer's time stays: order of arrival
            pipe = self.client.pipeline(transaction=True)
            row = {"choice": choice, "nickname": nickname, "at": at, "value": value}
            pipe.hset(key, sid, json.dumps(row, ensure_ascii=False))
            pipe.expire(key, self._ttl(expires, now))
            pipe.execute()

        self._call(run)

    def get_answers(self, code: str, qid: str) -> list[tuple[str, int, str, float, str]]:
        rows = self._call(self.client.hgetall, f"{_room(code)}:ans:{qid}")
        out = []
        for sid, text in rows.items():
            d = json.loads(text)
            out.append((sid, int(d["choice"]), str(d["nickname"]), float(d["at"]), str(d.get("value", ""))))
        return out
