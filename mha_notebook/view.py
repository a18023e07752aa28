"""What every view of the notebook display has: shown inline by IPython, saved as a self-contained HTML file, any of
its charts saved as SVG or PNG."""

from __future__ import annotations

from functools import cached_property
from pathlib import Path

import plotly.graph_objects as go

from . import export, page
from .page import Chart


class NotebookError(ValueError):
    """Input the display cannot use; the message says what would be valid (translated where the view has a language)."""


class View:
    """A titled list of charts. Subclasses give `title`, `lines` (plain text above the charts) and `_charts()`."""

    title: str = ""
    lang: str = "en"
    dark: bool = False

    @property
    def lines(self) -> list[str]:
        return []

    @property
    def app_link(self) -> tuple[str, str] | None:
        """(text, address) of a link shown under the lines, or None."""
        return None

    def _charts(self) -> list[Chart]:
        raise NotImplementedError

    @cached_property
    def charts(self) -> list[Chart]:
        """The view's charts, built once."""
        return self._charts()

    @property
    def keys(self) -> list[str]:
        """The names of the charts ("scores", "weights", ...), for figure(), save_svg() and save_png()."""
        return [c.key for c in self.charts]

    def figure(self, key: str) -> go.Figure:
        """One chart's plotly figure with its heading as its title (a copy: change it freely)."""
        for chart in self.charts:
            if chart.key == key:
                return page.titled(chart)
        raise NotebookError(f"no chart {key!r} in this view; its charts are {self.keys}")

    def html(self, with_plotly_js: bool = True) -> str:
        """The view as an HTML fragment (with plotly.js inline unless with_plotly_js=False)."""
        return page.fragment(self.charts, title=self.title, lines=self.lines, lang=self.lang, dark=self.dark,
                             with_plotly_js=with_plotly_js, link=self.app_link)  # fmt: skip

    def _repr_html_(self) -> str:
        return self.html(with_plotly_js=page.BUNDLE.take())

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, str]:
        fragment = self.html(with_plotly_js=page.BUNDLE.take())
        return {"text/html": fragment, "text/plain": self.__repr__()}

    def __repr__(self) -> str:
        return f"<{type(self).__name__}: {self.title}; {' · '.join(self.lines)[:300]}; charts {self.keys}>"

    def to_html(self) -> str:
        """A whole HTML page: the view with plotly.js inline, for a browser with no network."""
        return page.document(self.html(with_plotly_js=True), title=self.title, lang=self.lang, dark=self.dark)

    def save_html(self, path: str | Path) -> Path:
        """Write to_html() to `path` (UTF-8); returns the path."""
        path = Path(path)
        path.write_text(self.to_html(), encoding="utf-8")
        return path

    def save_svg(self, path: str | Path, key: str | None = None, *, width: int | None = None) -> Path:
        """One chart (`key`, the first by default) as SVG, drawn by plotly.js in a local headless Chromium
        (mha_notebook.export: no network, no kaleido)."""
        return export.save_image(self.figure(key or self.keys[0]), Path(path), "svg", width=width)

    def save_png(self, path: str | Path, key: str | None = None, *, width: int | None = None,
                 scale: float = 2.0) -> Path:  # fmt: skip
        """One chart as PNG (`scale` times its size in pixels), drawn as save_svg draws."""
        return export.save_image(self.figure(key or self.keys[0]), Path(path), "png", width=width, scale=scale)
