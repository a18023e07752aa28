"""What a hostile network can make Streamlit 1.67 do, stopped at the door: no request leaves the machine, and no
forged message breaks a session or floods the log.

- **A refused websocket asks the internet.** A websocket whose `Origin` is not the page's own host:port (a page of
  another site, or a proxy that rewrote `Host`) is checked against Streamlit's allowed origins
  (`server_util.is_url_from_allowed_origins`): localhost, the machine's internal address, then its *external* one,
  which `net_util.get_external_ip` fetches from checkip.amazonaws.com (1 s timeout, http then https, again at the
  next refusal when it failed). The app promises that nothing leaves the machine: here the external address is
  unknown, and an origin naming it is refused like any other foreign origin (the same-origin check, localhost, the
  internal address and `server.corsAllowedOrigins` are Streamlit's, unchanged; the internal address is read from a
  UDP socket's route, which sends nothing).
- **A widget state with an id Streamlit never made** (`""`, `_live_key`: a browser only sends the `$$ID-...` ids
  the server gave it, and a components-v2 element's trigger `$$STREAMLIT_INTERNAL_KEY_$$ID-...__events`) is kept
  among the widget states, where every widget's registration then reads it and raises `KeyError`, run after run.
  Such states are dropped when they arrive (`SessionState.on_script_will_rerun`).
- **A widget state the widget cannot read** (JSON that does not parse for a table editor, a number for a select box)
  raises wherever Streamlit reads it (its callbacks, every run's bookkeeping, the widget's registration): the
  session fails on every run. Where it is read (`WStates.__getitem__`) it is answered as a value Streamlit does not
  have (KeyError), and where the widget registers (`SessionState.register_widget`) it is dropped and the widget
  registers again with its default, as a widget seen for the first time.
- **A link with too many parameters is dropped in silence.** Streamlit reads no parameter of a query string with
  more than 1,000 (`query_params.sanitize_query_string`, a limit it keeps here): the link's settings vanished with no
  word. The run now gets one parameter instead, `DROPPED_PARAM=<count>`, and the app says so (ui/urlstate.py).
- **Log floods.** A forged table edit with 1000 added rows wrote 1000 warnings per run, and a component state that
  is not JSON a traceback per run; each message of the loggers in LOGGERS is written at most once per session and
  run, as one line (the traceback of what a client sent says nothing about the server).

`install()` applies to the Streamlit version this was written against only (tests/test_streamlit_guard.py runs
each replacement against Streamlit's own behaviour). It runs before the server starts when the server is started
as `python3 -m ui.streamlit_guard run serve.py ...` (the Docker image does), and otherwise at the app's first page
run (frame.py), which also cleans the session of that first run (`clean_session`). deploy/nginx.conf refuses a
foreign origin itself, so behind it the servers never see one.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

import streamlit

STREAMLIT_VERSION = "1.67.0"
ELEMENT_ID = "$$ID-"  # streamlit.runtime.state.common.GENERATED_ELEMENT_ID_PREFIX: every element id Streamlit makes
# a components-v2 element's trigger aggregator: bidi_component.main._make_trigger_id(element id, "events")
TRIGGER_ID = "$$STREAMLIT_INTERNAL_KEY_" + ELEMENT_ID
# Streamlit's loggers that write what a client sent (a forged message can make them write it thousands of times),
# and ours
LOGGERS = ("streamlit.elements.widgets.data_editor", "streamlit.components.v2.bidi_component.serialization",
           __name__, "ui.editing")  # fmt: skip
DROPPED_PARAM = "mha_link_dropped"
MAX_QUERY_FIELDS = 1000  # streamlit.runtime.state.query_params.CLIENT_STATE_QUERY_STRING_MAX_FIELDS
_lock = threading.Lock()
ORIGINAL: dict[str, Any] = {}  # what install() replaced, by name (for the tests' comparisons)
_LOG = logging.getLogger(__name__)


# ---------------------------------------------------------------- no request outside
def get_external_ip() -> str | None:
    """`net_util.get_external_ip` without asking checkip.amazonaws.com: the external address is not known."""
    return None


# ---------------------------------------------------------------- forged widget states
def _forged(widget_id: str) -> bool:
    """Not an id Streamlit makes: an element's (`$$ID-...`), or the trigger aggregator of a components-v2 element
    (`$$STREAMLIT_INTERNAL_KEY_$$ID-...__events`, where `setTriggerValue` sends its events: classroom/watch.js, the
    first screen's signal in ui/plot.js). Dropping the latter lost every trigger and logged each as forged."""
    return not widget_id.startswith((ELEMENT_ID, TRIGGER_ID))


def clean_states(session_state: Any) -> int:
    """Drop the stored widget states whose id Streamlit never made; how many there were."""
    states = session_state._new_widget_state.states
    forged = [wid for wid in states if _forged(wid)]
    for wid in forged:
        del states[wid]
    return len(forged)


def _wrong_kind(session_state: Any, state: Any) -> bool:
    """A widget state of a kind its component does not take: for an element with callbacks (components v2: the frame's
    width, the charts) Streamlit dispatches them by kind before any run starts, and a number where it reads JSON
    raised there, outside every guard. Only such elements are checked: other widgets take more than one kind for one
    value (a number input is registered as double_value and sent as int_value), and register_widget and
    widget_value below already answer their unreadable values."""
    metadata = session_state._new_widget_state.widget_metadata.get(state.id)
    if metadata is None or getattr(metadata, "callbacks", None) is None:
        return False
    kind = state.WhichOneof("value")  # None: a value the browser cleared
    return kind is not None and kind != metadata.value_type


def on_script_will_rerun(self: Any, fresh_widget_states: Any = None, **kwargs: Any) -> None:
    """`SessionState.on_script_will_rerun`, with the widget states of ids Streamlit never made, or of a kind their
    widget does not take, left out."""
    _runs.pop(id(self), None)  # a new run: its messages may be logged once again
    dropped = clean_states(self)

    def bad(w: Any) -> bool:
        return _forged(w.id) or _wrong_kind(self, w)

    if fresh_widget_states is not None and any(bad(w) for w in fresh_widget_states.widgets):
        kept = [w for w in fresh_widget_states.widgets if not bad(w)]
        dropped += len(fresh_widget_states.widgets) - len(kept)
        fresh_widget_states = type(fresh_widget_states)(widgets=kept)  # a copy: the browser's message stays
    if dropped:
        _LOG.warning("Dropped widget states the server never gave out or of a kind their widget does not take "
                     "(a forged message).")
    ORIGINAL["on_script_will_rerun"](self, fresh_widget_states, **kwargs)


def widget_value(self: Any, k: str) -> Any:
    """`WStates.__getitem__`; a value from the browser that its widget's deserializer refuses is answered as a
    value Streamlit does not have (KeyError, which every reader of widget states expects). It is not deleted here
    (a reader may be iterating over the states); the run's end forgets it, as it forgets every unread value."""
    try:
        return ORIGINAL["WStates.__getitem__"](self, k)
    except KeyError:
        raise
    except Exception:
        from streamlit.runtime.state.session_state import Serialized

        if not isinstance(self.states.get(k), Serialized):
            raise  # not a value the browser sent
        _LOG.warning("Ignored a widget state its widget cannot read (a forged message).")
        raise KeyError(k) from None


def register_widget(self: Any, metadata: Any, user_key: str | None) -> Any:
    """`SessionState.register_widget`; when the value the browser sent cannot be read by this widget, that value is
    dropped and the widget registers again (with its default, as a widget seen for the first time)."""
    try:
        return ORIGINAL["register_widget"](self, metadata, user_key)
    except Exception:
        if not self._drop_widget_value(metadata.id, user_key or metadata.id):
            raise  # no value came from the browser: not a forged one
        _LOG.warning("Dropped a widget state its widget cannot read (a forged message).")
        return ORIGINAL["register_widget"](self, metadata, user_key)


# ---------------------------------------------------------------- a link Streamlit does not read
def sanitize_query_string(query_string: str) -> str:
    """Streamlit's `sanitize_query_string` (as AppSession calls it for a run): the same query string, or, where
    Streamlit drops one as too large, a mark saying how many parameters it had."""
    kept = ORIGINAL["sanitize_query_string"](query_string)
    if query_string and not kept:
        return f"{DROPPED_PARAM}={query_string.count('&') + 1}"
    return kept


# ---------------------------------------------------------------- once per run in the log
_runs: dict[int, set[tuple[str, object]]] = {}  # id(SessionState) -> messages logged this run (bounded below)
MAX_SESSIONS = 4096


class OncePerRun(logging.Filter):
    """Lets each message (its template) of a logger through once per session and run, as one line (no traceback);
    outside a run, always."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.exc_info, record.exc_text = None, None
        from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

        ctx = get_script_run_ctx(suppress_warning=True)
        state = getattr(getattr(ctx, "session_state", None), "_state", None)
        if state is None:
            return True
        with _lock:
            if len(_runs) >= MAX_SESSIONS and id(state) not in _runs:
                _runs.clear()  # sessions long closed: at worst a message is written once more
            seen = _runs.setdefault(id(state), set())
            key = (record.name, record.msg)
            if key in seen:
                return False
            seen.add(key)
        return True


ONCE = OncePerRun()


# ---------------------------------------------------------------- install
def install() -> bool:
    """Put the replacements in place (once per process); False, changing nothing, on another Streamlit version."""
    if streamlit.__version__ != STREAMLIT_VERSION:
        return False
    from streamlit import net_util
    from streamlit.runtime import app_session
    from streamlit.runtime.state.session_state import SessionState, WStates

    with _lock:
        if net_util.get_external_ip is not get_external_ip:
            ORIGINAL.setdefault("get_external_ip", net_util.get_external_ip)
            net_util.get_external_ip = get_external_ip  # server_util looks it up in net_util at every check
        if SessionState.on_script_will_rerun is not on_script_will_rerun:
            ORIGINAL.setdefault("on_script_will_rerun", SessionState.on_script_will_rerun)
            ORIGINAL.setdefault("register_widget", SessionState.register_widget)
            ORIGINAL.setdefault("WStates.__getitem__", WStates.__getitem__)
            SessionState.on_script_will_rerun = on_script_will_rerun
            SessionState.register_widget = register_widget
            WStates.__getitem__ = widget_value
        if app_session.sanitize_query_string is not sanitize_query_string:
            ORIGINAL.setdefault("sanitize_query_string", app_session.sanitize_query_string)
            app_session.sanitize_query_string = sanitize_query_string
        for name in LOGGERS:
            logger = logging.getLogger(name)
            if ONCE not in logger.filters:
                logger.addFilter(ONCE)
    return True


def clean_session() -> None:
    """Drop this session's forged widget states now: the states of the process's very first run arrived before
    install() (a page run that follows install() never sees one)."""
    from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

    state = getattr(getattr(get_script_run_ctx(suppress_warning=True), "session_state", None), "_state", None)
    if state is not None and clean_states(state):
        _LOG.warning("Dropped widget states the server never gave out or of a kind their widget does not take "
                     "(a forged message).")


if __name__ == "__main__":  # `python3 -m ui.streamlit_guard run serve.py ...`: Streamlit's CLI, installed first
    from streamlit.web.cli import main

    from ui import streamlit_guard  # the module itself, not this __main__ copy of it

    streamlit_guard.install()
    main(prog_name="streamlit")
