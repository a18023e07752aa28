"""Following passively (AppTest): a following phone draws the class's page, settings and step from the room, never from
widgets of its own, so the browser's older values and pages cannot pull it away (they were taken for "exploring"
before: a following phone had the settings widgets, and a run that showed an older value had to be told apart from
the student's own change). The projector follows the same way and shows nothing secret."""

from __future__ import annotations

from tests.conftest import PAGES
from tests.test_live_app import (  # noqa: F401 (own_store: autouse fixture)
    class_with,
    own_store,
    room_state,
    send_choice_question,
    session,
    texts,
)


def projector_of(teacher, code: str):
    """A projector window opened from the console's private link."""
    from classroom.session import INVITE_KEY

    teacher.run()
    return session({"room": code, "screen": "projector", "invite": teacher.session_state[INVITE_KEY]})


def test_a_following_phone_shows_the_class_however_often_the_browser_sends_an_older_page():
    teacher, _, (student,) = class_with()
    teacher.selectbox(key="console_page").set_value("steps").run()
    teacher.button(key="console_next").click().run()
    for _ in range(3):
        student.switch_page(PAGES["home"]).run()  # the browser's older page comes back
        student.run()
        assert student.session_state["_live_follow"] is True
        assert student.session_state["_ctx"].screen == "follower" and "Step 2 of 9" in texts(student)
    assert "Following the teacher" in texts(student)


def test_the_projector_follows_and_never_shows_the_key_a_count_or_bars_before_the_reveal():
    teacher, code, (ann, bo) = class_with(2)
    key = teacher.session_state["_live_key"]
    projector = projector_of(teacher, code)
    assert projector.session_state["_live_role"] == "projector" and "invite" not in projector.query_params
    assert key not in texts(projector) and not projector.sidebar.get("selectbox")  # no sidebar at all
    send_choice_question(teacher)
    for n, s in enumerate((ann, bo), start=1):
        qid = s.run().session_state["_live_room"].qid
        s.radio(key=f"live_pick_{qid}").set_value(n - 1).run()
        s.button(key=f"live_send_{qid}").click().run()
        projector.run()
        shown = texts(projector)
        assert "Question from the teacher" in shown and "Answer on your phone" in shown
        assert "answers" not in shown.lower().replace("answer on your phone", "") and not projector.get("progress")
        assert not projector.get("metric")
    teacher.button(key="console_reveal").click().run()
    projector.run()
    assert "The answer:" in texts(projector) and len(projector.get("progress")) >= 2  # now the class sees the bars
    teacher.button(key="console_close").click().run()
    projector.run()
    assert "Question from the teacher" not in texts(projector) and not projector.get("progress")
    assert key not in texts(projector)
