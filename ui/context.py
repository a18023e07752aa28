"""What every page needs for one run: language, translator, valid settings, the computed Scene, style."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

import streamlit as st

from explorer import Scene, Settings, run_scene
from figures.style import FigureStyle

_KEY = "_ctx"


@dataclass(frozen=True)
class Context:
    lang: str
    t: Callable[..., str]
    settings: Settings
    style: FigureStyle
    large: bool
    present: bool = False
    # "" for the explorer; "follower" (a student's phone following the teacher) or "projector" in a live class:
    # the class's page, settings and step, with no control that would leave them (ui/present.py hides Prev/Next)
    screen: str = ""
    narrow: bool = False  # the main column is narrow (a phone, or 400 % zoom): ui/screen.is_narrow
    shown: Scene | None = field(default=None, repr=False)  # a page's own scene for this run (with_scene)

    @property
    def scene(self) -> Scene:
        """The Scene of `settings`, from the byte-bounded scene cache (a hit: build_context computed it). The
        context kept in session state never holds a Scene: a session is kept a while after its tab closes, and
        holding one would keep up to 30 MB of arrays per session outside the cache's budget."""
        return self.shown if self.shown is not None else run_scene(self.settings)

    def with_scene(self, scene: Scene) -> Context:
        """This context showing `scene` (e.g. one item of the padding batch), for the rest of one page run."""
        return replace(self, shown=scene)


def set_context(ctx: Context) -> None:
    st.session_state[_KEY] = ctx


def run_lang() -> str:
    """The language of this run: its context's (the projector's is the class's, a first-screen run's the browser's:
    neither has a language widget), else the language widget's."""
    ctx = st.session_state.get(_KEY)
    return ctx.lang if ctx is not None else str(st.session_state.get("lang", "en"))


def get_context() -> Context:
    """The context the frame built for this run (every page runs inside the frame: frame.outside_frame)."""
    ctx = st.session_state.get(_KEY)
    if ctx is None:
        raise RuntimeError("no context: a page runs inside the frame (frame.outside_frame)")
    return ctx
