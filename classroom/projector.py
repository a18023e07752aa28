"""What the class sees of a live class on the main screen: the join screen, the question, the answer once revealed."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from classroom import typed_answers
from classroom.session import CODE, KEY, POLL_TEACHER, ROLE, bars, join_link, prompt, qr_svg, rooms, text
from liveclass import LiveError
from ui.context import Context


def main(ctx: Context) -> None:
    """On the projector: the join screen when asked for; the current question, and its answer once revealed."""
    ss, tr = st.session_state, ctx.t
    code = ss[CODE]
    if ss.get("live_big"):
        link = join_link(code)
        with st.container(border=True):
            left, right = st.columns([3, 2], vertical_alignment="center")
            left.markdown(tr("live.join_here"))
            left.markdown(f"<div class='mha-live-big'>{code}</div>", unsafe_allow_html=True)
            left.markdown(f"`{link}`")
            right.image(qr_svg(link), width="stretch")
        st.html("<style>.mha-live-big { font-size: clamp(2.5rem, 6vw, 6.5rem); font-weight: 800; white-space: nowrap;"
                " letter-spacing: .12em; font-family: monospace; line-height: 1; }</style>")  # fmt: skip
    _teacher_question(tr)


@st.fragment(run_every=POLL_TEACHER)
def _teacher_question(tr: Callable[..., str]) -> None:
    """The current question on the projector, live: the number of answers while they come in (no histogram: the
    class sees this screen), then the right answer, why, and the class's histogram once revealed."""
    ss = st.session_state
    if ss.get(ROLE) != "teacher":
        return
    code, key = ss[CODE], ss[KEY]
    try:
        store = rooms()
        room = store.room(code)
        counts = store.tally(code, key) if room.question else None
    except LiveError:
        return
    if not room.question:
        return
    if typed_answers.is_typed(room.question):
        typed_answers.projector(tr, store, code, key, room)
        return
    with st.container(border=True):
        st.markdown(f"**{tr('live.q_title')}** · {prompt(tr, room.question['prompt'])}")
        options = [text(tr, o) for o in room.question.get("options", [])]
        st.markdown("  \n".join(f"{chr(65 + i)}. {o}" for i, o in enumerate(options)))
        n = sum(counts or [])
        if room.revealed and room.answer is not None:
            st.success(tr("live.answer_is", answer=options[room.answer]), icon=":material/lightbulb:")
            st.markdown(prompt(tr, room.question["explain"]))
            if counts:
                bars(tr, options, counts, room.answer)
        else:
            st.metric(tr("live.q_answers"), f"{n:,}", border=False)
