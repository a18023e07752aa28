"""The one exception type of the core: every invalid setting or input raises it."""

from __future__ import annotations

from typing import Any


class AttentionError(ValueError):
    """An invalid setting or input, with a stable `code` and the `params` a UI needs to translate it.

    `str(error)` is a clear English message naming the bad value and what would be valid.
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params
