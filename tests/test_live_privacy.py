"""What the live class keeps of people, and for how long (liveclass/privacy.py, docs/PRIVACY.md), against both
backends: a SQLite file and a real redis-server with its append-only file. After a class is deleted, or has expired
and been swept, nothing of it is left: not in the store's tables or keys, not in the bytes of the SQLite file and its
log, not in what Redis would load from its disk. A network address never reaches the store, nor a network in clear:
only its keyed digest, in the seats, the removals and the rates per network (token buckets), which go too."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from liveclass import Client, Limits, LiveError, Pass, Rooms, open_rooms
from liveclass.privacy import DIGEST_HEX, GRACE, start_sweeper
from liveclass.sqlite_backend import SqliteBackend
from network import address_key
from tests.live_redis import REDIS_SERVER, redis_server

QUESTION = {"kind": "argmax", "options": ["0:a", "1:b", "2:c"], "params": {"head": 1}}
TYPED = {"kind": "shape", "answer_type": "shape", "prompt": {"key": "", "params": {"text": "shape?"}}}
TEACHER_ADDRESS, GUESSER_ADDRESS = "198.51.100.23", "198.51.100.99"  # documentation ranges (RFC 5737, RFC 3849)


def student_addresses(tag: str) -> tuple[str, str]:
    """A class's students' networks: an IPv4 address, and an IPv6 address (its network: its /64), one per class."""
    return f"203.0.113.{ord(tag)}", f"2001:db8:{ord(tag):x}:7::42"


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class Store:
    """One backend under test: a factory of Rooms on it, and everything it holds, as bytes."""

    def __init__(self, kind: str, tmp: Path, url: str = "", data: Path | None = None) -> None:
        self.kind, self.tmp, self.url, self.data = kind, tmp, url, data
        self.path = tmp / "live.sqlite3"

    def rooms(self, clock=None, limits: Limits | None = None) -> Rooms:
        if self.kind == "sqlite":
            backend = SqliteBackend(self.path)
        else:
            from liveclass.redis_backend import RedisBackend

            backend = RedisBackend(self.url)
        return Rooms(backend, limits or Limits(), **({"clock": clock} if clock else {}))

    def held(self) -> bytes:
        """Every key and value the store holds now (Redis), or every row of every table (SQLite), as text."""
        if self.kind == "sqlite":
            import sqlite3

            db = sqlite3.connect(self.path)
            tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            rows = [repr(row) for t in tables for row in db.execute(f"SELECT * FROM {t}")]
            db.close()
            return "\n".join(rows).encode()
        return dump_redis(self.url)

    def on_disk(self) -> bytes:
        """What the store's files hold: the SQLite file and its log as bytes; for Redis, what a redis-server started
        on a copy of its append-only files would hold (the file's base may be compressed), and the plain command
        logs themselves."""
        if self.kind == "sqlite":
            return b"".join(p.read_bytes() for p in self.tmp.glob("live.sqlite3*"))
        assert self.data is not None
        copy = self.tmp / f"aof-copy-{time.monotonic_ns()}"
        shutil.copytree(self.data, copy)
        with redis_server(copy) as (url, _, _):
            restored = dump_redis(url)
        logs = b"".join(p.read_bytes() for p in (self.data / "appendonlydir").glob("*.incr.aof"))
        return restored + logs


def dump_redis(url: str) -> bytes:
    import redis

    r = redis.Redis.from_url(url)
    out = []
    for key in r.scan_iter(count=1000):
        kind = r.type(key)
        value = {b"hash": r.hgetall, b"zset": lambda k: r.zrange(k, 0, -1, withscores=True), b"set": r.smembers,
                 b"string": r.get, b"list": lambda k: r.lrange(k, 0, -1)}[kind](key)  # fmt: skip
        out.append(repr((key, value)))
    return "\n".join(out).encode()


@pytest.fixture(scope="module")
def redis_store(tmp_path_factory):
    if REDIS_SERVER is None:
        pytest.skip("redis-server is not installed (.ci/run installs it)")
    data = tmp_path_factory.mktemp("redis-data")
    with redis_server(data) as (url, _, _):
        yield url, data


@pytest.fixture(params=["sqlite", "redis"])
def store(request, tmp_path) -> Store:
    if request.param == "sqlite":
        return Store("sqlite", tmp_path)
    import redis

    url, data = request.getfixturevalue("redis_store")
    redis.Redis.from_url(url).flushall()
    return Store("redis", tmp_path, url, data)


def a_class(rooms: Rooms, tag: str) -> dict:
    """A room with everything a class leaves in the store: a console and a projector, an invite, three students from
    one address with nicknames, a multiple-choice and a typed question, their answers, a fourth student (of an IPv6
    network) removed with their network, and the rates of the teacher's, the students' and a guesser's networks.
    Returns what would identify it (strings that must not be left once it is gone)."""
    teacher = Client(f"{tag}teacher".ljust(64, "t"), TEACHER_ADDRESS)
    ticket = rooms.create(teacher, attempt=f"{tag}-attempt")
    code, console = rooms.open_screen(ticket.code, "console", teacher.id, key=ticket.key)
    rooms.open_screen(code, "projector", teacher.id)
    rooms.invite(code, ticket.key, "projector")
    rooms.lead(code, ticket.key, {"page": "heads", "settings": f"{tag}-settings", "step": 1})
    marks = {"code": code, "teacher": teacher.id, "settings": f"{tag}-settings", "seats": [], "nicks": [],
             "browsers": []}  # fmt: skip
    qid = rooms.ask(code, ticket.key, QUESTION, 1)
    v4, v6 = student_addresses(tag)
    for i in range(3):
        student = Client(f"{tag}student{i}".ljust(64, "s"), v4)
        _, sid = rooms.join(code, client=student, attempt=f"{tag}-{i}")
        rooms.heartbeat(code, sid, following=i != 0)
        nick = f"Nick{tag}{i}"
        rooms.submit(code, sid, qid, i % 3, nickname=nick, client=student.id)
        marks["seats"].append(sid)
        marks["nicks"].append(nick)
        marks["browsers"].append(student.id)
    typed = rooms.ask(code, ticket.key, TYPED, {"answer": [4, 4], "tolerance": 0, "traps": []})
    marks["typed"] = f"{3000 + ord(tag)}, 4243"  # what the student typed is kept as typed
    rooms.submit(code, marks["seats"][0], typed, f"({marks['typed']})", nickname=marks["nicks"][0],
                 client=marks["browsers"][0])  # fmt: skip
    removed = Client(f"{tag}removed".ljust(64, "r"), v6)
    _, sid = rooms.join(code, client=removed, attempt=f"{tag}-removed")
    assert rooms.remove(code, ticket.key, [sid], networks=True, viewer=TEACHER_ADDRESS) == 1
    with pytest.raises(LiveError):  # a wrong code: one of the guesser's missed codes
        rooms.join("ZZZZZZ" if code != "ZZZZZZ" else "YYYYYY", client=Client("g" * 64, GUESSER_ADDRESS))
    marks["browsers"].append(removed.id)
    marks["networks"] = [rooms.network(v4), rooms.network(v6)]  # a class's own: in its seats, removals, join rates
    marks["key"], marks["console"] = ticket.key, Pass(console.sid, teacher.id)
    return marks


def traces(marks: dict) -> list[str]:
    return [marks["code"], marks["teacher"], marks["settings"], marks["typed"], *marks["seats"], *marks["nicks"],
            *marks["browsers"], *marks["networks"]]  # fmt: skip


def left(marks: dict, blob: bytes) -> list[str]:
    return [t for t in traces(marks) if t.encode() in blob]


def wait_for(check, seconds: float = 15.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "not within the time allowed"
        time.sleep(0.05)


def rewritten(store: Store, marks: dict) -> bool:
    """Redis has rewritten its append-only file since the deletion: no plain command log holds the class."""
    import redis

    info = redis.Redis.from_url(store.url).info("persistence")
    if info["aof_rewrite_in_progress"] or info["aof_rewrite_scheduled"]:
        return False
    logs = b"".join(p.read_bytes() for p in (store.data / "appendonlydir").glob("*.aof"))
    return not left(marks, logs)


def test_deleting_a_class_leaves_nothing_of_it(store):
    rooms = store.rooms()
    gone, kept = a_class(rooms, "G"), a_class(rooms, "K")
    assert set(traces(gone)) <= set(left(gone, store.held())), "the class is in the store before (the test's control)"
    assert set(gone["nicks"]) <= set(left(gone, store.on_disk())), "and in its files (the control of the files)"
    for auth in ("not-the-key", Pass(gone["console"].sid, "someone-else".ljust(64, "x"))):
        with pytest.raises(LiveError) as err:
            rooms.delete(gone["code"], auth)
        assert err.value.code == "not_teacher"
    assert rooms.room(gone["code"]).code == gone["code"], "a refused deletion deletes nothing"

    if store.kind == "sqlite":  # deleted rows are overwritten in the file (Debian's SQLite does it by default too)
        assert rooms.backend._take()[1].execute("PRAGMA secure_delete").fetchone() == (1,)
    rooms.end(gone["code"], gone["key"])  # the teacher ends the class, then deletes it (the console's order)
    rooms.delete(gone["code"], gone["console"])
    rooms.delete(gone["code"], gone["key"])  # a second time: nothing to do, no error
    if store.kind == "redis":
        wait_for(lambda: rewritten(store, gone))
    assert left(gone, store.held()) == []
    assert left(gone, store.on_disk()) == []
    assert set(left(kept, store.held())) == set(traces(kept)), "the other class is untouched"
    with pytest.raises(LiveError) as err:
        store.rooms().room(gone["code"])
    assert err.value.code == "unknown_room"
    assert rooms.answers(kept["code"], kept["key"])  # and still works


def test_an_expired_class_is_swept_away_after_the_grace(store):
    clock = Clock()
    rooms = store.rooms(clock)
    old = a_class(rooms, "E")
    clock.now += 3600
    young = a_class(rooms, "Y")  # opened an hour later: still kept when the first one goes
    clock.now += rooms.limits.ttl - 3600 + 1  # the first room has expired: unreadable, not yet deleted
    with pytest.raises(LiveError) as err:
        rooms.room(old["code"])
    assert err.value.code == "expired"
    assert rooms.sweep() == 0
    assert left(old, store.held())
    clock.now += GRACE  # the retention has passed: 13 hours after the room was opened
    assert clock.now - 1_000_000.0 > rooms.retention
    assert rooms.sweep() == 1
    if store.kind == "redis":
        wait_for(lambda: rewritten(store, old))
    assert left(old, store.held() + store.on_disk()) == []
    assert set(left(young, store.held())) == set(traces(young))
    assert rooms.sweep() == 0


def test_redis_deletes_every_key_of_a_room_itself_by_the_end_of_the_retention(redis_store, tmp_path):
    """Without any sweep: each key of a room expires within the retention (Redis's own expiry, in real time)."""
    import redis

    store = Store("redis", tmp_path, *redis_store)
    rooms = store.rooms()
    marks = a_class(rooms, "R")
    r = redis.Redis.from_url(store.url, decode_responses=True)
    keys = [k for k in r.scan_iter(count=1000) if marks["code"] in k]
    assert len(keys) >= 9  # the room, seats, who, away, screens, invites, questions, answers, removed; join rates
    for key in keys:
        left_ms = r.pttl(key)
        assert left_ms == -2 or 0 < left_ms <= 1000 * (rooms.retention + 1), key  # -2: gone already (a full rate)


def test_a_network_address_never_reaches_the_store(store):
    rooms = store.rooms()
    a_class(rooms, "A")
    if store.kind == "redis":
        import redis

        redis.Redis.from_url(store.url).bgrewriteaof()
        wait_for(lambda: not redis.Redis.from_url(store.url).info("persistence")["aof_rewrite_in_progress"])
    held = store.held()
    blob = held + store.on_disk()
    for kind in (b"start|", b"miss|", b"join|", b"n:"):  # the test's control: the rates and a removal are there
        assert kind in held, kind
    for address in (TEACHER_ADDRESS, GUESSER_ADDRESS, *student_addresses("A")):
        for clear in {address, address_key(address)}:  # the address, and the network the rates count (an IPv6 /64)
            assert clear.encode() not in blob, clear
        assert rooms.network(address).encode() in held  # only its digest
    assert b"2001:db8" not in blob


def test_a_networks_digest_is_keyed_by_the_store_and_the_same_in_every_process(store):
    first, second = store.rooms(), store.rooms()  # two server processes on one store
    home = "2001:db8:1:2::10"
    digest = first.network(home)
    assert len(digest) == DIGEST_HEX and int(digest, 16) >= 0
    assert second.network("2001:db8:1:2:ffff::1") == digest  # the same /64: the same network
    assert second.network("2001:db8:1:3::10") != digest and first.network("10.1.2.3") != first.network("10.1.2.4")
    assert first.network("") == first.network("") != first.network("127.0.0.1")  # no address: this machine's
    (store.tmp / "elsewhere").mkdir()
    other = Store("sqlite", store.tmp / "elsewhere")  # another store has a key of its own
    assert other.rooms().network(home) != digest


def test_a_networks_rates_are_kept_only_until_full_again(store):
    clock = Clock()
    rooms = store.rooms(clock)
    a_class(rooms, "B")
    if store.kind == "redis":  # each bucket expires by itself, once it would be full again
        import redis

        r = redis.Redis.from_url(store.url)
        buckets = list(r.scan_iter(match="mha:live:bucket:*", count=1000))
        assert len(buckets) >= 3  # the teacher's start, the guesser's miss, the students' joins (some may be gone)
        assert all(r.pttl(k) == -2 or 0 < r.pttl(k) <= 1000 * (rooms.limits.rate_kept + 1) for k in buckets)
        return
    import sqlite3

    def buckets() -> int:
        db = sqlite3.connect(store.path)
        try:
            return db.execute("SELECT COUNT(*) FROM buckets").fetchone()[0]
        finally:
            db.close()

    assert buckets() >= 3
    clock.now += rooms.limits.rate_kept  # every bucket is full again: the sweep deletes them (not the class)
    rooms.sweep()
    assert buckets() == 0


def test_a_networks_expired_rates_leave_redis_disk_within_the_hour(redis_store, tmp_path, monkeypatch):
    """A token bucket expires by itself, but its writes stay in the append-only file until the file is rewritten: the
    sweep has it rewritten at least every REWRITE_EVERY seconds (an hour), so a rate's digest leaves the disk too."""
    import redis

    from liveclass import redis_backend

    store = Store("redis", tmp_path, *redis_store)
    r = redis.Redis.from_url(store.url)
    r.flushall()
    wait_for(lambda: not r.info("persistence")["aof_rewrite_in_progress"])
    rooms = store.rooms(limits=Limits(misses_per_hour=36_000))  # a missed code is given back within 0.1 s
    with pytest.raises(LiveError):
        rooms.join("ZZZZZZ", client=Client("g" * 64, GUESSER_ADDRESS))
    digest = rooms.network(GUESSER_ADDRESS).encode()
    assert digest in store.on_disk()  # the test's control: the bucket's write is in the file
    wait_for(lambda: not list(r.scan_iter(match="mha:live:bucket:*")), 5)  # full again: expired
    assert digest in store.on_disk()  # still in the file's log
    monkeypatch.setattr(redis_backend, "REWRITE_EVERY", 0.0)
    rooms.sweep()
    wait_for(lambda: not r.info("persistence")["aof_rewrite_in_progress"]
             and not r.info("persistence")["aof_rewrite_scheduled"] and digest not in store.on_disk())


def test_the_sweeper_runs_by_itself_and_ends_with_its_store(tmp_path):
    clock = Clock()
    rooms = Rooms(SqliteBackend(tmp_path / "live.sqlite3"), Limits(), clock=clock)
    marks = a_class(rooms, "S")
    clock.now += rooms.retention + 1
    thread = start_sweeper(rooms, every=0.05)
    wait_for(lambda: not left(marks, Store("sqlite", tmp_path).held()), 5)
    del rooms
    thread.join(5)
    assert not thread.is_alive()


def test_the_app_store_sweeps_when_it_opens(tmp_path, monkeypatch):
    """open_rooms (what every server process uses) sweeps at once: rooms past their retention in a file left by an
    earlier run are gone before the first request."""
    path = tmp_path / "live.sqlite3"
    clock = Clock()
    clock.now = time.time() - Limits().ttl - GRACE - 60
    marks = a_class(Rooms(SqliteBackend(path), Limits(), clock=clock), "O")
    monkeypatch.setenv("MHA_LIVE_DB", str(path))
    monkeypatch.delenv("MHA_REDIS_URL", raising=False)
    rooms = open_rooms()
    wait_for(lambda: not left(marks, Store("sqlite", tmp_path).held()), 5)
    assert rooms.retention == Limits().ttl + GRACE
