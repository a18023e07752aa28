"""Share & export: the settings as JSON (download and load back), the whole trace as .npz, tensors as CSV."""

from __future__ import annotations

import io
import json
from collections.abc import Sequence

import numpy as np
import pandas as pd
import streamlit as st

from explorer import Scene, Settings, run_scene
from explorer.settings_io import SettingsFileError, settings_from_json, settings_to_json
from ui import sticky
from ui.messages import message_text
from ui.share import student_link_panel
from ui.streamlit_text import UPLOAD_LIMIT_MB, uploader_note

_MSG = "_io_message"
UPLOAD_KEY = "settings_upload"


def tensor_csv(values: np.ndarray, rows: Sequence[str] | None = None, cols: Sequence[str] | None = None,
               head_label: str = "head") -> str:
    """A 2-D tensor as a table; a 3-D one (heads first) as one block of rows per head."""
    values = np.asarray(values)
    if values.ndim == 3:
        frames = [
            pd.DataFrame(values[i], index=pd.MultiIndex.from_product(
                [[i + 1], list(rows) if rows is not None else range(values.shape[1])], names=[head_label, ""]
            ), columns=list(cols) if cols is not None else range(values.shape[2]))
            for i in range(values.shape[0])
        ]  # fmt: skip
        return pd.concat(frames).to_csv(float_format="%.6g")
    df = pd.DataFrame(np.atleast_2d(values), index=list(rows) if rows is not None else None,
                      columns=list(cols) if cols is not None else None)  # fmt: skip
    return df.to_csv(float_format="%.6g")


def trace_npz(scene: Scene, settings: Settings | None = None, lang: str = "en") -> bytes:
    """Every array of the scene plus the tokens, as a compressed .npz (plain arrays, loads without pickle).
    `settings`: the setting it was computed from, as the settings file's JSON in a one-string array (`settings`,
    loads back with explorer.settings_io.settings_from_json); edited cells, if any, as JSON in `edits`."""
    buf = io.BytesIO()
    arrays = dict(scene.arrays())
    arrays["tokens"] = np.array(scene.tokens, dtype=str)
    arrays["kv_tokens"] = np.array(scene.kv_tokens, dtype=str)
    if settings is not None:
        arrays["settings"] = np.array([settings_to_json(settings, lang)], dtype=str)
        if settings.x_edits or settings.w_edits:
            edits = {"x_edits": [list(e) for e in settings.x_edits], "w_edits": [list(e) for e in settings.w_edits]}
            arrays["edits"] = np.array([json.dumps(edits)], dtype=str)
    np.savez_compressed(buf, **arrays)
    return buf.getvalue()


def _load_settings() -> None:
    """on_change of the uploader: check the file, then put its values into the settings widgets."""
    upload = st.session_state.get(UPLOAD_KEY)
    if upload is None:
        return
    try:
        settings, lang = settings_from_json(upload.getvalue())
    except SettingsFileError as err:
        st.session_state[_MSG] = ("error", f"io.{err.code}", err.params)
        return
    apply_to_widgets(settings, lang)
    st.session_state[_MSG] = ("success", "io.loaded", {})


def apply_to_widgets(settings: Settings, lang: str | None = None) -> None:
    """Set the sidebar widgets to `settings` (before they are drawn in the next run)."""
    for name in ("text", "cross", "text_kv", "d_model", "n_heads", "seed", "scale", "add_pe", "layer", "text_pad"):
        st.session_state[name] = getattr(settings, name)
    sticky.set_choice("source", settings.weight_source)
    sticky.set_choice("preset", settings.preset)
    sticky.set_choice("mask", settings.mask)
    sticky.set_choice("padded", list(settings.padded))
    if lang:
        sticky.set_choice("lang", lang)


def export_panel(tr, settings: Settings, scene: Scene, lang: str) -> None:
    """The sidebar's share & export expander. Its content is drawn only while it is open: folded, it would still be
    drawn on every page's first screen, and its copyable link alone (st.code) makes the browser load and start a
    syntax highlighter of 1.5 MB, the largest single cost of a first page on a slow CPU (docs/PERFORMANCE.md)."""
    panel = st.sidebar.expander(tr("io.title"), icon=":material/link:", key="io_open", on_change="rerun")
    if not panel.open:
        return
    with panel:
        st.caption(tr("io.link_help"))
        student_link_panel(tr, settings, lang)
        st.download_button(
            tr("io.download_settings"), data=settings_to_json(settings, lang), file_name="mha-settings.json",
            mime="application/json", key="dl_settings", icon=":material/download:",
        )  # fmt: skip
        st.file_uploader(tr("io.upload_settings"), type=["json"], key=UPLOAD_KEY, on_change=_load_settings,
                         help=tr("io.upload_help"), max_upload_size=UPLOAD_LIMIT_MB)  # fmt: skip
        uploader_note(tr)
        message = st.session_state.pop(_MSG, None)
        if message:
            kind, key, params = message
            rest = {k: v for k, v in params.items() if k != "problem"}
            text = tr(key, **rest)
            if "problem" in params:
                text += " " + message_text(tr, params["problem"], rest)
            (st.error if kind == "error" else st.success)(text)
        st.download_button(
            # the settings, not the scene: a session keeps this callable, and must not keep the arrays with it
            tr("io.download_npz"), data=lambda s=settings: trace_npz(run_scene(s), s, lang), file_name="mha-trace.npz",
            mime="application/octet-stream", key="dl_npz", icon=":material/download:", help=tr("io.npz_help"),
        )  # fmt: skip
