"""Translated messages whose parameters name things that are themselves translated (a matrix, a setting)."""

from __future__ import annotations

from collections.abc import Callable

from explorer import Problem


def message_text(tr: Callable[..., str], key: str, kwargs: dict) -> str:
    """A translated message whose `which`/`name` parameters are themselves translated words."""
    kwargs = dict(kwargs)
    if "which" in kwargs:
        kwargs["which"] = tr(f"which.{kwargs['which']}")
    if "name" in kwargs:
        kwargs["name"] = tr(f"name.{kwargs['name']}")
    return tr(key, **kwargs)


def problem_text(tr: Callable[..., str], p: Problem) -> str:
    """What is wrong with a setting, in the reader's language."""
    return message_text(tr, p.key, p.kwargs)
