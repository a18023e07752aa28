"""The live-class room store (liveclass/), the same specification against both backends: SQLite in a file and a
real redis-server. Who may change a room, what students may send, limits, expiry, and the store going away."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from liveclass import ALPHABET, CODE_LEN, Limits, LiveError, Rooms, StoreUnavailable, normalise_code
from liveclass.sqlite_backend import SqliteBackend
from tests.browser import ROOT
from tests.live_redis import REDIS_SERVER, redis_server, start_redis, stop

QUESTION = {"kind": "argmax", "options": ["0:a", "1:b", "2:c"], "params": {"head": 1}}


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    if REDIS_SERVER is None:
        pytest.skip("redis-server is not installed (.ci/run installs it)")
    with redis_server(tmp_path_factory.mktemp("redis")) as (url, _, _):
        yield url


@pytest.fixture(params=["sqlite", "redis"])
def make_rooms(request, tmp_path):
    """A factory of Rooms on a fresh store of each backend; the same call twice shares one store."""
    if request.param == "sqlite":
        path = tmp_path / "live.sqlite3"

        def backend():
            return SqliteBackend(path)
    else:
        import redis

        from liveclass.redis_backend import RedisBackend

        url = request.getfixturevalue("redis_url")
        redis.Redis.from_url(url).flushall()

        def backend():
            return RedisBackend(url)

    def factory(limits: Limits | None = None, clock=None) -> Rooms:
        return Rooms(backend(), limits or Limits(), **({"clock": clock} if clock else {}))

    return factory


# ---------------------------------------------------------------- codes
def test_codes_are_short_and_free_of_ambiguous_characters(make_rooms):
    rooms = make_rooms()
    codes = {rooms.create().code for _ in range(20)}
    assert len(codes) == 20
    for code in codes:
        assert len(code) == CODE_LEN and set(code) <= set(ALPHABET)
    assert not set(ALPHABET) & set("01OIL")


@pytest.mark.parametrize("typed", ["abc-def", " AB CD EF ", "abcdef"])
def test_a_typed_code_is_normalised(typed):
    assert normalise_code(typed) == "ABCDEF"


@pytest.mark.parametrize("bad", ["", "ABC", "ABCDEFG", "ABCDE0", "ABCDEI", "ÄBCDEF", "<b>hi", None, "１２３４５６"])
def test_a_malformed_code_is_refused(bad):
    with pytest.raises(LiveError) as err:
        normalise_code(bad)
    assert err.value.code == "bad_code"


def test_an_unknown_code_is_refused(make_rooms):
    rooms = make_rooms()
    with pytest.raises(LiveError) as err:
        rooms.join("ZZZZZZ")
    assert err.value.code == "unknown_room"
    with pytest.raises(LiveError):
        rooms.version("ZZZZZZ")


def _empty_the_store(rooms: Rooms) -> None:
    """What a Redis restarted without its append-only file (or a store emptied by hand) leaves: nothing."""
    backend = rooms.backend
    if isinstance(backend, SqliteBackend):
        import sqlite3

        with sqlite3.connect(backend.path) as db:
            for table in ("answers", "students", "rooms"):
                db.execute(f"DELETE FROM {table}")
    else:
        backend.client.flushall()


def test_a_room_the_store_lost_is_called_lost_to_the_teacher_and_the_students(make_rooms):
    teacher, student = make_rooms(), make_rooms()  # two server processes sharing the store
    t = teacher.create()
    code, sid = student.join(t.code)
    qid = teacher.ask(t.code, t.key, QUESTION, answer=1)
    student.submit(code, sid, qid, 2)
    _empty_the_store(teacher)
    for call in (lambda: teacher.lead(t.code, t.key, {"page": "heads"}), lambda: teacher.presence(t.code, t.key),
                 lambda: teacher.answers(t.code, t.key), lambda: student.version(code), lambda: student.room(code),
                 lambda: student.submit(code, sid, qid, 1)):  # fmt: skip
        with pytest.raises(LiveError) as err:
            call()
        assert err.value.code == "lost" and err.value.params == {"room": t.code}
    with pytest.raises(LiveError) as err:  # a server that never saw the code: it may well be mistyped
        make_rooms().join(t.code)
    assert err.value.code == "unknown_room"


def test_what_a_process_remembers_of_codes_is_bounded(make_rooms):
    rooms = make_rooms(Limits(max_rooms=3))
    codes = [f"{a}{b}2345" for a in ALPHABET[:10] for b in ALPHABET[:10]]
    for code in codes:
        rooms._found(code)
    assert list(rooms._known) == codes[-12:]  # 4 x max_rooms, the most recent


# ---------------------------------------------------------------- teacher leads, students follow
def test_the_teacher_leads_and_every_change_bumps_the_version(make_rooms):
    rooms = make_rooms()
    t = rooms.create()
    v0 = rooms.version(t.code)
    v1 = rooms.lead(t.code, t.key, {"page": "heads", "settings": "{}", "step": 2})
    assert v1 > v0 and rooms.version(t.code) == v1
    assert rooms.lead(t.code, t.key, {"page": "heads", "settings": "{}", "step": 2}) == v1  # no change, no bump
    code, _ = rooms.join(t.code.lower())
    assert rooms.room(code).state == {"page": "heads", "settings": "{}", "step": 2}


def test_a_second_process_sees_the_room(make_rooms):
    """A second store object (another server process, or the same one after a restart) shares every room."""
    a, b = make_rooms(), make_rooms()
    t = a.create()
    a.lead(t.code, t.key, {"page": "steps"})
    assert b.room(t.code).state == {"page": "steps"}
    assert b.check_teacher(t.code, t.key) == t.code  # a reload takes the room back with the key


def test_a_recent_version_serves_the_polls_of_one_process(make_rooms, monkeypatch):
    """version(max_age): one store read serves every student of a process for max_age seconds; a change made
    through this process is seen at once, one made through another process once max_age has passed."""
    a, b = make_rooms(), make_rooms()
    t = a.create()
    reads = []
    real = a.backend.load_version
    monkeypatch.setattr(a.backend, "load_version", lambda code: reads.append(code) or real(code))
    v0 = a.version(t.code, max_age=0.3)
    assert [a.version(t.code, max_age=0.3) for _ in range(20)] == [v0] * 20 and len(reads) == 1
    v1 = a.lead(t.code, t.key, {"page": "steps"})  # through this process: not served from memory
    assert a.version(t.code, max_age=0.3) == v1 and len(reads) == 2
    v2 = b.lead(t.code, t.key, {"page": "heads"})  # through another process: at most max_age later
    assert a.version(t.code, max_age=0.3) == v1
    time.sleep(0.35)
    assert a.version(t.code, max_age=0.3) == v2
    assert a.version(t.code) == v2 and len(reads) == 4  # without max_age, always the store
    b.end(t.code, t.key)
    time.sleep(0.35)
    with pytest.raises(LiveError, match="ended"):
        a.version(t.code, max_age=0.3)


@pytest.mark.parametrize("key", ["", "wrong", None, 123, "x" * 10_000])
def test_only_the_teacher_key_changes_the_room(make_rooms, key):
    rooms = make_rooms()
    t = rooms.create()
    _, sid = rooms.join(t.code)
    version = rooms.version(t.code)
    for call in (lambda: rooms.lead(t.code, key, {"page": "x"}), lambda: rooms.ask(t.code, key, QUESTION, 0),
                 lambda: rooms.reveal(t.code, key), lambda: rooms.end(t.code, key),
                 lambda: rooms.answers(t.code, key), lambda: rooms.presence(t.code, key),
                 lambda: rooms.lead(t.code, sid, {"page": "x"})):  # fmt: skip
        with pytest.raises(LiveError) as err:
            call()
        assert err.value.code == "not_teacher"
    assert rooms.version(t.code) == version


def test_ending_a_room_sends_everyone_back(make_rooms):
    """Those in the room hear that it ended; a join by its code hears what an unknown code hears (a guesser learns
    nothing from which)."""
    rooms = make_rooms()
    t = rooms.create()
    rooms.join(t.code)
    rooms.end(t.code, t.key)
    for call, code in ((lambda: rooms.version(t.code), "ended"), (lambda: rooms.join(t.code), "unknown_room"),
                       (lambda: rooms.lead(t.code, t.key, {}), "ended")):  # fmt: skip
        with pytest.raises(LiveError) as err:
            call()
        assert err.value.code == code


def test_a_room_expires_after_twelve_hours(make_rooms):
    clock = Clock()
    rooms = make_rooms(clock=clock)
    t = rooms.create()
    clock.now += 11.9 * 3600
    rooms.version(t.code)
    clock.now += 0.2 * 3600
    with pytest.raises(LiveError) as err:
        rooms.version(t.code)
    assert err.value.code == "expired"
    with pytest.raises(LiveError) as err:
        rooms.join(t.code)
    assert err.value.code == "unknown_room"  # as if there were no such room


# ---------------------------------------------------------------- presence
def test_presence_counts_connected_and_following_students(make_rooms):
    clock = Clock()
    rooms = make_rooms(clock=clock)
    t = rooms.create()
    sids = [rooms.join(t.code)[1] for _ in range(4)]
    for i, sid in enumerate(sids):
        rooms.heartbeat(t.code, sid, following=i != 0)
    p = rooms.presence(t.code, t.key)
    assert (p.joined, p.connected, p.following) == (4, 4, 3)
    clock.now += 20  # two of them stop sending heartbeats
    rooms.heartbeat(t.code, sids[0], following=True)
    rooms.heartbeat(t.code, sids[1], following=False)
    p = rooms.presence(t.code, t.key)
    assert (p.joined, p.connected, p.following) == (4, 2, 1)


def test_a_reload_joins_again_without_counting_twice(make_rooms):
    rooms = make_rooms()
    t = rooms.create()
    _, sid = rooms.join(t.code)
    assert rooms.join(t.code, sid) == (t.code, sid)
    assert rooms.join(t.code, "not a valid id!")[1] != sid  # a made-up id is a new student
    assert rooms.presence(t.code, t.key).joined == 2


def test_heartbeat_of_a_stranger_changes_nothing(make_rooms):
    rooms = make_rooms()
    t = rooms.create()
    rooms.heartbeat(t.code, "abcdefgh12345", following=True)
    assert rooms.presence(t.code, t.key).joined == 0


# ---------------------------------------------------------------- questions
def test_answers_stay_hidden_until_the_reveal_and_count_once(make_rooms):
    rooms = make_rooms()
    t = rooms.create()
    students = [rooms.join(t.code)[1] for _ in range(3)]
    qid = rooms.ask(t.code, t.key, QUESTION, answer=2)
    room = rooms.room(t.code)
    assert room.question == QUESTION and room.qid == qid and room.answer is None and not room.revealed
    rooms.submit(t.code, students[0], qid, 2, "Ann")
    rooms.submit(t.code, students[0], qid, 2, "Ann")  # a double click
    rooms.submit(t.code, students[1], qid, 0)
    rooms.submit(t.code, students[1], qid, 1)  # changed their mind: replaces, not adds
    answers = rooms.answers(t.code, t.key)
    assert sorted((a.sid, a.choice) for a in answers) == sorted([(students[0], 2), (students[1], 1)])
    assert [a.nickname for a in answers if a.sid == students[0]] == ["Ann"]
    rooms.reveal(t.code, t.key)
    room = rooms.room(t.code)
    assert room.revealed and room.answer == 2
    with pytest.raises(LiveError) as err:
        rooms.submit(t.code, students[2], qid, 0)
    assert err.value.code == "closed"
    qid2 = rooms.ask(t.code, t.key, QUESTION, answer=0)  # a new question starts with no answers, hidden again
    assert qid2 != qid and rooms.answers(t.code, t.key) == [] and rooms.room(t.code).answer is None


@pytest.mark.parametrize("choice", [-1, 3, 1.0, "1", True, None, 10**30])
def test_a_choice_that_is_not_an_option_is_refused(make_rooms, choice):
    rooms = make_rooms()
    t = rooms.create()
    _, sid = rooms.join(t.code)
    qid = rooms.ask(t.code, t.key, QUESTION, answer=0)
    with pytest.raises(LiveError) as err:
        rooms.submit(t.code, sid, qid, choice)
    assert err.value.code == "bad_choice"
    assert rooms.answers(t.code, t.key) == []


def test_a_student_who_did_not_join_or_answers_an_old_question_is_refused(make_rooms):
    rooms = make_rooms()
    t = rooms.create()
    _, sid = rooms.join(t.code)
    qid = rooms.ask(t.code, t.key, QUESTION, answer=0)
    with pytest.raises(LiveError) as err:
        rooms.submit(t.code, "abcdefgh12345", qid, 0)
    assert err.value.code == "not_joined"
    with pytest.raises(LiveError) as err:
        rooms.submit(t.code, sid, "000000000000", 0)
    assert err.value.code == "no_question"


def test_nicknames_are_length_limited_and_kept_as_typed_text(make_rooms):
    rooms = make_rooms()
    t = rooms.create()
    _, sid = rooms.join(t.code)
    qid = rooms.ask(t.code, t.key, QUESTION, answer=0)
    with pytest.raises(LiveError) as err:
        rooms.submit(t.code, sid, qid, 0, "x" * 25)
    assert err.value.code == "nickname_too_long"
    rooms.submit(t.code, sid, qid, 0, "<b>Bo</b>\x00\n  **x**")
    assert rooms.answers(t.code, t.key)[0].nickname == "<b>Bo</b> **x**"  # control characters dropped, not markup


@pytest.mark.parametrize("question, answer", [({"options": ["a"]}, 0), ({"options": "ab"}, 0),
                                              ({"options": ["a", "b"]}, 2), ({"options": ["a"] * 13}, 0),
                                              ({"options": ["a", "b"], "x": "y" * 20_000}, 0)])  # fmt: skip
def test_a_malformed_question_is_refused(make_rooms, question, answer):
    rooms = make_rooms()
    t = rooms.create()
    with pytest.raises(LiveError):
        rooms.ask(t.code, t.key, question, answer)


# ---------------------------------------------------------------- limits
def test_limits_on_rooms_and_students(make_rooms):
    rooms = make_rooms(Limits(max_rooms=2, max_students=3))
    a = rooms.create()
    rooms.create()
    with pytest.raises(LiveError) as err:
        rooms.create()
    # a room frees its place when it expires or is abandoned (none of its screens seen for two hours, five minutes when
    # no student ever joined it, as these two)
    assert err.value.code == "too_many_rooms" and err.value.params == {"limit": 2, "minutes": 5}
    rooms.end(a.code, a.key)  # an ended room frees its place
    b = rooms.create()
    sids = [rooms.join(b.code)[1] for _ in range(3)]
    with pytest.raises(LiveError) as err:
        rooms.join(b.code)
    assert err.value.code == "room_full"
    assert rooms.join(b.code, sids[0])[1] == sids[0]  # a reload of a student already in is still welcome


def test_the_student_limit_holds_when_many_join_at_once(make_rooms):
    from concurrent.futures import ThreadPoolExecutor

    rooms = make_rooms(Limits(max_students=10))
    t = rooms.create()

    def join(_):
        try:
            return rooms.join(t.code)[1]
        except LiveError as e:
            return e.code

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(join, range(30)))
    assert sum(r != "room_full" for r in results) == 10
    assert rooms.presence(t.code, t.key).joined == 10


# ---------------------------------------------------------------- sharing and failure
def test_sqlite_is_shared_by_another_process(tmp_path):
    path = tmp_path / "live.sqlite3"
    rooms = Rooms(SqliteBackend(path))
    t = rooms.create()
    qid = rooms.ask(t.code, t.key, QUESTION, answer=1)
    script = (
        "import sys; from liveclass import Rooms; from liveclass.sqlite_backend import SqliteBackend\n"
        f"r = Rooms(SqliteBackend({str(path)!r})); code, sid = r.join({t.code!r}); r.submit(code, sid, {qid!r}, 1)"
    )
    subprocess.run([sys.executable, "-c", script], cwd=ROOT, check=True, timeout=60)
    assert [a.choice for a in rooms.answers(t.code, t.key)] == [1]


def test_sqlite_unreachable_is_reported_not_raised_raw(tmp_path):
    with pytest.raises(StoreUnavailable):
        SqliteBackend(tmp_path / "no" / "such" / "dir" / "live.sqlite3")


def _class_on(path, monkeypatch) -> tuple[Rooms, object, str, str]:
    """A process on the SQLite file `path` (looking at the file at every call) with a room, a seat and an answer."""
    from liveclass import Client, sqlite_backend

    monkeypatch.setattr(sqlite_backend, "CHECK_EVERY", 0.0)
    rooms = Rooms(SqliteBackend(path))
    t = rooms.create()
    code, sid = rooms.join(t.code, client=Client("s" * 64, "10.0.0.2"))
    qid = rooms.ask(t.code, t.key, QUESTION, answer=1)
    rooms.submit(code, sid, qid, 2, "Ann", client="s" * 64)
    return rooms, t, sid, qid


def _everything_is_there(rooms: Rooms, t, sid: str, qid: str, choice: int = 2) -> None:
    assert rooms.room(t.code).qid == qid
    assert [(a.sid, a.choice, a.nickname) for a in rooms.answers(t.code, t.key)] == [(sid, choice, "Ann")]
    assert rooms.presence(t.code, t.key).joined == 1


def test_a_removed_sqlite_file_is_made_again_with_everything_this_process_held(tmp_path, monkeypatch):
    """The file removed under a running server (a cleaner of the temporary folder): at its next call the server
    writes what it held into a new file at the path, and a process that starts afterwards sees it all."""
    path = tmp_path / "live.sqlite3"
    rooms, t, sid, qid = _class_on(path, monkeypatch)
    path.unlink()  # the -wal and -shm stay, as a cleaner that knows only the file leaves them
    rooms.submit(t.code, sid, qid, 0, "Ann", client="s" * 64)  # a student changes their answer: it is kept
    assert path.exists()
    _everything_is_there(Rooms(SqliteBackend(path)), t, sid, qid, choice=0)


def test_a_process_that_starts_on_a_removed_file_does_not_hide_the_rooms_of_one_that_runs(tmp_path, monkeypatch):
    """A second server started on the same MHA_LIVE_DB after the file was removed makes a fresh file (leaving aside the
    -wal the first one still writes to, which SQLite would take for the new file's and empty). Within a second of its
    next call, the first one has put its rooms into that file: the second sees them, and nothing was lost."""
    path = tmp_path / "live.sqlite3"
    rooms, t, sid, qid = _class_on(path, monkeypatch)
    path.unlink()
    second = Rooms(SqliteBackend(path))
    with pytest.raises(LiveError) as err:
        second.room(t.code)
    assert err.value.code == "unknown_room"
    _everything_is_there(rooms, t, sid, qid)  # the first process, at its next call, mends the store ...
    _everything_is_there(second, t, sid, qid)  # ... for everyone on the path
    second.create()  # and both go on in the one file
    assert Rooms(SqliteBackend(path)).room(t.code).code == t.code


def test_a_replaced_sqlite_file_gets_what_the_running_process_held(tmp_path, monkeypatch):
    """A copy put in the file's place (an old backup, another store): the process merges what it held into it; a room
    keeps its newer version."""
    import sqlite3

    path = tmp_path / "live.sqlite3"
    rooms, t, sid, qid = _class_on(path, monkeypatch)
    other = tmp_path / "other.sqlite3"
    kept = Rooms(SqliteBackend(other)).create()
    with sqlite3.connect(other) as src, sqlite3.connect(tmp_path / "copy.sqlite3") as copy:
        src.backup(copy)
    (tmp_path / "copy.sqlite3").replace(path)
    rooms.lead(t.code, t.key, {"page": "heads"})
    _everything_is_there(rooms, t, sid, qid)
    assert rooms.room(t.code).state == {"page": "heads"} and rooms.room(kept.code).code == kept.code


def test_the_sqlite_token_buckets_keep_only_networks_not_yet_refilled(tmp_path, monkeypatch):
    """A guesser from a million addresses leaves a row per network in the buckets' table: full buckets (as good as
    none) are swept away every SWEEP_BUCKETS takes, so the table holds the networks of the last minutes only."""
    import sqlite3

    from liveclass import sqlite_backend

    monkeypatch.setattr(sqlite_backend, "SWEEP_BUCKETS", 10)
    backend = SqliteBackend(tmp_path / "live.sqlite3")
    for i in range(200):  # one missed code each, 400 s apart: every bucket full again 10 s after its take
        assert backend.take(f"miss|10.0.{i}.1", 1_000_000.0 + 400 * i, 30, 0.1) == 0
    with sqlite3.connect(tmp_path / "live.sqlite3") as db:
        assert db.execute("SELECT COUNT(*) FROM buckets").fetchone()[0] <= 10


def test_a_store_whose_folder_is_gone_is_down_and_back_when_the_folder_is(tmp_path, monkeypatch):
    import shutil

    folder = tmp_path / "store"
    folder.mkdir()
    rooms, t, sid, qid = _class_on(folder / "live.sqlite3", monkeypatch)
    shutil.rmtree(folder)
    with pytest.raises(StoreUnavailable):
        rooms.room(t.code)
    folder.mkdir()
    _everything_is_there(rooms, t, sid, qid)


@pytest.mark.skipif(REDIS_SERVER is None, reason="redis-server is not installed (.ci/run installs it)")
def test_redis_going_away_and_coming_back(tmp_path):
    from liveclass.redis_backend import RedisBackend

    port_dir = tmp_path / "data"
    port_dir.mkdir()
    with redis_server(port_dir) as (url, proc, port):
        rooms = Rooms(RedisBackend(url, cooldown=0.5))
        t = rooms.create()
        rooms.lead(t.code, t.key, {"page": "heads"})
        os.kill(proc.pid, signal.SIGSTOP)  # hangs: every call must give up fast
        try:
            t0 = time.perf_counter()
            with pytest.raises(StoreUnavailable):
                rooms.version(t.code)
            assert time.perf_counter() - t0 < 1.5
            t0 = time.perf_counter()
            with pytest.raises(StoreUnavailable):  # within the cooldown: no network at all
                rooms.version(t.code)
            assert time.perf_counter() - t0 < 0.05
        finally:
            os.kill(proc.pid, signal.SIGCONT)
        stop(proc)  # gone: connection refused
        time.sleep(0.6)
        with pytest.raises(StoreUnavailable):
            rooms.join(t.code)
        proc2 = start_redis(port, port_dir)  # back, with its append-only file
        try:
            time.sleep(0.6)  # past the cooldown
            assert rooms.room(t.code).state == {"page": "heads"}
            rooms.lead(t.code, t.key, {"page": "steps"})
            assert rooms.room(t.code).state == {"page": "steps"}
        finally:
            stop(proc2)


def test_the_tally_is_the_teachers_until_the_reveal(make_rooms):
    rooms = make_rooms()
    t = rooms.create()
    sids = [rooms.join(t.code)[1] for _ in range(3)]
    qid = rooms.ask(t.code, t.key, QUESTION, answer=1)
    for sid, choice in zip(sids, (1, 1, 2), strict=True):
        rooms.submit(t.code, sid, qid, choice)
    assert rooms.tally(t.code) is None  # a student asks before the reveal
    assert rooms.tally(t.code, t.key) == [0, 2, 1]
    rooms.reveal(t.code, t.key)
    assert rooms.tally(t.code) == [0, 2, 1]


def test_every_refusal_of_the_store_has_its_message_in_both_languages():
    import re

    from i18n import STRINGS

    codes = {code for f in (ROOT / "liveclass").glob("*.py")  # the first argument of every LiveError(...)
             for first in re.findall(r"LiveError\(([^,)]*)", f.read_text(encoding="utf-8"))
             for code in re.findall(r"\"(\w+)\"", first)} | {"store_down"}  # fmt: skip
    assert {"lost", "unknown_room", "bad_code"} <= codes
    for code in codes:
        assert {"en", "zh"} <= set(STRINGS[f"live.err.{code}"]), code
