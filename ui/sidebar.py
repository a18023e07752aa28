"""The shared settings sidebar: widgets in, one valid Settings out (or the last good one plus a message).

Every widget has a key and is bound to the URL (`bind="query-params"`), so a setting survives page
switches and a link reproduces it. Only this module reads the settings widgets.
"""

from __future__ import annotations

import dataclasses

import streamlit as st

import i18n
from explorer import LIMITS, MASKS, PRESETS, Problem, Settings, apply_preset, run_scene, validate
from figures.style import FigureStyle
from ui import keep, screen, sticky, urlstate
from ui.context import Context, set_context
from ui.editing import parse_cell
from ui.export import apply_to_widgets, export_panel
from ui.messages import problem_text
from ui.streamlit_guard import MAX_QUERY_FIELDS
from ui.weight_source import fixed_size_widgets, pad_text_widget, real_sizes, sentence_tokens, source_widgets

DEFAULTS = Settings()
_LAST_GOOD = "_last_good_settings"
X_EDITS = "_x_edits"  # {"sig": (...), "edits": {(r, c): value}}; survives pages (not a widget key)
W_EDITS = "_w_edits"


def _lang_default() -> str:
    try:
        return i18n.normalise_lang(st.context.locale)
    except Exception:  # no browser context (AppTest)
        return i18n.DEFAULT_LANG


def _on_preset() -> None:
    """Choosing a preset fills the sentence and sizes it stands for."""
    sticky.remember("preset")
    preset = st.session_state.get("preset", DEFAULTS.preset)
    if preset == "custom":
        return
    s = apply_preset(DEFAULTS, preset)
    st.session_state.update(text=s.text, d_model=s.d_model, n_heads=s.n_heads, add_pe=s.add_pe, cross=s.cross)
    sticky.set_choice("mask", s.mask)
    st.session_state[X_EDITS] = {}
    st.session_state[W_EDITS] = {}


def _to_custom() -> None:
    if st.session_state.get("preset") in ("en", "zh", "paper"):
        sticky.set_choice("preset", "custom")


def _edits(store_key: str, sig: tuple) -> dict:
    store = st.session_state.get(store_key) or {}
    if store.get("sig") != sig:
        return {}
    return store.get("edits", {})


def _parse_edit_value(raw: object) -> float | str:
    """A stored cell as float, or its text when ui.editing.parse_cell refuses it (validation reports it)."""
    value = parse_cell(raw)
    return value if isinstance(value, float) else str(raw)[:20]


def _size_widgets(tr, c1, c2, worked: bool) -> tuple[int, int]:
    d_model = c1.number_input(
        tr("sb.d_model"), 1, LIMITS.max_d_model, DEFAULTS.d_model, step=1, key="d_model",
        disabled=worked, on_change=_to_custom, bind="query-params",
        help=tr("sb.d_model_help", limit=LIMITS.max_d_model),
    )  # fmt: skip
    n_heads = c2.number_input(
        tr("sb.n_heads"), 1, LIMITS.max_heads, DEFAULTS.n_heads, step=1, key="n_heads",
        disabled=worked, on_change=_to_custom, bind="query-params",
        help=tr("sb.n_heads_help", limit=LIMITS.max_heads),
    )  # fmt: skip
    return d_model, n_heads


def read_settings(tr) -> tuple[Settings, list[Problem]]:
    """Draw the sidebar widgets and return the candidate settings and what is wrong with them."""
    sb = st.sidebar
    preset = sb.selectbox(
        tr("sb.preset"), PRESETS, key="preset", format_func=lambda p: tr(f"preset.{p}"),
        on_change=_on_preset,
    )  # fmt: skip
    worked = preset == "worked"
    if worked:
        sb.caption(tr("sb.worked_locked"))
    text = sb.text_area(
        tr("sb.text"), value=DEFAULTS.text, key="text", height=80, disabled=worked,
        help=tr("sb.text_help", limit=LIMITS.max_tokens), on_change=_to_custom, bind="query-params",
    )  # fmt: skip
    source, layer = source_widgets(tr, worked)
    real = source == "minilm"
    self_only = real or st.session_state.get("mask") == "padding"  # the real layer and the batch: self-attention
    cross = sb.toggle(tr("sb.cross"), value=DEFAULTS.cross, key="cross", disabled=worked or self_only,
                      help=tr("sb.cross_help"), bind="query-params")  # fmt: skip
    text_kv = DEFAULTS.text_kv
    if cross and not worked and not self_only:
        text_kv = sb.text_input(tr("sb.text_kv"), value=DEFAULTS.text_kv, key="text_kv", bind="query-params")
    c1, c2 = sb.columns(2)
    if real:  # the model's own sizes, shown (not the user's d_model and h, which come back with random weights)
        d_model, n_heads = fixed_size_widgets(tr, c1, c2)
    else:
        d_model, n_heads = _size_widgets(tr, c1, c2, worked)
    seed = sb.number_input(
        tr("sb.seed"), 0, LIMITS.max_seed, DEFAULTS.seed, step=1, key="seed", disabled=worked or real,
        help=tr("sb.seed_help"), bind="query-params",
    )  # fmt: skip
    scale = sb.toggle(tr("sb.scale"), value=DEFAULTS.scale, key="scale", help=tr("sb.scale_help"),
                      bind="query-params")  # fmt: skip
    add_pe = sb.toggle(tr("sb.add_pe"), value=DEFAULTS.add_pe, key="add_pe", help=tr("sb.add_pe_help"),
                       disabled=real, bind="query-params")  # fmt: skip
    mask = sb.radio(
        tr("sb.mask"), MASKS, key="mask", format_func=lambda m: tr(f"mask.{m}"), horizontal=True,
        on_change=sticky.remember, args=("mask",),
        help=tr("sb.mask_help"),
    )  # fmt: skip
    padded: tuple[int, ...] = ()
    text_pad = pad_text_widget(tr) if mask == "padding" else DEFAULTS.text_pad
    if mask == "chosen":
        kv_text = text_kv if cross and not real else text
        kv_tokens = sentence_tokens(kv_text, real)[: LIMITS.max_tokens] if not worked else ["x₁", "x₂"]
        options = list(range(len(kv_tokens)))
        current = [i for i in st.session_state.get("padded", []) if isinstance(i, int) and i in options]
        sticky.set_choice("padded", current)
        padded = tuple(
            sb.multiselect(
                tr("sb.padded"), options, key="padded", format_func=lambda i: f"{i}:{kv_tokens[i]}",
                on_change=sticky.remember, args=("padded",),
                help=tr("sb.padded_help"),
            )
        )
    candidate = Settings(
        preset=preset, text=text if not worked else "x₁ x₂", cross=bool(cross) and not worked,
        text_kv=text_kv, d_model=int(d_model) if not worked else 4, n_heads=int(n_heads) if not worked else 2,
        seed=int(seed), scale=bool(scale), mask=mask, padded=padded, add_pe=bool(add_pe),
        weight_source=source, layer=layer, text_pad=text_pad,
    )  # fmt: skip
    if real:
        candidate = real_sizes(candidate)
    elif mask == "padding" and not worked:
        candidate = dataclasses.replace(candidate, cross=False)
    x_edits = _edits(X_EDITS, edit_signature("x", candidate)) if not real else {}
    w_edits = _edits(W_EDITS, edit_signature("w", candidate)) if not real else {}
    candidate = dataclasses.replace(
        candidate,
        x_edits=tuple((r, c, _parse_edit_value(v)) for (r, c), v in sorted(x_edits.items())),
        w_edits=tuple((n, r, c, _parse_edit_value(v)) for (n, r, c), v in sorted(w_edits.items())),
    )
    return candidate, validate(candidate)


def edit_signature(kind: str, s: Settings) -> tuple:
    """The settings an edit belongs to: edits of X are dropped when the sentence or sizes change."""
    if kind == "x":
        return (s.text, s.text_kv if s.cross else "", s.cross, s.d_model, s.preset)
    return (s.d_model, s.n_heads, s.seed, s.preset)


def _reset() -> None:
    """Every setting and page choice back to its default; the language, theme and presentation stay."""
    apply_to_widgets(Settings())
    st.session_state[X_EDITS] = {}
    st.session_state[W_EDITS] = {}
    keep.forget_all()
    for key in ("step_index", "numbers_head"):
        st.session_state.pop(key, None)


def reset_button(tr) -> None:
    st.sidebar.button(tr("screen.reset"), key="reset_defaults", on_click=_reset, icon=":material/restart_alt:",
                      help=tr("screen.reset_help"), width="stretch")  # fmt: skip


def language_choice() -> str:
    """Start of a run: the link's settings (first run), the sticky choices, and the language picker (sidebar)."""
    urlstate.load_once()
    urlstate.keep_preset_fill()
    sticky.restore()
    for key, default in (("lang", _lang_default()), ("preset", DEFAULTS.preset), ("mask", DEFAULTS.mask)):
        if key not in st.session_state:
            sticky.set_choice(key, default)
    # named in both languages (whoever cannot read the current one finds it), without an icon whose ligature text
    # ("translate") a screen reader would read as part of the name
    return st.sidebar.selectbox(
        i18n.t("a11y.language", st.session_state["lang"]), i18n.LANGS, key="lang",
        format_func=lambda code: i18n.LANG_NAMES[code], on_change=sticky.remember, args=("lang",),
    )  # fmt: skip


def build_context() -> Context:
    """Language, sidebar, validation and the cached Scene for this run."""
    lang = language_choice()
    tr = i18n.translator(lang)
    st.sidebar.toggle(tr("sb.present"), key="present", help=tr("sb.present_help"), bind="query-params")
    large = st.sidebar.toggle(tr("sb.large"), key="large", help=tr("sb.large_help"), bind="query-params")
    dark = screen.theme_control(tr)
    reset_button(tr)
    candidate, problems = read_settings(tr)
    if urlstate.rejected_params():
        st.warning(tr("msg.url_rejected", names=", ".join(urlstate.rejected_params())), icon=":material/link:")
    if urlstate.dropped_link():
        st.warning(tr("msg.url_too_many", n=f"{urlstate.dropped_link():,}", limit=f"{MAX_QUERY_FIELDS:,}"),
                   icon=":material/link_off:")  # fmt: skip
    urlstate.sync({"lang": lang, "preset": candidate.preset, "mask": candidate.mask, "padded": list(candidate.padded),
                   "source": candidate.weight_source, "theme": st.session_state.get("theme", "auto")})
    last_good: Settings = st.session_state.get(_LAST_GOOD, DEFAULTS)
    if problems:
        for p in problems:
            st.sidebar.error(problem_text(tr, p), icon=":material/warning:")
        st.warning(tr("msg.showing_last_good"), icon=":material/warning:")
        settings = last_good
    else:
        settings = candidate
        st.session_state[_LAST_GOOD] = settings
    try:
        scene = run_scene(settings)
    except ValueError:  # cannot happen for validated settings; fall back rather than crash
        settings = DEFAULTS
        scene = run_scene(settings)
    st.sidebar.caption(
        tr("sb.limits", tokens=LIMITS.max_tokens, d_model=LIMITS.max_d_model, heads=LIMITS.max_heads)
    )
    ctx = make_context(lang, settings, large=bool(large), present=bool(st.session_state.get("present", False)),
                       dark=dark)  # fmt: skip
    export_panel(tr, settings, scene, lang)
    return ctx


def make_context(lang: str, settings: Settings, *, large: bool, present: bool, dark: bool) -> Context:
    """The run's Context from the sidebar's choices (ui/first_screen.py makes one without the sidebar), kept for the
    page: figures in large type on a projector, narrower on a narrow screen, dark on a dark screen."""
    narrow = screen.is_narrow()  # by the width the browser draws at (ui/a11y.js), not by the device
    phone = narrow and not (large or present)
    style = (FigureStyle.large() if (large or present) else FigureStyle.phone() if phone else FigureStyle()).with_(
        dark=dark)  # fmt: skip
    ctx = Context(lang=lang, t=i18n.translator(lang), settings=settings, style=style, large=large or present,
                  present=present, narrow=narrow)  # fmt: skip
    set_context(ctx)
    return ctx
