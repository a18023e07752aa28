"""The console's seats of a live class: the class's size and its lock, every seat taken (its order of joining, the
nickname of its latest answer, whether it follows now, and its network: the console's own, or another), and removing
seats, with their networks if the teacher asks. The teacher's tools against a script that fills a room (liveclass:
`Rooms.seats`, `configure`, `remove`; docs/deploy.md, "Limits that stop a script, never a class").

Folded by default under the console's other panels; while open, the list refreshes every few seconds, except while
rows are selected: a selection names rows of the list the teacher sees, so that list stays until the seats are removed
or the selection is cleared."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from classroom import identity
from classroom.session import CODE, ROOM, error, rooms, say, screen_pass
from liveclass import LiveError, Seat

OPEN = "console_seats_open"  # the expander's state
SIZE, LOCK, WITH_NETWORKS = "console_size", "console_lock", "console_seats_networks"
TABLE = "console_seats"  # the table's key, with a number that moves after a removal (a fresh, empty selection)
SHOWN = "_live_seats_shown"  # the rows the table shows (a selection names rows of that list)
SEEN = "_live_seats_room"  # (size, locked) last put into the widgets, to take a change another console made
REFRESH = 5.0  # seconds between two reads of the list while it is open


def panel(tr: Callable[..., str]) -> None:
    """The console's seat panel (right column): size and lock, then the list, in an expander folded by default."""
    ss = st.session_state
    with st.expander(tr("seats.title"), key=OPEN, on_change="rerun", icon=":material/event_seat:"):
        if not ss.get(OPEN):  # folded: nothing read
            return
        _controls(tr, ss.get(ROOM))
        _seats(tr)


def _controls(tr: Callable[..., str], room) -> None:
    ss = st.session_state
    limit = rooms().limits.max_students
    now = (int(getattr(room, "size", 0) or limit), bool(getattr(room, "locked", False)))
    if ss.get(SEEN) != now:  # the room as it is (another console may have changed it)
        ss[SIZE], ss[LOCK], ss[SEEN] = now[0], now[1], now
    st.number_input(tr("seats.size"), min_value=1, max_value=limit, step=1, key=SIZE,
                    help=tr("seats.size_help", limit=limit), on_change=_configure, args=("size",))  # fmt: skip
    st.toggle(tr("seats.lock"), key=LOCK, help=tr("seats.lock_help"), on_change=_configure, args=("locked",))


def _configure(what: str) -> None:
    ss = st.session_state
    try:
        value = {"size": int(ss[SIZE])} if what == "size" else {"locked": bool(ss[LOCK])}
        room = rooms().configure(ss[CODE], screen_pass(), **value)
    except LiveError as err:
        error(err)
        return
    ss[ROOM], ss[SEEN] = room, (room.size, room.locked)


def _rows(tr: Callable[..., str], seats: list[Seat]) -> dict[str, list]:
    def status(s: Seat) -> str:
        return tr("seats.following" if s.following else "seats.exploring" if s.connected else "seats.away")

    return {tr("seats.col.n"): [s.n for s in seats], tr("seats.col.name"): [s.nickname for s in seats],
            tr("seats.col.status"): [status(s) for s in seats],
            tr("seats.col.network"): [tr("seats.net_own") if s.network == 0 else tr("seats.net_other", n=s.network)
                                      for s in seats]}  # fmt: skip


@st.fragment(run_every=REFRESH)
def _seats(tr: Callable[..., str]) -> None:
    ss = st.session_state
    if not ss.get(OPEN) or ss.get(CODE) is None:
        return
    key = f"{TABLE}_{ss.get('_live_seats_gen', 0)}"
    picked = list(getattr(getattr(ss.get(key), "selection", None), "rows", None) or [])
    shown: list[Seat] = ss.get(SHOWN) or []
    if not picked or not shown:  # nothing selected: the list as it is now
        try:
            shown = rooms().seats(ss[CODE], screen_pass(), viewer=identity.address())
        except LiveError as err:
            st.warning(tr(f"live.err.{err.code}", **err.params), icon=":material/warning:")
            return
        ss[SHOWN] = shown
    size = int(getattr(ss.get(ROOM), "size", 0) or rooms().limits.max_students)
    st.caption(tr("seats.summary", n=len(shown), size=size, networks=len({s.network for s in shown})))
    if not shown:
        st.caption(tr("seats.none"))
        return
    columns = {tr(f"seats.col.{c}"): st.column_config.Column(width=w)
               for c, w in (("n", 36), ("name", 96), ("status", 76), ("network", 76))}  # fmt: skip
    st.dataframe(_rows(tr, shown), key=key, on_select="rerun", selection_mode="multi-row", hide_index=True,
                 column_config=columns, height=min(36 * (len(shown) + 1) + 2, 320),
                 alt=tr("seats.table_alt", n=len(shown)))  # fmt: skip
    st.caption(tr("seats.select_help"))
    chosen = [shown[i].sid for i in picked if 0 <= i < len(shown)]
    st.checkbox(tr("seats.with_network"), key=WITH_NETWORKS)
    st.button(tr("seats.remove", n=len(chosen)), key="console_seats_remove", disabled=not chosen,
              icon=":material/person_remove:", on_click=_remove, args=(chosen,))  # fmt: skip


def _remove(sids: list[str]) -> None:
    ss = st.session_state
    try:
        n = rooms().remove(ss[CODE], screen_pass(), sids, networks=bool(ss.get(WITH_NETWORKS)),
                           viewer=identity.address())
    except LiveError as err:
        error(err)
        return
    ss["_live_seats_gen"] = ss.get("_live_seats_gen", 0) + 1  # a new table: nothing selected
    ss.pop(SHOWN, None)
    ss[WITH_NETWORKS] = False
    say("success", "seats.removed", n=n)


__all__ = ["panel"]
