"""The room store's rules for the teacher's screens and for each client (liveclass, both backends: SQLite and a real
redis-server): consoles and projectors and who accepts them, a replayed `me=` link, seats and rooms per browser and
per address, seats given back, an abandoned room freeing its place, closing a question, the questions kept for the
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
def test_one_browser_holds_a_few_seats_one_address_a_few_more(make_rooms):
    rooms, t, _ = opened(make_rooms, limits=Limits(seats_per_client=3, seats_per_address=5))
    for _ in range(3):
        rooms.join(t.code, client=Client(ANN, "10.0.0.2"))
    err = refused(rooms.join, t.code, client=Client(ANN, "10.0.0.2"))
    assert err.code == "seats_per_client" and err.params == {"limit": 3}
    rooms.join(t.code, client=Client(BO, "10.0.0.2"))
    rooms.join(t.code, client=Client(OTHER, "10.0.0.2"))
    err = refused(rooms.join, t.code, client=Client("c" * 64, "10.0.0.2"))  # a script with made-up browsers
    assert err.code == "seats_per_address" and err.params == {"limit": 5}
    rooms.join(t.code, client=Client("c" * 64, "10.0.0.9"))  # another device: fine
    rooms.join(t.code, client=Client("d" * 64, ""))  # this machine (or a proxy that said nothing): no address limit


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


def test_one_browser_and_one_address_open_a_few_rooms(make_rooms):
    rooms = make_rooms(Limits(rooms_per_client=2, rooms_per_address=3))
    rooms.create(Client(ANN, "10.0.0.2"))
    rooms.create(Client(ANN, "10.0.0.2"))
    err = refused(rooms.create, Client(ANN, "10.0.0.2"))
    assert err.code == "rooms_per_client" and err.params == {"limit": 2}
    rooms.create(Client(BO, "10.0.0.2"))
    assert refused(rooms.create, Client(OTHER, "10.0.0.2")).code == "rooms_per_address"
    rooms.create(Client(OTHER, "10.0.0.3"))


def test_a_full_server_says_when_a_place_frees_and_an_abandoned_room_frees_it(make_rooms):
    clock = Clock()
    rooms = make_rooms(Limits(max_rooms=2, room_idle=3600), clock)
    kept = rooms.create(Client(ANN))
    left = rooms.create(Client(BO))
    _, console = rooms.open_screen(kept.code, CONSOLE, ANN, key=kept.key)
    clock.now += 1800
    rooms.screen_beat(kept.code, Pass(console.sid, ANN))  # Ann's console is open; Bo's room has no screen at all
    err = refused(rooms.create, Client(OTHER))
    assert err.code == "too_many_rooms" and err.params == {"limit": 2, "minutes": 30}
    clock.now += 1801
    rooms.create(Client(OTHER))  # Bo's room was abandoned: its place is free
    assert refused(rooms.room, left.code).code == "ended"
    assert rooms.room(kept.code).code == kept.code


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
    from classroom.identity import client_address

    assert client_address(peer, forwarded, trusted) == expected


def test_a_browser_secret_is_kept_only_as_its_hash():
    from classroom.identity import _valid_secret, hash_secret

    secret = "A" * 24
    assert _valid_secret(secret) and hash_secret(secret) != secret and len(hash_secret(secret)) == 64
    for bad in ("short", "x" * 65, "spaces are bad 1234567890", "ü" * 30, None, 12345):
        assert not _valid_secret(bad)
