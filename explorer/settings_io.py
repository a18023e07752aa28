"""Settings <-> JSON, for downloading a setting and loading it back. Strict: no pickle, no surprises.

A loaded file is parsed with the standard json module (no code is ever run), checked field by field,
and validated like any other setting; anything unexpected is an error with a message code.
"""

from __future__ import annotations

import dataclasses
import json
import math
from typing import Any

from .links import encodable
from .presets import PRESETS
from .settings import LIMITS, MASKS, Settings, validate

FORMAT = "mha-explorer-settings"
VERSION = 1
MAX_BYTES = 64 * 1024
FIELDS: dict[str, type] = {
    "preset": str, "text": str, "cross": bool, "text_kv": str, "d_model": int, "n_heads": int,
    "seed": int, "scale": bool, "mask": str, "padded": list, "add_pe": bool,
    "weight_source": str, "layer": int, "text_pad": str,
}  # fmt: skip


class SettingsFileError(ValueError):
    """A settings file that cannot be used; `code` names a translated message (`io.<code>`)."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


def settings_to_json(s: Settings, lang: str = "en") -> str:
    """The shareable part of a setting (edits of single cells are not included) as pretty JSON."""
    data = {"format": FORMAT, "version": VERSION, "lang": lang}
    data.update({name: getattr(s, name) for name in FIELDS})
    data["padded"] = list(s.padded)
    return json.dumps(data, ensure_ascii=False, indent=2)


def _reject_constant(name: str) -> float:
    raise SettingsFileError("not_json")


def settings_from_json(raw: bytes | str) -> tuple[Settings, str | None]:
    """Parse and check a settings file: (Settings, language or None). Raises SettingsFileError."""
    if isinstance(raw, str):
        raw = raw.encode("utf-8", errors="replace")  # a leading U+FEFF becomes the byte-order mark, dropped below
    if len(raw) > MAX_BYTES:
        raise SettingsFileError("too_big", limit=MAX_BYTES // 1024)
    try:
        text = raw.decode("utf-8-sig")  # a byte-order mark (Windows Notepad writes one) is not part of the JSON
        data = json.loads(text, parse_constant=_reject_constant)
    except SettingsFileError:
        raise
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise SettingsFileError("not_json") from None
    except ValueError:  # an integer of more than 4,300 digits: Python refuses to convert it
        raise SettingsFileError("number_too_long") from None
    if not isinstance(data, dict):
        raise SettingsFileError("not_object")
    if data.get("format") != FORMAT:
        raise SettingsFileError("wrong_format")
    if data.get("version") != VERSION:
        raise SettingsFileError("wrong_version")
    unknown = sorted(set(data) - set(FIELDS) - {"format", "version", "lang"})
    if unknown:
        raise SettingsFileError("unknown_field")  # its name is not echoed: user-controlled text
    values: dict[str, Any] = {}
    for name, kind in FIELDS.items():
        if name not in data:
            continue
        value = data[name]
        ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
        if kind is list:
            ok = ok and len(value) <= LIMITS.max_tokens and all(
                isinstance(i, int) and not isinstance(i, bool) and 0 <= i < LIMITS.max_tokens for i in value
            )
            value = tuple(sorted(set(value))) if ok else value
        if isinstance(value, float) and not math.isfinite(value):
            ok = False
        if isinstance(value, str) and not encodable(value):  # "\ud800": no UTF-8 form, no URL can carry it
            ok = False
        if not ok:
            raise SettingsFileError("bad_field", field=name)
        values[name] = value
    if values.get("preset", "en") not in PRESETS:
        raise SettingsFileError("bad_field", field="preset")
    if values.get("mask") == "padding" and values.get("padded"):  # a file from before the padding batch
        values["mask"] = "chosen"
    if values.get("mask", "none") not in MASKS:
        raise SettingsFileError("bad_field", field="mask")
    lang = data.get("lang")
    lang = lang if lang in ("en", "zh") else None
    settings = dataclasses.replace(Settings(), **values)
    problems = validate(settings)
    if problems:
        raise SettingsFileError("invalid", problem=problems[0].key, **problems[0].kwargs)
    return settings, lang
