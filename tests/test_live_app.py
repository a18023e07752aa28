"""The live class in the app (AppTest, several sessions on one store): the teacher leads from the console (/console),
students follow its page, settings and step passively, explore on purpose and come back, answer questions hidden
until the reveal; bad codes, a forged session and a store that is down give one message and the normal app.

A browser tells the app who it is through identity.js (a secret in its local storage); AppTest runs no JavaScript,
so each session here gets its browser id set directly (`session(browser=...)`)."""

from __future__ import annotations

import csv
import io
import itertools
import os
import time
from pathlib import Path

import pytest

from tests.browser import free_port
from tests.conftest import APP, PAGES
from tests.live_redis import REDIS_SERVER, redis_server, start_redis, stop

BROWSERS = (f"{n:064x}" for n in itertools.count(1))  # each session its own browser, unless a test says otherwise


@pytest.fixture(autouse=True)
def own_store(tmp_path, monkeypatch):
    monkeypatch.setenv("MHA_LIVE_DB", str(tmp_path / "live.sqlite3"))
    monkeypatch.delenv("MHA_REDIS_URL", raising=False)


def session(params: dict | None = None, browser: str | None = None, page: str | None = None):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["_live_browser"] = browser or next(BROWSERS)
    for k, v in (params or {}).items():
        at.query_params[k] = v
    at.run()
    if page:
        at.switch_page(PAGES[page]).run()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def texts(at) -> str:
    parts = [el.value for kind in ("markdown", "caption", "warning", "info", "success", "error", "text")
             for el in at.get(kind)]  # fmt: skip
    return "\n".join(str(p) for p in parts)


def console(lesson: str = "", browser: str | None = None):
    """A teacher's console with a class started (with `lesson`, or none); returns (console, code)."""
    at = session(browser=browser, page="console")
    at.selectbox(key="console_lesson").set_value(lesson).run()
    at.button(key="console_start").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at, at.session_state["_live_code"]


def class_with(n: int = 1, lesson: str = ""):
    teacher, code = console(lesson)
    students = [session({"join": code}) for _ in range(n)]
    return teacher, code, students


def room_state(code: str) -> dict:
    from classroom.session import rooms

    return rooms().room(code).state


def test_a_student_follows_the_consoles_settings_page_and_step_without_settings_of_its_own():
    teacher, code, (student,) = class_with()
    assert student.session_state["_live_role"] == "student" and student.session_state["_live_code"] == code
    assert "Following the teacher" in texts(student)
    assert not student.sidebar.number_input  # following: no settings widgets that could drift from the class's
    teacher.number_input(key="n_heads").set_value(4).run()  # the console's sidebar is the class's setting
    teacher.selectbox(key="console_page").set_value("steps").run()
    teacher.button(key="console_next").click().run()
    teacher.button(key="console_next").click().run()
    student.run()  # what the student's fragment timer does
    state = room_state(code)
    assert state["page"] == "steps" and state["step"] == 2 and '"n_heads": 4' in state["settings"]
    assert student.session_state["step_index"] == 2
    assert "Step 3 of 9" in texts(student)
    assert not [b for b in student.button if b.key in ("step_prev", "step_next")]  # no Prev/Next to leave by
    assert not student.exception


def test_a_following_phones_heads_page_folds_its_sections_and_draws_one_only_while_open():
    """Each move of the teacher reruns every following phone's page: under the tiles, /heads's three sections come
    folded, each drawn only while the student has it open (ui/fold.py); the teacher's own page draws them all."""
    from i18n import translator

    tr = translator("en")
    sections = {tr("heads.one_query"), tr("hs.title"), tr("heads.entropy")}
    teacher, code, (student,) = class_with()
    teacher.selectbox(key="console_page").set_value("heads").run()
    student.run()
    assert room_state(code)["page"] == "heads" and student.session_state["_ctx"].screen == "follower"
    assert sections <= {e.label for e in student.expander}
    query = [s for s in student.selectbox if s.label == tr("heads.pick_query")]
    assert not query and not student.table and not [h for h in student.header if h.value in sections]
    student.session_state["fold_heads_one_query"] = True  # what opening it sends
    student.run()
    assert [s for s in student.selectbox if s.label == tr("heads.pick_query")], "the open section is drawn"
    assert not student.table  # ... and only that one
    teacher.number_input(key="n_heads").set_value(4).run()  # the teacher's next move
    student.run()
    assert student.session_state["_ctx"].settings.n_heads == 4
    assert [s for s in student.selectbox if s.label == tr("heads.pick_query")], "an open section stays open"
    assert not student.exception
    teacher.switch_page(PAGES["heads"]).run()  # the teacher's own page: every section in place, none folded
    assert teacher.table and not sections & {e.label for e in teacher.expander}
    assert sections - {tr("heads.entropy")} <= {h.value for h in teacher.header}


def test_a_student_who_explores_gets_the_whole_app_and_back_lands_on_the_class():
    teacher, code, (student,) = class_with()
    teacher.number_input(key="n_heads").set_value(2).run()
    student.run()
    student.button(key="live_explore").click().run()
    assert student.session_state["_live_follow"] is False and "exploring on your own" in texts(student)
    assert student.number_input(key="n_heads").value == 2  # exploring starts at the class's setting
    student.number_input(key="n_heads").set_value(8).run()  # the student's own change
    student.switch_page(PAGES["heads"]).run()  # ... on another page
    teacher.number_input(key="n_heads").set_value(4).run()
    student.run()
    assert student.number_input(key="n_heads").value == 8  # exploring: the teacher's change waits
    student.button(key="live_back").click().run()
    student.run()
    assert student.session_state["_live_follow"] is True and "Following the teacher" in texts(student)
    assert room_state(code)["page"] == "home" and "Type a sentence" in texts(student)  # the class's page
    ctx = student.session_state["_ctx"]
    assert ctx.screen == "follower" and ctx.settings.n_heads == 4  # ... at the class's setting


def test_the_console_sees_who_is_connected_and_following():
    teacher, _, students = class_with(2)
    students[1].button(key="live_explore").click().run()
    students[1].run()
    teacher.run()
    assert "**2** connected · **1** following" in texts(teacher)


def send_choice_question(teacher) -> str:
    """The console sends the first multiple-choice kind of the quiz on the default setting (typed ones: their own
    tests); returns the kind."""
    from explorer import Settings, run_scene
    from explorer.live_questions import quiz_kinds
    from explorer.quiz import draw_question

    sc = run_scene(Settings())
    kind = next(k for k in quiz_kinds(sc) if draw_question(k, scene=sc).answer_type == "choice")
    teacher.selectbox(key="live_ask_kind").set_value(kind).run()
    teacher.button(key="live_ask_send").click().run()
    return kind


def test_a_question_hidden_until_reveal_counted_once_closed_and_exported_as_text():
    import i18n
    from classroom.answers import csv_text
    from classroom.session import rooms
    from classroom.session import text as _text
    from liveclass import Pass

    teacher, code, (ann, bo) = class_with(2)
    kind = send_choice_question(teacher)
    ann.run()
    bo.run()
    room = ann.session_state["_live_room"]
    assert room.question and room.question["kind"] == kind and room.answer is None
    assert room.question["setting"] == {"d_model": 64, "n_heads": 8, "tokens": 11}  # says which setting
    qid = room.qid
    en = i18n.translator("en")
    options = [_text(en, o) for o in room.question["options"]]
    assert _text(en, room.question["prompt"]) in texts(ann) and "Nobody sees the result" in texts(ann)
    assert "Asked at the class's setting: d_model = 64, h = 8, 11 tokens." in texts(ann)
    ann.radio(key=f"live_pick_{qid}").set_value(0).run()
    ann.text_input(key="live_nick").set_value("<b>Ann</b> **x**").run()
    ann.button(key=f"live_send_{qid}").click().run()
    ann.button(key=f"live_send_{qid}").click().run()  # twice: still one answer
    bo.radio(key=f"live_pick_{qid}").set_value(1).run()
    bo.button(key=f"live_send_{qid}").click().run()
    teacher.run()
    assert "2 answers" in texts(teacher)
    assert "<b>Ann</b> **x**" in next(t.value for t in teacher.text)  # st.text: shown as typed, never as markup
    bo.run()
    assert "The answer" not in texts(bo) and "Right:" not in texts(bo) and "Not this one" not in texts(bo)
    teacher.button(key="console_reveal").click().run()
    auth = Pass(teacher.session_state["_live_sid"], teacher.session_state["_live_browser"])
    rows = list(csv.DictReader(io.StringIO(csv_text(rooms(), code, auth, en))))
    plain = [_text(en, o, markdown=False) for o in room.question["options"]]
    assert [r["nickname"] for r in rows] == ["<b>Ann</b> **x**", ""] and [r["answer"] for r in rows] == plain[:2]
    answer = rooms().room(code).answer
    assert [r["correct"] for r in rows] == ["yes" if c == answer else "no" for c in (0, 1)]
    ann.run()
    shown = texts(ann)
    assert ("Right:" in shown) == (answer == 0) and ("Not this one" in shown) == (answer != 0)
    assert options[answer] in shown and _text(en, room.question["explain"]) in shown  # the why
    teacher.button(key="console_close").click().run()
    ann.run()
    assert "Question from the teacher" not in texts(ann) and rooms().room(code).question is None
    assert len(list(csv.DictReader(io.StringIO(csv_text(rooms(), code, auth, en))))) == 2  # the answers stay


def test_a_phone_that_moved_to_another_server_still_says_its_answer_was_sent():
    """Its server killed, a phone's page reconnects to another replica: a new session, which joins again with the
    link's seat and browser. Its "Sent" line comes back from the store (once per question), for a choice and a typed
    answer alike, and it can still change its answer (counted once)."""
    from classroom.session import rooms

    teacher, code, (ann,) = class_with()
    send_choice_question(teacher)
    ann.run()
    qid = ann.session_state["_live_room"].qid
    ann.radio(key=f"live_pick_{qid}").set_value(1).run()
    ann.button(key=f"live_send_{qid}").click().run()
    assert "Sent:" in texts(ann)
    seat, browser = ann.session_state["_live_sid"], ann.session_state["_live_browser"]
    moved = session({"join": code, "me": seat}, browser=browser)  # the other replica: a session of its own
    assert moved.session_state["_live_sid"] == seat and "Sent:" in texts(moved)
    moved.radio(key=f"live_pick_{qid}").set_value(0).run()
    moved.button(key=f"live_send_{qid}").click().run()
    assert [a.choice for a in rooms().answers(code, teacher.session_state["_live_key"])] == [0]
    fresh = session({"join": code})  # a student who has not answered: no "Sent"
    assert "Sent:" not in texts(fresh)
    teacher.button(key="console_close").click().run()
    teacher.selectbox(key="live_ask_kind").set_value("d_k").run()  # a typed question: the text as typed comes back
    teacher.button(key="live_ask_send").click().run()
    qid = moved.run().session_state["_live_room"].qid
    moved.text_input(key=f"live_typed_{qid}").set_value(" 16 ").run()
    moved.button(key=f"live_send_{qid}").click().run()
    again = session({"join": code, "me": seat}, browser=browser)
    assert "Sent: 16" in texts(again)


def test_the_console_sets_the_class_size_locks_it_and_lists_every_seat():
    """The seat panel (classroom/seats.py), folded by default: opened, it lists every seat with its network; the size
    and the lock the teacher sets are the room's (a student beyond the size, or any new one once locked, is refused
    with one message), and a seated student's reload still gets its seat. Removing is tested on the store
    (tests/test_live_limits.py) and was looked at in Chromium (the table's row selection)."""
    from classroom.session import rooms

    teacher, code, (ann, _) = class_with(2)
    assert "Class size" not in texts(teacher)  # folded: nothing read
    teacher.session_state["console_seats_open"] = True
    teacher.run()
    assert "2 of 300 seats taken, from 1 networks." in texts(teacher)
    table = teacher.dataframe[0].value
    assert list(table.columns) == ["#", "Nickname", "Now", "Network"] and list(table["Network"]) == ["yours"] * 2
    teacher.number_input(key="console_size").set_value(2).run()
    assert rooms().room(code).size == 2
    full = session({"join": code})
    assert "This live class is full (2 students)." in texts(full) and "_live_role" not in full.session_state
    teacher.number_input(key="console_size").set_value(40).run()
    teacher.toggle(key="console_lock").set_value(True).run()
    assert rooms().room(code).locked
    locked = session({"join": code})
    assert f"Live class {code} is locked" in texts(locked) and "_live_role" not in locked.session_state
    back = session({"join": code, "me": ann.session_state["_live_sid"]}, browser=ann.session_state["_live_browser"])
    assert back.session_state["_live_sid"] == ann.session_state["_live_sid"]  # a reload: its seat
    teacher.run()
    assert "2 of 40 seats taken" in texts(teacher) and not teacher.exception


def test_the_attend_question_needs_a_clear_winner():
    teacher, _, (student,) = class_with()
    teacher.selectbox(key="live_ask_kind").set_value("attend").run()
    teacher.button(key="live_ask_send").click().run()
    room = student.run().session_state["_live_room"]
    # the default setting either gives a question with a winner, or the teacher was told why not
    assert room.question is not None or "No clear winner" in texts(teacher)


@pytest.mark.parametrize("code, message", [("garbage!", "letters and digits"), ("ZZZZZZ", "no open live class ZZZZZZ"),
                                           ("<script>", "letters and digits")])  # fmt: skip
def test_a_bad_join_code_gives_one_message_and_the_normal_app(code, message):
    at = session({"join": code})
    shown = texts(at)
    assert message in shown and "<script>" not in shown
    assert "_live_role" not in at.session_state
    assert "join" not in at.query_params


def test_the_join_box_joins(tmp_path):
    _, code, _ = class_with(0)
    at = session()
    at.text_input(key="live_join_code").set_value(code.lower())
    at.button(key="FormSubmitter:live_join_form-Join").click().run()  # Enter in the box submits the same form
    assert at.session_state["_live_role"] == "student" and at.session_state["_live_code"] == code


def test_ending_needs_a_confirmation_and_sends_everyone_back_to_the_normal_app():
    teacher, code, (student,) = class_with()
    teacher.button(key="console_end").click().run()  # opens the confirmation
    assert "End the live class for everyone?" in texts(teacher)
    assert room_state(code)  # not ended yet
    teacher.button(key="console_end_yes").click().run()
    student.run()
    assert "_live_role" not in student.session_state
    assert f"Live class {code} has ended" in texts(student)
    late = session({"join": code})
    assert "has ended" in texts(late) and "_live_role" not in late.session_state


def test_a_student_cannot_lead_even_with_a_forged_session():
    _teacher, code, (student,) = class_with()
    student.session_state["_live_role"] = "console"  # as if the student had forged their session
    student.session_state["_live_status"] = "accepted"
    student.session_state["_live_key"] = "guessed"
    student.session_state["n_heads"] = 1
    student.run()
    assert "Only the teacher" in texts(student) and "_live_role" not in student.session_state
    assert '"n_heads": 1' not in room_state(code).get("settings", "")


def test_the_console_comes_back_after_a_reload_and_another_device_needs_the_key_and_the_consoles_yes():
    browser = next(BROWSERS)
    teacher, code = console(browser=browser)
    key, sid = teacher.session_state["_live_key"], teacher.session_state["_live_sid"]
    assert key in texts(teacher)  # shown once, on the console ...
    teacher.button(key="console_key_noted").click().run()
    assert key not in texts(teacher)  # ... and then no more
    reloaded = session({"room": code, "as": sid}, browser=browser, page="console")  # the same browser, reloaded
    assert reloaded.session_state["_live_role"] == "console" and reloaded.session_state["_live_status"] == "accepted"
    other = session(page="console")  # another device
    other.text_input(key="console_code").set_value(code.lower())
    other.text_input(key="console_key").set_value("wrong").run()
    other.button(key="console_take_back").click().run()
    assert "Only the teacher" in texts(other) and "_live_role" not in other.session_state
    other.text_input(key="console_key").set_value(key).run()
    other.button(key="console_take_back").click().run()
    assert other.session_state["_live_status"] == "waiting" and "waits until the console" in texts(other)
    reloaded.run()
    assert "Another console asks to lead this class" in texts(reloaded)
    accept = next(b for b in reloaded.button if b.key.startswith("console_accept_"))
    accept.click().run()
    other.run()
    other.run()
    assert other.session_state["_live_status"] == "accepted" and code in texts(other)
    assert "consoles open: 2" in texts(reloaded.run())


def test_store_down_shows_a_message_and_the_app_keeps_working(monkeypatch):
    monkeypatch.setenv("MHA_REDIS_URL", f"redis://127.0.0.1:{free_port()}/0")  # nothing listens there
    at = session({"join": "ABCDEF"})
    assert "cannot be reached" in texts(at)
    at.switch_page(PAGES["console"]).run()
    at.button(key="console_start").click().run()
    assert "cannot be reached" in texts(at) and "_live_role" not in at.session_state
    at.number_input(key="n_heads").set_value(4).run()
    assert not at.exception and at.number_input(key="n_heads").value == 4


def test_a_start_cut_off_after_the_store_opened_the_room_lands_in_that_room_when_clicked_again():
    """A page run of Start stopped after the store opened the room (a second click asks for another run) left the
    room open and the console without its code: an orphan against the browser's limit of rooms. The attempt was kept
    before the store was asked, so the next Start is given that room (and its key), and then forgets the attempt."""
    from classroom.session import rooms
    from liveclass import Client

    browser = next(BROWSERS)
    at = session(browser=browser, page="console")
    at.session_state["_console_attempt"] = "cut-off"  # the stopped run kept its attempt ...
    orphan = rooms().create(Client(browser, ""), attempt="cut-off")  # ... and the store opened its room
    at.button(key="console_start").click().run()
    assert not at.exception and at.session_state["_live_role"] == "console"
    assert at.session_state["_live_code"] == orphan.code and at.session_state["_live_key"] == orphan.key
    assert "_console_attempt" not in at.session_state


def test_the_room_limit_of_the_server_says_when_a_place_frees(monkeypatch):
    monkeypatch.setenv("MHA_LIVE_MAX_ROOMS", "1")
    monkeypatch.setenv("MHA_LIVE_DB", str(Path(os.environ["MHA_LIVE_DB"]).with_name("limited.sqlite3")))
    first, _ = console()
    assert first.session_state["_live_role"] == "console"
    second = session(page="console")
    second.button(key="console_start").click().run()
    assert "already has 1 live classes open. A place frees up in about 5 minutes" in texts(second)
    assert "_live_role" not in second.session_state


@pytest.mark.skipif(REDIS_SERVER is None, reason="redis-server is not installed (.ci/run installs it)")
def test_redis_going_away_and_coming_back_in_the_app(tmp_path, monkeypatch):
    data = tmp_path / "redis"
    data.mkdir()
    with redis_server(data) as (url, proc, port):
        monkeypatch.setenv("MHA_REDIS_URL", url)
        teacher, _, (student,) = class_with()
        stop(proc)
        time.sleep(0.3)
        teacher.number_input(key="n_heads").set_value(4).run()  # the teacher keeps working on their own
        student.run()
        assert "cannot be reached" in texts(student) and not student.exception
        assert teacher.number_input(key="n_heads").value == 4 and not teacher.exception
        back = start_redis(port, data)
        try:
            time.sleep(2.5)  # past the pause after a failure
            teacher.run()  # publishes what the store missed
            student.run()
            student.run()
            assert "Following the teacher" in texts(student)
            assert student.session_state["_ctx"].settings.n_heads == 4
        finally:
            stop(back)


def test_the_quiz_pages_class_link_of_a_student_joins_the_class_but_not_as_that_student():
    """A student's own id in a link they pass on would make whoever opens it answer as that student: one of the two
    answers would be lost (and the store gives another browser a seat of its own anyway)."""
    _, code, (student,) = class_with()
    student.button(key="live_explore").click().run()
    student.switch_page(PAGES["quiz"]).run()
    assert student.session_state["_live_sid"] and not student.exception
    link = next(c.value for c in student.code if "quiz=" in c.value)
    assert f"join={code}" in link and "me=" not in link


def test_a_replayed_me_link_gets_a_seat_of_its_own_and_one_browser_a_few_seats():
    teacher, code, (ann,) = class_with()
    ann_seat = ann.session_state["_live_sid"]
    replay = session({"join": code, "me": ann_seat})  # Bo opens Ann's link in his own browser
    assert replay.session_state["_live_role"] == "student" and replay.session_state["_live_sid"] != ann_seat
    again = session({"join": code, "me": ann_seat}, browser=ann.session_state["_live_browser"])  # Ann reloads
    assert again.session_state["_live_sid"] == ann_seat
    one = next(BROWSERS)
    for _ in range(3):  # one browser, three tabs opened from the join link: three seats at most
        assert session({"join": code}, browser=one).session_state["_live_role"] == "student"
    fourth = session({"join": code}, browser=one)
    assert "already holds 3 seats in this class" in texts(fourth) and "_live_role" not in fourth.session_state
    teacher.run()
    assert "5 joined" in texts(teacher)


def test_a_room_the_store_lost_is_called_lost_to_the_teacher_and_the_student():
    """The store keeps no room after, say, a Redis restarted without its append-only file: the teacher who opened the
    room is not told to "check the code" (tests/test_compose.py restarts the real Redis, which keeps it)."""
    import sqlite3

    teacher, code, (student,) = class_with()
    with sqlite3.connect(os.environ["MHA_LIVE_DB"]) as db:
        for table in ("answers", "students", "screens", "invites", "questions", "rooms"):
            db.execute(f"DELETE FROM {table}")
    teacher.number_input(key="n_heads").set_value(4).run()  # the console's change goes to the store
    time.sleep(0.5)  # past the version a process remembers for its students (classroom.session.VERSION_AGE)
    student.run()
    for at in (teacher, student):
        shown = texts(at)
        assert f"Live class {code} is no longer in the room store" in shown, shown
        assert "Check the code" not in shown
        assert not at.exception
