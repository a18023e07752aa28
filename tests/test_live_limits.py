"""The room store's rules for the teacher's screens and for each client (liveclass, both backends: SQLite and a real
redis-server): consoles and projectors and who accepts them, a replayed `me=` link, seats and rooms per browser, the
rates per network (a class and its teachers behind one school address all get in; a script from one address no
faster than a class; missed codes slowed on every path; unknown and ended rooms alike), the teacher's room size, lock
and seat list, seats given back, an abandoned room freeing its place, closing a question, the questions kept for the
CSV, typed answers kept exactly as typed."""

from __future__ import annotations

import pytest

from liveclass import ACCEPTED, CONSOLE, PROJECTOR, WAITING, Client, Limits, LiveError, Pass
from tests import test_live_store
from tests.test_live_store import QUESTION, Clock
from tests.test_live_typed_store import NUMBER, NUMBER_SOLUTION

make_rooms, redis_url = test_live_store.make_rooms, test_live_store.redis_url  # the same two backends (fixtures)

TEACHER, OTHER, ANN, BO = "t" * 64, "o" * 64, "a" * 64, "b" * 64  # browsers (hashes of their secrets)


def refused(fn, *args, **kw) -> LiveError:
    with pytest.raises(LiveError) as err:
        fn(*args, **kw)
    return err.value


def opened(make_rooms, clock=None, limits=None):
    """A room opened by the TEACHER browser, and its first console (accepted: the browser that opened the room)."""
    rooms = make_rooms(limits, clock)
    ticket = rooms.create(Client(TEACHER, "10.0.0.1"))
    _, console = rooms.open_screen(ticket.code, CONSOLE, TEACHER, key=ticket.key)
    assert console.status == ACCEPTED and console.role == CONSOLE
    return rooms, ticket, Pass(console.sid, TEACHER)


# ---------------------------------------------------------------- consoles and projectors
def test_a_second_console_with_the_key_waits_until_the_open_console_accepts_it(make_rooms):
    rooms, t, first = opened(make_rooms)
    _, second = rooms.open_screen(t.code, CONSOLE, OTHER, key=t.key)
    assert second.status == WAITING
    assert refused(rooms.ask, t.code, Pass(second.sid, OTHER), QUESTION, 0).code == "not_teacher"
    assert [(s.role, s.status) for s in rooms.screens(t.code, first)] == [(CONSOLE, ACCEPTED), (CONSOLE, WAITING)]
    rooms.decide(t.code, first, second.sid, True)
    assert rooms.screen_beat(t.code, Pass(second.sid, OTHER)).status == ACCEPTED
    rooms.ask(t.code, Pass(second.sid, OTHER), QUESTION, 0)
    rooms.decide(t.code, first, second.sid, False)  # and closes it again
    assert refused(rooms.screen_beat, t.code, Pass(second.sid, OTHER)).code == "refused"
    assert refused(rooms.reveal, t.code, Pass(second.sid, OTHER)).code == "not_teacher"


def test_a_console_needs_the_key_or_an_invite_and_a_wrong_key_is_refused(make_rooms):
    rooms, t, first = opened(make_rooms)
    assert refused(rooms.open_screen, t.code, CONSOLE, OTHER).code == "not_teacher"
    assert refused(rooms.open_screen, t.code, CONSOLE, OTHER, key="guess").code == "not_teacher"
    token = rooms.invite(t.code, first, CONSOLE)
    _, phone = rooms.open_screen(t.code, CONSOLE, OTHER, invite=token)
    assert phone.status == ACCEPTED  # the private link an open console made
    assert refused(rooms.open_screen, t.code, CONSOLE, ANN, invite=token).code == "not_teacher"  # used once


def test_with_no_console_open_the_key_opens_one_at_once(make_rooms):
    clock = Clock()
    rooms, t, _ = opened(make_rooms, clock)
    clock.now += 60  # the teacher's laptop went away
    _, again = rooms.open_screen(t.code, CONSOLE, OTHER, key=t.key)
    assert again.status == ACCEPTED


def test_a_reload_finds_its_own_screen_and_another_browser_cannot_take_it(make_rooms):
    rooms, t, first = opened(make_rooms)
    _, same = rooms.open_screen(t.code, CONSOLE, TEACHER, sid=first.sid)
    assert same.sid == first.sid and same.status == ACCEPTED
    _, stranger = rooms.open_screen(t.code, CONSOLE, OTHER, key=t.key, sid=first.sid)
    assert stranger.sid != first.sid and stranger.status == WAITING
    assert refused(rooms.lead, t.code, Pass(first.sid, OTHER), {"page": "x"}).code == "not_teacher"


def test_a_projector_comes_by_invite_or_asks_and_may_lead_but_never_sees_the_answers(make_rooms):
    rooms, t, console = opened(make_rooms)
    token = rooms.invite(t.code, console, PROJECTOR)
    _, projector = rooms.open_screen(t.code, PROJECTOR, OTHER, invite=token)
    assert projector.status == ACCEPTED
    _, again = rooms.open_screen(t.code, PROJECTOR, ANN, invite=token)  # the same private link, another window
    assert again.status == ACCEPTED
    p = Pass(projector.sid, OTHER)
    rooms.lead(t.code, p, {"page": "steps", "step": 3})  # the clicker on the projector moves the class
    assert rooms.room(t.code).state == {"page": "steps", "step": 3}
    rooms.ask(t.code, console, QUESTION, 1)
    for call in (rooms.reveal, rooms.close, rooms.end, rooms.presence, rooms.answers):
        assert refused(call, t.code, p).code == "not_teacher"
    assert refused(rooms.tally, t.code, p).code == "not_teacher"
    _, asking = rooms.open_screen(t.code, PROJECTOR, BO)  # a projector that just asks (typed the code)
    assert asking.status == WAITING
    assert refused(rooms.lead, t.code, Pass(asking.sid, BO), {"page": "x"}).code == "not_teacher"
    rooms.decide(t.code, console, asking.sid, True)
    rooms.lead(t.code, Pass(asking.sid, BO), {"page": "heads"})
    assert refused(rooms.invite, t.code, p, CONSOLE).code == "not_teacher"  # a projector makes no console


def test_screens_are_bounded_per_room(make_rooms):
    rooms, t, _ = opened(make_rooms, limits=Limits(max_screens=3))
    rooms.open_screen(t.code, PROJECTOR, ANN)
    rooms.open_screen(t.code, PROJECTOR, BO)
    assert refused(rooms.open_screen, t.code, PROJECTOR, OTHER).code == "too_many_screens"


# ---------------------------------------------------------------- a join cut off half-way
def test_a_join_asked_again_with_the_same_attempt_gets_the_same_seat_and_no_one_else_gets_it(make_rooms):
    """A page run stopped after the store gave the seat asks again with the same attempt (its session): the same seat,
    not a second one; another browser with the same attempt, or replaying the seat's id, gets a seat of its own."""
    rooms, t, console = opened(make_rooms)
    _, first = rooms.join(t.code, client=Client(ANN, "10.0.0.2"), attempt="session-1")
    assert rooms.join(t.code, client=Client(ANN, "10.0.0.2"), attempt="session-1")[1] == first
    assert rooms.presence(t.code, console).joined == 1
    _, bo = rooms.join(t.code, client=Client(BO, "10.0.0.3"), attempt="session-1")
    _, replay = rooms.join(t.code, first, Client(OTHER, "10.0.0.4"), attempt="session-9")
    assert len({first, bo, replay}) == 3
    _, again = rooms.join(t.code, client=Client(ANN, "10.0.0.2"), attempt="session-2")  # a second tab: its own seat
    assert again not in (first, bo, replay)
    assert rooms.presence(t.code, console).joined == 4


# ---------------------------------------------------------------- a start cut off half-way
def test_a_room_opened_again_with_the_same_attempt_is_the_same_room_and_costs_no_second_place(make_rooms):
    """The console's Start stopped after the store opened the room asks again with the same attempt (its session): the
    same room and key, not an orphan counted against the browser's limit; another browser with that attempt, another
    attempt, or the attempt after its room ended, opens a room of its own."""
    rooms = make_rooms(Limits(rooms_per_client=3))
    first = rooms.create(Client(TEACHER, "10.0.0.1"), attempt="session-1")
    for _ in range(5):  # more tries than the browser may have rooms
        assert rooms.create(Client(TEACHER, "10.0.0.1"), attempt="session-1") == first
    assert rooms.check_teacher(first.code, first.key) == first.code
    other = rooms.create(Client(OTHER, "10.0.0.2"), attempt="session-1")  # no one else gets the room
    assert other.code != first.code and other.key != first.key
    second = rooms.create(Client(TEACHER, "10.0.0.1"), attempt="session-2")  # a second tab: a room of its own
    assert second.code not in (first.code, other.code)
    _, console = rooms.open_screen(first.code, CONSOLE, TEACHER, key=first.key)
    rooms.end(first.code, Pass(console.sid, TEACHER))
    again = rooms.create(Client(TEACHER, "10.0.0.1"), attempt="session-1")  # ended: the attempt opens a new room
    assert again.code not in (first.code, second.code) and rooms.room(again.code).question is None
    assert rooms.create(Client(TEACHER, "10.0.0.1"), attempt="session-1") == again
    rooms.create(Client(TEACHER, "10.0.0.1"), attempt="session-3")  # the browser's third open room
    assert refused(rooms.create, Client(TEACHER, "10.0.0.1"), attempt="session-4").code == "rooms_per_client"
    assert rooms.create(Client(TEACHER, "10.0.0.1"), attempt="session-1") == again  # at the limit: still its room
    assert rooms.create(Client("", "10.0.0.9"), attempt="session-1") != rooms.create(Client("", "10.0.0.9"),
                                                                                    attempt="session-1")  # fmt: skip


def test_a_console_opened_again_with_the_same_attempt_is_the_same_screen(make_rooms):
    """Start asked again with the same attempt also gets the console screen it made the first time: the teacher sees
    one console, not two; another attempt, or another browser with that attempt, makes a screen of its own."""
    rooms = make_rooms()
    t = rooms.create(Client(TEACHER, "10.0.0.1"), attempt="session-1")
    _, first = rooms.open_screen(t.code, CONSOLE, TEACHER, key=t.key, attempt="session-1")
    for _ in range(3):
        assert rooms.open_screen(t.code, CONSOLE, TEACHER, key=t.key, attempt="session-1")[1].sid == first.sid
    assert [(s.role, s.status) for s in rooms.screens(t.code, Pass(first.sid, TEACHER))] == [(CONSOLE, ACCEPTED)]
    _, other = rooms.open_screen(t.code, CONSOLE, OTHER, key=t.key, attempt="session-1")
    _, second = rooms.open_screen(t.code, CONSOLE, TEACHER, key=t.key, attempt="session-2")
    assert len({first.sid, other.sid, second.sid}) == 3
    assert refused(rooms.open_screen, t.code, CONSOLE, ANN, attempt="session-1").code == "not_teacher"  # no key


# ---------------------------------------------------------------- a replayed me= link
def test_a_replayed_seat_id_gets_a_seat_of_its_own_and_cannot_answer_as_its_owner(make_rooms):
    rooms, t, console = opened(make_rooms)
    _, ann = rooms.join(t.code, client=Client(ANN, "10.0.0.2"))
    assert rooms.join(t.code, ann, Client(ANN, "10.0.0.2"))[1] == ann  # Ann's reload: her seat
    _, replay = rooms.join(t.code, ann, Client(BO, "10.0.0.3"))  # Bo opens Ann's link (me=<Ann's id>)
    assert replay != ann
    qid = rooms.ask(t.code, console, QUESTION, 1)
    rooms.submit(t.code, ann, qid, 0, client=ANN)
    assert refused(rooms.submit, t.code, ann, qid, 2, client=BO).code == "not_joined"
    assert refused(rooms.mine, t.code, ann, BO).code == "not_joined"
    rooms.submit(t.code, replay, qid, 2, client=BO)
    assert {a.sid: a.choice for a in rooms.answers(t.code, console)} == {ann: 0, replay: 2}


# ---------------------------------------------------------------- seats and rooms per client
def test_one_browser_holds_a_few_seats(make_rooms):
    rooms, t, _ = opened(make_rooms, limits=Limits(seats_per_client=3))
    for _ in range(3):
        rooms.join(t.code, client=Client(ANN, "10.0.0.2"))
    err = refused(rooms.join, t.code, client=Client(ANN, "10.0.0.2"))
    assert err.code == "seats_per_client" and err.params == {"limit": 3}
    rooms.join(t.code, client=Client(BO, "10.0.0.2"))  # another browser at the same address: fine


def test_seats_of_students_gone_for_a_while_are_given_back(make_rooms):
    clock = Clock()
    rooms, t, console = opened(make_rooms, clock, Limits(max_students=2, seat_idle=600))
    _, ann = rooms.join(t.code, client=Client(ANN))
    _, bo = rooms.join(t.code, client=Client(BO))
    qid = rooms.ask(t.code, console, QUESTION, 1)
    rooms.submit(t.code, ann, qid, 1, client=ANN)
    assert refused(rooms.join, t.code, client=Client(OTHER)).code == "room_full"
    clock.now += 500
    assert rooms.heartbeat(t.code, bo, True)  # Bo is still here, Ann left
    clock.now += 200
    rooms.join(t.code, client=Client(OTHER))  # Ann's seat was given back ...
    assert rooms.tally(t.code, console) == [0, 1, 0]  # ... her answer stays
    assert not rooms.heartbeat(t.code, ann, True)  # her phone, back, learns its seat is gone (and joins again)
    assert rooms.presence(t.code, console).joined == 2


def test_one_browser_opens_a_few_rooms_and_its_network_as_many_as_its_rate_allows(make_rooms):
    clock = Clock()
    rooms = make_rooms(Limits(rooms_per_client=2, start_burst=3, starts_per_hour=30), clock)
    rooms.create(Client(ANN, "10.0.0.2"))
    rooms.create(Client(ANN, "10.0.0.2"))
    err = refused(rooms.create, Client(ANN, "10.0.0.2"))
    assert err.code == "rooms_per_client" and err.params == {"limit": 2}
    rooms.create(Client(BO, "10.0.0.2"))  # the browser's refusal cost its network no start
    err = refused(rooms.create, Client(OTHER, "10.0.0.2"))
    assert err.code == "starting_fast" and err.params == {"minutes": 2}  # one start every two minutes
    rooms.create(Client(OTHER, "10.0.0.3"))  # another network
    clock.now += 120
    rooms.create(Client(OTHER, "10.0.0.2"))  # the rate, not a cap: two minutes later, one more


def test_a_full_server_says_when_a_place_frees_and_an_abandoned_room_frees_it(make_rooms):
    clock = Clock()
    rooms = make_rooms(Limits(max_rooms=2, room_idle=3600), clock)
    kept = rooms.create(Client(ANN))
    left = rooms.create(Client(BO))
    for room in (kept, left):  # classes joined them (a room no one joined frees its place sooner: below)
        rooms.join(room.code, client=Client("s" * 64))
    _, console = rooms.open_screen(kept.code, CONSOLE, ANN, key=kept.key)
    clock.now += 1800
    rooms.screen_beat(kept.code, Pass(console.sid, ANN))  # Ann's console is open; Bo's room has no screen at all
    err = refused(rooms.create, Client(OTHER))
    assert err.code == "too_many_rooms" and err.params == {"limit": 2, "minutes": 30}
    clock.now += 1801
    rooms.create(Client(OTHER))  # Bo's room was abandoned: its place is free
    assert refused(rooms.room, left.code).code == "ended"
    assert rooms.room(kept.code).code == kept.code


def test_a_room_no_student_ever_joined_frees_its_place_within_minutes(make_rooms):
    """A script that opens rooms and leaves them holds no place for long: a room no student joined, none of whose
    screens was seen for unjoined_idle (5 minutes), ends; a room a class joined waits for its teacher for two hours,
    and so does an unjoined room whose console is open (a teacher waiting for the class)."""
    clock = Clock()
    rooms = make_rooms(Limits(max_rooms=3), clock)
    empty = rooms.create(Client(ANN, "10.0.0.2"))
    joined = rooms.create(Client(BO, "10.0.0.2"))
    rooms.join(joined.code, client=Client(OTHER, "10.0.0.9"))
    waiting = rooms.create(Client(OTHER, "10.0.0.3"))
    _, console = rooms.open_screen(waiting.code, CONSOLE, OTHER, key=waiting.key)
    err = refused(rooms.create, Client("d" * 64, "10.0.0.4"))
    assert err.code == "too_many_rooms" and err.params["minutes"] == 5
    clock.now += 301
    rooms.screen_beat(waiting.code, Pass(console.sid, OTHER))  # its console is open
    rooms.create(Client("d" * 64, "10.0.0.4"))
    assert refused(rooms.room, empty.code).code == "ended"
    assert rooms.room(joined.code).code == joined.code and rooms.room(waiting.code).code == waiting.code


# ---------------------------------------------------------------- a class behind one address, and a script
SCHOOL = "198.51.100.7"  # the school's one public address: its NAT, or its web proxy


def test_a_class_of_300_behind_one_address_and_30_teachers_all_get_in_within_two_minutes(make_rooms):
    """With the default limits: 30 teachers behind the school's address start a class at the same moment, and 300
    students behind it press Join at the same moment (the worst case). Every one gets in: the joins beyond the
    network's burst wait their turn in line (the app says so), the last one 48 s after the first."""
    clock = Clock()
    rooms = make_rooms(None, clock)
    tickets = [rooms.create(Client(f"{n:064x}", SCHOOL)) for n in range(30)]
    assert len({t.code for t in tickets}) == 30
    waits: list[float] = []
    for n in range(300):
        rooms.join(tickets[0].code, client=Client(f"{n + 1000:064x}", SCHOOL), queue=Limits().join_queue,
                   on_wait=waits.append)  # fmt: skip
    assert rooms.presence(tickets[0].code, tickets[0].key).joined == 300
    assert len(waits) == 300 - 60 and max(waits) < 120, max(waits)  # 60 at once, then 5 a second
    assert 47 < max(waits) <= 48.1


def test_a_join_stopped_while_it_waits_its_turn_keeps_that_turn(make_rooms):
    """A page run can be stopped while its join waits in line (the browser asked for another run): asked again with
    the same attempt, the join keeps the turn it had, and takes no second one from its network."""
    clock = Clock()
    rooms, t, _ = opened(make_rooms, clock, Limits(join_burst=1, joins_per_minute=6))
    rooms.join(t.code, client=Client(ANN, SCHOOL))

    class Stopped(Exception):
        pass

    def stopped(seconds: float) -> None:
        raise Stopped(seconds)

    with pytest.raises(Stopped) as cut:
        rooms.join(t.code, client=Client(BO, SCHOOL), attempt="run-1", queue=60, on_wait=stopped)
    assert cut.value.args[0] == pytest.approx(10)
    clock.now += 4
    waits: list[float] = []
    rooms.join(t.code, client=Client(BO, SCHOOL), attempt="run-1", queue=60, on_wait=waits.append)
    rooms.join(t.code, client=Client(OTHER, SCHOOL), attempt="run-7", queue=60, on_wait=waits.append)
    assert waits == [pytest.approx(6), pytest.approx(16)]  # Bo's turn as it was; the next one 10 s after it


def test_a_script_from_one_address_joins_no_faster_than_a_class_and_the_teacher_sees_and_removes_it(make_rooms):
    """A script makes a new browser for every seat. From one address it gets the network's burst at once and then
    its rate (it cannot fill a room faster than a class behind one address joins); every seat it took is on the
    teacher's list, under a network of its own; removed with its network, none of its seats is left and it cannot
    join again, while the class (another network) still can. Locked, the room takes no one new; a seat already held
    is still its student's after a reload."""
    clock = Clock()
    rooms, t, console = opened(make_rooms, clock)
    _, ann = rooms.join(t.code, client=Client(ANN, SCHOOL))
    clock.now += 1
    script = (Client(f"{n:064x}", "203.0.113.66") for n in range(10_000))
    taken, bots = 0, []
    for _ in range(100):
        try:
            bot = next(script)
            bots.append((rooms.join(t.code, client=bot)[1], bot.id))
            taken += 1
        except LiveError as err:
            assert err.code == "joining_fast" and err.params == {"seconds": 1}
    assert taken == 60  # its burst
    clock.now += 10
    for _ in range(100):
        try:
            rooms.join(t.code, client=next(script))
            taken += 1
        except LiveError:
            pass
    assert taken == 110  # and then 5 a second
    seats = rooms.seats(t.code, console, viewer=SCHOOL)
    assert len(seats) == 111 and [s.n for s in seats] == list(range(1, 112))
    assert seats[0].sid == ann and seats[0].network == 0  # the teacher's own network (the school's)
    assert {s.network for s in seats[1:]} == {1}
    qid = rooms.ask(t.code, console, QUESTION, 1)
    rooms.submit(t.code, bots[4][0], qid, 2, "bot", client=bots[4][1])
    rooms.submit(t.code, ann, qid, 1, "Ann", client=ANN)
    assert rooms.seats(t.code, console)[0].nickname == "Ann"
    assert rooms.remove(t.code, console, [seats[0].sid, seats[1].sid], networks=True, viewer=SCHOOL) == 111
    _, ann = rooms.join(t.code, client=Client("a2" * 32, SCHOOL))  # the console's own network was not shut out
    assert refused(rooms.join, t.code, client=Client(ANN, SCHOOL)).code == "removed"  # but Ann's browser was
    rooms.submit(t.code, ann, qid, 1, "Ann", client="a2" * 32)
    assert [s.sid for s in rooms.seats(t.code, console)] == [ann]
    assert rooms.tally(t.code, console) == [0, 1, 0]  # the removed seats' answers went with them
    clock.now += 3600
    assert rooms.heartbeat(t.code, ann, True)  # Ann is still here (a seat gone for a while is given back when full)
    assert refused(rooms.join, t.code, client=next(script)).code == "removed"
    assert not rooms.heartbeat(t.code, seats[1].sid, True)  # a removed seat is gone ...
    assert refused(rooms.join, t.code, client=Client(f"{1:064x}", "10.9.9.9")).code == "removed"  # ... its browser too
    room = rooms.configure(t.code, console, size=3)
    assert room.size == 3 and not room.locked
    _, bo = rooms.join(t.code, client=Client(BO, SCHOOL))
    rooms.join(t.code, client=Client("e" * 64, SCHOOL))
    assert refused(rooms.join, t.code, client=Client("f" * 64, SCHOOL)).params == {"limit": 3}  # room_full
    rooms.configure(t.code, console, size=40, locked=True)
    assert rooms.room(t.code).locked
    assert refused(rooms.join, t.code, client=Client("f" * 64, SCHOOL)).code == "locked"
    assert rooms.join(t.code, bo, Client(BO, SCHOOL))[1] == bo  # Bo reloads: his seat
    rooms.configure(t.code, console, locked=False)
    rooms.join(t.code, client=Client("f" * 64, SCHOOL))
    for bad in (0, 301, True, "3", 2.5):
        assert refused(rooms.configure, t.code, console, size=bad).code == "bad_size"
    project = Pass(rooms.open_screen(t.code, PROJECTOR, OTHER, invite=rooms.invite(t.code, console, PROJECTOR))[1].sid,
                   OTHER)  # fmt: skip
    for call in (lambda: rooms.seats(t.code, project), lambda: rooms.remove(t.code, project, [ann]),
                 lambda: rooms.configure(t.code, project, locked=True)):  # fmt: skip
        with pytest.raises(LiveError) as err:
            call()
        assert err.value.code == "not_teacher"  # the class's screen never lists or removes anyone


def test_missed_codes_are_slowed_per_network_on_every_path_and_unknown_and_ended_codes_answer_alike(make_rooms):
    """A code that names no open room, a wrong teacher key: the network's missed codes (30 at once, then 6 a
    minute). Beyond them every code from that network waits, the real ones too (a join, a projector asking, a
    take-back), but a student of that network already in the class comes back to their seat; another network is not
    slowed. Unknown, ended and expired rooms give the same answer."""
    clock = Clock()
    rooms, t, _ = opened(make_rooms, clock)
    gone = rooms.create(Client(BO, "10.0.0.3"))
    rooms.end(gone.code, gone.key)
    guesser = Client(OTHER, "203.0.113.66")
    _, seated = rooms.join(t.code, client=Client(ANN, "203.0.113.66"))  # a student behind the guesser's address
    answers = set()
    for code in [gone.code, "ZZZZZZ", "ZZZZZ2"] + [f"ZZZ{a}{b}{c}" for a in "23" for b in "3456" for c in "789"]:
        with pytest.raises(LiveError) as err:
            rooms.join(code, client=guesser)
        answers.add((err.value.code, tuple(err.value.params)))
    assert answers == {("unknown_room", ("room",))}  # 27 misses: the ended room answers as an unknown one
    assert refused(rooms.open_screen, "ZZZZZZ", PROJECTOR, OTHER, address=guesser.address).code == "unknown_room"
    assert refused(rooms.open_screen, t.code, CONSOLE, OTHER, key="wrong", address=guesser.address).code == \
        "not_teacher"  # fmt: skip
    assert refused(rooms.join, "ZZZYYY", client=guesser).code == "unknown_room"  # the 30th
    for call in (lambda: rooms.join("ZZZYYX", client=guesser), lambda: rooms.join(t.code, client=guesser),
                 lambda: rooms.open_screen(t.code, CONSOLE, OTHER, key=t.key, address=guesser.address),
                 lambda: rooms.open_screen(t.code, PROJECTOR, OTHER, address=guesser.address)):  # fmt: skip
        with pytest.raises(LiveError) as err:
            call()
        assert err.value.code == "slow_down" and 1 <= err.value.params["seconds"] <= 10
    assert rooms.join(t.code, seated, Client(ANN, guesser.address)) == (t.code, seated)  # Ann reloads: in
    with pytest.raises(LiveError) as err:
        rooms.join("ZZZYYX", seated, Client(ANN, guesser.address))  # her seat's id opens no other code
    assert err.value.code == "slow_down"
    rooms.join(t.code, client=Client(BO, "10.0.0.3"))  # another network: not slowed
    assert refused(rooms.join, "ZZZYYX", client=Client(BO, "10.0.0.3")).code == "unknown_room"
    clock.now += 10  # one missed code more every 10 s
    assert refused(rooms.join, "ZZZYYW", client=guesser).code == "unknown_room"
    assert refused(rooms.join, "ZZZYYT", client=guesser).code == "slow_down"
    assert refused(rooms.join, t.code, client=guesser).code == "slow_down"
    clock.now += 10
    rooms.join(t.code, client=guesser)  # a real code: in
    other = make_rooms(None, clock)  # another server process sharing the store: the same network's count
    assert refused(other.join, "ZZZYYV", client=Client("9" * 64, "203.0.113.66")).code == "unknown_room"
    assert refused(other.join, "ZZZYYU", client=Client("9" * 64, "203.0.113.66")).code == "slow_down"


@pytest.mark.parametrize("address, key", [
    ("", "local"), ("198.51.100.7", "198.51.100.7"), ("::ffff:198.51.100.7", "198.51.100.7"),
    ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"), ("2001:db8:1:2:bbbb::9", "2001:db8:1:2::/64"),
    ("not an address", "local"),
])  # fmt: skip
def test_a_network_is_an_ipv4_address_or_an_ipv6_64(address, key):
    """An IPv6 home or phone gets a whole /64 and may use any address in it: the rates count the /64."""
    from network import address_key

    assert address_key(address) == key


# ---------------------------------------------------------------- questions
def test_a_closed_question_leaves_every_screen_and_its_answers_stay_for_the_csv(make_rooms):
    rooms, t, console = opened(make_rooms)
    _, ann = rooms.join(t.code, client=Client(ANN))
    first = rooms.ask(t.code, console, QUESTION, 1)
    rooms.submit(t.code, ann, first, 1, client=ANN)
    rooms.reveal(t.code, console)
    rooms.close(t.code, console)
    room = rooms.room(t.code)
    assert room.question is None and not room.qid and not room.revealed
    assert refused(rooms.submit, t.code, ann, first, 0, client=ANN).code == "no_question"
    assert refused(rooms.close, t.code, console).code == "no_question"
    second = rooms.ask(t.code, console, NUMBER, NUMBER_SOLUTION)
    rooms.submit(t.code, ann, second, " 4194304 ", client=ANN)
    asked = rooms.asked(t.code, console)
    assert [(a.n, a.qid) for a in asked] == [(1, first), (2, second)]
    assert asked[0].question == QUESTION and asked[0].answer == 1 and asked[1].answer == NUMBER_SOLUTION
    assert [a.choice for a in rooms.answers(t.code, console, asked[0])] == [1]
    typed = rooms.answers(t.code, console, asked[1])[0]
    assert typed.text == "4194304" and typed.value == 4194304 and typed.right is False  # exactly as typed
    assert [b.label for b in rooms.typed_tally(t.code, console)] == ["4194304"]


# ---------------------------------------------------------------- one client behind a proxy
@pytest.mark.parametrize("peer, forwarded, trusted, expected", [
    ("203.0.113.7", [], "", "203.0.113.7"),  # a browser straight to the server
    ("203.0.113.7", ["10.9.9.9"], "", "203.0.113.7"),  # ... whose own X-Forwarded-For is never believed
    (None, [], "", ""),  # this machine, no proxy: no address (no address limit)
    (None, ["10.1.2.3"], "", "10.1.2.3"),  # nginx on this machine: the address it appended
    (None, ["6.6.6.6, 10.1.2.3"], "", "10.1.2.3"),  # a client that wrote its own header: only nginx's part counts
    (None, ["10.1.2.3, unix:"], "", "10.1.2.3"),  # deploy/nginx.conf's door adds a unix: hop
    ("10.0.0.5", ["6.6.6.6, 10.1.2.3"], "10.0.0.0/24", "10.1.2.3"),  # a proxy on another machine, trusted
    ("10.0.0.5", ["6.6.6.6, 10.1.2.3"], "", "10.0.0.5"),  # ... the same proxy, not trusted: its address
    (None, ["garbage"], "", ""),  # nonsense where the proxy writes an address: none rather than a made-up one
    (None, ["10.1.2.3", "127.0.0.1"], "", "10.1.2.3"),  # two headers: read in order, proxies skipped
])  # fmt: skip
def test_the_client_address_trusts_only_the_proxies_it_is_told_to(peer, forwarded, trusted, expected):
    from network import client_address

    assert client_address(peer, forwarded, trusted) == expected


def test_a_browser_secret_is_kept_only_as_its_hash():
    from classroom.identity import _valid_secret, hash_secret

    secret = "A" * 24
    assert _valid_secret(secret) and hash_secret(secret) != secret and len(hash_secret(secret)) == 64
    for bad in ("short", "x" * 65, "spaces are bad 1234567890", "ü" * 30, None, 12345):
        assert not _valid_secret(bad)
