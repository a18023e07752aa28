"""The app's link as a setting, without Streamlit: which query parameters a link may carry and how each is checked
(`check_params`, used by the app's own reading, ui/urlstate.py), the query that reproduces a setting
(`link_query`, the app's student link and a notebook's link), and a link read the way the app reads it on a session's
first run (`settings_from_link`: the same Settings the sidebar builds, for a notebook).

tests/test_notebook_links.py runs the app itself (AppTest) on many links and compares its Settings with
`settings_from_link`'s, and checks that `link_query` of a setting opens that setting in the app.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import i18n
from mha_core import tokenize

from .presets import PRESETS, apply_preset
from .settings import LIMITS, MASKS, REAL_SIZES, WEIGHT_SOURCES, Problem, Settings, validate

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
# the settings the sidebar's widgets keep in the link themselves (Streamlit's bind="query-params", ui/sidebar.py)
BOUND = ("text", "cross", "text_kv", "d_model", "n_heads", "seed", "scale", "add_pe", "layer", "text_pad")
WORKED_FIXED = ("text", "cross", "text_kv", "d_model", "n_heads")  # the worked preset sets these itself
PRESET_FILLS = ("text", "d_model", "n_heads", "add_pe", "mask", "cross")  # what a preset in a link brings along
WORKED_TOKENS = ("x₁", "x₂")

MAX_DIGITS = 12  # no allowed number has more; checked before int(), which refuses 4,300 digits with an error


def parse_int(text: str, allow_sign: bool = False) -> int | None:
    """`text` as an int when it is a short run of ASCII digits 0-9 (optionally after one "-"), else None.
    str.isdigit() accepts "²" and "①", which int() refuses: only isascii() and isdecimal() together are safe."""
    body = text[1:] if allow_sign and text.startswith("-") else text
    if not (0 < len(body) <= MAX_DIGITS and body.isascii() and body.isdecimal()):
        return None
    return int(text)


def encodable(text: str) -> bool:
    """False for text the URL cannot carry (a lone surrogate such as "\ud800" has no UTF-8 form)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check_params(params: Mapping[str, str], elsewhere: Collection[str] = (), *, unknown: str = "reject",
                 ) -> tuple[dict[str, object], list[str]]:  # fmt: skip
    """(accepted values of the choices and the padded tokens, names of rejected parameters). `elsewhere`: names
    checked where they are read (the quiz's, a lesson's, the live class's); an unknown name is rejected as "?" (its
    user-controlled name never echoed), or passed over with unknown="ignore" (a notebook reads only the setting)."""
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
            parts = [p for p in value[: 4 * LIMITS.max_tokens].split(",") if p != ""]
            numbers = [parse_int(p) for p in parts]
            if (len(value) <= 4 * LIMITS.max_tokens and len(parts) <= LIMITS.max_tokens
                    and all(i is not None and i < LIMITS.max_tokens for i in numbers)):  # fmt: skip
                accepted[name] = sorted({i for i in numbers if i is not None})
            else:
                rejected.append(name)
        elif name in INTS:
            low, high = INTS[name]
            number = parse_int(value, allow_sign=True)
            if number is None or not low <= number <= high:
                rejected.append(name)
        elif name in BOOLS:
            if value.lower() not in ("true", "false"):
                rejected.append(name)
        elif name in TEXTS:
            if len(value) > LIMITS.max_chars or not encodable(value):
                rejected.append(name)
        elif name in elsewhere:
            continue
        elif unknown == "reject":  # never echo its (user-controlled) name
            rejected.append("?")
    return accepted, rejected


def _text(value: object) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def link_query(settings: Settings, lang: str, step: int | None = None) -> dict[str, str]:
    """The query parameters of a link that opens `settings` in the app, in `lang` (always written, so that a phone
    does not switch to its own language); `step` (1-based) is the step /steps shows. Pure: testable."""
    query: dict[str, str] = {"lang": lang}
    if settings.preset != DEFAULTS.preset:
        query["preset"] = settings.preset
    for name in BOUND:
        if settings.preset == "worked" and name in WORKED_FIXED:
            continue
        if (name == "text_kv" and not settings.cross) or (name == "text_pad" and settings.mask != "padding"):
            continue
        if name == "layer" and not settings.real:
            continue
        value = getattr(settings, name)
        if value != getattr(DEFAULTS, name) or settings.preset not in ("custom", DEFAULTS.preset):
            # a preset in a link fills its own sizes unless the link says otherwise: say it always
            query[name] = _text(value)
    if settings.weight_source != DEFAULTS.weight_source:
        query["source"] = settings.weight_source
    if settings.mask != DEFAULTS.mask:
        query["mask"] = settings.mask
    if settings.padded:
        query["padded"] = ",".join(str(i) for i in settings.padded)
    if step is not None:
        query["step"] = str(step)
    return query


def link(base_url: str, settings: Settings, lang: str, step: int | None = None) -> str:
    """`base_url` (a page's address; its own query dropped) with the query of `link_query`."""
    parts = urlsplit(base_url)
    return urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(link_query(settings, lang, step)), ""))


@dataclass(frozen=True)
class LinkSettings:
    """A link read as the app reads it. `settings`: what the app computes (the defaults when `problems` is not empty,
    as the app shows its last good setting, on a first visit the defaults); `lang`: the link's language or None;
    `page`: the path's last part ("steps"; "" for the home page); `rejected`: the names of parameters the app ignores
    (and names in its warning); `problems`: what is wrong with the setting the link asks for (explorer.validate)."""

    settings: Settings
    lang: str | None
    page: str
    rejected: tuple[str, ...]
    problems: tuple[Problem, ...]


def _bool(value: str) -> bool:
    return value.lower() == "true"


def settings_from_link(url_or_query: str | Mapping[str, str], *, real_available: bool | None = None) -> LinkSettings:
    """A link of the app (a whole address, a query "?d_model=32&...", or its parameters as a mapping) read as the app
    reads it on a session's first run: the choices checked (`check_params`), a preset's own values where the link
    says nothing else, then the sidebar's rules (ui/sidebar.read_settings): the worked example's fixed sizes, the real
    model's sizes, self-attention for the real layer and the padding batch, chosen tokens within the sentence.
    `real_available`: whether the real model loads (None: ask explorer.sources); without it the app uses random
    weights."""
    page = ""
    if isinstance(url_or_query, str):
        parts = urlsplit(url_or_query if "?" in url_or_query or "://" in url_or_query else f"?{url_or_query}")
        params = dict(parse_qsl(parts.query, keep_blank_values=True))  # the last of a repeated name, as Streamlit
        page = parts.path.rstrip("/").rpartition("/")[2]
    else:
        params = {str(k): str(v) for k, v in url_or_query.items()}
    accepted, rejected = check_params(params, unknown="ignore")
    values = {name: value for name, value in params.items() if name not in rejected}  # a rejected value is dropped
    preset = str(accepted.get("preset", DEFAULTS.preset))
    filled = apply_preset(DEFAULTS, preset) if "preset" in accepted and preset != "custom" else DEFAULTS
    fill = {name: getattr(filled, name) for name in PRESET_FILLS if name not in params}

    def bound(name: str) -> object:
        """A widget bound to the link: the link's value, else the preset's, else the default."""
        if name in values:
            raw = values[name]
            return int(raw) if name in INTS else _bool(raw) if name in BOOLS else raw
        return fill.get(name, getattr(DEFAULTS, name))

    worked = preset == "worked"
    mask = str(accepted.get("mask", fill.get("mask", DEFAULTS.mask)))
    source = str(accepted.get("source", DEFAULTS.weight_source))
    if source == "minilm" and not worked and real_available is None:
        from .sources import real_available as reason

        real_available = reason() is None
    real = source == "minilm" and not worked and bool(real_available)
    source, layer = ("minilm", int(bound("layer"))) if real else ("random", DEFAULTS.layer)  # type: ignore[call-overload]
    cross = bool(bound("cross"))
    self_only = real or mask == "padding"
    text_kv = str(bound("text_kv")) if cross and not worked and not self_only else DEFAULTS.text_kv
    d_model, n_heads = (REAL_SIZES["d_model"], REAL_SIZES["n_heads"]) if real else (bound("d_model"), bound("n_heads"))
    text = str(bound("text"))
    padded: tuple[int, ...] = ()
    if mask == "chosen":
        if worked:
            kv_tokens = list(WORKED_TOKENS)
        else:
            kv_text = text_kv if cross and not real else text
            from .sources import real_tokens

            kv_tokens = (real_tokens(kv_text) if real else tokenize(kv_text))[: LIMITS.max_tokens]
        padded = tuple(i for i in accepted.get("padded", []) if i < len(kv_tokens))  # type: ignore[attr-defined]
    settings = Settings(
        preset=preset, text=text if not worked else " ".join(WORKED_TOKENS), cross=cross and not worked,
        text_kv=text_kv, d_model=int(d_model) if not worked else 4, n_heads=int(n_heads) if not worked else 2,  # type: ignore[call-overload]
        seed=int(bound("seed")), scale=bool(bound("scale")), mask=mask, padded=padded,  # type: ignore[call-overload]
        add_pe=bool(bound("add_pe")), weight_source=source, layer=layer,
        text_pad=str(bound("text_pad")) if mask == "padding" else DEFAULTS.text_pad,
    )  # fmt: skip
    if real:  # ui/weight_source.real_sizes: the real layer's sizes, self-attention, its own input
        settings = dataclasses.replace(settings, d_model=REAL_SIZES["d_model"], n_heads=REAL_SIZES["n_heads"],
                                       cross=False, add_pe=False)  # fmt: skip
    elif mask == "padding" and not worked:
        settings = dataclasses.replace(settings, cross=False)
    problems = tuple(validate(settings))
    lang = accepted.get("lang")
    return LinkSettings(DEFAULTS if problems else settings, str(lang) if lang else None, page,
                        tuple(sorted(set(rejected))), problems)  # fmt: skip
