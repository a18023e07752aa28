"""What a session shows while its heavy chart waits for a slot of the server-wide gate (budget.GATE)."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from budget import GATE


class QueuedNotice:
    """A placeholder where the chart will appear: "busy, your chart is queued" at once, then how long it has
    waited; every update is a message to the browser, so a click meanwhile reruns the page instead of
    waiting behind the queue. Cleared when the build starts."""

    def __init__(self, tr: Callable[..., str]) -> None:
        self.tr = tr
        self.box = st.empty()
        self.box.info(tr("busy.queued", ahead=GATE.waiting + GATE.running), icon=":material/hourglass_top:")

    def tick(self, waited: float, ahead: int) -> None:
        self.box.info(self.tr("busy.queued_for", seconds=round(waited), ahead=max(ahead, 1)),
                      icon=":material/hourglass_top:")  # fmt: skip

    def done(self) -> None:
        self.box.empty()


def install_waiter(tr: Callable[..., str]) -> None:
    """This run's script thread shows a QueuedNotice when one of its heavy builds has to wait."""
    GATE.set_waiter(lambda: QueuedNotice(tr))
