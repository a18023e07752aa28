"""Presets: two short sentences, note 001's worked example, and the paper's size."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .settings import Settings

PRESETS: tuple[str, ...] = ("en", "zh", "worked", "paper", "custom")


@dataclass(frozen=True)
class WorkedExample:
    """Note 001's example: d_model = 4, h = 2, d_k = 2, two tokens.

    X, W_1^Q, W_2^Q and W^O are the note's. The note leaves out W_i^K and W_i^V; the ones below are this
    app's choice (small, signed, all different), stated on the worked-example page. No bias, no
    positional encoding: exactly the formulas of the note.
    """

    tokens: tuple[str, ...] = ("x₁", "x₂")
    x: tuple[tuple[float, ...], ...] = ((1.0, 0.5, -1.0, 2.0), (-0.5, 1.0, 0.3, -2.0))
    w_q_heads: tuple[tuple[tuple[float, ...], ...], ...] = (
        ((0.1, 0.4), (-0.2, 0.3), (1.0, -0.5), (0.5, 0.2)),  # W_1^Q (note 001)
        ((-0.3, 0.2), (1.1, 0.6), (-0.4, 0.8), (0.7, -0.1)),  # W_2^Q (note 001)
    )
    w_k_heads: tuple[tuple[tuple[float, ...], ...], ...] = (
        ((0.2, -0.1), (0.4, 0.3), (-0.3, 0.5), (0.1, 0.2)),  # W_1^K (chosen here)
        ((0.5, 0.1), (-0.2, 0.4), (0.3, -0.6), (0.2, 0.3)),  # W_2^K (chosen here)
    )
    w_v_heads: tuple[tuple[tuple[float, ...], ...], ...] = (
        ((0.3, 0.1), (-0.1, 0.5), (0.2, 0.2), (0.4, -0.3)),  # W_1^V (chosen here)
        ((-0.2, 0.6), (0.5, -0.1), (0.1, 0.3), (0.3, 0.2)),  # W_2^V (chosen here)
    )
    w_o: tuple[tuple[float, ...], ...] = (
        (0.5, -0.2, 1.1, 0.3),
        (0.1, 0.8, -0.4, 0.6),
        (-0.3, 0.7, 0.2, 1.0),
        (0.9, -0.5, 0.3, -0.8),
    )  # W^O (note 001)


WORKED_EXAMPLE = WorkedExample()

_PRESET_SETTINGS: dict[str, dict[str, object]] = {
    "en": {"text": "The cat sat on the mat because it was tired .", "d_model": 64, "n_heads": 8, "add_pe": True},
    "zh": {"text": "小猫坐在垫子上，因为它累了。", "d_model": 64, "n_heads": 8, "add_pe": True},
    "worked": {"text": "x₁ x₂", "d_model": 4, "n_heads": 2, "add_pe": False, "mask": "none", "cross": False},
    "paper": {
        "text": "The animal didn't cross the street because it was too tired .",
        "d_model": 512,
        "n_heads": 8,
        "add_pe": True,
    },
}


def apply_preset(settings: Settings, preset: str) -> Settings:
    """`settings` with the preset's sentence and sizes; 'custom' keeps everything. Edits are dropped."""
    if preset not in PRESETS:
        return settings
    values = dict(_PRESET_SETTINGS.get(preset, {}))
    return dataclasses.replace(settings, preset=preset, x_edits=(), w_edits=(), padded=(), **values)
