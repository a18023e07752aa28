"""The floor of bench/live_class.py: the same follow on a minimal Streamlit page with one chart, started the same way.

A fragment on a timer (`st.fragment(run_every=POLL)`, the follower's period) reads the room's version from the same
store the class uses (`Rooms.version`, shared by the process's sessions for the same time); when it moved, it reruns
the page, which reads the room and draws one heatmap with one tile label per head ("head 1" ... "head h"), as the
class's Heads page draws one tile per head. So the bench sees both follows the same way, and what the class costs
beyond this is the app's own work: its frame, its page, its charts.

    streamlit run bench/floor_app.py   (then ?room=CODE)
"""

import json
import sys
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
import streamlit as st

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from classroom.session import POLL_STUDENT, VERSION_AGE
from liveclass import LiveError, open_rooms

rooms = st.cache_resource(open_rooms)()
code = str(st.query_params.get("room", ""))


@st.fragment(run_every=POLL_STUDENT)
def watch() -> None:
    try:
        version = rooms.version(code, max_age=VERSION_AGE)
    except LiveError:
        st.caption("no room")
        return
    seen = st.session_state.get("seen")
    st.session_state["seen"] = version
    if seen is not None and seen != version and st.session_state.get("drawn") != version:
        st.rerun(scope="app")
    st.caption(f"room {code}, version {version}")


watch()
try:
    room = rooms.room(code)
    st.session_state["drawn"] = room.version
    h = int(json.loads(room.state.get("settings", "{}")).get("n_heads", 1))
except (LiveError, ValueError):
    h = 1
z = np.random.default_rng(h).random((11, 11))
fig = go.Figure(go.Heatmap(z=z))
fig.update_layout(annotations=[{"text": f"head {i + 1}", "x": i / h, "y": 1.05, "xref": "paper", "yref": "paper",
                                "showarrow": False} for i in range(h)])  # fmt: skip
st.plotly_chart(fig, width="stretch", key="only")
