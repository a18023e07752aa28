"""The live class in the app (AppTest, several sessions on one store): students follow the teacher's settings,
page and step, may explore and come back, answer questions hidden until the reveal; bad codes, tampering and a
store that is down give one message and the normal app."""

from __future__ import annotations

import csv
import io
import os
import time
from pathlib import Path

import pytest

from tests.browser import free_port
from tests.conftest import APP, PAGES
from tests.live_redis import REDIS_SERVER, redis_server, start_redis, stop


@pytest.fixture(autouse=True)
def own_store(tmp_path, monkeypatch):
    monkeypatch.setenv("MHA_LIVE_DB", str(tmp_path / "live.sqlite3"))
    monkeypatch.delenv("MHA_REDIS_URL", raising=False)


def session(params: dict | None = None):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(APP, default_timeout=60)
    for k, v in (params or {}).items():
        at.query_params[k] = v
    at.run()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def texts(at) -> str:
    parts = [el.value for kind in ("markdown", "caption", "warning", "info", "success", "error", "text")
             for el in at.get(kind)]  # fmt: skip
    return "\n".join(str(p) for p in parts)


def teacher_and_students(n: int = 1):
    teacher = session()
    teacher.button(key="live_start").click().run()
    code = teacher.session_state["_live_code"]
    students = [session({"join": code}) for _ in range(n)]
    return teacher, code, students


def test_a_student_follows_the_teachers_settings_page_and_step():
    teacher, code, (student,) = teacher_and_students()
    assert student.session_state["_live_role"] == "student" and student.session_state["_live_code"] == code
    assert "Following the teacher" in texts(student)
    teacher.number_input(key="n_heads").set_value(4).run()
    teacher.number_input(key="seed").set_value(7).run()
    student.run()  # what the student's fragment timer does
    assert student.number_input(key="n_heads").value == 4 and student.number_input(key="seed").value == 7
    teacher.switch_page(PAGES["steps"]).run()
    teacher.toggle(key="present").set_value(True).run()
    teacher.number_input(key="n_heads").set_value(2).run()
    teacher.button(key="step_next").click().run()
    teacher.button(key="step_next").click().run()
    student.run()
    assert student.session_state["step_index"] == 2
    assert [t.value for t in student.header] == [t.value for t in teacher.header]  # the same single step
    assert student.number_input(key="n_heads").value == 2
    assert not student.exception


def test_a_student_who_explores_stops_following_and_comes_back():
    teacher, _, (student,) = teacher_and_students()
    student.number_input(key="n_heads").set_value(2).run()  # the student's own change
    assert student.session_state["_live_follow"] is False
    assert "exploring on your own" in texts(student)
    teacher.number_input(key="n_heads").set_value(4).run()
    student.run()
    assert student.number_input(key="n_heads").value == 2  # paused: the teacher's change does not move them
    student.button(key="live_back").click().run()
    student.run()
    assert student.session_state["_live_follow"] is True
    assert student.number_input(key="n_heads").value == 4
    assert "Following the teacher" in texts(student)


def test_the_teacher_sees_who_is_connected_and_following():
    teacher, _, students = teacher_and_students(2)
    students[1].number_input(key="seed").set_value(3).run()  # exploring
    students[1].run()
    teacher.run()
    assert "**2** connected · **1** following" in texts(teacher)


def send_choice_question(teacher) -> str:
    """The teacher sends the first multiple-choice kind of the quiz on the default setting (typed ones: their own
    tests); returns the kind."""
    from explorer import Settings, run_scene
    from explorer.live_questions import quiz_kinds
    from explorer.quiz import draw_question

    sc = run_scene(Settings())
    kind = next(k for k in quiz_kinds(sc) if draw_question(k, scene=sc).answer_type == "choice")
    teacher.selectbox(key="live_ask_kind").set_value(kind).run()
    teacher.button(key="live_ask_send").click().run()
    return kind


def test_question_hidden_until_reveal_counted_once_and_exported_as_text():
    import i18n
    from ui.live import _text, answers_csv, rooms

    teacher, _, (ann, bo) = teacher_and_students(2)
    kind = send_choice_question(teacher)
    ann.run()
    bo.run()
    room = ann.session_state["_live_room"]
    assert room.question and room.question["kind"] == kind and room.answer is None
    qid = room.qid
    en = i18n.translator("en")
    options = [_text(en, o) for o in room.question["options"]]
    assert _text(en, room.question["prompt"]) in texts(ann) and "Nobody sees the result" in texts(ann)
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
    store = rooms()
    code, key = teacher.session_state["_live_code"], teacher.session_state["_live_key"]
    teacher.button(key="live_reveal").click().run()
    plain = [_text(en, o, markdown=False) for o in room.question["options"]]
    rows = list(csv.DictReader(io.StringIO(answers_csv(store, code, key, plain, store.room(code)))))
    assert [r["nickname"] for r in rows] == ["<b>Ann</b> **x**", ""] and [r["answer"] for r in rows] == plain[:2]
    answer = store.room(code).answer
    assert [r["correct"] for r in rows] == ["yes" if c == answer else "no" for c in (0, 1)]
    ann.run()
    shown = texts(ann)
    assert ("Right:" in shown) == (answer == 0) and ("Not this one" in shown) == (answer != 0)
    assert options[answer] in shown
    assert _text(en, room.question["explain"]) in shown  # the why


def test_the_attend_question_needs_a_clear_winner():
    teacher, _, (student,) = teacher_and_students()
    teacher.selectbox(key="live_ask_kind").set_value("attend").run()
    teacher.button(key="live_ask_send").click().run()
    room = student.run().session_state["_live_room"]
    # the default setting either gives a question with a winner, or the teacher was told why not
    assert room.question is not None or "No clear winner" in texts(teacher)


@pytest.mark.parametrize("code, message", [("garbage!", "letters and digits"), ("ZZZZZZ", "no live class ZZZZZZ"),
                                           ("<script>", "letters and digits")])  # fmt: skip
def test_a_bad_join_code_gives_one_message_and_the_normal_app(code, message):
    at = session({"join": code})
    shown = texts(at)
    assert message in shown and "<script>" not in shown
    assert "_live_role" not in at.session_state
    assert "join" not in at.query_params


def test_an_ended_room_sends_the_students_back_to_the_normal_app():
    teacher, code, (student,) = teacher_and_students()
    teacher.button(key="live_end").click().run()
    student.run()
    assert "_live_role" not in student.session_state
    assert f"Live class {code} has ended" in texts(student)
    late = session({"join": code})
    assert "has ended" in texts(late) and "_live_role" not in late.session_state


def test_a_student_cannot_lead_even_with_a_forged_session():
    _teacher, code, (student,) = teacher_and_students()
    student.session_state["_live_role"] = "teacher"  # as if the student had forged their session
    student.session_state["_live_key"] = "guessed"
    student.number_input(key="n_heads").set_value(1).run()
    assert "Only the teacher" in texts(student)
    from ui.live import rooms

    assert '"n_heads": 1' not in rooms().room(code).state.get("settings", "")


def test_the_teacher_takes_the_room_back_after_a_reload_with_the_key():
    teacher, code, _ = teacher_and_students()
    key = teacher.session_state["_live_key"]
    assert key in texts(teacher)  # shown once ...
    teacher.button(key="live_key_noted").click().run()
    assert key not in texts(teacher)  # ... and then no more
    again = session()
    again.text_input(key="live_retake_code").set_value(code.lower())
    again.text_input(key="live_retake_key").set_value("wrong").run()
    again.button(key="live_retake").click().run()
    assert "Only the teacher" in texts(again) and "_live_role" not in again.session_state
    again.text_input(key="live_retake_key").set_value(key).run()
    again.button(key="live_retake").click().run()
    assert again.session_state["_live_role"] == "teacher" and code in texts(again)


def test_store_down_shows_a_message_and_the_app_keeps_working(monkeypatch):
    monkeypatch.setenv("MHA_REDIS_URL", f"redis://127.0.0.1:{free_port()}/0")  # nothing listens there
    at = session({"join": "ABCDEF"})
    assert "cannot be reached" in texts(at)
    at.button(key="live_start").click().run()
    assert "cannot be reached" in texts(at) and "_live_role" not in at.session_state
    at.number_input(key="n_heads").set_value(4).run()
    assert not at.exception and at.number_input(key="n_heads").value == 4


def test_the_room_limit_of_the_server_gives_a_clear_message(monkeypatch):
    monkeypatch.setenv("MHA_LIVE_MAX_ROOMS", "1")
    monkeypatch.setenv("MHA_LIVE_DB", str(Path(os.environ["MHA_LIVE_DB"]).with_name("limited.sqlite3")))
    first = session()
    first.button(key="live_start").click().run()
    assert first.session_state["_live_role"] == "teacher"
    second = session()
    second.button(key="live_start").click().run()
    assert "already has 1 live classes open" in texts(second) and "_live_role" not in second.session_state


@pytest.mark.skipif(REDIS_SERVER is None, reason="redis-server is not installed (.ci/run installs it)")
def test_redis_going_away_and_coming_back_in_the_app(tmp_path, monkeypatch):
    data = tmp_path / "redis"
    data.mkdir()
    with redis_server(data) as (url, proc, port):
        monkeypatch.setenv("MHA_REDIS_URL", url)
        teacher, _, (student,) = teacher_and_students()
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
            assert student.number_input(key="n_heads").value == 4
        finally:
            stop(back)


def test_the_quiz_pages_class_link_of_a_student_joins_the_class_but_not_as_that_student():
    """A student's own id in a link they pass on would make whoever opens it answer as that student: one of the two
    answers would be lost."""
    teacher, code, (student,) = teacher_and_students()
    teacher.switch_page(PAGES["quiz"]).run()
    student.run()  # the student follows the teacher to the quiz
    assert student.session_state["_live_sid"] and not student.exception
    link = next(c.value for c in student.code if "quiz=" in c.value)
    assert f"join={code}" in link and "me=" not in link


def test_a_room_the_store_lost_is_called_lost_to_the_teacher_and_the_student(tmp_path):
    """The store keeps no room after, say, a Redis restarted without its append-only file: the teacher who opened the
    room is not told to "check the code" (tests/test_compose.py restarts the real Redis, which keeps it)."""
    import sqlite3

    teacher, code, (student,) = teacher_and_students()
    with sqlite3.connect(os.environ["MHA_LIVE_DB"]) as db:
        for table in ("answers", "students", "rooms"):
            db.execute(f"DELETE FROM {table}")
    teacher.number_input(key="n_heads").set_value(4).run()  # the teacher's change goes to the store
    time.sleep(0.5)  # past the version a process remembers for its students (ui/live.VERSION_AGE)
    student.run()
    for at in (teacher, student):
        shown = texts(at)
        assert f"Live class {code} is no longer in the room store" in shown, shown
        assert "Check the code" not in shown
        assert not at.exception
