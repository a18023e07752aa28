"""The self-paced lesson in AppTest: the list, a broken lesson file beside good ones, Next through a whole lesson
with each stop's page and setting, a checkpoint answered and brought back by the link (a reload), both languages."""

from __future__ import annotations

import re
import shutil

import pytest

import lessons
import lessons.loading
from explorer.quiz import answer_text
from i18n import t
from tests.conftest import PAGES


def start(make_app, params: dict | None = None, page: str = "lesson"):
    at = make_app()
    for k, v in (params or {}).items():
        at.query_params[k] = v
    at.run()
    at.run()
    at.switch_page(PAGES[page]).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def texts(at) -> str:
    return "\n".join(str(e.value) for kind in ("markdown", "caption", "info", "title", "subheader")
                     for e in at.get(kind))  # fmt: skip


def bar(at) -> str:
    """The lesson bar's caption: "<lesson> · stop n of N · m min"."""
    return next((c.value for c in at.caption if "stop " in c.value and " of " in c.value), "")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_list_shows_every_lesson(make_app, lang):
    at = start(make_app, {"lang": lang})
    shown = [s.value for s in at.subheader]
    for lesson in lessons.catalog().lessons:
        assert lesson.title(lang) in shown
    assert not at.error


def test_a_broken_lesson_file_is_named_and_the_others_still_work(make_app, tmp_path, monkeypatch):
    shutil.copy(lessons.loading.DIRECTORY / "mha45.toml", tmp_path / "mha45.toml")
    broken = (lessons.loading.DIRECTORY / "why-heads.toml").read_text(encoding="utf-8")
    (tmp_path / "why-heads.toml").write_text(broken.replace('page = "note004"', 'page = "note04"', 1), encoding="utf-8")
    monkeypatch.setattr(lessons.loading, "DIRECTORY", tmp_path)
    at = start(make_app)
    assert [s.value for s in at.subheader] == [lessons.get("mha45").title("en")]
    errors = [e.value.replace("\\", "") for e in at.error]  # markdown escapes undone
    assert len(errors) == 1 and "why-heads.toml, line" in errors[0] and "note04" in errors[0]
    at.query_params["lesson"] = "mha45"
    at.run()
    at.button(key="lesson_start").click().run()
    assert not at.exception and "stop 1 of 12" in bar(at)


def test_next_through_a_whole_lesson_applies_each_stops_page_and_setting(make_app):
    lesson = lessons.get("why-heads")
    at = start(make_app, {"lesson": lesson.id})
    at.button(key="lesson_start").click().run()
    for stop in lesson.stops:
        assert not at.exception, [e.value for e in at.exception]
        assert f"stop {stop.number} of {len(lesson.stops)}" in bar(at)
        assert at.query_params["stop"] == str(stop.number) and at.query_params["lesson"] == lesson.id
        s = stop.settings
        assert (at.session_state["n_heads"], at.session_state["d_model"]) == (s.n_heads, s.d_model)
        assert at.title[0].value.startswith(t(f"page.{stop.page}"))  # the stop's page is drawn (titles begin so)
        assert stop.task("en").split("\n")[0][:40] in texts(at)
        key = "lesson_next_top" if stop.number < len(lesson.stops) else "lesson_finish_top"
        at.button(key=key).click().run()
    assert at.title[0].value == f"Lessons: {lesson.title('en')}"
    assert not at.exception


def test_a_checkpoint_answer_comes_back_with_the_link(make_app):
    lesson = lessons.get("mha45")
    stop = lesson.stop_by_id("one-head")
    q = lessons.question(stop)
    at = start(make_app, {"lesson": lesson.id})
    at.button(key="lesson_go").click().run()  # the jump box starts at stop 1
    at.button(key="lesson_next_top").click().run()
    assert "stop 2 of 12" in bar(at)
    at.switch_page(PAGES["steps"])  # AppTest reruns the page it was told, not the one the app switched to
    box = next(t for t in at.text_input if t.key.startswith("lesson_"))
    box.input(answer_text(q)).run()
    next(b for b in at.button if b.key.endswith("_reveal")).click().run()
    assert any("Right" in s.value for s in at.success)
    link = {k: at.query_params[k] for k in ("lesson", "stop", "la")}
    assert link["stop"] == "2" and re.fullmatch(r"[0-9a-f]{4}~0:.+!", link["la"])

    again = start(make_app, {**link, "n_heads": "1", "preset": "custom"}, page="steps")  # a reload: a new session
    assert "stop 2 of 12" in bar(again)
    assert any("Right" in s.value for s in again.success)
    assert not any(t.key.startswith("lesson_") for t in again.text_input)  # revealed: no box to type into


def test_the_steps_page_shows_only_the_stops_step(make_app):
    at = start(make_app, {"lesson": "mha45", "stop": "2", "n_heads": "1", "preset": "custom"}, page="steps")
    headers = [h.value for h in at.header if re.match(r"\d\. ", h.value)]
    assert headers == ["4. Scaled scores"]


def test_a_chinese_stop_speaks_chinese(make_app):
    lesson = lessons.get("mha45")
    at = start(make_app, {"lesson": "mha45", "stop": "4", "lang": "zh"}, page="heads")
    shown = texts(at)
    assert lesson.stops[3].task("zh")[:30] in shown and "第 4 站 / 共 12 站" in shown
    assert lesson.stops[3].task("en")[:30] not in shown
