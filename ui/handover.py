"""A fix for a race in Streamlit 1.67 that a live class meets under load: the end of a page that never arrives.

A script's messages reach the browser through the server's event loop, which under a class's load runs a second or
more behind the scripts. When a run has ended (its ScriptRunner stopped) but the loop has not yet handled all its
events, and the browser asks for a fragment run just then (the projector's timer, `st.fragment(run_every=...)`, or a
phone's watch, classroom/watch.js), `AppSession.request_rerun` starts a new ScriptRunner at once, and
`AppSession._handle_scriptrunner_event_on_event_loop` then ignores every event still queued from the old one
("sender is not self._scriptrunner"): the
page's last elements and its end never reach the browser, which keeps the old charts. The comment above
`has_fragment` in `AppSession.request_rerun` describes this very case; its check covers only a fragment that no
longer exists. `bench/live_class.py` met it in 1 to 7 of 300 follows of 60 students.

The fix: a fragment rerun that finds the session's ScriptRunner stopped waits until the loop has handled the old
runner's last event (its SHUTDOWN, which releases it), then starts as before. Only the order changes; no request is
dropped or added. Installed once per server process; a Streamlit other than the one it was written for is left
alone (the race comes back, nothing else changes), and tests/test_handover.py says so.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

STREAMLIT = "1.67.0"  # the version whose AppSession.request_rerun this wraps
WAIT_SECONDS = 5.0  # the longest a fragment rerun waits for the old runner's events (then it starts all the same)
RETRY_SECONDS = 0.002  # between two looks, on the event loop


def stopped(runner: Any) -> bool:
    """True when `runner` accepts no more requests (it has finished, its last events may still be queued)."""
    from streamlit.runtime.scriptrunner_utils.script_requests import ScriptRequestType

    requests = getattr(runner, "_requests", None)
    return getattr(requests, "_state", None) == ScriptRequestType.STOP


def waiting(session: Any, client_state: Any, deadline: float) -> bool:
    """True when the fragment rerun `client_state` must wait: the session's runner has stopped but the loop has not yet
    handled its SHUTDOWN (which sets the session's runner to None), and the deadline is not past."""
    if client_state is None or not client_state.fragment_id:  # a full rerun replaces the old run by design
        return False
    runner = getattr(session, "_scriptrunner", None)
    return runner is not None and stopped(runner) and time.monotonic() < deadline


def install() -> bool:
    """Wrap AppSession.request_rerun; True when the wrapper is in place."""
    import streamlit
    from streamlit.runtime.app_session import AppSession

    original = AppSession.request_rerun
    if getattr(original, "handover", False):
        return True
    if streamlit.__version__ != STREAMLIT:
        return False

    AppSession.request_rerun = wrap(original)  # type: ignore[method-assign]
    return True


def wrap(original: Callable[[Any, Any], None]) -> Callable[..., None]:
    """`original` (AppSession.request_rerun) behind the wait: on the session's event loop, where it is called."""

    def request_rerun(self: Any, client_state: Any, _deadline: float | None = None) -> None:
        deadline = time.monotonic() + WAIT_SECONDS if _deadline is None else _deadline
        if waiting(self, client_state, deadline):
            self._event_loop.call_later(RETRY_SECONDS, request_rerun, self, client_state, deadline)
            return
        original(self, client_state)

    request_rerun.handover = True  # type: ignore[attr-defined]
    request_rerun.__doc__ = original.__doc__
    return request_rerun
