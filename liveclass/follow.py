"""The follow decision of a joined student, as a pure function (no Streamlit, no store).

After the student's page navigated to the teacher's state, a run of the student's page shows some state. If it is
not the state the page was sent to, either the student changed something themselves (they are exploring and stop
following) or the navigation did not land: under load Streamlit folds the browser's own requests (a fragment
timer, sent with the page, query string and widget values the browser still shows) into the server's
`st.switch_page` / `st.rerun`, and the browser's older page or values win. Such a run shows values the student's
page itself showed or was sent a moment ago: an echo, never the student's own new choice. So a difference counts
as exploring only when some differing value is not an echo of the last ECHO_SECONDS; an echo means "go again",
as many times as it takes. (A count of attempts, the former rule, took a slow class for explorers.)
"""

from __future__ import annotations

import json
from typing import Any

ECHO_SECONDS = 10.0  # how long a value the page showed or was sent may come back from the browser
ECHO_KEEP = 12  # states remembered (a few follows)

LANDED, AGAIN, EXPLORE = "landed", "again", "explore"

State = dict[str, Any]
Echo = tuple[float, State]


def fields(state: State | None) -> dict[str, Any]:
    """A followed state as flat fields: page, step, presentation mode and each setting on its own, so a run that
    mixes an old value of one setting with the new value of another is still recognised."""
    if not state:
        return {}
    out = {k: v for k, v in state.items() if k != "settings"}
    raw = state.get("settings")
    try:
        settings = json.loads(raw) if isinstance(raw, str) else raw
    except ValueError:
        settings = None
    if isinstance(settings, dict):
        out.update({f"settings.{k}": json.dumps(v, sort_keys=True) for k, v in settings.items()})
    elif raw is not None:
        out["settings"] = raw
    return out


def decide(shown: State, applied: State, echoes: list[Echo], now: float) -> str:
    """LANDED when the run shows the state it was sent to; AGAIN when every differing value is an echo (a value the
    page showed or was sent within ECHO_SECONDS); EXPLORE when the student chose a value of their own."""
    if shown == applied:
        return LANDED
    want, got = fields(applied), fields(shown)
    recent = [fields(s) for t, s in echoes if now - t <= ECHO_SECONDS]
    _missing = object()
    for key in want.keys() | got.keys():
        value = got.get(key, _missing)
        if value == want.get(key, _missing):
            continue
        if not any(r.get(key, _missing) == value for r in recent):
            return EXPLORE
    return AGAIN


def remember(echoes: list[Echo], now: float, *states: State | None) -> list[Echo]:
    """The echo list with `states` added at `now`, old ones dropped."""
    kept = [(t, s) for t, s in echoes if now - t <= ECHO_SECONDS]
    kept += [(now, s) for s in states if s]
    return kept[-ECHO_KEEP:]
