"""Colours that every student can tell apart: contrast against both screens (WCAG 2.2: 4.5:1 text, 3:1 graphics and
focus rings) and head colours that stay apart for deuteranopes and protanopes, computed with Machado, Oliveira and
Fernandes' (2009) simulation at full severity, as Chromium's own vision-deficiency emulation does."""

from __future__ import annotations

import itertools
import tomllib

import numpy as np
import pytest

from figures.style import (
    DIVERGING,
    DIVERGING_DARK,
    HEAD_COLORS,
    HEAD_COLORS_DARK,
    HEAD_DASHES,
    MASKED_HATCH,
    FigureStyle,
    colorscale,
    head_color,
    head_dash,
)
from tests.conftest import ROOT
from ui.a11y import FOCUS_RING, PRIMARY_LABEL

MACHADO = {
    "deuteranopia": np.array([[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413],
                              [-0.011820, 0.042940, 0.968881]]),
    "protanopia": np.array([[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216],
                            [-0.003882, -0.048116, 1.051998]]),
}  # fmt: skip
BACKGROUND = {"light": "#ffffff", "dark": "#0e1117"}  # the figures' paper (FigureStyle.background) and the page
THEME = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))["theme"]


def rgb(colour: str) -> np.ndarray:
    colour = {"white": "#ffffff", "black": "#000000"}.get(colour.strip(), colour.strip())
    if len(colour) == 4:  # "#222"
        colour = "#" + "".join(ch * 2 for ch in colour[1:])
    if colour.startswith("rgb"):
        return np.array([float(v) for v in colour[colour.index("(") + 1 : -1].split(",")[:3]]) / 255
    return np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)]) / 255


def linear(c: np.ndarray) -> np.ndarray:
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def luminance(colour: str) -> float:
    return float(linear(rgb(colour)) @ [0.2126, 0.7152, 0.0722])


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def lab(colour: str, vision: str | None = None) -> np.ndarray:
    """CIELAB (D65) of a colour as a person with `vision` sees it (None: typical colour vision)."""
    lin = linear(rgb(colour))
    if vision:
        lin = np.clip(MACHADO[vision] @ lin, 0, 1)
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]) @ lin
    t = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(t > 0.008856, np.cbrt(t), 7.787 * t + 16 / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def delta_e(a: str, b: str, vision: str | None = None) -> float:
    return float(np.linalg.norm(lab(a, vision) - lab(b, vision)))


@pytest.mark.parametrize(("palette", "screen"), [(HEAD_COLORS, "light"), (HEAD_COLORS_DARK, "dark")])
def test_head_colours_keep_3_to_1_against_their_screen(palette, screen):
    assert all(contrast(c, BACKGROUND[screen]) >= 3.0 for c in palette), [
        (c, round(contrast(c, BACKGROUND[screen]), 2)) for c in palette]


@pytest.mark.parametrize("vision", [None, "deuteranopia", "protanopia"])
@pytest.mark.parametrize("palette", [HEAD_COLORS, HEAD_COLORS_DARK])
def test_every_pair_of_head_colours_stays_apart_in_colour_blind_eyes(palette, vision):
    # the D3 colours of before: heads 3 and 4 at ΔE 7.3 for deuteranopes, heads 2 and 3 at 4.6 for protanopes
    closest = min(delta_e(a, b, vision) for a, b in itertools.combinations(palette, 2))
    assert closest >= 10.0


def test_heads_differ_by_dash_too_and_pairs_stay_new_past_the_palette():
    assert len(set(HEAD_DASHES)) == len(HEAD_DASHES) == len(HEAD_COLORS)
    for dark in (False, True):
        pairs = [(head_color(i, dark), head_dash(i)) for i in range(36)]
        assert len(set(pairs)) == 36
    assert FigureStyle(dark=True).head_color(0) == HEAD_COLORS_DARK[0]


@pytest.mark.parametrize("scale", [DIVERGING, DIVERGING_DARK])
def test_diverging_ends_differ_in_lightness_and_meet_at_white(scale):
    assert scale[len(scale) // 2][1] == "rgb(255,255,255)"
    negative, positive = lab(scale[0][1])[0], lab(scale[-1][1])[0]
    assert positive - negative >= 20  # the sign survives in grey: the negative end is the darker one
    for vision in ("deuteranopia", "protanopia"):  # and the two ends stay apart
        assert delta_e(scale[0][1], scale[-1][1], vision) >= 30


@pytest.mark.parametrize("kind", ["weights", "signed", "plain"])
def test_dark_screen_scales_keep_3_to_1_against_its_background(kind):
    # the darkest blues were 1.48:1 against the dark background
    for _, colour in colorscale(kind, dark=True):
        assert contrast(colour, BACKGROUND["dark"]) >= 3.0, colour


@pytest.mark.parametrize("screen", ["light", "dark"])
def test_masked_hatch_lines_stand_out_from_the_cells_ground_and_screen(screen):
    ground, lines = MASKED_HATCH[screen]
    assert contrast(lines, ground) >= 3.0
    assert contrast(lines, BACKGROUND[screen]) >= 3.0 or contrast(ground, BACKGROUND[screen]) >= 3.0


@pytest.mark.parametrize("screen", ["light", "dark"])
def test_figure_text_and_reference_marks_meet_wcag_on_their_screen(screen):
    style = FigureStyle(dark=screen == "dark")
    assert contrast(style.text_color, style.background) >= 4.5
    assert contrast(style.muted_color, style.background) >= 4.5
    assert contrast(style.reference_color, style.background) >= 3.0


@pytest.mark.parametrize("screen", ["light", "dark"])
def test_theme_primary_button_links_and_focus_ring(screen):
    theme = THEME[screen]
    primary, page, sidebar = theme["primaryColor"], theme["backgroundColor"], theme["secondaryBackgroundColor"]
    assert contrast(PRIMARY_LABEL[screen], primary) >= 4.5  # the primary button's label (white on #5b9bff: 2.77:1)
    assert contrast(primary, page) >= 4.5 and contrast(primary, sidebar) >= 4.5  # Streamlit writes it as text too
    assert contrast(theme["linkColor"], page) >= 4.5
    assert contrast(theme["textColor"], page) >= 4.5 and contrast(theme["textColor"], sidebar) >= 4.5
    ring = FOCUS_RING[screen]
    assert min(contrast(ring, page), contrast(ring, sidebar)) >= 3.0
