"""ui/handover.py: a fragment rerun that finds the session's ScriptRunner stopped waits until the event loop has
handled that runner's last events; everything else goes through at once. The session here is a stand-in with what
the wrapper reads (its runner, its loop); the events are callbacks on a real asyncio loop, in the order Streamlit's
ScriptRunner queues them (call_soon_threadsafe)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest
import streamlit
from streamlit.proto.ClientState_pb2 import ClientState
from streamlit.runtime.scriptrunner_utils.script_requests import ScriptRequestType

from ui import handover


def runner(state: ScriptRequestType) -> SimpleNamespace:
    return SimpleNamespace(_requests=SimpleNamespace(_state=state))


def request(fragment: str = "") -> ClientState:
    state = ClientState()
    state.fragment_id = fragment
    return state


def replay(session_runner, client_state, queued: int = 3, deadline_passed: bool = False) -> list[str]:
    """The loop holds `queued` events of the old runner and then its SHUTDOWN (which sets the session's runner to
    None); a request comes in first. Returns the order in which the events and the original request_rerun ran."""
    order: list[str] = []

    async def main() -> None:
        loop = asyncio.get_running_loop()
        session = SimpleNamespace(_scriptrunner=session_runner, _event_loop=loop)

        def original(self, state) -> None:
            order.append("request" + (" (runner gone)" if self._scriptrunner is None else " (runner there)"))

        wrapped = handover.wrap(original)
        for i in range(queued):
            loop.call_soon(order.append, f"event {i}")
        loop.call_soon(lambda: (order.append("shutdown"), setattr(session, "_scriptrunner", None)))
        wrapped(session, client_state, -1.0 if deadline_passed else None)
        await asyncio.sleep(0.1)

    asyncio.run(main())
    return order


def test_a_fragment_rerun_waits_for_the_stopped_runners_last_events():
    order = replay(runner(ScriptRequestType.STOP), request("timer"))
    assert order == ["event 0", "event 1", "event 2", "shutdown", "request (runner gone)"]


@pytest.mark.parametrize(
    "why, session_runner, client_state",
    [
        ("a full rerun replaces the old run by design", runner(ScriptRequestType.STOP), request("")),
        ("no request data: Streamlit's own rerun", runner(ScriptRequestType.STOP), None),
        ("a running runner takes the request itself", runner(ScriptRequestType.CONTINUE), request("timer")),
        ("a runner with a rerun pending takes it too", runner(ScriptRequestType.RERUN), request("timer")),
        ("no runner at all", None, request("timer")),
    ],
)
def test_everything_else_goes_through_at_once(why, session_runner, client_state):
    assert replay(session_runner, client_state)[0].startswith("request"), why


def test_a_runner_that_never_shuts_down_holds_the_request_only_until_the_deadline():
    order = replay(runner(ScriptRequestType.STOP), request("timer"), deadline_passed=True)
    assert order[0] == "request (runner there)"


def test_installed_on_the_streamlit_it_was_written_for_and_only_once():
    from streamlit.runtime.app_session import AppSession

    import classroom  # noqa: F401  (installs it, as the app does)

    assert streamlit.__version__ == handover.STREAMLIT, "a new Streamlit: check whether the race is still there"
    assert getattr(AppSession.request_rerun, "handover", False)
    wrapped = AppSession.request_rerun
    assert handover.install() and AppSession.request_rerun is wrapped  # not wrapped twice
