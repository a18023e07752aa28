"""Shared test helpers: paths and an AppTest factory."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
PAGES = {
    "home": "pages/home.py",
    "inputs": "pages/inputs.py",
    "steps": "pages/steps.py",
    "heads": "pages/heads.py",
    "positional": "pages/positional.py",
    "worked": "pages/worked.py",
    "quiz": "pages/quiz.py",
    "lab": "pages/lab.py",
    "minilm": "pages/minilm.py",
    "why": "pages/why.py",
    "subspaces": "pages/subspaces.py",
}
CHARTLESS = {"home", "worked", "quiz", "lab"}  # text, LaTeX and widgets (lab: charts come after training)


def plotly_specs(at) -> list[dict]:
    """The figure JSON of every plotly chart on the current page."""
    return [json.loads(el.proto.spec) for el in at.get("plotly_chart")]


@pytest.fixture
def make_app():
    """An AppTest of the whole app (frame + sidebar), optionally preloaded with session state."""
    from streamlit.testing.v1 import AppTest

    def factory(**state):
        at = AppTest.from_file(APP, default_timeout=60)
        for k, v in state.items():
            at.session_state[k] = v
        return at

    return factory
