"""ui/streamlit_fixes.py: each replacement gives what Streamlit's own function gives, for the same inputs."""

from __future__ import annotations

import asyncio
import copy
import importlib
import json
import threading
from types import SimpleNamespace

import pytest
import streamlit
from streamlit import config
from streamlit.components.v2 import presentation
from streamlit.components.v2.bidi_component import main as bidi_main
from streamlit.components.v2.bidi_component.serialization import BidiComponentSerde, deserialize_trigger_list
from streamlit.runtime.app_session import AppSession
from streamlit.runtime.runtime import Runtime
from streamlit.runtime.state.common import WidgetMetadata
from streamlit.runtime.state.session_state import SessionState

from ui import streamlit_fixes

pytestmark = pytest.mark.skipif(streamlit.__version__ != streamlit_fixes.STREAMLIT_VERSION,
                                reason="the fixes apply to one Streamlit version only")  # fmt: skip

COMPONENT, AGGREGATOR = "$$ID-comp-chart", "$$ID-comp-chart-events"


def _state(payloads: object, with_aggregator: bool = True, value_type: str = "json_trigger_value") -> SessionState:
    """A session state holding one component's stored state and (optionally) its trigger aggregator."""
    ss = SessionState()
    serde = BidiComponentSerde()
    ss._new_widget_state.set_widget_metadata(WidgetMetadata(COMPONENT, serde.deserialize, serde.serialize,
                                                            "json_value"))  # fmt: skip
    ss._new_widget_state.set_from_value(COMPONENT, {"zoom": 2, "picked": None})
    if with_aggregator:
        ss._new_widget_state.set_widget_metadata(WidgetMetadata(AGGREGATOR, deserialize_trigger_list, json.dumps,
                                                                value_type))  # fmt: skip
        if payloads is not ...:
            ss._new_widget_state.set_from_value(AGGREGATOR, payloads)
    return ss


CASES = {
    "no payload stored": ...,
    "payloads cleared": None,
    "one event": [{"event": "click", "value": [1, 2]}],
    "two events, one malformed": [{"event": "click", "value": 3}, {"event": 7, "value": 1}, "junk"],
    "a single dict": {"event": "hover", "value": "x"},
    "an event named like the state": [{"event": "zoom", "value": 99}],
    "not a list": 42,
}


def _pair(payloads: object, allowed: set[str] | None = None, **kw):
    theirs = presentation.make_bidi_component_presenter(AGGREGATOR, COMPONENT, allowed)
    ours = streamlit_fixes.make_bidi_component_presenter(AGGREGATOR, COMPONENT, allowed)
    return (theirs, _state(payloads, **kw)), (ours, _state(payloads, **kw))


@pytest.mark.parametrize("payloads", CASES.values(), ids=CASES.keys())
def test_the_presenter_shows_what_streamlits_shows(payloads):
    (theirs, ss1), (ours, ss2) = _pair(payloads)
    base = {"zoom": 2, "picked": None}
    a, b = theirs(dict(base), ss1), ours(dict(base), ss2)
    assert type(a).__name__ == "_WriteThrough" and isinstance(b, streamlit_fixes.WriteThrough)
    assert dict(a) == dict(b) and list(a) == list(b)  # same items, same order (triggers first, then the state)
    assert a.zoom == b.zoom and a.nothing_here is None and b.nothing_here is None  # attribute reads
    assert copy.deepcopy(a) is a and copy.deepcopy(b) is b  # a proxy to the state: never copied
    assert json.dumps(a) == json.dumps(b)


@pytest.mark.parametrize("allowed", [None, {"picked"}])
def test_writes_go_back_to_the_widget_state_as_streamlits_do(allowed):
    (theirs, ss1), (ours, ss2) = _pair([{"event": "click", "value": 1}], allowed)
    a, b = theirs({"zoom": 2, "picked": None}, ss1), ours({"zoom": 2, "picked": None}, ss2)
    for proxy in (a, b):
        proxy["picked"] = 5
        proxy.zoom = 3  # attribute writes are item writes
        del proxy["click"]
        proxy._private = 1  # an underscore name stays an attribute
    assert dict(a) == dict(b)
    assert ss1._new_widget_state[COMPONENT] == ss2._new_widget_state[COMPONENT]
    assert "_private" not in a and "_private" not in b


@pytest.mark.parametrize("kw", [{"with_aggregator": False}, {"value_type": "json_value"}])
def test_without_a_trigger_aggregator_the_value_is_returned_as_is(kw):
    (theirs, ss1), (ours, ss2) = _pair([{"event": "click", "value": 1}], **kw)
    base = {"zoom": 2}
    assert theirs(base, ss1) is base and ours(base, ss2) is base


@pytest.mark.parametrize("base", [None, [1, 2], "text", 3])
def test_a_state_that_is_not_a_dict_is_returned_as_is(base):
    (theirs, ss1), (ours, ss2) = _pair([{"event": "click", "value": 1}])
    assert theirs(base, ss1) is base and ours(base, ss2) is base


def test_config_sections_read_as_streamlits_read_them():
    original = streamlit_fixes.ORIGINAL.get("get_options_for_section", config.get_options_for_section)
    sections = {option.section for option in config.get_config_options().values()}
    assert {"theme", "theme.sidebar", "server"} <= sections
    for section in [*sorted(sections), "no.such.section"]:
        assert streamlit_fixes.get_options_for_section(section) == original(section), section
    # a value set later is read (only the options of a section are remembered, not their values)
    before = config.get_option("theme.primaryColor")
    try:
        config.set_option("theme.primaryColor", "#123456")
        assert streamlit_fixes.get_options_for_section("theme")["primaryColor"] == "#123456"
        assert original("theme") == streamlit_fixes.get_options_for_section("theme")
    finally:
        config.set_option("theme.primaryColor", before)


def test_an_option_reads_as_streamlits_read_it():
    original = streamlit_fixes.ORIGINAL.get("get_option", config.get_option)
    keys = list(config.get_config_options())
    assert len(keys) > 100
    for key in keys:
        assert streamlit_fixes.get_option(key) == original(key), key
    with pytest.raises(RuntimeError):  # not an option: Streamlit's own answer
        streamlit_fixes.get_option("no.such_option")
    key = "global.minCachedMessageSize"
    before = config.get_option(key)
    try:  # a value set later is read
        config.set_option(key, 123)
        assert streamlit_fixes.get_option(key) == 123 == original(key)
    finally:
        config.set_option(key, before)


class _Runtime:
    """What `Runtime._enqueued_some_message` uses of the Runtime: its loop and its "need send data" event."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.objs = SimpleNamespace(eventloop=loop, need_send_data=asyncio.Event())

    def _get_async_objs(self):
        return self.objs


def test_messages_queued_before_the_loop_wakes_ask_for_one_wake_up():
    loop = asyncio.new_event_loop()
    try:
        runtime = _Runtime(loop)
        scheduled = []
        real = loop.call_soon_threadsafe
        loop.call_soon_threadsafe = lambda cb, *a: (scheduled.append(cb), real(cb, *a))[1]
        done = threading.Event()

        def script() -> None:  # a script thread queueing a page's messages while the loop is busy elsewhere
            for _ in range(70):
                streamlit_fixes._enqueued_some_message(runtime)
            done.set()

        threading.Thread(target=script).start()
        done.wait(5)
        assert len(scheduled) == 1 and not runtime.objs.need_send_data.is_set()
        loop.run_until_complete(asyncio.sleep(0))  # the loop runs the wake-up: the flush will send all 70
        assert runtime.objs.need_send_data.is_set()
        runtime.objs.need_send_data.clear()  # the loop's flush begins
        streamlit_fixes._enqueued_some_message(runtime)  # a message queued after the wake-up ran asks again
        assert len(scheduled) == 2
        loop.run_until_complete(asyncio.sleep(0))
        assert runtime.objs.need_send_data.is_set()
    finally:
        loop.close()


def test_a_message_queued_on_the_loops_own_thread_wakes_it_without_its_pipe():
    """The session hands a run's messages over on the loop's thread: the wake-up is a plain `call_soon` there (no write
    to the loop's wake-up pipe), and it still comes, once for the messages queued before it runs."""
    loop = asyncio.new_event_loop()
    try:
        runtime = _Runtime(loop)
        threadsafe, plain = [], []
        real_threadsafe, real_plain = loop.call_soon_threadsafe, loop.call_soon
        loop.call_soon_threadsafe = lambda cb, *a: (threadsafe.append(cb), real_threadsafe(cb, *a))[1]
        loop.call_soon = lambda cb, *a, **k: (plain.append(cb), real_plain(cb, *a, **k))[1]

        async def handing_over() -> None:  # on the loop: the session's hand-over of a run's events
            for _ in range(70):
                streamlit_fixes._enqueued_some_message(runtime)

        loop.run_until_complete(handing_over())
        wakes = [cb for cb in plain if getattr(cb, "__name__", "") == "wake"]  # the loop schedules its own too
        assert threadsafe == [] and len(wakes) == 1
        loop.run_until_complete(asyncio.sleep(0))
        assert runtime.objs.need_send_data.is_set()
    finally:
        loop.close()


def test_streamlits_own_wake_up_asks_once_per_message():
    """What the fix removes: without it, every queued message schedules its own wake-up of the loop."""
    loop = asyncio.new_event_loop()
    try:
        runtime = _Runtime(loop)
        scheduled = []
        loop.call_soon_threadsafe = lambda cb, *a: scheduled.append(cb)
        original = streamlit_fixes.ORIGINAL.get("_enqueued_some_message", Runtime._enqueued_some_message)
        for _ in range(5):
            original(runtime)
        assert len(scheduled) == 5
    finally:
        loop.close()


class _Session:
    """What `AppSession._on_scriptrunner_event` uses of a session: its loop, and the handler of one event (here it
    notes the event, and fails on the event named "bad")."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._event_loop, self.handled, self.scheduled = loop, [], 0

    def _call_soon_on_event_loop(self, callback) -> None:
        self.scheduled += 1
        self._event_loop.call_soon_threadsafe(callback)

    def _handle_scriptrunner_event_on_event_loop(self, sender, event, forward_msg=None, exception=None,
                                                  client_state=None, page_script_hash=None, fragment_ids_this_run=None,
                                                  pages=None, run_descriptor=None) -> None:  # Streamlit's signature
        if event == "bad":
            raise RuntimeError("bad event")
        self.handled.append((sender, event, forward_msg, page_script_hash))


def test_a_runs_events_reach_the_loop_in_order_with_one_hand_over_while_it_is_pending():
    loop = asyncio.new_event_loop()
    reported = []
    loop.set_exception_handler(lambda _loop, context: reported.append(context["exception"]))
    try:
        session = _Session(loop)
        events = [("runner", f"delta {i}", f"msg {i}") for i in range(70)]

        def script() -> None:  # the script thread: a page's worth of elements, the loop busy elsewhere meanwhile
            for sender, event, msg in events[:69]:
                streamlit_fixes._on_scriptrunner_event(session, sender, event, forward_msg=msg)
            streamlit_fixes._on_scriptrunner_event(session, "runner", "delta 69", "msg 69", page_script_hash="p")

        thread = threading.Thread(target=script)
        thread.start()
        thread.join(5)
        assert session.scheduled == 1 and session.handled == []  # nothing handled off the loop
        loop.run_until_complete(asyncio.sleep(0))
        assert [h[:3] for h in session.handled] == events  # every event once, in the order sent
        assert session.handled[-1][3] == "p" and session.handled[0][3] is None  # keyword arguments kept
        # after the hand-over ran, the next event asks again; a failing event is reported and the next one is handled
        streamlit_fixes._on_scriptrunner_event(session, "runner", "bad")
        streamlit_fixes._on_scriptrunner_event(session, "runner", "finished")
        assert session.scheduled == 2
        loop.run_until_complete(asyncio.sleep(0))
        assert session.handled[-1][:2] == ("runner", "finished") and len(session.handled) == 71
        assert [str(e) for e in reported] == ["bad event"]
    finally:
        loop.close()


def test_streamlits_own_hand_over_asks_the_loop_once_per_event():
    """What the fix removes: without it, every event of a run is its own call_soon_threadsafe."""
    loop = asyncio.new_event_loop()
    try:
        session = _Session(loop)
        original = streamlit_fixes.ORIGINAL.get("_on_scriptrunner_event", AppSession._on_scriptrunner_event)
        for i in range(5):
            original(session, "runner", f"delta {i}")
        assert session.scheduled == 5
        loop.run_until_complete(asyncio.sleep(0))
        assert [h[1] for h in session.handled] == [f"delta {i}" for i in range(5)]
    finally:
        loop.close()


def _choice_lookups() -> None:  # an AppTest script: keyed widgets, plain keys, None values, and a rerun between
    import streamlit as st
    from streamlit.runtime.state.session_state_proxy import get_session_state

    from ui.streamlit_fixes import OneKeyLookup

    ss = st.session_state
    ss.setdefault("plain", 3)
    ss.setdefault("plain_none", None)
    if ss.get("clear_choice"):
        ss["choice"] = None  # a None in the key clears the selectbox's choice
    st.selectbox("a", ["x", "y"], key="choice")
    st.radio("b", ["x", "y"], key="radio", index=None)
    st.toggle("c", key="clear_choice")
    st.selectbox("d", ["x", "y"])  # keyless: not in filtered_state
    full, one = get_session_state().filtered_state, OneKeyLookup(get_session_state())
    keys = ["plain", "plain_none", "choice", "radio", "clear_choice", "missing", "$$ID-x"]

    def read(state, k):  # as radio and selectbox read it: `key in state`, then `state[key]`
        if k in state:
            return state[k]
        return ...

    ss["seen"] = [(k, k in full, k in one, read(full, k), read(one, k)) for k in keys]


def test_a_keyed_choice_finds_its_key_as_in_the_whole_filtered_state():
    from streamlit.testing.v1 import AppTest

    streamlit_fixes.install()  # the radio and the selectbox read their key through OneKeyLookup
    at = AppTest.from_function(_choice_lookups).run()
    for clear in (False, True):
        for key, in_full, in_one, full, one in at.session_state["seen"]:
            assert in_full == in_one and full == one, key
        if not clear:
            assert at.selectbox(key="choice").value == "x"
            at.toggle(key="clear_choice").set_value(True).run()
    assert ("choice", True, True, None, None) in at.session_state["seen"]  # the None the selectbox reads
    assert at.selectbox(key="choice").value is None  # and clears its choice, as without the fix


def test_install_puts_all_six_in_place_once_and_can_be_turned_off(monkeypatch):
    assert streamlit_fixes.install() is True and streamlit_fixes.install() is True  # a second call: no change
    assert bidi_main.make_bidi_component_presenter is streamlit_fixes.make_bidi_component_presenter
    assert config.get_options_for_section is streamlit_fixes.get_options_for_section
    assert config.get_option is streamlit_fixes.get_option
    assert Runtime._enqueued_some_message is streamlit_fixes._enqueued_some_message
    assert AppSession._on_scriptrunner_event is streamlit_fixes._on_scriptrunner_event
    for name in streamlit_fixes.CHOICE_MODULES:
        assert importlib.import_module(name).get_session_state is streamlit_fixes.session_state_for_choice
    monkeypatch.setenv("MHA_STREAMLIT_FIXES", "off")
    assert streamlit_fixes.install() is False
    monkeypatch.delenv("MHA_STREAMLIT_FIXES")
    monkeypatch.setattr(streamlit, "__version__", "1.68.0")
    assert streamlit_fixes.install() is False  # another Streamlit: left as it ships
