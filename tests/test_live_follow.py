"""The follow decision: a run that shows an older value the student's own page showed or was sent a moment ago
(the browser's older request folded into the server's navigation, which happens under load) makes the student go
again, however often; only a value of the student's own makes them an explorer."""

from __future__ import annotations

import json

from liveclass.follow import AGAIN, ECHO_SECONDS, EXPLORE, LANDED, decide, remember
from tests.conftest import PAGES
from tests.test_live_app import (  # noqa: F401 (own_store: autouse fixture)
    own_store,
    send_choice_question,
    teacher_and_students,
    texts,
)


def state(page: str = "heads", step: int = 0, **settings: object) -> dict:
    base = {"n_heads": 8, "seed": 0, "text": "the cat sat"}
    return {"page": page, "settings": json.dumps({**base, **settings}), "step": step, "present": False}


def test_landed_again_and_explore():
    before, sent = state(n_heads=8), state(n_heads=4)
    echoes = remember([], 100.0, before, sent)
    assert decide(sent, sent, echoes, 101.0) == LANDED
    assert decide(before, sent, echoes, 101.0) == AGAIN  # the browser's older value came back
    assert decide(state(n_heads=3), sent, echoes, 101.0) == EXPLORE  # a value nobody sent: the student's own
    assert decide(state(n_heads=4, seed=9), sent, echoes, 101.0) == EXPLORE
    assert decide(before, sent, echoes, 100.0 + ECHO_SECONDS + 1) == EXPLORE  # too old to be an echo


def test_a_mixed_run_of_old_page_and_new_settings_is_an_echo():
    before, sent = state("heads", n_heads=8), state("steps", step=2, n_heads=4)
    echoes = remember([], 0.0, before, sent)
    assert decide(state("heads", step=2, n_heads=4), sent, echoes, 1.0) == AGAIN
    assert decide(state("steps", step=0, n_heads=8), sent, echoes, 1.0) == AGAIN
    assert decide(state("steps", step=1, n_heads=4), sent, echoes, 1.0) == EXPLORE


def test_echoes_of_several_follows_and_the_limit():
    echoes: list = []
    for t, h in enumerate((8, 4, 2, 6)):
        echoes = remember(echoes, float(t), state(n_heads=h))
    assert decide(state(n_heads=4), state(n_heads=6), echoes, 3.5) == AGAIN
    assert len(remember(echoes * 10, 3.0)) <= 12
    assert remember(echoes, 3.0 + ECHO_SECONDS + 1) == []


def test_a_following_student_goes_again_however_often_older_values_come_back():
    """The former rule counted three cut-short navigations and then took the student for an explorer; after the
    navigation had landed, the first older value to come back did."""
    teacher, _, (student,) = teacher_and_students()
    old = student.number_input(key="n_heads").value
    teacher.number_input(key="n_heads").set_value(4 if old != 4 else 2).run()
    new = teacher.number_input(key="n_heads").value
    student.run()
    assert student.number_input(key="n_heads").value == new
    for _ in range(5):  # the browser re-sends the value it still shows, as its fragment timer does under load
        student.number_input(key="n_heads").set_value(old).run()
        assert student.session_state["_live_follow"] is True
        student.run()
        assert student.number_input(key="n_heads").value == new
    assert "Following the teacher" in texts(student)
    student.number_input(key="seed").set_value(3).run()  # a value of the student's own: exploring
    assert student.session_state["_live_follow"] is False
    assert "exploring on your own" in texts(student)
    student.button(key="live_back").click().run()
    student.run()
    assert student.session_state["_live_follow"] is True and student.number_input(key="seed").value == 0
    teacher.switch_page(PAGES["steps"]).run()
    student.run()
    assert student.session_state["_live_shown"]["page"] == "steps"
    student.switch_page(PAGES["home"]).run()  # the browser's older page wins a navigation
    assert student.session_state["_live_follow"] is True
    assert student.session_state["_live_shown"]["page"] == "steps"


def test_the_projector_shows_the_answer_count_live_and_the_histogram_only_after_the_reveal():
    teacher, _, (ann, bo) = teacher_and_students(2)
    send_choice_question(teacher)
    assert [m.value for m in teacher.main.get("metric")] == ["0"]
    for n, s in enumerate((ann, bo), start=1):
        qid = s.run().session_state["_live_room"].qid
        s.radio(key=f"live_pick_{qid}").set_value(n - 1).run()
        s.button(key=f"live_send_{qid}").click().run()
        teacher.run()
        assert [m.value for m in teacher.main.get("metric")] == [str(n)]
    assert not teacher.main.get("progress")  # the class sees the projector: no histogram before the reveal
    teacher.button(key="live_reveal").click().run()
    assert not teacher.main.get("metric") and len(teacher.main.get("progress")) >= 2
