"""Forgetting closed tabs on time: Streamlit keeps a disconnected session (its state and its last charts) for
`server.disconnectedSessionTTL` seconds, so a tab that lost its network for a moment comes back as it was. The
store only drops expired sessions when it is written to (another tab closing), so after the whole class has left
nothing drops them: measured with bench/soak.py, about 120 MB of the heavy users' last charts stayed in the
server for good. The janitor calls `expire_closed_sessions()` on each of its rounds.

Streamlit 1.67 has no public call for this: it reaches the runtime's session store, and does nothing when that
has another shape (a newer Streamlit; the settings live in the URL, so a dropped session loses little).
"""

from __future__ import annotations

import contextlib


def expire_closed_sessions() -> int:
    """Drop the disconnected sessions whose time to live has passed; how many were dropped."""
    with contextlib.suppress(Exception):  # internals of Streamlit: absent or changed means nothing to do
        from streamlit.runtime import Runtime

        manager = Runtime.instance()._session_mgr
        store = manager._session_storage._cache
        with manager._storage_lock:
            return len(store.expire())
    return 0
