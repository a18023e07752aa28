"""Projector basics in the sidebar: the screen's theme (follow the browser, light, dark high-contrast), whether this
is a phone, and the names PNG exports get.

Streamlit draws its own light or dark theme ([theme.light] / [theme.dark] in .streamlit/config.toml) and
follows the browser's preference until a choice is stored in the browser; ui/theme.js stores the chosen one
and reloads once. The URL keeps the choice (`theme=dark`), so the reload, and a link, open the same screen.
Figures follow with FigureStyle.dark.
"""

from __future__ import annotations

import re
from pathlib import Path

import streamlit as st

from explorer import Settings
from ui import sticky
from ui.nav import PAGES

THEMES: tuple[str, ...] = ("auto", "light", "dark")
_STREAMLIT_NAME = {"auto": "System", "light": "Light", "dark": "Dark"}


@st.cache_resource(show_spinner=False)
def _theme_component():
    js = Path(__file__).with_name("theme.js").read_text(encoding="utf-8")
    return st.components.v2.component("mha_theme", js=js, isolate_styles=False)


def browser_is_dark() -> bool:
    try:
        return st.context.theme.type == "dark"
    except Exception:  # no browser (AppTest)
        return False


_PHONE = re.compile(r"iPhone|Android.+Mobile|Mobile Safari|Windows Phone", re.IGNORECASE)


def is_phone() -> bool:
    """A phone's browser (by its client hint or user agent): figures get FigureStyle.phone."""
    try:
        headers = st.context.headers
        return headers.get("Sec-CH-UA-Mobile") == "?1" or bool(_PHONE.search(headers.get("User-Agent", "")))
    except Exception:  # no browser (AppTest)
        return False


def is_narrow() -> bool:
    """The main column is narrow (a phone, or a desktop at 400 % zoom, 320 CSS px): as ui/a11y.js measured it in the
    browser; before it has (a session's first run), a phone's client hint or user agent, so a phone's first paint
    already has the phone layout. Figures then get FigureStyle.phone."""
    from ui.a11y import measured_narrow

    measured = measured_narrow()
    return is_phone() if measured is None else measured


def theme_control(tr) -> bool:
    """The sidebar's theme choice; True when figures should be drawn for a dark screen."""
    if "theme" not in st.session_state:
        sticky.set_choice("theme", "auto")
    choice = st.sidebar.radio(tr("screen.theme"), THEMES, key="theme", format_func=lambda c: tr(f"screen.{c}"),
                              horizontal=True, on_change=sticky.remember, args=("theme",),
                              help=tr("screen.theme_help"))  # fmt: skip
    paths = ["/"] + [f"/{url}" for _, url, *_ in PAGES]
    with st.sidebar:
        _theme_component()(data={"theme": _STREAMLIT_NAME[choice], "paths": paths}, key="theme_switch")
    return choice == "dark" or (choice == "auto" and browser_is_dark())


def png_name(key: str, s: Settings | None) -> str:
    """A chart's PNG file name: the chart and its setting, e.g. mha_steps_weights_h8_d64_L11_seed0_causal."""
    if s is None:
        return f"mha_{key}"
    parts = [f"mha_{key}", s.preset, f"h{s.n_heads}", f"d{s.d_model}", f"seed{s.seed}"]
    parts += ([] if s.scale else ["unscaled"]) + ([] if s.mask == "none" else [s.mask]) + (["pe"] if s.add_pe else [])
    return re.sub(r"[^A-Za-z0-9_.-]", "-", "_".join(parts))[:120]


def png_options(key: str) -> dict:
    """The plotly config entry that names a chart's PNG export (the settings of this session's run)."""
    ctx = st.session_state.get("_ctx")
    name = png_name(key, getattr(ctx, "settings", None))
    options: dict = {"toImageButtonOptions": {"format": "png", "scale": 2, "filename": name}}
    if is_narrow():  # on a small screen the toolbar would sit over the chart's title
        options["displayModeBar"] = False
    return options
