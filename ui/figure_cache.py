"""Figures built once per server and shared by every session, kept only as the JSON sent to the browser.

`cached_figure(builder, *args, **kwargs)` is keyed by everything the builder is given: each array by a
digest of its numbers (values, shape, dtype), every other argument by its value. A figure can therefore
never be reused for different numbers (no hand-built key can forget an input), and a setting that does
not change what a figure draws (h does not change X, P or X + P) reuses it, so the browser does not redraw.
The cache is bounded by the bytes of the JSON it keeps (budget.ByteLRU); a heavy build takes a slot of the
server-wide gate (budget.GATE), so a few large builds cannot starve everyone else of the CPU, and runs in a
worker process (budget.pool), so the server's interpreter lock stays free for the light pages meanwhile. Sessions
that miss the same light figure at once (a class following its teacher) build it once (ByteLRU.flight).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
import threading
from collections.abc import Callable

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio

from budget import GATE, ByteLRU, pool
from figures.describe import describe
from figures.encode import default_template, figure_json_with

FIGURE_CACHE = ByteLRU("figures", 128 << 20, max_item_fraction=1 / 16)  # a figure over 8 MB is never kept
READINGS = 4  # text alternatives a figure keeps: two languages, each under at most two headings
_READING = threading.Lock()


class FrozenFigure:
    """A built figure reduced to what is sent to the browser, computed once: its JSON and a short version of it
    (ui/plot.js redraws a chart only when the version changes). Only strings are kept, never the figure's dict: the
    JSON, and its text alternatives (figures.describe) once read, at most READINGS of them, each counted in
    `nbytes`; a figure kept in FIGURE_CACHE tells the cache when they make it larger (ByteLRU.recount)."""

    __slots__ = ("_described", "json", "key", "version")

    def __init__(self, built: go.Figure | str, key: str = "") -> None:
        # a figure, or its JSON made by figures.encode.figure_json_with (in a worker process: budget/pool.py)
        self.json = built if isinstance(built, str) else pio.to_json(built.to_dict(), validate=False)
        self.version = hashlib.blake2b(self.json.encode(), digest_size=8).hexdigest()
        self.key = key  # its key in FIGURE_CACHE, "" when it is not kept there
        self._described: dict[tuple[str, str], tuple[str, str]] = {}

    def described(self, lang: str, title: str = "") -> tuple[str, str]:
        """(title, text alternative) of the chart (figures.describe), read from its JSON once per language and
        heading and kept with it: every session that shows a cached figure shares one reading."""
        key = (lang, title)
        hit = self._described.get(key)
        if hit is not None:
            return hit
        hit = describe(self.json, lang, title)
        with _READING:  # two sessions reading at once keep at most READINGS between them
            if key in self._described or len(self._described) >= READINGS:
                return hit
            self._described[key] = hit
            nbytes = self.nbytes
        if self.key:
            FIGURE_CACHE.recount(self.key, self, nbytes)
        return hit

    @property
    def nbytes(self) -> int:
        """The bytes of the strings it keeps (the JSON, the version, the key and every text alternative read)."""
        readings = list(self._described.items())
        kept = [s for pair in readings for part in pair for s in part] + [part for pair in readings for part in pair]
        strings = sum(map(sys.getsizeof, (self.json, self.version, self.key, self._described, *kept)))
        return strings + sys.getsizeof(self) + 64

    def figure(self) -> go.Figure:
        """A go.Figure for st.plotly_chart (the fallback when plotly.js cannot be served), made for one use."""
        data = json.loads(self.json)
        fig = _DictFigure(data)
        fig._frozen_dict = data
        return fig


class _DictFigure(go.Figure):
    """st.plotly_chart calls to_dict(): return the parsed dict instead of a new deep copy."""

    def to_dict(self) -> dict:
        return self._frozen_dict


def digest(*arrays: np.ndarray) -> str:
    """A short fingerprint of the numbers in `arrays` (values, shape, dtype)."""
    h = hashlib.blake2b(digest_size=12)
    for a in arrays:
        _feed(h, np.asarray(a))
    return h.hexdigest()


def _feed(h: hashlib.blake2b, value: object) -> None:
    """Everything of `value` that can change a figure, into the hash `h`."""
    if isinstance(value, np.ndarray):
        a = np.ascontiguousarray(value)
        h.update(f"A{a.shape}{a.dtype}".encode())
        h.update(a.tobytes() if a.dtype != object else repr(a.tolist()).encode())
    elif isinstance(value, (list, tuple)):
        h.update(f"L{len(value)}[".encode())
        for v in value:
            _feed(h, v)
        h.update(b"]")
    elif isinstance(value, dict):
        h.update(f"D{len(value)}{{".encode())
        for k, v in value.items():
            _feed(h, k)
            _feed(h, v)
        h.update(b"}")
    elif value is None or isinstance(value, (str, int, float, bool, np.generic, range)):
        h.update(f"{type(value).__name__}:{value!r};".encode())
    elif dataclasses.is_dataclass(value) and value.__dataclass_params__.frozen:
        h.update(f"{value!r};".encode())  # FigureStyle: frozen, its repr lists every field
    else:
        raise TypeError(f"cannot key a figure on a {type(value).__name__}: pass arrays and plain values")


def _cells(values: object) -> int:
    """How many numbers the arrays among `values` hold (the measure of a heavy build)."""
    if isinstance(values, np.ndarray):
        return int(values.size)
    if isinstance(values, (list, tuple)):
        return sum(_cells(v) for v in values if isinstance(v, (np.ndarray, list, tuple)))
    return 0


def figure_key(builder: Callable[..., go.Figure], *args: object, **kwargs: object) -> str:
    """The cache key of builder(*args, **kwargs): the builder's name and every argument."""
    h = hashlib.blake2b(digest_size=16)
    h.update(f"{builder.__module__}.{builder.__qualname__}(".encode())
    _feed(h, list(args))
    _feed(h, dict(sorted(kwargs.items())))
    return h.hexdigest()


def cached_figure(builder: Callable[..., go.Figure], *args: object, **kwargs: object) -> FrozenFigure:
    """builder(*args, **kwargs), built once per server and shared by every session."""
    key = figure_key(builder, *args, **kwargs)
    hit = FIGURE_CACHE.get(key)
    if hit is not None:
        return hit
    heavy = GATE.is_heavy(_cells(list(args)) + _cells(list(kwargs.values())))
    # a class missing the same figure at once builds it once (FIGURE_CACHE.flight); a heavy build's waiters wait
    # in the gate instead, where they are told how many are ahead of them (ui/fair.py)
    with GATE.slot(heavy) if heavy else FIGURE_CACHE.flight(key):
        hit = FIGURE_CACHE.get(key)  # another session may have built it while this one waited
        if hit is not None:
            return hit
        if heavy and builder.__module__.startswith("figures."):  # pure plotly: built in a worker process
            frozen = FrozenFigure(pool.run(figure_json_with, default_template(), builder, *args, workers=GATE.slots,
                                            **kwargs), key)
        else:
            frozen = FrozenFigure(builder(*args, **kwargs), key)
        FIGURE_CACHE.put(key, frozen, frozen.nbytes)
    return frozen
