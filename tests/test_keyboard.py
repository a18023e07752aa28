"""Keyboard only, as a student without a mouse (or with a screen reader) uses the app: the presentation's nine steps,
the quiz, a self-paced lesson (start, a checkpoint, Next across pages) and a live class on a phone (join by the code,
answer the teacher's question, explore and come back), with a visible focus at every stop and the focus on the new
content after each action.

The helpers are in tests/a11y.py (`tab_to`, `press`, `focused`, `assert_focus_visible`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.a11y import assert_focus_visible, focused, press, tab_to, wait_ready
from tests.browser import CHROMIUM, streamlit_server

pytestmark = pytest.mark.browser

if not Path(CHROMIUM).exists():
    pytest.fail(f"Chromium not found at {CHROMIUM}; run `bash .ci/run` to install it", pytrace=False)

PROJECTOR = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}
PHONE_UA = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1"
SETTING = "mask=causal&d_model=32&n_heads=4&seed=7"  # small and quick, with a mask step that has a chart


@pytest.fixture(scope="module")
def server():
    with streamlit_server() as url:
        yield url


def open_page(browser, url: str, scheme: str = "light"):
    page = browser.new_context(viewport=PROJECTOR, color_scheme=scheme).new_page()
    page.goto(url)
    wait_ready(page)
    return page


def step_shown(page, expected: int | None = None) -> int:
    if expected is not None:
        page.get_by_text(f"Step {expected} of 9").first.wait_for(timeout=15_000)
    text = page.get_by_text(re.compile(r"Step \d+ of 9")).first.inner_text()
    return int(re.search(r"Step (\d+) of 9", text).group(1))


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_presentation_by_keyboard_alone(browser, server, scheme):
    page = open_page(browser, f"{server}/steps?present=true&{SETTING}", scheme)
    # the collapsed sidebar's 42 controls are out of the Tab order: Next comes within a few presses, every stop on
    # screen and ringed
    passed = tab_to(page, "Next step", limit=8)
    assert all(p["onScreen"] for p in passed), passed
    assert_focus_visible(page)
    press(page, "Enter")
    assert step_shown(page, 2) == 2
    now = focused(page)
    assert "Step 2 of 9" in now["text"], f"the focus did not move to the new step: {now}"
    assert_focus_visible(page)
    press(page, " ")  # the clicker's Space: the focus is on the step's line, not on a control
    assert step_shown(page, 3) == 3 and "Step 3 of 9" in focused(page)["text"]
    tab_to(page, "Previous", backwards=True, limit=3)
    assert_focus_visible(page)
    press(page, " ")  # Space on a focused Previous presses Previous (it went to "next step" before)
    assert step_shown(page, 2) == 2
    for n in range(3, 10):  # Tab to Next and press it, to the last step
        tab_to(page, "Next step", limit=3)
        press(page, "Enter")
        assert step_shown(page, n) == n
        now = focused(page)
        assert f"Step {n} of 9" in now["text"], f"step {n}: the focus is on {now}"
    assert page.locator(".st-key-step_next button").is_disabled()
    page.context.close()


def test_quiz_by_keyboard_alone(browser, server):
    page = open_page(browser, f"{server}/quiz?{SETTING}")
    # a question to choose from: Tab to its first option, Space chooses it, Tab to Reveal, Enter
    group = page.locator("[data-testid='stMain'] [role='radiogroup']").first
    option = group.locator("label").first.inner_text().strip()
    tab_to(page, option[:25], limit=150)
    assert_focus_visible(page)
    press(page, "Space")
    tab_to(page, "Reveal", limit=6)
    assert_focus_visible(page)
    press(page, "Enter")
    now = focused(page)
    assert now["tag"] != "body" and re.search(r"Right|Not this one", now["text"]), (
        f"the focus did not move to the verdict: {now}")
    assert now["onScreen"]
    assert_focus_visible(page)
    # the marks of the options are named by what they mean (Streamlit named them "check_circle icon"), or hidden
    page.wait_for_function("() => document.querySelector(\"[data-testid='stMain'] span[aria-label='the answer']\")")
    ligatures = page.evaluate("""() => [...document.querySelectorAll("[data-testid='stMain'] [role='img']")]
        .map(e => e.getAttribute('aria-label') || '').filter(n => / icon$/.test(n))""")
    assert not ligatures, ligatures
    # Tab goes on from the verdict (the "other options" of this question, then the next one), not from the top
    verdict_top = page.evaluate("() => document.activeElement.getBoundingClientRect().top")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.getBoundingClientRect().top") >= verdict_top
    assert_focus_visible(page)
    # a question to type into: the number box, then Reveal
    tab_to(page, "Your number", limit=40)
    assert_focus_visible(page)
    page.keyboard.type("0.25")
    tab_to(page, "Reveal", limit=3)
    press(page, "Enter")
    now = focused(page)
    assert re.search(r"Right|Not this one|I can read", now["text"]), f"the focus is on {now}"
    page.context.close()


def shows(page, text: str, timeout: int = 60_000) -> None:
    """Wait until the page shows `text`; a failure says what it shows instead."""
    try:
        page.wait_for_function("t => document.body.innerText.includes(t)", arg=text, timeout=timeout)
    except Exception as exc:
        raise AssertionError(f"{page.url} does not show {text!r}: "
                             f"{page.evaluate('() => document.body.innerText')[:600]!r}") from exc  # fmt: skip


def focus_on(page, text: str) -> None:
    """The focus is on an element whose text contains `text` (the new content), drawn with a visible ring."""
    now = focused(page)
    assert text in now["text"], f"the focus is not on {text!r} but on {now}"
    assert_focus_visible(page)


def choose(page, labels: list[str], answer: int) -> None:
    """In a radio group whose first option has the focus: the option `answer` by the arrow keys (Space for the first,
    which Tab focuses without choosing)."""
    assert labels[0] in focused(page)["name"], focused(page)
    if answer == 0:
        press(page, " ")
    for _ in range(answer):
        press(page, "ArrowDown")
    assert labels[answer] in focused(page)["name"], focused(page)
    assert page.evaluate("() => document.activeElement.checked"), "the option has the focus but is not chosen"
    assert_focus_visible(page)


def test_a_self_paced_lesson_by_keyboard_alone(browser, server):
    """"Why several heads?" from its overview: the skip link, Start, a multiple-choice checkpoint by the arrow keys,
    Next on the same page, a typed checkpoint, Next onto another page; after Start and each Next the focus is on the
    new stop's heading (it fell to <body> before), after "go to it" on the checkpoint, after Reveal on the verdict."""
    import lessons
    from explorer.quiz import answer_text, text

    lesson = lessons.get("why-heads")
    total = len(lesson.stops)
    page = open_page(browser, f"{server}/lesson?lesson=why-heads")
    tab_to(page, "Skip to main content", limit=2)  # past the sidebar's 50 controls
    press(page, "Enter")
    tab_to(page, "Start at stop 1", limit=6)
    assert_focus_visible(page)
    press(page, "Enter")
    page.wait_for_url(re.compile(r"/why\?.*stop=1"), timeout=60_000)
    focus_on(page, f"stop 1 of {total}")
    assert lesson.stop(0).title("en") in focused(page)["text"]

    def checkpoint(index: int) -> None:
        """The stop's question: "go to it", then answer by keyboard, Reveal, and the verdict has the focus."""
        q = lessons.question(lesson.stop(index), "en")
        tab_to(page, "go to it", limit=6)  # the bar's link to the question at the end of the page
        assert_focus_visible(page)
        press(page, "Enter")
        focus_on(page, "Checkpoint")
        if q.answer_type == "choice":
            labels = [text(o.label, "en") for o in q.options]
            tab_to(page, labels[0], limit=4)
            choose(page, labels, q.answer)
        else:
            tab_to(page, "Your shape" if q.answer_type == "shape" else "Your number", limit=4)
            assert_focus_visible(page)
            page.keyboard.type(answer_text(q, "en"))
        tab_to(page, "Reveal", limit=4)
        assert_focus_visible(page)
        press(page, "Enter")
        focus_on(page, "Right")

    checkpoint(0)
    tab_to(page, "Next stop", limit=6)  # from the verdict: its "other options", then Next
    assert_focus_visible(page)
    press(page, "Enter")  # stop 2 is on the same page
    page.wait_for_url(re.compile(r"stop=2"), timeout=60_000)
    focus_on(page, f"stop 2 of {total}")
    checkpoint(1)
    tab_to(page, "Next stop", limit=6)
    press(page, "Enter")  # stop 3 is on another page
    page.wait_for_url(re.compile(rf"/{lesson.stop(2).page}\?.*stop=3"), timeout=60_000)
    focus_on(page, f"stop 3 of {total}")
    tab_to(page, "Next stop", limit=8)  # Tab goes on from the stop's heading: its task, then Previous / Next
    page.context.close()


@pytest.fixture
def live_store(tmp_path, monkeypatch):
    """A room store of this test's own, shared by its server and the test (which plays the teacher through it)."""
    monkeypatch.setenv("MHA_LIVE_DB", str(tmp_path / "live.sqlite3"))
    monkeypatch.delenv("MHA_REDIS_URL", raising=False)
    from classroom.session import rooms

    with streamlit_server(env={"MHA_LIVE_DB": str(tmp_path / "live.sqlite3")}) as url:
        yield url, rooms()


def test_a_live_class_student_on_a_phone_by_keyboard_alone(browser, live_store):
    """A phone (390 x 844): the code typed into the home page's join box and Enter; the focus then on "Following the
    teacher" (it fell to <body> before, and Tab went on from where the join box had been, past the class's question).
    The teacher (through the store) asks a question: Tab to it, choose by the arrow keys, Tab to Send, Enter: the
    answer is in the store, the confirmation in a status region (read out), the focus stays on Send. The question's
    heading is said in the page's polite live region (ui/a11y.js), there and empty before it came. "Explore on my own"
    and "Back to the teacher" by Tab and Enter, the focus on the bar's new line after each."""
    import i18n
    from classroom.session import text
    from explorer import Settings, run_scene
    from explorer.live_questions import answer_types, quiz_question

    tr = i18n.translator("en")
    server, store = live_store
    ticket = store.create()
    code, key = ticket.code, ticket.key
    page = browser.new_context(viewport=PHONE, is_mobile=True, user_agent=PHONE_UA).new_page()
    page.goto(server)
    wait_ready(page)
    tab_to(page, re.compile("^" + re.escape(tr("live.join_label"))), limit=10)  # not its "Help for ..."
    assert_focus_visible(page)
    page.keyboard.type(code.lower())
    press(page, "Enter")
    shows(page, tr("live.following", room=code))
    wait_ready(page)
    focus_on(page, tr("live.following", room=code))

    scene = run_scene(Settings())
    kind = next(k for k, how in answer_types(scene).items() if how == "choice")
    question, answer = quiz_question(kind, scene)
    region = page.locator("#mha-a11y-status[role='status'][aria-live='polite']")  # ui/a11y.js's, there from the start
    assert region.count() == 1 and not region.text_content().strip()
    store.ask(code, key, {**question, "setting": {"d_model": 64, "n_heads": 8, "tokens": scene.len_q}}, answer)
    shows(page, tr("live.q_title"))
    wait_ready(page)
    assert focused(page)["tag"] != "body", "the question's arrival took the focus away"
    region.filter(has_text=tr("live.q_title")).wait_for(state="attached", timeout=10_000)  # announced: its heading
    said = region.text_content()
    assert "$" not in said and "\\" not in said, said  # the formula as read, not its TeX
    labels = [text(tr, o, markdown=False) for o in question["options"]]
    tab_to(page, labels[0], limit=4)  # the bar's line, "Explore on my own", the question's first option
    choose(page, labels, answer)
    tab_to(page, tr("live.send"), limit=4)  # past the nickname
    assert_focus_visible(page)
    press(page, "Enter")
    shows(page, tr("live.sent", answer=labels[answer]))
    assert (store.tally(code, key) or [])[answer] == 1
    assert page.locator("[role='status']", has_text=tr("live.sent", answer=labels[answer])).count() >= 1
    assert tr("live.send") in focused(page)["name"]  # the answer may still be changed: the focus stays on Send
    assert_focus_visible(page)

    tab_to(page, tr("live.explore"), limit=8, backwards=True)
    assert_focus_visible(page)
    press(page, "Enter")
    shows(page, tr("live.exploring"))
    wait_ready(page)
    focus_on(page, tr("live.exploring"))
    tab_to(page, tr("live.back"), limit=3)
    assert_focus_visible(page)
    press(page, "Enter")
    shows(page, tr("live.following", room=code))
    wait_ready(page)
    focus_on(page, tr("live.following", room=code))
    page.wait_for_timeout(1500)  # the bar's timer redraws it every 0.5 s: the focus stays
    focus_on(page, tr("live.following", room=code))
    page.context.close()
