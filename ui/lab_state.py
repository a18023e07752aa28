"""The training lab's session state: this student's Lab and the lab's widget values (keys `lab_*`).

The training itself is plain Python in training/; this module is the one place that knows how the lab's
controls are stored in st.session_state, and the callbacks the page's buttons and task box call.
"""

from __future__ import annotations

import streamlit as st

from training import DEFAULTS, TASK_NAMES, TrainConfig
from training.session import Lab
from ui import sticky

LAB_KEY = "lab_session"  # the student's Lab: their models, never shared with another session
FIELDS = ("d_model", "n_heads", "n_layers", "steps", "lr")  # the controls a task's defaults fill in


# Streamlit drops the state of widgets a run does not draw: a page switch would reset the controls to the
# task's defaults. A copy (ui/sticky.py) brings them back when the lab is opened again.
KEPT = ("lab_task", "lab_seed", "lab_defaults_of", *(f"lab_{f}" for f in FIELDS))


def current_lab() -> Lab:
    """This session's Lab; on the first call also the first task and its default controls."""
    sticky.restore_keys(KEPT)
    if "lab_task" not in st.session_state:
        st.session_state.update(lab_task=TASK_NAMES[0], lab_seed=0)
        load_defaults()
    return st.session_state.setdefault(LAB_KEY, Lab())


def load_defaults() -> None:
    """Fill the controls with the chosen task's defaults (the task box's on_change)."""
    d = DEFAULTS[st.session_state["lab_task"]]
    st.session_state.update({f"lab_{f}": getattr(d, f) for f in FIELDS}, lab_defaults_of=d.task)


def config_from_state() -> TrainConfig:
    """The TrainConfig the controls describe (raises TrainingError when it is not allowed)."""
    s = st.session_state
    sizes = (int(s[f"lab_{f}"]) for f in FIELDS[:-1])
    return TrainConfig(s["lab_task"], *sizes, lr=s["lab_lr"], seed=int(s["lab_seed"]))


def start() -> None:
    """The Train button: defaults first if the task changed in the same click, then start (or reuse) a run."""
    if st.session_state["lab_task"] != st.session_state.get("lab_defaults_of"):
        load_defaults()
    current_lab().start(config_from_state())


def next_example() -> None:
    """The "new example" button: show the final model on a fresh example."""
    current_lab().example_number += 1


def remember_controls() -> None:
    """After the page has drawn the controls: keep their values for the next visit (see KEPT)."""
    sticky.remember_keys(KEPT)
