"""A figure built and encoded in one call, so that a worker process can do both (budget/pool.py)."""

from __future__ import annotations

from collections.abc import Callable

import plotly.graph_objects as go
import plotly.io as pio


def figure_json(builder: Callable[..., go.Figure], *args: object, **kwargs: object) -> str:
    """The JSON the browser receives for builder(*args, **kwargs); building validated it, so no second check."""
    return pio.to_json(builder(*args, **kwargs).to_dict(), validate=False)


def default_template() -> tuple[str, dict]:
    """plotly's default template here (in a Streamlit server: Streamlit's own, whose colours the browser fills in
    from the theme), to be used the same in a worker process."""
    name = pio.templates.default
    return name, pio.templates[name].to_plotly_json()


def figure_json_with(template: tuple[str, dict], builder: Callable[..., go.Figure], *args: object,
                     **kwargs: object) -> str:  # fmt: skip
    """figure_json with `template` (from default_template()) as plotly's default, as in the process that asked."""
    name, layout = template
    if pio.templates.default != name:
        pio.templates[name] = go.layout.Template(layout)
        pio.templates.default = name
    return figure_json(builder, *args, **kwargs)
