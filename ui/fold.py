"""A page's section as a following phone shows it: folded, and drawn only while the student has it open.

Each move of a live class's teacher reruns the page of every following phone. /heads drew four charts, five widgets
and a table for each of them at each move, when a phone shows the tiles the teacher is talking about and a student
scrolls to the rest only when asked to: folded, a section costs its one element. A student opens it with one tap
(or Enter), it stays open through the teacher's next moves, and it is drawn at the class's setting like the rest.
Every other screen (the explorer, the projector, the console) draws the section as before, with its own heading.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from ui.context import Context


def section(ctx: Context, title: str, key: str, draw: Callable[[bool], None]) -> None:
    """Draw a section: `draw(True)` in place (the section writes its own heading, `title`), or, on a following phone,
    an expander named `title` whose content, `draw(False)` (no heading: the expander's label is its heading), runs only
    while it is open (Streamlit reruns the page when it is opened or closed)."""
    if ctx.screen != "follower":
        draw(True)
        return
    box = st.expander(title, icon=":material/unfold_more:", key=f"fold_{key}", on_change="rerun")
    if box.open:
        with box:
            draw(False)
