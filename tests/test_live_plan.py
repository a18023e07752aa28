"""The class's route (classroom/plan.py, no Streamlit): a lesson's stops and the clicker's presses, applied one by one
in order, as the console and the projector move the class."""

from __future__ import annotations

import json

import lessons
from classroom import plan
from explorer import Settings


def test_a_class_starts_at_the_lessons_first_stop_with_its_settings():
    lesson = lessons.get("mha45")
    state = plan.start(lesson, Settings(), "zh", now=100.0)
    first = lesson.stop(0)
    assert state["lesson"] == "mha45" and state["stop"] == 0 and state["page"] == first.page
    assert json.loads(state["settings"])["n_heads"] == first.settings.n_heads
    assert state["lang"] == "zh" and state["join"] is True and state["stop_at"] == state["started"] == 100.0


def test_three_presses_are_three_stops_and_the_ends_hold():
    lesson = lessons.get("mha45")
    state = plan.start(lesson, Settings(), "en", now=0.0)
    moved = plan.move(state, [1, 1, 1], now=5.0)
    assert moved["stop"] == 3 and moved["page"] == lesson.stop(3).page and moved["stop_at"] == 5.0
    stop = lesson.stop(1)  # a /steps stop: its step (0-based) and its own settings
    at = plan.at_stop(state, lesson, 1, now=6.0)
    assert at["page"] == "steps" and at["step"] == stop.step - 1
    assert json.loads(at["settings"])["n_heads"] == stop.settings.n_heads
    last = len(lesson.stops) - 1
    assert plan.move(state, [1] * 50)["stop"] == last  # past the end stays at the end ...
    assert plan.move(plan.move(state, [1] * 50), [-1])["stop"] == last - 1  # ... and one back is one back
    assert plan.move(state, [-1, 1])["stop"] == 1  # at the start, a press back stays: then forward is stop 2
    assert plan.move(state, [1, -1]) == state  # forward and back: where it was (not a new stop clock)


def test_without_a_lesson_the_presses_walk_the_nine_steps_of_steps_and_nothing_else():
    state = plan.start(None, Settings(), "en", now=0.0)
    assert state["page"] == "home" and state["lesson"] == ""
    assert plan.move(state, [1, 1]) == state  # no steps on the home page
    steps = {**state, "page": "steps", "step": 7}
    assert plan.move(steps, [1, 1, 1])["step"] == 8 and plan.move(steps, [-1, -1, 1])["step"] == 6


def test_the_clock_of_a_stop_and_of_the_class():
    state = {"stop_at": 60.0, "started": 0.0}
    assert plan.minutes_spent(state, now=180.0) == (2.0, 3.0)
