"""Typed questions in the room store (liveclass, both backends: SQLite and a real redis-server): the solution hidden
until the reveal, answers validated on the server, graded by the quiz's own check, counted once, size-limited;
and the histogram of typed answers (liveclass.typed)."""

from __future__ import annotations

import json
import sqlite3

import pytest

from explorer.quiz_model import Question, check_answer
from liveclass import Limits, LiveError, Rooms
from liveclass.sqlite_backend import SqliteBackend
from liveclass.typed import as_quiz, histogram, label
from tests import test_live_store

make_rooms, redis_url = test_live_store.make_rooms, test_live_store.redis_url  # the same two backends (fixtures)

NUMBER = {"kind": "softmax_weight", "answer_type": "number", "prompt": {"key": "", "params": {"text": "w?"}},
          "explain": {"key": "", "params": {"text": "because"}}, "tolerance": 0.01}  # fmt: skip
NUMBER_SOLUTION = {"answer": 0.25, "tolerance": 0.01,
                   "traps": [{"value": 0.5, "explain": {"key": "", "params": {"text": "forgot to normalise"}}}]}
SHAPE = {"kind": "shape", "answer_type": "shape", "prompt": {"key": "", "params": {"text": "shape?"}},
         "explain": {"key": "", "params": {"text": "rows are queries"}}, "tolerance": 0.0}  # fmt: skip
SHAPE_SOLUTION = {"answer": [8, 11], "tolerance": 0.0, "traps": []}


def room_with(make, question, solution, n_students=3, limits=None):
    rooms: Rooms = make(limits)
    t = rooms.create()
    sids = [rooms.join(t.code)[1] for _ in range(n_students)]
    qid = rooms.ask(t.code, t.key, question, solution)
    return rooms, t, sids, qid


def test_a_typed_answer_is_hidden_until_the_reveal_graded_by_the_quiz_and_counted_once(make_rooms):
    rooms, t, (ann, bo, cy), qid = room_with(make_rooms, NUMBER, NUMBER_SOLUTION)
    room = rooms.room(t.code)
    assert room.question == NUMBER and room.answer is None and room.solution is None  # hidden from students
    rooms.submit(t.code, ann, qid, "0.252", "Ann")  # within the tolerance
    rooms.submit(t.code, bo, qid, "0.5")
    rooms.submit(t.code, bo, qid, "1/4")  # changed their mind: replaces, never adds
    rooms.submit(t.code, cy, qid, "0,9")  # a decimal comma
    rooms.submit(t.code, cy, qid, "0,9")  # a double click
    answers = {a.sid: a for a in rooms.answers(t.code, t.key)}
    assert len(answers) == 3
    assert answers[ann].value == pytest.approx(0.252) and answers[bo].value == pytest.approx(0.25)
    assert answers[cy].value == pytest.approx(0.9)
    q = as_quiz(NUMBER, NUMBER_SOLUTION)
    for a in answers.values():  # one idea of right: the store's grade is the quiz's check
        assert a.right == check_answer(q, a.value)
    assert [answers[s].right for s in (ann, bo, cy)] == [True, True, False]
    assert rooms.tally(t.code) is None and rooms.typed_tally(t.code) is None  # a student asks before the reveal
    assert rooms.mine(t.code, cy).value == pytest.approx(0.9) and rooms.mine(t.code, cy).right is None  # not graded yet
    rooms.reveal(t.code, t.key)
    room = rooms.room(t.code)
    assert room.answer == 0.25 and room.solution == NUMBER_SOLUTION
    assert [rooms.mine(t.code, s).right for s in (ann, bo, cy)] == [True, True, False]  # a reload finds its verdict
    with pytest.raises(LiveError) as err:
        rooms.submit(t.code, ann, qid, "0.25")
    assert err.value.code == "closed"


def test_a_typed_shape_is_graded_and_its_histogram_marks_the_right_bar(make_rooms):
    rooms, t, sids, qid = room_with(make_rooms, SHAPE, SHAPE_SOLUTION, n_students=4)
    typed_by = ["8 × 11", "(8, 11)", "11x8", "８×１１"]  # full-width digits: a Chinese keyboard
    for sid, typed in zip(sids, typed_by, strict=True):
        rooms.submit(t.code, sid, qid, typed)
    bars = rooms.typed_tally(t.code, t.key)
    assert [(b.label, b.count, b.right) for b in bars] == [("8 × 11", 3, True), ("11 × 8", 1, False)]
    rooms.reveal(t.code, t.key)
    assert rooms.typed_tally(t.code) == bars and rooms.room(t.code).answer == [8, 11]


@pytest.mark.parametrize("question, solution, typed, code", [
    (NUMBER, NUMBER_SOLUTION, "abc", "bad_number"), (NUMBER, NUMBER_SOLUTION, "3,x", "bad_number"),
    (NUMBER, NUMBER_SOLUTION, "inf", "bad_number"), (NUMBER, NUMBER_SOLUTION, "nan", "bad_number"),
    (NUMBER, NUMBER_SOLUTION, "1e999", "bad_number"), (NUMBER, NUMBER_SOLUTION, float("inf"), "bad_number"),
    (NUMBER, NUMBER_SOLUTION, None, "bad_number"), (NUMBER, NUMBER_SOLUTION, True, "bad_number"),
    (NUMBER, NUMBER_SOLUTION, [1, 2], "bad_number"), (NUMBER, NUMBER_SOLUTION, "", "bad_number"),
    (NUMBER, NUMBER_SOLUTION, "1" * 41, "answer_too_long"), (SHAPE, SHAPE_SOLUTION, "3,y", "bad_shape"),
    (SHAPE, SHAPE_SOLUTION, "8 × 0", "bad_shape"), (SHAPE, SHAPE_SOLUTION, "-8 × 11", "bad_shape"),
    (SHAPE, SHAPE_SOLUTION, "1 2 3 4 5 6 7", "bad_shape"), (SHAPE, SHAPE_SOLUTION, [8, 11.0], "bad_shape"),
    (SHAPE, SHAPE_SOLUTION, list(range(1, 10**4)), "bad_shape"), (SHAPE, SHAPE_SOLUTION, "2.5 × 3", "bad_shape"),
    (SHAPE, SHAPE_SOLUTION, "x" * 100, "answer_too_long"), (SHAPE, SHAPE_SOLUTION, 8, "bad_shape"),
])  # fmt: skip
def test_a_typed_answer_that_is_not_one_is_refused_and_nothing_is_stored(make_rooms, question, solution, typed, code):
    rooms, t, (sid, *_), qid = room_with(make_rooms, question, solution, n_students=1)
    with pytest.raises(LiveError) as err:
        rooms.submit(t.code, sid, qid, typed)
    assert err.value.code == code
    assert rooms.answers(t.code, t.key) == []


def test_the_answer_size_limit_is_a_setting_of_the_store(make_rooms):
    rooms, t, (sid, *_), qid = room_with(make_rooms, NUMBER, NUMBER_SOLUTION, n_students=1,
                                         limits=Limits(max_answer=6))  # fmt: skip
    with pytest.raises(LiveError) as err:
        rooms.submit(t.code, sid, qid, "0.2500001")
    assert err.value.code == "answer_too_long" and err.value.params == {"limit": 6}
    rooms.submit(t.code, sid, qid, "0.25")
    assert len(rooms.answers(t.code, t.key)) == 1


@pytest.mark.parametrize("question, solution", [
    (NUMBER, {"answer": "0.25", "tolerance": 0.01}), (NUMBER, {"answer": float("nan"), "tolerance": 0.01}),
    (NUMBER, {"answer": 0.25, "tolerance": -1}), (NUMBER, {"answer": 0.25, "tolerance": 0.5}),  # hint differs
    (NUMBER, 2), (SHAPE, {"answer": [8, 0], "tolerance": 0.0}), (SHAPE, {"answer": [], "tolerance": 0.0}),
    (SHAPE, {"answer": [8, 11], "tolerance": 0.0, "traps": [{"value": "x"}]}),
    ({**SHAPE, "options": ["a", "b"]}, SHAPE_SOLUTION), ({**NUMBER, "x": "y" * 20_000}, NUMBER_SOLUTION),
])  # fmt: skip
def test_a_malformed_typed_question_is_refused(make_rooms, question, solution):
    rooms = make_rooms()
    t = rooms.create()
    with pytest.raises(LiveError):
        rooms.ask(t.code, t.key, question, solution)
    assert rooms.room(t.code).question is None


def test_a_choice_question_after_a_typed_one_is_a_choice_question_again(make_rooms):
    rooms, t, (sid, *_), _ = room_with(make_rooms, NUMBER, NUMBER_SOLUTION, n_students=1)
    qid = rooms.ask(t.code, t.key, {"kind": "argmax", "options": ["a", "b"]}, 1)
    rooms.submit(t.code, sid, qid, 1)
    with pytest.raises(LiveError):
        rooms.submit(t.code, sid, qid, "0.25")
    assert rooms.typed_tally(t.code, t.key) is None and rooms.tally(t.code, t.key) == [0, 1]
    rooms.reveal(t.code, t.key)
    assert rooms.room(t.code).answer == 1 and rooms.room(t.code).solution is None


def test_an_older_sqlite_file_gains_the_new_columns(tmp_path):
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.executescript("""
CREATE TABLE rooms (code TEXT PRIMARY KEY, teacher_hash TEXT NOT NULL, created REAL NOT NULL, expires REAL NOT NULL,
    ended INTEGER NOT NULL DEFAULT 0, version INTEGER NOT NULL DEFAULT 0, state TEXT NOT NULL DEFAULT '{}',
    question TEXT NOT NULL DEFAULT '', qid TEXT NOT NULL DEFAULT '', answer INTEGER NOT NULL DEFAULT -1,
    revealed INTEGER NOT NULL DEFAULT 0);
CREATE TABLE answers (code TEXT NOT NULL, qid TEXT NOT NULL, sid TEXT NOT NULL, choice INTEGER NOT NULL,
    nickname TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (code, qid, sid));""")
    db.close()
    rooms = Rooms(SqliteBackend(path))
    t = rooms.create()
    _, sid = rooms.join(t.code)
    qid = rooms.ask(t.code, t.key, SHAPE, SHAPE_SOLUTION)
    rooms.submit(t.code, sid, qid, "8x11")
    assert rooms.answers(t.code, t.key)[0].right is True


# ---------------------------------------------------------------- the histogram (no store)
def test_numbers_written_differently_are_one_bar_and_every_bar_is_exact():
    q = as_quiz(NUMBER, {**NUMBER_SOLUTION, "answer": 16.0, "tolerance": 0.0})
    bars = histogram(q, [16.0, 16, 16.0, 1024.0, -0.5, 4194304, 4194305])
    assert [(b.label, b.count, b.right) for b in bars] == [
        ("16", 3, True), ("-0.5", 1, False), ("1024", 1, False), ("4194304", 1, False), ("4194305", 1, False)]
    assert label(4194304.0) == "4194304" and label(0.3) == "0.3" and label(16.0000000001) == "16.0000000001"


def test_at_most_six_bars_and_the_rest_is_other():
    q = as_quiz(NUMBER, {"answer": 1.0, "tolerance": 0.0})
    values = [1.0] * 5 + [2.0] * 4 + [3.0, 3.0, 4.0, 4.0, 5.0, 6.0, 7.0, 8.0]
    bars = histogram(q, values)
    assert len(bars) == 6 and bars[-1].label is None
    assert sum(b.count for b in bars) == len(values)  # nobody is lost in "other"
    assert [b.label for b in bars[:5]] == ["1", "2", "3", "4", "5"] and bars[0].right and not bars[-1].right
    assert histogram(q, []) == []


def test_a_solution_read_back_from_json_grades_as_the_quiz_question_does():
    from explorer import Settings, run_scene
    from explorer.live_questions import quiz_kinds, quiz_question
    from explorer.quiz import draw_question

    sc = run_scene(Settings())
    for kind in quiz_kinds(sc):
        payload, solution = quiz_question(kind, sc)
        if payload.get("answer_type") in ("number", "shape"):
            original: Question = draw_question(kind, scene=sc)
            rebuilt = as_quiz(json.loads(json.dumps(payload)), json.loads(json.dumps(solution)))
            for trap in original.traps:
                assert check_answer(rebuilt, trap.value) == check_answer(original, trap.value)
            assert check_answer(rebuilt, original.answer)
