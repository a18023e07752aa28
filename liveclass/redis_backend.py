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

from .errors import StoreUnavailable
from .privacy import GRACE
from .rooms import Record, RoomCaps, ScreenRow, SeatCaps, StudentRow, room_bucket

P = "mha:live:"
INDEX = P + "rooms"  # sorted set: open room code -> expiry time
KEPT = P + "kept"  # sorted set: every room code the store holds -> expiry time (the sweep's list, Rooms.sweep)
SECRET = P + "secret"  # string: the key of the networks' digests (liveclass/privacy.py)
BUCKET = P + "bucket:"  # + a token bucket's key (Rooms: a network's digest in it, never an address): a hash
REWRITE_EVERY = 3600.0  # seconds: the sweep has the append-only file rewritten at least this often (expired buckets)
# a room's keys outlive its expiry by GRACE (liveclass/privacy.py), so a late student hears "expired", not "unknown"

INSERT_ROOM = """
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('EXISTS', KEYS[2]) == 1 then return {'taken', ARGV[1]} end
local n, by_client, free_at = 0, 0, nil
for _, c in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
    local key = ARGV[14] .. c
    local f = redis.call('HMGET', key, 'ended', 'beat', 'expires', 'owner', 'joined')
    if not f[1] then
        redis.call('ZREM', KEYS[1], c)
    elseif tonumber(f[1]) == 0 then
        local beat = tonumber(f[2] or '0') or 0
        local joined = tonumber(f[5] or '0') == 1
        -- abandoned: no screen of it seen for room_idle (unjoined_idle when no student ever joined it)
        if beat < tonumber(ARGV[12]) or (not joined and beat < tonumber(ARGV[15])) then
            redis.call('HSET', key, 'ended', 1)
            redis.call('HINCRBY', key, 'version', 1)
            redis.call('ZREM', KEYS[1], c)
        else
            n = n + 1
            local idle = joined and tonumber(ARGV[13]) or tonumber(ARGV[16])
            local t = math.min(tonumber(f[3]), beat + idle)
            if free_at == nil or t < free_at then free_at = t end
            if ARGV[8] ~= '' and f[4] == ARGV[8] then by_client = by_client + 1 end
        end
    end
end
if n >= tonumber(ARGV[2]) then return {'full', tostring(free_at or now)} end
if tonumber(ARGV[11]) > 0 and ARGV[8] ~= '' and by_client >= tonumber(ARGV[11]) then return {'client', ARGV[1]} end
redis.call('HSET', KEYS[2], 'code', ARGV[3], 'teacher_hash', ARGV[4], 'created', ARGV[5], 'expires', ARGV[6],
    'ended', 0, 'version', 0, 'state', '{}', 'question', '', 'qid', '', 'answer', -1, 'revealed', 0, 'solution', '',
    'owner', ARGV[8], 'address', ARGV[9], 'beat', ARGV[10], 'size', 0, 'locked', 0, 'joined', 0)
redis.call('EXPIRE', KEYS[2], ARGV[7])
redis.call('ZADD', KEYS[1], ARGV[6], ARGV[3])
redis.call('ZADD', KEYS[3], ARGV[6], ARGV[3])
return {'ok', ARGV[1]}
"""
ADD_STUDENT = """
for i = 10, #ARGV do
    if redis.call('SISMEMBER', KEYS[5], ARGV[i]) == 1 then return 'banned' end
end
local room = redis.call('HMGET', KEYS[4], 'size', 'locked')
if tonumber(room[2] or '0') == 1 then return 'locked' end
local size = math.min(tonumber(room[1] or '0') or 0, tonumber(ARGV[2]))
if size <= 0 then size = tonumber(ARGV[2]) end
if redis.call('ZCARD', KEYS[1]) >= size then  -- full: seats of students gone for a while are given back
    for _, s in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[9])) do
        redis.call('ZREM', KEYS[1], s)
        redis.call('HDEL', KEYS[2], s)
        redis.call('SREM', KEYS[3], s)
    end
    if redis.call('ZCARD', KEYS[1]) >= size then return 'full' end
end
local client, per_client = ARGV[5], tonumber(ARGV[7])
if per_client > 0 and client ~= '' then
    local by_client = 0
    for _, who in ipairs(redis.call('HVALS', KEYS[2])) do
        local sep = string.find(who, '|', 1, true)
        if sep and string.sub(who, 1, sep - 1) == client then by_client = by_client + 1 end
    end
    if by_client >= per_client then return 'client' end
end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[3], client .. '|' .. ARGV[6] .. '|' .. ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[4])
redis.call('EXPIRE', KEYS[2], ARGV[4])
redis.call('HSET', KEYS[4], 'joined', 1)
return 'ok'
"""
TAKE = """
local burst, rate, now = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local queue, cost = tonumber(ARGV[4]), tonumber(ARGV[5])
local f = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = burst
if f[1] then tokens = math.min(burst, tonumber(f[1]) + math.max(0, now - tonumber(f[2])) * rate) end
local wait = 0
if tokens < cost then wait = (cost - tokens) / rate end
if wait > queue then return tostring(-wait) end
tokens = tokens - cost
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(1000 * math.max(0, burst - tokens) / rate) + 1000)  -- gone once full
return tostring(wait)
"""
REMOVE_STUDENTS = """
local removed = 0
for i = 1, #ARGV do
    removed = removed + redis.call('ZREM', KEYS[1], ARGV[i])
    redis.call('HDEL', KEYS[2], ARGV[i])
    redis.call('SREM', KEYS[3], ARGV[i])
    for _, raw in ipairs(redis.call('HVALS', KEYS[4])) do
        redis.call('HDEL', KEYS[5] .. cjson.decode(raw)[1], ARGV[i])
    end
end
return removed
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
PUT_SCREEN = """
local count = 0
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
    local r = cjson.decode(all[i + 1])
    if (r[3] ~= 'accepted' and r[4] < tonumber(ARGV[3])) or r[4] < tonumber(ARGV[4]) then
        redis.call('HDEL', KEYS[1], all[i])
    else
        count = count + 1
    end
end
if count >= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[5])
redis.call('EXPIRE', KEYS[1], ARGV[6])
return 1
"""
SET_SCREEN = """
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return 0 end
local r = cjson.decode(raw)
if ARGV[2] ~= '' then r[3] = ARGV[2] end
if ARGV[3] ~= '' then
    r[4] = tonumber(ARGV[3])
    local beat = tonumber(redis.call('HGET', KEYS[2], 'beat') or '0') or 0
    if r[4] > beat then redis.call('HSET', KEYS[2], 'beat', ARGV[3]) end
end
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(r))
return 1
"""
TAKE_INVITE = """
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return false end
local r = cjson.decode(raw)
if r[2] < 1 or r[3] <= tonumber(ARGV[2]) then return false end
r[2] = r[2] - 1
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(r))
return r[1]
"""
SET_STATE = """
if redis.call('HGET', KEYS[1], 'state') ~= ARGV[2] then return false end
redis.call('HSET', KEYS[1], 'state', ARGV[1])
return redis.call('HINCRBY', KEYS[1], 'version', 1)
"""
FIELDS = ("code", "teacher_hash", "created", "expires", "ended", "version", "state", "question", "qid", "answer",
          "revealed", "solution", "owner", "address", "beat", "size", "locked", "joined")  # fmt: skip
TYPES = {"created": float, "expires": float, "ended": int, "version": int, "answer": int, "revealed": int,
         "beat": float, "size": int, "locked": int, "joined": int}  # fmt: skip


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
        self._rewrite = False  # a deletion the append-only file still holds (the rewrite was refused: try again)
        self._rewritten = time.monotonic()  # when this process last had the file rewritten (or started)
        self._lock = threading.Lock()
        scripts = {"insert": INSERT_ROOM, "add": ADD_STUDENT, "touch": TOUCH, "put_screen": PUT_SCREEN,
                   "set_screen": SET_SCREEN, "take_invite": TAKE_INVITE, "set_state": SET_STATE, "take": TAKE,
                   "remove": REMOVE_STUDENTS}  # fmt: skip
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
        return max(math.ceil(expires - now), 1) + math.ceil(GRACE)

    # ---- primitives
    def ping(self) -> None:
        self._call(self.client.ping)

    def insert_room(self, rec: Record, now: float, caps: RoomCaps) -> tuple[str, float]:
        status, when = self._call(
            self._scripts["insert"], keys=[INDEX, _room(rec.code), KEPT],
            args=[now, caps.max_rooms, rec.code, rec.teacher_hash, rec.created, rec.expires,
                  self._ttl(rec.expires, now), rec.owner, rec.address, rec.beat, caps.per_client, caps.idle_before,
                  caps.room_idle, f"{P}room:", caps.unjoined_before, caps.unjoined_idle],
        )  # fmt: skip
        return str(status), float(when)

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
            if fields:
                pipe.hset(_room(code), mapping=fields)
            pipe.hincrby(_room(code), "version", 1)
            if fields.get("ended"):
                pipe.zrem(INDEX, code)
            return pipe.execute()[1 if fields else 0]

        return int(self._call(run))

    def set_state(self, code: str, text: str, base: str) -> int | None:
        version = self._call(self._scripts["set_state"], keys=[_room(code)], args=[text, base])
        return None if version is None else int(version)

    def add_student(self, code: str, sid: str, now: float, expires: float, client: str, network: str,
                    caps: SeatCaps) -> str:  # fmt: skip
        room = _room(code)
        args = [now, caps.max_students, sid, self._ttl(expires, now), client, network, caps.per_client, "",
                caps.idle_before, *caps.bans]  # fmt: skip
        keys = [f"{room}:seen", f"{room}:who", f"{room}:away", room, f"{room}:banned"]
        return str(self._call(self._scripts["add"], keys=keys, args=args))

    def student_client(self, code: str, sid: str) -> str | None:
        def run() -> str | None:
            pipe = self.client.pipeline(transaction=False)
            pipe.zscore(f"{_room(code)}:seen", sid)
            pipe.hget(f"{_room(code)}:who", sid)
            seen, who = pipe.execute()
            return None if seen is None else (who or "").partition("|")[0]

        return self._call(run)

    def touch(self, code: str, sid: str, now: float, following: bool) -> bool:
        return self._call(self._scripts["touch"], keys=[f"{_room(code)}:seen", f"{_room(code)}:away"],
                          args=[now, sid, "1" if following else "0"]) == 1  # fmt: skip

    def presence(self, code: str, since: float) -> tuple[int, int, int]:
        def run() -> tuple[int, int, int]:
            pipe = self.client.pipeline(transaction=False)
            pipe.zcard(f"{_room(code)}:seen")
            pipe.zrangebyscore(f"{_room(code)}:seen", f"({since}", "+inf")
            pipe.smembers(f"{_room(code)}:away")
            joined, recent, away = pipe.execute()
            return int(joined), len(recent), sum(1 for s in recent if s not in away)

        return self._call(run)

    def get_students(self, code: str) -> list[StudentRow]:
        def run() -> list[StudentRow]:
            pipe = self.client.pipeline(transaction=False)
            pipe.zrange(f"{_room(code)}:seen", 0, -1, withscores=True)
            pipe.hgetall(f"{_room(code)}:who")
            pipe.smembers(f"{_room(code)}:away")
            seen, who, away = pipe.execute()
            out = []
            for sid, at in seen:
                client, _, rest = (who.get(sid) or "").partition("|")
                network, _, joined = rest.partition("|")
                out.append((sid, float(joined or 0.0), float(at), sid not in away, client, network))
            return out

        return self._call(run)

    def ban(self, code: str, who: list[str], expires: float) -> None:
        key = f"{_room(code)}:banned"

        def run() -> None:
            pipe = self.client.pipeline(transaction=True)
            pipe.sadd(key, *who)
            pipe.expire(key, self._ttl(expires, time.time()))
            pipe.execute()

        self._call(run)

    def remove_students(self, code: str, sids: list[str]) -> int:
        room = _room(code)
        keys = [f"{room}:seen", f"{room}:who", f"{room}:away", f"{room}:questions", f"{room}:ans:"]
        return int(self._call(self._scripts["remove"], keys=keys, args=list(sids)))

    def take(self, key: str, now: float, burst: float, per_second: float, queue: float = 0.0,
             cost: float = 1.0) -> float:  # fmt: skip
        return float(self._call(self._scripts["take"], keys=[BUCKET + key],
                                args=[burst, max(per_second, 1e-9), now, queue, cost]))  # fmt: skip

    def put_screen(self, code: str, row: ScreenRow, max_screens: int, expires: float, stale_before: float,
                   gone_before: float) -> bool:  # fmt: skip
        sid, *rest = row
        args = [sid, max_screens, stale_before, gone_before, json.dumps(rest), self._ttl(expires, row[4])]
        return self._call(self._scripts["put_screen"], keys=[f"{_room(code)}:screens"], args=args) == 1

    def get_screens(self, code: str) -> list[ScreenRow]:
        rows = self._call(self.client.hgetall, f"{_room(code)}:screens")
        out = []
        for sid, raw in rows.items():
            role, client, status, seen, created = json.loads(raw)
            out.append((sid, str(role), str(client), str(status), float(seen), float(created)))
        return out

    def set_screen(self, code: str, sid: str, status: str) -> None:
        self._call(self._scripts["set_screen"], keys=[f"{_room(code)}:screens", _room(code)], args=[sid, status, ""])

    def touch_screen(self, code: str, sid: str, now: float) -> None:
        self._call(self._scripts["set_screen"], keys=[f"{_room(code)}:screens", _room(code)], args=[sid, "", now])

    def put_invite(self, code: str, token_hash: str, role: str, uses: int, until: float) -> None:
        key = f"{_room(code)}:invites"

        def run() -> None:
            pipe = self.client.pipeline(transaction=True)
            pipe.hset(key, token_hash, json.dumps([role, uses, until]))
            pipe.expire(key, self._ttl(until, time.time()))
            pipe.execute()

        self._call(run)

    def take_invite(self, code: str, token_hash: str, now: float) -> str | None:
        role = self._call(self._scripts["take_invite"], keys=[f"{_room(code)}:invites"], args=[token_hash, now])
        return str(role) if role else None

    def put_question(self, code: str, n: int, qid: str, text: str, now: float, expires: float, keep: int) -> None:
        key = f"{_room(code)}:questions"

        def run() -> None:
            pipe = self.client.pipeline(transaction=True)
            pipe.hset(key, str(n), json.dumps([qid, text, now], ensure_ascii=False))
            if n > keep:
                pipe.hdel(key, str(n - keep))
            pipe.expire(key, self._ttl(expires, now))
            pipe.execute()

        self._call(run)

    def get_questions(self, code: str) -> list[tuple[int, str, str, float]]:
        rows = self._call(self.client.hgetall, f"{_room(code)}:questions")
        out = []
        for n, raw in rows.items():
            qid, text, at = json.loads(raw)
            out.append((int(n), str(qid), str(text), float(at)))
        return sorted(out)

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

    def secret(self, candidate: str) -> str:
        def run() -> str:
            pipe = self.client.pipeline(transaction=True)
            pipe.set(SECRET, candidate, nx=True)
            pipe.get(SECRET)
            return str(pipe.execute()[1])

        return self._call(run)

    # ---- deleting (liveclass/privacy.py)
    def _keys(self, code: str) -> list[str]:
        """Every key of room `code`: its hash, the keys under it, and its networks' token buckets."""
        return [_room(code), *self.client.scan_iter(match=f"{_room(code)}:*", count=1000),
                *self.client.scan_iter(match=BUCKET + room_bucket(code) + "*", count=1000)]  # fmt: skip

    def delete_room(self, code: str) -> None:
        def run() -> None:
            pipe = self.client.pipeline(transaction=True)
            for key in self._keys(code):
                pipe.delete(key)
            pipe.zrem(INDEX, code)
            pipe.zrem(KEPT, code)
            pipe.execute()
            self._rewrite = True
            self._rewrite_file()

        self._call(run)

    def purge(self, before: float, now: float) -> int:  # a token bucket expires by itself once full (TAKE)
        def run() -> int:
            gone = 0
            for code in self.client.zrangebyscore(KEPT, "-inf", before):
                keys = self._keys(code)  # their own expiry has usually taken them already
                if keys:
                    self.client.delete(*keys)
                if self.client.zrem(KEPT, code):  # one server process counts each room (and asks for one rewrite)
                    gone += 1
            self.client.zremrangebyscore(INDEX, "-inf", before)
            # the keys that expired by themselves (token buckets, full again) are still in the file: once an hour
            self._rewrite = self._rewrite or gone > 0 or time.monotonic() - self._rewritten >= REWRITE_EVERY
            self._rewrite_file()
            return gone

        return self._call(run)

    def _rewrite_file(self) -> None:
        """The append-only file keeps every write until it is rewritten: after a deletion, ask Redis to rewrite it
        from what it holds now (in the background), so that the deleted data leaves its disk too. Refused while a
        rewrite is under way (it may have begun before the deletion): asked again at the next sweep."""
        if not self._rewrite:
            return
        try:
            if int(self.client.info("persistence").get("aof_enabled", 0)):
                self.client.bgrewriteaof()
        except redis.exceptions.ResponseError:  # under way, or the command is disabled: the next sweep
            return
        self._rewrite, self._rewritten = False, time.monotonic()  # asked (or no file: nothing on disk to rewrite)
