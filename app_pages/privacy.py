"""Privacy: what a live class stores, where, and for how long (docs/PRIVACY.md says the same to a school). The
numbers are the room store's own (liveclass.Limits, liveclass.privacy): the page promises what the store does."""

import os

import pandas as pd
import streamlit as st

from frame import outside_frame
from liveclass import REDIS_ENV, Limits
from liveclass.privacy import DIGEST_HEX, GRACE
from ui.context import get_context

if outside_frame():
    st.stop()
tr = get_context().t
lim = Limits()
hours = round((lim.ttl + GRACE) / 3600)
until = tr("privacy.until_deleted", hours=hours)

st.title(tr("privacy.title"))
st.markdown(tr("privacy.intro"))
st.subheader(tr("privacy.table"))
rows = [
    ("privacy.nickname", "privacy.nickname_why", tr("privacy.with_answers")),
    ("privacy.answers", "privacy.answers_why", until),
    ("privacy.browser_id", "privacy.browser_id_why", tr("privacy.with_seat")),
    ("privacy.presence", "privacy.presence_why", tr("privacy.presence_how_long", minutes=round(lim.seat_idle / 60))),
    ("privacy.room", "privacy.room_why", until),
]
table = [(tr(what), tr(why), how_long) for what, why, how_long in rows]
table.insert(3, (tr("privacy.address", hex=DIGEST_HEX), tr("privacy.address_why"),
                 tr("privacy.address_how_long", minutes=round(lim.rate_kept / 60))))  # fmt: skip
st.table(pd.DataFrame(table, columns=[tr(f"privacy.col_{c}") for c in ("what", "why", "how_long")])
         .set_index(tr("privacy.col_what")))  # fmt: skip
store = tr("privacy.store_redis" if os.environ.get(REDIS_ENV, "").strip() else "privacy.store_sqlite")
st.markdown(tr("privacy.where", store=store))
session_seconds = int(st.get_option("server.disconnectedSessionTTL"))
st.markdown(tr("privacy.how_long", ttl=round(lim.ttl / 3600), hours=hours, seconds=session_seconds))
st.markdown(tr("privacy.browser"))
st.markdown(tr("privacy.csv"))
