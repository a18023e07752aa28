"""Accessibility of the frame, for every page at once (issue 36): the document's language and title, a visible focus
ring in both themes, the collapsed sidebar out of the Tab order, Streamlit's navigation list and its English names
(its skip link's words too) fixed (ui/a11y.js), focus moved to new content after an action, and the width the figures
are drawn at.

Pages need nothing for it. After an action whose result appears elsewhere (Next, Reveal, starting a class), the
action's callback calls `move_focus_to(key)` with the `key` of the container that shows the result. Content that
arrives by itself (a teacher's question on a phone) is drawn in an `announced(name)` container: said once, politely.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

LANG_TAGS = {"en": "en", "zh": "zh-CN"}  # <html lang>: the tag screen readers choose their voice by
FRAME_KEY = "a11y_frame"  # the component's key; its state holds the width bucket ui/a11y.js measured
_FOCUS = "_a11y_focus"  # {"target": selector, "n": count}: the last request, applied once by ui/a11y.js

# Streamlit's and plotly's own English names in the page (aria-label, title, placeholder), by catalogue key:
# ui/a11y.js puts the Chinese ones in on a Chinese page (and the English ones back after a switch).
STREAMLIT_LABELS = {
    "Open": "a11y.st.open", "Close": "a11y.st.close", "Sidebar": "a11y.st.sidebar", "App pages": "a11y.st.pages",
    "Collapse sidebar": "a11y.st.collapse_sidebar", "Expand sidebar": "a11y.st.expand_sidebar",
    "Main menu": "a11y.st.main_menu", "Help": "a11y.st.help", "Increment": "a11y.st.increment",
    "Decrement": "a11y.st.decrement", "Copy to clipboard": "a11y.st.copy", "Link to heading": "a11y.st.anchor",
    "Show password": "a11y.st.show_password", "Hide password": "a11y.st.hide_password",
    "Choose an option": "a11y.st.choose", "Choose options": "a11y.st.choose", "file upload": "a11y.st.file_upload",
    "Download plot as a PNG": "a11y.st.png", "Zoom": "a11y.st.zoom", "Pan": "a11y.st.pan",
    "Zoom in": "a11y.st.zoom_in", "Zoom out": "a11y.st.zoom_out", "Autoscale": "a11y.st.autoscale",
    "Reset axes": "a11y.st.reset_axes", "Selected values": "a11y.st.selected", "Clear all": "a11y.st.clear_all",
}  # fmt: skip
STREAMLIT_PREFIXES = {"Help for ": "a11y.st.help_for"}

# The focus ring: 3 px, 2 px away from the control, in a colour of at least 3:1 against the page, the sidebar and
# the primary button in each theme (tests/test_a11y_colours.py). react-aria's widgets keep their input visually
# hidden: the ring goes on the label that draws them. The collapsed sidebar (moved off screen, still in the DOM)
# is hidden, so its controls leave the Tab order.
FOCUS_RING = {"light": "#174ea6", "dark": "#ffcc4d"}
# The primary button's label (and a multiselect's chosen values, drawn the same): Streamlit's white on the light
# theme's dark blue; dark on the dark theme's light blue
# (which Streamlit also writes as text, where it needs 4.5:1 against the page: .streamlit/config.toml).
PRIMARY_LABEL = {"light": "#ffffff", "dark": "#0e1117"}
_CSS = """<style>
:focus-visible {{ outline: 3px solid {ring} !important; outline-offset: 2px !important; }}
label:has(input:focus-visible), .react-aria-ComboBox > [role="group"]:has(input:focus-visible),
[data-testid="stNumberInputContainer"]:has(input:focus-visible),
[data-testid="stTextInputRootElement"]:has(input:focus-visible),
[data-testid="stTextAreaRootElement"]:has(textarea:focus-visible) {{
  outline: 3px solid {ring} !important; outline-offset: 2px !important; }}
.react-aria-ComboBox input:focus-visible, [data-testid="stNumberInputContainer"] input:focus-visible,
[data-testid="stTextInputRootElement"] input:focus-visible,
[data-testid="stTextAreaRootElement"] textarea:focus-visible, label input:focus-visible {{ outline: none !important; }}
[data-testid="stSidebar"][data-collapsed="true"], [data-testid="stSidebar"][data-collapsed="true"] * {{
  visibility: hidden !important; }}
.js-plotly-plot .plotly:focus-within .modebar {{ opacity: 1 !important; }}
[data-testid^="stBaseButton-primary"]:not(:disabled), [data-testid^="stBaseButton-primary"]:not(:disabled) *,
[data-testid="stMultiSelectTagsContainer"] [data-tag], [data-testid="stMultiSelectTagsContainer"] [data-tag] * {{
  color: {label} !important; }}
</style>"""


@st.cache_resource(show_spinner=False)
def _frame_component():
    js = Path(__file__).with_name("a11y.js").read_text(encoding="utf-8")
    return st.components.v2.component("mha_a11y", js=js, isolate_styles=False)


def measured_narrow() -> bool | None:
    """True/False when the browser reported the main column narrower/wider than ui/a11y.js's NARROW (any device:
    a phone, or a desktop at 400 % zoom); None before it has (the first run of a session)."""
    state = st.session_state.get(FRAME_KEY)
    width = state.get("width") if isinstance(state, dict) else None
    return None if width is None else width == "narrow"


def move_focus_to(key: str) -> None:
    """In an action's callback: once this run is drawn, the focus goes to the element with this widget or container
    `key` (a screen reader then reads the new content, and Tab continues from there)."""
    previous = st.session_state.get(_FOCUS) or {}
    st.session_state[_FOCUS] = {"target": f".st-key-{key}", "n": int(previous.get("n", 0)) + 1}


ANNOUNCE = "a11y_announce_"  # the key prefix of a container whose text ui/a11y.js says in its live region


def announced(name: str):
    """A container whose text ui/a11y.js says once (per `name`, per page load) in a polite live region (role=status)
    that is on the page from its start: for content that arrives by itself, e.g. a teacher's question on a phone.
    Nothing moves the focus (the student may be typing)."""
    return st.container(key=ANNOUNCE + name)


# Material icons in Markdown that mean something (ui/quiz_view.revealed's marks), by ligature; ui/a11y.js hides the
# others from screen readers
ICON_NAMES = {"check_circle": "a11y.icon.check_circle", "cancel": "a11y.icon.cancel"}


def labels_for(lang: str, tr) -> dict:
    """What ui/a11y.js replaces: Streamlit's English names by the language's, or back to English."""
    if lang == "en":
        from i18n import t

        return {"exact": {t(key, "zh"): en for en, key in STREAMLIT_LABELS.items()}, "prefix": {}}
    return {"exact": {en: tr(key) for en, key in STREAMLIT_LABELS.items()},
            "prefix": {en: tr(key, label="{}") for en, key in STREAMLIT_PREFIXES.items()}}  # fmt: skip


def document_title(tr, page_title: str) -> str:
    """The browser tab's title: the page, then the app, in the chosen language."""
    return tr("a11y.doc_title", page=page_title, app=tr("app.title"))


def install(ctx, page_title: str, where=None) -> None:
    """Every run, before the page: title, focus ring and hidden collapsed sidebar (CSS), and ui/a11y.js, drawn in the
    sidebar, or in `where` (a container) on a screen that has none (the live class's projector)."""
    st.set_page_config(page_title=document_title(ctx.t, page_title))
    screen = "dark" if ctx.style.dark else "light"
    st.html(_CSS.format(ring=FOCUS_RING[screen], label=PRIMARY_LABEL[screen]))
    data = {"lang": LANG_TAGS.get(ctx.lang, ctx.lang), "labels": labels_for(ctx.lang, ctx.t),
            "skip": ctx.t("a11y.st.skip"), "icons": {ligature: ctx.t(key) for ligature, key in ICON_NAMES.items()},
            "focus": st.session_state.get(_FOCUS), "assumed": "narrow" if ctx.narrow else "wide"}  # fmt: skip
    with st.sidebar if where is None else where:
        _frame_component()(data=data, key=FRAME_KEY, on_width_change=lambda: None, default={"width": None})
