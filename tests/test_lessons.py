"""The lesson model without Streamlit: every bad-file class gets one message naming its file and line, the app's
other lessons still load, and the built-in lessons are valid (settings, pages, checkpoints, both languages)."""

from __future__ import annotations

import re

import pytest

import lessons
from explorer.quiz import KINDS, check_answer, draw_question, render
from explorer.settings import validate
from i18n.glossary import GLOSSARY
from lessons import LessonError, load_all, load_text
from tests.conftest import ROOT

MINI = """\
id = "mini"
title = { en = "Mini", zh = "小课" }
summary = { en = "A short lesson.", zh = "一节短课。" }

[[objectives]]
en = "See one head."
zh = "看一个头。"

[settings]
preset = "en"

[[stops]]
id = "first"
page = "steps"
step = 4
minutes = 3
settings = { n_heads = 4 }
title = { en = "Scores", zh = "分数" }
task = { en = "Look at the scores.", zh = "看注意力分数。" }
notes = { en = "Say what a cell is.", zh = "说明一个格子是什么。" }
checkpoint = { kind = "d_k", seed = 1 }

[[stops]]
id = "second"
page = "heads"
minutes = 2

[stops.title]
en = "Heads"
zh = "各个头"

[stops.task]
en = "Compare the heads."
zh = "比较各个头。"

[stops.notes]
en = "Ask what differs."
zh = "问问有什么不同。"
"""


def line_of(text: str, needle: str | tuple[str, int]) -> int:
    """The 1-based line of the first line containing `needle` (or of its n-th occurrence: (needle, n))."""
    needle, nth = needle if isinstance(needle, tuple) else (needle, 1)
    found = [i for i, line in enumerate(text.splitlines(), start=1) if needle in line]
    return found[nth - 1]


def bad(text: str) -> LessonError:
    got = load_text(text.encode("utf-8"), "bad.toml")
    assert isinstance(got, LessonError), f"expected an error, got a lesson: {got}"
    return got


# ---------------------------------------------------------------- the good file
def test_a_good_file_loads_with_its_stops_and_settings():
    lesson = load_text(MINI.encode(), "mini.toml")
    assert not isinstance(lesson, LessonError), str(lesson)
    assert lesson.id == "mini" and [s.id for s in lesson.stops] == ["first", "second"]
    first, second = lesson.stops
    assert (first.page, first.step, first.minutes, first.number) == ("steps", 4, 3.0, 1)
    assert first.settings.n_heads == 4 and first.settings.d_model == 64 and second.settings.n_heads == 8
    assert first.title("zh") == "分数" and first.notes("en") == "Say what a cell is."
    assert lesson.minutes == 5 and lesson.planned_before(1) == 3 and lesson.stop(99) is second
    assert first.checkpoint == lessons.Checkpoint("d_k", 1) and lessons.question(second) is None
    assert first.line == line_of(MINI, "[[stops]]")


def test_a_checkpoint_is_the_quiz_banks_question_on_the_stops_setting():
    stop = load_text(MINI.encode(), "mini.toml").stops[0]
    q = lessons.question(stop, "zh")
    assert q == draw_question("d_k", settings=stop.settings, seed=1, lang="zh")
    assert check_answer(q, q.answer) and render(q)["prompt"]


# ---------------------------------------------------------------- every bad-file class, one message each
CASES = [
    # (class, edit (old -> new), code, the line's needle or None, words the English message must contain)
    ("toml syntax", ('minutes = 3\n', 'minutes = = 3\n'), "toml", "minutes = = 3", ["not valid TOML"]),
    ("unknown top key", ('id = "mini"\n', 'id = "mini"\nauthor = "me"\n'), "unknown_key", "author", ["author"]),
    ("unknown stop key", ('step = 4\n', 'step = 4\npgae = "x"\n'), "unknown_key", "pgae", ["pgae", "page"]),
    ("missing title", ('title = { en = "Mini", zh = "小课" }\n', ''), "missing", None, ["title"]),
    ("missing stop page", ('page = "heads"\n', ''), "missing", ("[[stops]]", 2), ["page", "stop 2"]),
    ("missing chinese", ('task = { en = "Look at the scores.", zh = "看注意力分数。" }',
                         'task = { en = "Look at the scores." }'), "missing_lang", "Look at the scores", ["Chinese"]),
    ("missing chinese, table", ('zh = "比较各个头。"\n', ''), "missing_lang", "[stops.task]", ["task", "Chinese"]),
    ("empty text", ('zh = "问问有什么不同。"', 'zh = "  "'), "empty_text", 'zh = "  "', ["empty"]),
    ("latex in a text", ("Look at the scores.", "Look at $QK^T$."), "latex", "Look at $QK", ["$", "LaTeX"]),
    ("citation of no erratum", ("Look at the scores.", "Look at the scores (⟦errata:n009_x⟧)."), "unknown_erratum",
     "n009_x", ["n009_x", "n001_q"]),
    ("text not a table", ('title = { en = "Scores", zh = "分数" }', 'title = "Scores"'), "type", 'title = "Scores"',
     ["title", "en", "zh"]),
    ("wrong type", ("minutes = 3\n", 'minutes = "three"\n'), "type", 'minutes = "three"', ["minutes", "number"]),
    ("minutes out of range", ("minutes = 3\n", "minutes = 0\n"), "minutes", "minutes = 0", ["minutes = 0"]),
    ("unknown page", ('page = "heads"', 'page = "hedas"'), "unknown_page", 'page = "hedas"', ["hedas", "steps"]),
    ("the lesson page", ('page = "heads"', 'page = "lesson"'), "unknown_page", 'page = "lesson"', ["lesson"]),
    ("step on another page", ('minutes = 2\n', 'minutes = 2\nstep = 3\n'), "step_page", "step = 3", ["heads"]),
    ("step out of range", ("step = 4", "step = 10"), "step_range", "step = 10", ["10", "9"]),
    ("unknown setting", ("n_heads = 4", "n_head = 4"), "unknown_setting", "n_head = 4", ["n_head", "n_heads"]),
    ("setting of a wrong type", ("n_heads = 4", 'n_heads = "4"'), "setting_type", 'n_heads = "4"',
     ["n_heads", "whole number"]),
    ("bad setting", ("n_heads = 4", "n_heads = 5"), "bad_setting", "n_heads = 5", ["not divisible", "h = 5"]),
    ("bad lesson setting", ('preset = "en"', 'preset = "en"\nmask = "diagonal"'), "setting_choice",
     'mask = "diagonal"', ["mask", "diagonal", "causal"]),
    ("bad preset", ('preset = "en"', 'preset = "french"'), "setting_choice", 'preset = "french"', ["preset", "worked"]),
    ("setting refused by the app", ("n_heads = 4", 'text = "   "'), "bad_setting", 'text = "   "', ["no tokens"]),
    ("worked example changed", ("n_heads = 4", 'preset = "worked", n_heads = 1'), "worked_fixed", "n_heads = 1",
     ["worked", "n_heads"]),
    ("unknown quiz kind", ('kind = "d_k"', 'kind = "dk"'), "unknown_kind", 'kind = "dk"', ["dk", "d_k"]),
    ("kind that does not fit", ('kind = "d_k"', 'kind = "mask_causal"'), "kind_unfit", 'kind = "mask_causal"',
     ["mask_causal"]),
    ("seed out of range", ("seed = 1", "seed = 5000"), "seed_range", "seed = 5000", ["5000"]),
    ("duplicate stop ids", ('id = "second"', 'id = "first" # again'), "duplicate_stop", "# again", ["first", "twice"]),
    ("bad id", ('id = "mini"', 'id = "Mini Lesson"'), "bad_id", 'id = "Mini Lesson"', ["Mini Lesson"]),
    ("no objectives", ('[[objectives]]\nen = "See one head."\nzh = "看一个头。"\n', 'objectives = []\n'),
     "no_objectives", "objectives = []", ["objectives"]),
]


@pytest.mark.parametrize(("name", "edit", "code", "needle", "words"), CASES, ids=[c[0] for c in CASES])
def test_every_bad_file_class_gets_one_message_with_its_line(name, edit, code, needle, words):
    old, new = edit
    assert old in MINI, f"the case {name!r} edits text the good file does not have"
    text = MINI.replace(old, new, 1)
    err = bad(text)
    assert err.code == code, str(err)
    if needle is not None:
        assert err.line == line_of(text, needle), f"{err} (expected the line of {needle!r})"
    message = str(err)
    assert message.startswith("bad.toml, line " if err.line else "bad.toml: "), message
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    zh = err.message("zh")
    assert zh.startswith("bad.toml") and zh != message and re.search(r"[\u4e00-\u9fff]", zh)


def test_no_stops_and_too_big_and_not_utf8():
    text = MINI[: MINI.index("[[stops]]")]
    assert bad(text).code == "missing"
    assert bad("stops = []\n" + text).code == "no_stops"
    assert load_text(b"x" * (300 * 1024), "big.toml").code == "too_big"
    err = load_text(MINI.encode("utf-16"), "utf16.toml")
    assert err.code == "encoding" and "UTF-8" in str(err)


def test_a_wrong_type_deep_inside_names_its_key():
    err = bad(MINI.replace('checkpoint = { kind = "d_k", seed = 1 }', 'checkpoint = "d_k"'))
    assert err.code == "type" and "checkpoint" in str(err) and "stop 1" in str(err)


def test_a_bad_file_does_not_stop_the_others(tmp_path):
    (tmp_path / "a_good.toml").write_text(MINI, encoding="utf-8")
    (tmp_path / "b_broken.toml").write_text(MINI.replace('page = "heads"', 'page = "nowhere"'), encoding="utf-8")
    (tmp_path / "c_same_id.toml").write_text(MINI.replace("Mini", "Other"), encoding="utf-8")
    (tmp_path / "d_syntax.toml").write_text("id = \n", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a lesson", encoding="utf-8")
    cat = load_all(tmp_path)
    assert cat.ids == ("mini",)
    codes = {e.file.rsplit("/", 1)[-1]: e.code for e in cat.errors}
    assert codes == {"b_broken.toml": "unknown_page", "c_same_id.toml": "duplicate_lesson", "d_syntax.toml": "toml"}
    dup = next(e for e in cat.errors if e.code == "duplicate_lesson")
    assert dup.line == 1 and "a_good.toml" in str(dup)
    assert next(e for e in cat.errors if e.code == "toml").line == 1


# ---------------------------------------------------------------- the built-in lessons
BUILT_IN = lessons.catalog()


def test_the_built_in_lessons_all_load():
    assert not BUILT_IN.errors, [str(e) for e in BUILT_IN.errors]
    assert {"mha45", "why-heads"} <= set(BUILT_IN.ids)


def test_mha45_has_the_shape_the_issue_asks_for():
    lesson = lessons.get("mha45")
    assert len(lesson.stops) >= 10 and len(lesson.checkpoints) >= 3
    assert 43 <= lesson.minutes <= 47
    pages = {s.page for s in lesson.stops}
    assert {"steps", "heads", "worked", "positional"} <= pages
    assert any(s.settings.mask == "causal" for s in lesson.stops) and any(s.settings.n_heads == 1 for s in lesson.stops)


def test_why_heads_is_about_twenty_minutes_on_note_004_and_the_errata():
    lesson = lessons.get("why-heads")
    assert 18 <= lesson.minutes <= 22 and len(lesson.checkpoints) >= 3
    assert {"note004", "errata"} <= {s.page for s in lesson.stops}


@pytest.mark.parametrize("lesson", BUILT_IN.lessons, ids=lambda le: le.id)
def test_every_checkpoint_draws_on_its_stops_setting(lesson):
    for stop in lesson.checkpoints:
        assert not validate(stop.settings)
        for lang in ("en", "zh"):
            q = lessons.question(stop, lang)
            assert q is not None and q.kind == stop.checkpoint.kind and q.lang == lang
            assert q == draw_question(stop.checkpoint.kind, settings=stop.settings, seed=stop.checkpoint.seed,
                                      lang=lang)  # fmt: skip
            assert check_answer(q, q.answer)
    assert all(s.checkpoint is None or s.checkpoint.kind in KINDS for s in lesson.stops)


def lesson_texts(lesson):
    yield "title", lesson.title_text
    yield "summary", lesson.summary_text
    for i, o in enumerate(lesson.objective_texts):
        yield f"objective {i + 1}", o
    for s in lesson.stops:
        for part in ("title_text", "task_text", "notes_text"):
            yield f"stop {s.number} {part}", getattr(s, part)


@pytest.mark.parametrize("lesson", BUILT_IN.lessons, ids=lambda le: le.id)
def test_lesson_texts_use_the_glossarys_words(lesson):
    """The lessons are data, not catalogues, but they speak the app's one vocabulary (i18n/glossary.py)."""
    problems = []
    for where, text in lesson_texts(lesson):
        plain_en = re.sub(r"“[^”]*”|`[^`]*`", "", text.en)
        zh = re.sub(r"（[A-Za-z -]+）", "", text.zh)
        for term in GLOSSARY:
            problems += [f"{where}: zh uses {p!r}" for p in term.forbidden_zh if re.search(p, zh)]
            problems += [f"{where}: en uses {p!r}" for p in term.forbidden_en if re.search(p, text.en)]
            named = term.en_trigger and re.search(term.en_trigger, plain_en)
            if named and not any(w in text.zh for w in (term.zh, *term.zh_any)):
                problems.append(f"{where}: en has {term.en!r}, zh has none of {term.zh!r}")
        if re.search(r"[\u3400-\u9fff]\s*:(?!//)", zh):
            problems.append(f"{where}: an ASCII colon after Chinese text (use ：)")
        if not re.search(r"[\u4e00-\u9fff]", text.zh):
            problems.append(f"{where}: the Chinese text has no Chinese")
    assert not problems, "\n".join(problems)


def test_the_pages_list_is_the_frames():
    from ui.nav import PAGES
    from ui.steps_view import STEP_KEYS

    assert lessons.app_pages() == tuple(url for _, url, *_ in PAGES)
    assert len(STEP_KEYS) == lessons.N_STEPS


def test_the_lesson_model_does_not_import_streamlit():
    import subprocess
    import sys

    code = "import sys, lessons; lessons.load_all(); print('streamlit' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_built_in_lessons_come_in_the_courses_order():
    assert [le.id for le in lessons.catalog().lessons] == ["mha45", "why-heads", "llm"]
