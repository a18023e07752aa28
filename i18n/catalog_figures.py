"""Strings used inside figures: axis titles, hover text, legends."""

STRINGS: dict[str, dict[str, str]] = {}
