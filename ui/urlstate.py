"""The URL as the shareable setting.

Most settings widgets are bound to the URL by Streamlit (`bind="query-params"`). Choices whose labels
are translated (language, preset, mask) and the padded tokens are kept in the URL here instead, as
language-neutral codes, so a link made in Chinese opens the same setting in English. On the first run
of a session every parameter is checked; a tampered or out-of-range one is reported and ignored.
"""

from __future__ import annotations

import streamlit as st

import i18n
from explorer import LIMITS, MASKS, PRESETS, REAL_SIZES, WEIGHT_SOURCES, Settings, apply_preset
from ui import sticky
from ui.quiz_state import URL_PARAMS as QUIZ_PARAMS

_LOADED = "_url_loaded"
_REJECTED = "_url_rejected"
_FILL = "_url_preset_fill"
DEFAULTS = Settings()

CHOICES: dict[str, tuple[tuple[str, ...], str]] = {
    "lang": (i18n.LANGS, i18n.DEFAULT_LANG),
    "preset": (PRESETS, DEFAULTS.preset),
    "mask": (MASKS, DEFAULTS.mask),
    "source": (WEIGHT_SOURCES, DEFAULTS.weight_source),
    "theme": (("auto", "light", "dark"), "auto"),  # ui/screen.py
}
INTS = {"d_model": (1, LIMITS.max_d_model), "n_heads": (1, LIMITS.max_heads), "seed": (0, LIMITS.max_seed),
        "layer": (1, REAL_SIZES["layers"]),
        "step": (1, 9)}  # step: the step /steps shows (ui/present.py; nine steps)
BOOLS = ("cross", "scale", "add_pe", "large", "present")
TEXTS = ("text", "text_kv", "text_pad")


def check_params(params: dict[str, str]) -> tuple[dict[str, object], list[str]]:
    """(accepted values for the hand-synced keys, names of rejected parameters). Pure: testable."""
    accepted: dict[str, object] = {}
    rejected: list[str] = []
    for name, raw in params.items():
        value = str(raw)
        if name in CHOICES:
            options, _ = CHOICES[name]
            if name == "lang":
                value = i18n.normalise_lang(value) if value.lower()[:2] in i18n.LANGS else value
            if name == "mask" and value == "padding" and params.get("padded"):
                value = "chosen"  # a link from before the padding batch: its picked tokens are "chosen tokens"
            if value in options:
                accepted[name] = value
            else:
                rejected.append(name)
        elif name == "padded":
            parts = [p for p in value.split(",") if p != ""]
            if all(p.isdigit() and int(p) < LIMITS.max_tokens for p in parts) and len(parts) <= LIMITS.max_tokens:
                accepted[name] = sorted({int(p) for p in parts})
            else:
                rejected.append(name)
        elif name in INTS:
            low, high = INTS[name]
            if not (value.lstrip("-").isdigit() and low <= int(value) <= high):
                rejected.append(name)
        elif name in BOOLS:
            if value.lower() not in ("true", "false"):
                rejected.append(name)
        elif name in QUIZ_PARAMS:  # the quiz's set and answers: ui.quiz_state checks them where it reads them
            continue
        elif name in TEXTS:
            if len(value) > LIMITS.max_chars:
                rejected.append(name)
        elif name in ("join", "me"):  # the live class's join code and student id: ui/live.py checks them
            continue
        else:  # an unknown parameter: never echo its (user-controlled) name
            rejected.append("?")
    return accepted, rejected


def load_once() -> None:
    """First run of a session: take the hand-synced settings from the URL, note rejected parameters."""
    if st.session_state.get(_LOADED):
        return
    st.session_state[_LOADED] = True
    params = {k: st.query_params.get(k) for k in st.query_params}
    accepted, rejected = check_params(params)
    for name, value in accepted.items():
        sticky.set_choice(name, value)
    preset = accepted.get("preset")
    fill: dict[str, object] = {}
    if preset and preset != "custom":  # a preset in a link brings its own sizes unless the link says otherwise
        filled = apply_preset(DEFAULTS, str(preset))
        for name in ("text", "d_model", "n_heads", "add_pe", "mask", "cross"):
            if name not in params:
                value = getattr(filled, name)
                if name in sticky.STICKY:
                    sticky.set_choice(name, value)
                    continue
                st.session_state[name] = value
                fill[name] = value
        st.session_state[_FILL] = fill
    for name in rejected:
        if name in CHOICES or name == "padded":
            del st.query_params[name]
    st.session_state[_REJECTED] = sorted(set(rejected))[:12]


def keep_preset_fill() -> None:
    """Every run: give the URL-bound widgets that a link's preset filled their value again, as long as the
    user has not changed them. Streamlit gives a widget a new identity after the first run, and a bound
    widget with a new identity reads the URL, where the preset's sizes are not (and st.query_params cannot
    put them there): without this, the first click anywhere turned the paper's d_model 512 back into 64."""
    fill = st.session_state.get(_FILL)
    if not fill:
        return
    for name, value in list(fill.items()):
        if st.session_state.get(name) == value:
            st.session_state[name] = value
        else:  # the user changed it: their value wins from now on
            del fill[name]


def rejected_params() -> list[str]:
    return st.session_state.get(_REJECTED, [])


def sync(values: dict[str, object]) -> None:
    """Write the hand-synced settings to the URL (a default value leaves the URL clean)."""
    for name, value in values.items():
        default = CHOICES[name][1] if name in CHOICES else []
        text = ",".join(str(i) for i in value) if isinstance(value, (list, tuple)) else str(value)
        if value == default or (isinstance(value, (list, tuple)) and not value):
            if name in st.query_params:
                del st.query_params[name]
        elif st.query_params.get(name) != text:
            st.query_params[name] = text
