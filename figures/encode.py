"""A figure built and encoded in one call, so that a worker process can do both (budget/pool.py)."""

from __future__ import annotations

from collections.abc import Callable

import plotly.graph_objects as go
import plotly.io as pio


def figure_json(builder: Callable[..., go.Figure], *args: object, **kwargs: object) -> str:
    """The JSON the browser receives for builder(*args, **kwargs); building validated it, so no second check."""
    return pio.to_json(builder(*args, **kwargs).to_dict(), validate=False)
