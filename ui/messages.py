"""Translated messages whose parameters name things that are themselves translated (a matrix, a setting)."""

from __future__ import annotations

from collections.abc import Callable

from explorer import Problem
from i18n import message_text

__all__ = ["message_text", "problem_text"]


def problem_text(tr: Callable[..., str], p: Problem) -> str:
    """What is wrong with a setting, in the reader's language."""
    return message_text(tr, p.key, p.kwargs)
