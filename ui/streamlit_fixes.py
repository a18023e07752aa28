"""Costs of Streamlit 1.67 that every run pays, removed without changing what Streamlit does.

A live class reruns the page of every following student when the teacher changes something, so a run's fixed
cost is paid 60 times in a row by one server process (bench/live_class.py). Profiled, six pieces of
Streamlit redo the same work on every call, or wait for each other:

- The session-state presenter of a components-v2 element (our charts, the clicker keys, the theme switch)
  creates a new class on every read of that element's state. Each keyed widget reads every such state
  (`SessionState.filtered_state`), and every run reads them all once more (`_compact_state`): about 11 % of
  the server's time in the bench. Here the class is created once; the presenter is otherwise Streamlit's,
  line for line, and returns the same value (tests/test_streamlit_fixes.py compares both).
- The theme of each run's "new session" message is read with `config.get_options_for_section`, which walks
  every config option once per theme section (six sections per run, a fragment timer's runs included). Here the
  options of a section are found once per config (their values are still read at every call).
- Every message a script queues is hashed, and the hash reads an option with `config.get_option`, which takes the
  config's lock; the event loop's thread takes it too. Under a class's load the script threads queued on that lock
  behind a thread waiting for the interpreter's lock (15 % of the script threads' samples in get_option, py-spy,
  30 students). Here a parsed option is read without the lock (a dict read and an attribute read, each atomic).
- Every message a script queues (a page has about 70) wakes the event loop with `call_soon_threadsafe`, a write
  to the loop's wake-up pipe each time, though one wake-up sends everything queued until the loop runs. Here a
  message queued while a wake-up is still pending asks for none; the loop sends it with the others. And a message
  queued on the loop's own thread (where the session hands a run's messages over) asks with `call_soon`: the loop
  is running, and a write to its pipe would only wake it up to read that write back.
- Before that, the session hands each of those messages (each ScriptRunner event) to the event loop with a
  `call_soon_threadsafe` of its own: a wake-up of the loop and a switch of threads per element. Here the events
  queue in order and one hand-over takes every event queued while it is pending.

- A keyed radio or selectbox asks whether its key holds None in session state (a None there clears its choice),
  and finds out by building `SessionState.filtered_state`: every key of the session, each value read through its
  presenter, for one lookup (a following phone's run of /heads has three such widgets). Here the one key is looked
  up in the session state itself, under the same lock, with the same answer.

Each fix applies only to the Streamlit version it was written against (STREAMLIT_VERSION); on any other
version, or with MHA_STREAMLIT_FIXES=off in the environment, `install()` changes nothing and the app runs as
Streamlit ships it.
"""

from __future__ import annotations

import asyncio
import collections
import importlib
import os
import threading
from typing import Any

import streamlit

STREAMLIT_VERSION = "1.67.0"
_installed = False
_lock = threading.Lock()
ORIGINAL: dict[str, Any] = {}  # what install() replaced, by name (for the tests' comparisons)


# ---------------------------------------------------------------- the components-v2 presenter
class WriteThrough(dict):
    """Streamlit's `_WriteThrough` (components/v2/presentation.py), made once instead of once per read: a dict
    of the component's state whose item writes go back to the component's widget state."""

    def __init__(self, data: dict[str, object], session_state: Any, component_id: str | None,
                 allowed_state_keys: set[str] | None) -> None:  # fmt: skip
        super().__init__(data)
        object.__setattr__(self, "_ss", session_state)
        object.__setattr__(self, "_component_id", component_id)
        object.__setattr__(self, "_allowed", allowed_state_keys)

    def __getattr__(self, name: str) -> object:
        return self.get(name)

    def __setattr__(self, name: str, value: object) -> None:
        if name.startswith(("__", "_")):
            return super().__setattr__(name, value)
        self[name] = value
        return None

    def __deepcopy__(self, memo: dict[int, Any]) -> WriteThrough:
        memo[id(self)] = self  # a proxy to the real state: not copied
        return self

    def _check_modification(self, k: str) -> None:
        from streamlit.errors import StreamlitAPIException
        from streamlit.runtime.scriptrunner import get_script_run_ctx

        ctx = get_script_run_ctx()
        component_id = self._component_id
        if ctx is not None and component_id is not None:
            user_key = self._ss._key_id_mapper.get_key_from_id(component_id)
            if component_id in ctx.shared.widget_ids_this_run or user_key in ctx.shared.form_ids_this_run:
                raise StreamlitAPIException(
                    f"`st.session_state.{user_key}.{k}` cannot be modified after the component"
                    f" with key `{user_key}` is instantiated.",
                    error_id="bidi-component-state-cannot-be-modified",
                )

    def _store(self) -> None:
        try:
            if self._component_id is not None:
                self._ss._new_widget_state.set_from_value(self._component_id, dict(self))
        except Exception:  # as Streamlit's: a failed store leaves the widget state as it was
            pass

    def __setitem__(self, k: str, v: object) -> None:
        self._check_modification(k)
        if self._allowed is not None and k not in self._allowed:
            return  # silently ignored, as Streamlit does
        super().__setitem__(k, v)
        self._store()

    def __delitem__(self, k: str) -> None:
        self._check_modification(k)
        super().__delitem__(k)
        self._store()


def make_bidi_component_presenter(aggregator_id: str, component_id: str | None = None,
                                  allowed_state_keys: set[str] | None = None):  # fmt: skip
    """Streamlit's presenter of the same name, with WriteThrough made once (module level)."""

    def _present(base_value: object, session_state: Any) -> object:
        if not isinstance(base_value, dict):
            return base_value
        try:
            agg_meta = session_state._new_widget_state.widget_metadata.get(aggregator_id)
            if agg_meta is None or agg_meta.value_type != "json_trigger_value":
                return base_value
            try:
                payloads = session_state._new_widget_state[aggregator_id]
            except KeyError:
                payloads = None
            if isinstance(payloads, list):
                payload_list = [p for p in payloads if isinstance(p, dict)]
            elif isinstance(payloads, dict):
                payload_list = [payloads]
            else:
                payload_list = []
            flat: dict[str, object] = {}
            for payload in payload_list:
                event = payload.get("event")
                if isinstance(event, str):
                    flat[event] = payload.get("value")
            flat.update(base_value)  # triggers first, then the stored state
            return WriteThrough(flat, session_state, component_id, allowed_state_keys)
        except Exception:
            return base_value

    return _present


# ---------------------------------------------------------------- config sections
_sections: list[Any] = [None, 0, {}]  # the options dict the index was built from (kept alive), its size, the index


def get_options_for_section(section: str) -> dict[str, Any]:
    """`streamlit.config.get_options_for_section`: the options of a section found once per config (a reparse
    makes a new options dict, an added or deleted option changes its size: either builds the index again)."""
    from streamlit import config

    with config._config_lock:
        options = config.get_config_options()
        if _sections[0] is not options or _sections[1] != len(options):
            by_section: dict[str, list[Any]] = {}
            for option in options.values():
                by_section.setdefault(option.section, []).append(option)
            _sections[:] = [options, len(options), by_section]
        return {option.name: option.value for option in _sections[2].get(section, ())}


# ---------------------------------------------------------------- reading an option
def get_option(key: str) -> Any:
    """`streamlit.config.get_option`: an option of the parsed config read without taking the config's lock. The
    lock guards the parse; a parsed config is a dict that a reparse replaces whole, and an option's value is one
    attribute, so a read under the interpreter's lock sees one or the other, as Streamlit's read would. Before the
    first parse, and for a key that is not an option, Streamlit's own read (which parses, or raises)."""
    from streamlit import config

    option = (config._config_options or {}).get(key)
    if option is None:
        return ORIGINAL.get("get_option", config.get_option)(key)
    return option.value


# ---------------------------------------------------------------- waking the event loop
def _enqueued_some_message(self: Any) -> None:
    """`Runtime._enqueued_some_message`: wake the event loop to send what a session queued, unless a wake-up
    asked for earlier has not run yet (it will send this message too: the loop flushes every queue after it)."""
    objs = self._get_async_objs()
    if getattr(self, "_mha_wake_pending", False):
        return
    self._mha_wake_pending = True

    def wake() -> None:
        self._mha_wake_pending = False  # before the event: a message queued from now on asks again
        objs.need_send_data.set()

    try:
        here = asyncio.get_running_loop() is objs.eventloop
    except RuntimeError:  # a script's thread: no loop runs there
        here = False
    if here:  # on the loop itself (the session hands a run's messages over there): no wake-up through its pipe
        objs.eventloop.call_soon(wake)
    else:
        objs.eventloop.call_soon_threadsafe(wake)


# ---------------------------------------------------------------- a run's events, to the event loop
def _on_scriptrunner_event(self: Any, *args: Any, **kwargs: Any) -> None:
    """`AppSession._on_scriptrunner_event`: hand a ScriptRunner's event (a page has about 70, one per element) to
    the event loop, in order, as Streamlit does; but an event that comes while the hand-over of earlier ones is still
    pending joins it, instead of asking the loop with a `call_soon_threadsafe` of its own (a wake-up of the loop and
    a switch of threads for every element)."""
    events = self.__dict__.get("_mha_events")
    if events is None:
        events = self.__dict__.setdefault("_mha_events", collections.deque())
    events.append((args, kwargs))  # first: a hand-over seen pending below will find this event
    if not getattr(self, "_mha_events_pending", False):
        self._mha_events_pending = True
        self._call_soon_on_event_loop(lambda: _handle_events(self, events))


def _handle_events(session: Any, events: collections.deque) -> None:
    """On the event loop: every event queued so far, oldest first, each handled as Streamlit handles it."""
    session._mha_events_pending = False  # before the first: an event queued from now on asks again
    while events:
        args, kwargs = events.popleft()
        try:
            session._handle_scriptrunner_event_on_event_loop(*args, **kwargs)
        except Exception as exc:  # as asyncio does for a failing callback: reported, the next ones still run
            session._event_loop.call_exception_handler({"message": "Exception in a ScriptRunner event",
                                                        "exception": exc})  # fmt: skip


# ---------------------------------------------------------------- a keyed choice's lookup
class OneKeyLookup:
    """What radio and selectbox read of `filtered_state`: `key in it` and `it[key]`, looked up by the one key in the
    session state (SessionState's own lookup: a widget's key through its widget id, then its presenter), not read
    out of a copy of every key's value."""

    def __init__(self, safe_state: Any) -> None:
        self._safe = safe_state

    def __contains__(self, key: object) -> bool:
        with self._safe._lock:
            return key in self._safe._state

    def __getitem__(self, key: str) -> Any:
        with self._safe._lock:
            return self._safe._state[key]


class ChoiceState:
    """`get_session_state()` as radio.py and selectbox.py use it: only its `filtered_state`, as a OneKeyLookup."""

    def __init__(self, safe_state: Any) -> None:
        self.filtered_state = OneKeyLookup(safe_state)


def session_state_for_choice() -> ChoiceState:
    """`get_session_state` for the radio and selectbox modules (each reads it once, for its key's lookup)."""
    from streamlit.runtime.state import session_state_proxy

    return ChoiceState(session_state_proxy.get_session_state())


CHOICE_MODULES = ("streamlit.elements.widgets.radio", "streamlit.elements.widgets.selectbox")


def install() -> bool:
    """Put the six fixes in place (once per process); False, changing nothing, on another Streamlit version or
    with MHA_STREAMLIT_FIXES=off. Sessions opened before (the first browser's) keep Streamlit's wake-up call."""
    global _installed
    if streamlit.__version__ != STREAMLIT_VERSION or os.environ.get("MHA_STREAMLIT_FIXES", "on") == "off":
        return False
    with _lock:
        if not _installed:
            from streamlit import config
            from streamlit.components.v2.bidi_component import main as bidi_main
            from streamlit.runtime.app_session import AppSession
            from streamlit.runtime.runtime import Runtime

            ORIGINAL.update(make_bidi_component_presenter=bidi_main.make_bidi_component_presenter,
                            get_options_for_section=config.get_options_for_section,
                            _enqueued_some_message=Runtime._enqueued_some_message,
                            _on_scriptrunner_event=AppSession._on_scriptrunner_event)  # fmt: skip
            bidi_main.make_bidi_component_presenter = make_bidi_component_presenter
            config.get_options_for_section = get_options_for_section
            Runtime._enqueued_some_message = _enqueued_some_message
            AppSession._on_scriptrunner_event = _on_scriptrunner_event
            for name in CHOICE_MODULES:
                module = importlib.import_module(name)
                ORIGINAL[f"{name}.get_session_state"] = module.get_session_state
                module.get_session_state = session_state_for_choice
            _installed = True
        if "get_option" not in ORIGINAL:
            from streamlit import config

            if getattr(config.get_option, "__module__", "") == config.__name__:  # not while AppTest patches it
                ORIGINAL["get_option"] = config.get_option
                config.get_option = get_option
    return True
