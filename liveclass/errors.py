"""The refusals of the room store: each names a translated message, so every screen says it the same way."""

from __future__ import annotations

from typing import Any


class LiveError(ValueError):
    """A refused request; `code` names the translated message `live.err.<code>`, `params` fill it."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code, self.params = code, params


class StoreUnavailable(LiveError):
    """The room store did not answer in time (Redis down, database locked): the app works on its own."""

    def __init__(self) -> None:
        super().__init__("store_down")
