"""ui/streamlit_guard.py against Streamlit's own behaviour: what a hostile network could make Streamlit 1.67 do.

No request leaves the machine: Streamlit as shipped asks checkip.amazonaws.com for the machine's external address
each time it refuses a websocket whose Origin is not the page's own (shown here in-process, with the request
blocked before it is sent); with the replacement the same origins get the same answers and nothing is asked. For
real: servers started as the README and the Docker image start them (`python3 -m ui.streamlit_guard run app.py`,
no page run yet) and with plain `streamlit run app.py` (after its first page run), each with an audit hook that
writes down and blocks every lookup or connection to another machine (tests/browser.outbound_watch), refuse a
foreign Origin and ask nothing; a matching Host/Origin pair of a school address gets 101.

Forged widget states: an id Streamlit never made breaks Streamlit's session state and not ours; a value its widget
cannot read raises in Streamlit and is a missing value here; a link Streamlit does not read is marked, any other
query string is Streamlit's own. tests/test_hostile.py sends all of these to a real server.
"""

from __future__ import annotations

import json
import socket
import sys

import pytest
import streamlit
from streamlit import net_util
from streamlit.web.server import server_util

from tests.browser import CHROMIUM, CHROMIUM_ARGS, outbound_watch, streamlit_server, wait_idle, websocket_upgrade
from ui import streamlit_guard

pytestmark = pytest.mark.skipif(streamlit.__version__ != streamlit_guard.STREAMLIT_VERSION,
                                reason="the replacement applies to one Streamlit version only")  # fmt: skip

_asked: list[str] | None = None  # while a test watches: what this process tried to reach outside


def _outbound(event: str, args: tuple) -> None:
    """Audit hook (installed once, for the whole test process; it acts only while a test watches)."""
    if _asked is None:
        return
    if event == "socket.getaddrinfo":
        host = args[0].decode() if isinstance(args[0], bytes) else str(args[0])
    elif event == "socket.connect" and args[0].family in (socket.AF_INET, socket.AF_INET6) \
            and args[0].type == socket.SOCK_STREAM:  # fmt: skip
        host = str(args[1][0])
    else:
        return
    if host not in {"localhost", "127.0.0.1", "::1"}:
        _asked.append(host)
        raise OSError(f"blocked by the test: {host}")  # before anything is sent


sys.addaudithook(_outbound)


def _allowed(check_origin, origin: str) -> tuple[bool, list[str]]:
    """Streamlit's allowed-origin answer for `origin` with `check_origin` as its external-address lookup."""
    global _asked
    saved, saved_ip = net_util.get_external_ip, net_util._external_ip
    net_util.get_external_ip, net_util._external_ip, _asked = check_origin, None, []
    try:
        return server_util.is_url_from_allowed_origins(origin), _asked
    finally:
        net_util.get_external_ip, net_util._external_ip = saved, saved_ip
        _asked = None


def _streamlit_own() -> object:
    streamlit_guard.install()
    return streamlit_guard.ORIGINAL["get_external_ip"]


def test_streamlit_as_shipped_asks_the_internet_when_it_refuses_an_origin():
    allowed, asked = _allowed(_streamlit_own(), "http://evil.example:8080")
    assert allowed is False
    assert "checkip.amazonaws.com" in asked  # http, then https: both blocked here, before any byte left


@pytest.mark.parametrize("origin", ["http://evil.example:8080", "http://10.1.2.3:8080", "http://localhost:3000",
                                    "http://127.0.0.1:8501", "https://0.0.0.0", f"http://{net_util.get_internal_ip()}:1"])
def test_the_replacement_gives_streamlits_answer_and_asks_nothing(origin):
    theirs, _ = _allowed(_streamlit_own(), origin)
    ours, asked = _allowed(streamlit_guard.get_external_ip, origin)
    assert ours == theirs and asked == []


def test_install_puts_it_where_streamlit_looks_it_up_once():
    assert streamlit_guard.install() and streamlit_guard.install()
    assert net_util.get_external_ip is streamlit_guard.get_external_ip
    assert streamlit_guard.ORIGINAL["get_external_ip"].__module__ == "streamlit.net_util"
    global _asked
    _asked = []
    try:  # as the server calls it: the module's own name, looked up at each check
        assert server_util.is_url_from_allowed_origins("http://evil.example") is False and _asked == []
    finally:
        _asked = None


SCHOOL = "classroom.lan:8080"


def test_a_fresh_server_started_as_the_image_starts_it_asks_nothing_when_it_refuses():
    with outbound_watch() as (env, log), streamlit_server(entry="ui.streamlit_guard",
                                                          env={**env, "MHA_WARMUP": "0"}) as url:  # fmt: skip
        assert websocket_upgrade(url, SCHOOL, "http://evil.example:8080") == 403  # before any page has run (no warm-up)
        assert websocket_upgrade(url, SCHOOL, f"http://{SCHOOL}") == 101
        assert websocket_upgrade(url, "10.1.2.3:8080", "http://10.1.2.3:8080") == 101
        assert websocket_upgrade(url, SCHOOL, "http://evil.example:8080") == 403
        assert log.read_text(encoding="utf-8") == ""


@pytest.mark.browser
def test_a_server_started_with_streamlit_run_asks_nothing_once_a_page_has_run():
    from playwright.sync_api import sync_playwright

    with outbound_watch() as (env, log), streamlit_server(entry="streamlit", env=env) as url:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page()
            page.goto(url)
            wait_idle(page)
            browser.close()
        for origin in ["http://evil.example:8080", "http://10.1.2.3:8080", "null"]:
            assert websocket_upgrade(url, SCHOOL, origin) == 403
        assert log.read_text(encoding="utf-8") == ""  # nothing at start, for the page, nor for the refusals


# ---------------------------------------------------------------- forged widget states, against Streamlit's own
def _states(*widgets):
    from streamlit.proto.WidgetStates_pb2 import WidgetState, WidgetStates

    return WidgetStates(widgets=[WidgetState(**w) for w in widgets])


@pytest.mark.parametrize("forged", ["", "_live_key", "lang"])
def test_a_widget_id_streamlit_never_made_breaks_streamlits_session_state_and_not_ours(forged):
    from streamlit.runtime.state.session_state import SessionState

    streamlit_guard.install()
    theirs, ours = SessionState(), SessionState()
    streamlit_guard.ORIGINAL["on_script_will_rerun"](theirs, _states({"id": forged, "string_value": "x"}))
    with pytest.raises(KeyError):
        theirs.filtered_state  # noqa: B018 (what every keyed widget's registration reads)
    ours.on_script_will_rerun(_states({"id": forged, "string_value": "x"}, {"id": "$$ID-abc-None", "int_value": 3}))
    assert ours.filtered_state == {} and list(ours._new_widget_state.states) == ["$$ID-abc-None"]


def test_the_trigger_of_a_components_v2_element_is_streamlits_own_id_and_kept():
    """setTriggerValue sends its events under the element's trigger aggregator id (classroom/watch.js, ui/plot.js's
    first-screen signal): kept when it arrives and among the stored states, neither logged as forged."""
    from streamlit.components.v2.bidi_component.main import _make_trigger_id
    from streamlit.runtime.state.session_state import SessionState

    streamlit_guard.install()
    trigger = _make_trigger_id("$$ID-abc-mha_first_screen", "events")
    ours = SessionState()
    ours.on_script_will_rerun(_states({"id": trigger, "json_trigger_value": '[{"event": "drawn", "value": true}]'},
                                      {"id": "$$STREAMLIT_INTERNAL_KEY_x", "string_value": "forged"}))  # fmt: skip
    assert list(ours._new_widget_state.states) == [trigger]
    assert streamlit_guard.clean_states(ours) == 0


def test_a_value_its_widget_cannot_read_raises_in_streamlit_and_is_a_missing_value_here():
    from streamlit.elements.widgets.data_editor import DataEditorSerde
    from streamlit.proto.WidgetStates_pb2 import WidgetState
    from streamlit.runtime.state.common import WidgetMetadata
    from streamlit.runtime.state.session_state import Serialized, WStates

    streamlit_guard.install()
    wid = "$$ID-abc-editor"
    states = WStates()
    states.set_widget_metadata(WidgetMetadata(wid, DataEditorSerde().deserialize, DataEditorSerde().serialize,
                                              "string_value"))  # fmt: skip
    states.states[wid] = Serialized(WidgetState(id=wid, string_value="{not json"))
    with pytest.raises(json.JSONDecodeError):
        streamlit_guard.ORIGINAL["WStates.__getitem__"](states, wid)
    with pytest.raises(KeyError):
        states[wid]
    assert states.get(wid) is None  # what Streamlit's readers ask: "no value", the widget takes its default
    states.states[wid] = Serialized(WidgetState(id=wid, string_value='{"edited_rows": {}}'))
    assert states[wid]["edited_rows"] == {}  # a good value reads as in Streamlit


@pytest.mark.parametrize("n", [0, 1, 3, 1000, 1001, 2000])
def test_a_link_streamlit_does_not_read_is_marked_and_any_other_is_streamlits(n):
    streamlit_guard.install()
    query = "&".join(f"p{i}=1" for i in range(n))
    theirs = streamlit_guard.ORIGINAL["sanitize_query_string"](query)
    ours = streamlit_guard.sanitize_query_string(query)
    if n <= streamlit_guard.MAX_QUERY_FIELDS:
        assert ours == theirs == query
    else:
        assert theirs == "" and ours == f"{streamlit_guard.DROPPED_PARAM}={n}"
    from streamlit.runtime.state.query_params import CLIENT_STATE_QUERY_STRING_MAX_FIELDS

    assert streamlit_guard.MAX_QUERY_FIELDS == CLIENT_STATE_QUERY_STRING_MAX_FIELDS
