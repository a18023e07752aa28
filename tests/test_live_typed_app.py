"""Typed questions in the live class (AppTest, three sessions on one store): the teacher sends a question answered
by typing a number or a shape; students type, resubmit, or type something that is not an answer; the teacher sees
the count and the histogram; after the reveal each student sees the right answer, their verdict and why."""

from __future__ import annotations

import csv
import io
import time

import pytest

import i18n
from tests.test_live_app import class_with, own_store, session, texts  # noqa: F401  (own_store: autouse)


def progress_texts(at) -> list[str]:
    """The bars of a histogram (st.progress), as their text."""
    return [el.proto.text for el in at.get("progress")]


def send(teacher, kind: str) -> None:
    teacher.selectbox(key="live_ask_kind").set_value(kind).run()
    teacher.button(key="live_ask_send").click().run()


def answer(student, qid: str, typed: str) -> None:
    student.text_input(key=f"live_typed_{qid}").set_value(typed).run()
    student.button(key=f"live_send_{qid}").click().run()


def test_a_typed_number_is_answered_counted_once_and_revealed_with_each_students_verdict():
    from classroom.answers import csv_text
    from classroom.session import rooms
    from liveclass import Pass

    teacher, code, (ann, bo) = class_with(2)
    for _ in range(20):  # the draw follows the clock: Bo's wrong answer h must not be the right one (64 / 8 = 8)
        send(teacher, "d_k")
        room = ann.run().session_state["_live_room"]
        q = room.question
        d, h = q["prompt"]["params"]["d"], q["prompt"]["params"]["h"]
        if d // h != h:
            break
        teacher.button(key="console_close").click().run()  # the question closed: the console can ask again
        time.sleep(1.05)  # the next second: another seed
    bo.run()
    assert q["answer_type"] == "number" and "options" not in q and room.answer is None and room.solution is None
    right = d // h  # the oracle: d_k = d_model / h, from the numbers the students read
    shown = texts(ann)
    assert f"= {d:,} and h = {h} heads" in shown  # the numbers the question says (its notation: $d_\\text{model}$)
    assert "Your number" in "".join(el.label for el in ann.text_input)
    answer(ann, room.qid, "abc")  # not a number: one message, nothing sent
    assert "That is not a number" in texts(ann)
    answer(ann, room.qid, f"{right}.0")
    assert "Sent:" in texts(ann) and "That is not a number" not in texts(ann)
    answer(bo, room.qid, str(d * h))  # wrong ...
    answer(bo, room.qid, str(h))  # ... changed their mind, still wrong: replaces, never adds
    teacher.run()
    assert "2 answers" in texts(teacher)
    bars = progress_texts(teacher)
    assert sorted(bars) == sorted([f"{right} — 1", f"{h} — 1"])  # no mark before the reveal; 32.0 read as 32
    for student in (ann, bo):
        student.run()
        assert "The answer" not in texts(student) and "Right:" not in texts(student)
        assert "Not this one" not in texts(student) and not progress_texts(student)
    teacher.button(key="console_reveal").click().run()
    assert f"{right} ✓ — 1" in progress_texts(teacher) and f"{h} — 1" in progress_texts(teacher)
    en = i18n.translator("en")
    auth = Pass(teacher.session_state["_live_sid"], teacher.session_state["_live_browser"])
    rows = list(csv.DictReader(io.StringIO(csv_text(rooms(), code, auth, en))))
    assert [(r["answer"], r["correct"]) for r in rows] == [(f"{right}.0", "yes"), (str(h), "no")]  # as typed
    ann.run()
    assert f"Right: {right}." in texts(ann) and f"{right} ✓ — 1" in progress_texts(ann)
    bo.run()
    shown = texts(bo)
    assert f"Not this one. The answer is {right}." in shown
    assert en("quiz.d_k.trap_h") in shown  # the quiz's own feedback for this wrong answer
    from classroom.session import text as _text

    assert _text(en, q["explain"]) in shown  # the why
    again = session({"join": code, "me": bo.session_state["_live_sid"]},
                    browser=bo.session_state["_live_browser"])  # Bo reloads: the verdict is the store's
    assert f"Not this one. The answer is {right}." in texts(again) and f"Your answer: {h}" in texts(again)


@pytest.mark.parametrize("kind, typed, message", [
    ("d_k", "abc", "That is not a number"), ("d_k", "3,x", "That is not a number"), ("d_k", "1e999", "not a number"),
    ("shape", "3,y", "That is not a shape"), ("shape", "8 × 0", "That is not a shape"), ("shape", "(", "not a shape"),
])  # fmt: skip
def test_typed_input_that_cannot_be_read_gets_one_message_and_is_not_sent(kind, typed, message):
    teacher, _, (student,) = class_with(1)
    send(teacher, kind)
    room = student.run().session_state["_live_room"]
    answer(student, room.qid, typed)
    shown = texts(student)
    assert shown.count(message) == 1 and "Sent:" not in shown and not student.exception
    student.run()  # the student's timer: the message stays while the refused text is in the box
    assert message in texts(student)
    teacher.run()
    assert "0 answers" in texts(teacher)


def test_a_typed_shape_in_chinese():
    teacher, _, (student,) = class_with(1)
    student.selectbox(key="lang").set_value("zh").run()
    send(teacher, "shape")
    room = student.run().session_state["_live_room"]
    assert "你的答案（形状" in "".join(el.label for el in student.text_input)
    answer(student, room.qid, "x")
    assert "这不是一个形状" in texts(student) and not student.exception


def test_a_typed_answer_is_shown_counted_and_exported_exactly_as_typed():
    """4194304 stays 4194304 on the student's screen, in the console's histogram, on the projector's and in the CSV
    (it was shown, histogrammed and exported as 4,194,300); and a neighbour is its own bar."""
    from classroom.answers import csv_text
    from classroom.session import rooms
    from liveclass import Pass

    teacher, code, (ann, bo) = class_with(2)
    send(teacher, "d_k")
    qid = ann.run().session_state["_live_room"].qid
    bo.run()
    answer(ann, qid, "4194304")
    answer(bo, qid, "4194305")
    assert "Sent: 4194304." in texts(ann)
    teacher.run()
    assert sorted(progress_texts(teacher)) == ["4194304 — 1", "4194305 — 1"]
    teacher.button(key="console_reveal").click().run()
    ann.run()
    assert "Your answer: 4194304" in texts(ann) and "4194304 — 1" in progress_texts(ann)
    auth = Pass(teacher.session_state["_live_sid"], teacher.session_state["_live_browser"])
    rows = list(csv.DictReader(io.StringIO(csv_text(rooms(), code, auth, i18n.translator("en")))))
    assert [r["answer"] for r in rows] == ["4194304", "4194305"]
