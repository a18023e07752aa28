"""A chart's text alternative and its numbers as a table, read from the figure itself: what it draws and what its
hover labels say, so that a screen reader, a keyboard and a spreadsheet get what a mouse gets. No streamlit.

`read(fig)` turns a figure (its dict or JSON) into points: where each value is (the hover label's lines, e.g.
"head 2 · 3:cat → 5:sat", "Query: 3:cat"), the value and its text. `summary(fig, lang)` says in one paragraph what
the chart shows, its size, its range and where its largest (and most negative) values are; `table_csv(fig, lang)`
writes every point as a row. Builders need nothing extra: a tiled figure may say its tiles in `layout.meta`.
"""

from __future__ import annotations

import csv
import html
import io
import json
import math
import re
from dataclasses import dataclass

import numpy as np
from plotly.utils import PlotlyJSONEncoder

from i18n import t

TOP = 3  # largest values named in a summary
_REF = re.compile(r"%\{([a-zA-Z]+)(?:\[(\d+)\])?(?::([^}]*))?\}")
_TAG = re.compile(r"<[^>]+>")
_SUP = re.compile(r"<sup>(.*?)</sup>")
_SUB = re.compile(r"<sub>(.*?)</sub>")
_EXTRA = re.compile(r"<extra>(.*?)</extra>", re.S)


def plain(text: object) -> str:
    """Text of a plotly label without its tags and entities ("<b>3:&lt;s&gt;</b>" -> "3:<s>"); sub- and superscripts
    as the app writes them in text ("W<sup>Q</sup>" -> "W^Q", figures.style.plot_math)."""
    text = str(text).replace("<br>", " ")
    text = _SUP.sub(r"^\1", _SUB.sub(r"_\1", text))
    return html.unescape(_TAG.sub("", text)).strip()


def _format(value: object, spec: str | None) -> str:
    """A hover field as plotly writes it, for the formats our templates use (.4g, .3f, .1%, ',')."""
    if value is None:
        return ""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if not math.isfinite(value):
            return str(value)
        if spec:
            try:
                return format(value, spec)
            except ValueError:
                pass
        return f"{value:.4g}" if isinstance(value, float) else str(value)
    return str(value)


@dataclass
class Point:
    where: list[str]  # the hover label's lines other than the value's
    value: float  # NaN when masked or not a number
    text: str  # the value as the hover shows it
    label: str = ""  # the name before the value ("Weight"), if the hover gives one


@dataclass
class Series:
    """One trace as numbers: `values` for every point a hover reads, `point(k)` renders point k's hover label (done
    only for the points a summary names, or every point for the table)."""

    name: str
    kind: str  # heatmap, bar, line, scatter
    values: np.ndarray
    fields: list[dict]  # what the hover template of point k is filled with
    lines: list[str]
    extra: str
    value_at: int
    x_title: str = ""
    shape: tuple[int, int] | None = None  # a heatmap's rows x columns

    def point(self, k: int) -> Point:
        return _point(self.lines, self.extra, self.value_at, self.fields[k], self.x_title)

    def points(self) -> list[Point]:
        return [self.point(k) for k in range(len(self.fields))]


def _lines(template: str) -> tuple[list[str], str]:
    """(lines, extra): a hover template split at <br>, and its <extra> part."""
    extra = _EXTRA.search(template)
    body = _EXTRA.sub("", template)
    return [line for line in body.split("<br>") if line.strip()], (extra.group(1) if extra else "")


def _fill(line: str, fields: dict) -> str:
    def one(m: re.Match) -> str:
        name, index, spec = m.group(1), m.group(2), m.group(3)
        value = fields.get(name)
        if index is not None:
            value = value[int(index)] if isinstance(value, (list, tuple)) and int(index) < len(value) else None
        return _format(value, spec)

    return plain(_REF.sub(one, line))


def _number(text: object) -> float:
    """The number a value's text shows ("0.93", "−1.2", "12,288", "45%"), else NaN (masked)."""
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        return float(text)
    s = str(text).replace("−", "-").replace(",", "").strip()
    pct = s.endswith("%")
    try:
        v = float(s.rstrip("%"))
    except ValueError:
        return math.nan
    return v / 100 if pct else v


def _value_line(lines: list[str], refs: tuple[str, ...]) -> int:
    """Index of the line that shows the value: the first that refers to one of `refs`, else the last."""
    for i, line in enumerate(lines):
        if any(f"%{{{r}" in line for r in refs):
            return i
    return len(lines) - 1


def _point(lines: list[str], extra: str, value_at: int, fields: dict, x_title: str) -> Point:
    filled = [_fill(line, fields) for line in lines]
    shown = filled[value_at] if filled else ""
    label, _, text = shown.rpartition(": ")
    where = [f for i, f in enumerate(filled) if i != value_at and f]
    more = _fill(extra, fields) if extra else ""
    if more:
        where.append(f"{x_title}: {more}" if x_title and more == _format(fields.get("x"), None) else more)
    return Point(where, _number(text), text, label)


def _axis_title(layout: dict, name: str) -> str:
    title = (layout.get(name) or {}).get("title")
    return plain(title.get("text", "") if isinstance(title, dict) else title or "")


def _heatmap(trace: dict) -> Series:
    z = trace.get("z") or []
    text = trace.get("text")
    custom = trace.get("customdata")
    template = str(trace.get("hovertemplate") or "%{y}, %{x}: %{z}")
    lines, extra = _lines(template)
    uses_text = "%{text" in template and "%{z" not in template  # own scale per tile: z holds colours, text values
    value_at = _value_line(lines, ("text",) if uses_text else ("z",))
    x0, dx = trace.get("x0", 0), trace.get("dx", 1)
    y0, dy = trace.get("y0", 0), trace.get("dy", 1)
    xs, ys = trace.get("x"), trace.get("y")
    gaps = trace.get("hoverongaps", True)
    fields, values = [], []
    value_refs_custom = not uses_text and "%{z" not in lines[value_at] if lines else False
    for i, row in enumerate(z):
        for j, v in enumerate(row):
            if v is None and not gaps:
                continue
            cell = {
                "z": v, "x": xs[j] if xs else x0 + j * dx, "y": ys[i] if ys else y0 + i * dy,
                "text": text[i][j] if text else None, "customdata": custom[i][j] if custom else None,
            }  # fmt: skip
            if (uses_text and cell["text"] is None) or (custom is not None and cell["customdata"] is None):
                continue  # a gap between tiles
            fields.append(cell)
            if uses_text:
                values.append(_number(cell["text"]))
            elif value_refs_custom:  # a masked cell's value is a word in customdata
                values.append(_number(_fill(lines[value_at], cell).rpartition(": ")[2]) if v is None else float(v))
            else:
                values.append(math.nan if v is None else float(v))
    return Series(plain(trace.get("name", "")), "heatmap", np.array(values, dtype=float), fields, lines, extra,
                  value_at, shape=(len(z), len(z[0]) if z else 0))  # fmt: skip


def _xy(trace: dict, layout: dict, kind: str) -> Series:
    xs, ys = trace.get("x") or [], trace.get("y") or []
    custom = trace.get("customdata")
    name = plain(trace.get("name", ""))
    horizontal = trace.get("orientation") == "h"
    template = str(trace.get("hovertemplate") or ("%{y}: %{x}" if horizontal else f"{name}<br>%{{x}}: %{{y}}"))
    lines, extra = _lines(template)
    ref = "x" if horizontal else "y"
    value_at = _value_line(lines, (ref,))
    direct = bool(lines) and f"%{{{ref}" in lines[value_at]
    fields, values = [], []
    for k in range(max(len(xs), len(ys))):
        x = xs[k] if k < len(xs) else None
        y = ys[k] if k < len(ys) else None
        if x is None and y is None:
            continue  # a break between lines
        cell = {"x": x, "y": y, "customdata": custom[k] if custom and k < len(custom) else None, "text": None}
        fields.append(cell)
        v = cell[ref] if direct else _fill(lines[value_at], cell).rpartition(": ")[2]
        values.append(_number(v) if v is not None else math.nan)
    return Series(name, kind, np.array(values, dtype=float), fields, lines, extra, value_at,
                  x_title=_axis_title(layout, "xaxis"))  # fmt: skip


def _has_arrays(trace: dict) -> bool:
    return any(isinstance(v, np.ndarray) for v in trace.values())


def read(fig: dict | str) -> tuple[str, list[Series], dict]:
    """(title, series, layout) of a figure: the traces a hover reads, each as points."""
    if isinstance(fig, str):
        fig = json.loads(fig)
    elif any(not isinstance(trace, dict) or _has_arrays(trace) for trace in fig.get("data") or []):
        fig = json.loads(json.dumps(fig, cls=PlotlyJSONEncoder))  # a Figure's to_dict() holds numpy arrays
    layout = fig.get("layout") or {}
    series = []
    for trace in fig.get("data") or []:
        if trace.get("hoverinfo") in ("skip", "none") or trace.get("visible") is False:
            continue  # drawn for the eye only (lines whose values hover elsewhere, token dots)
        kind = trace.get("type", "scatter")
        if kind in ("heatmap", "histogram2d", "contour"):
            series.append(_heatmap(trace))
        elif kind in ("bar", "scatter"):
            mode = str(trace.get("mode", "lines"))
            series.append(_xy(trace, layout, "bar" if kind == "bar" else "line" if "lines" in mode else "scatter"))
    title_obj = layout.get("title")
    title = plain(title_obj.get("text", "") if isinstance(title_obj, dict) else title_obj or "")
    if not title:  # subplots without an overall title: their own titles
        title = "; ".join(plain(a.get("text", "")) for a in layout.get("annotations") or []
                          if a.get("xref") == "paper" and a.get("yref") == "paper" and a.get("text"))  # fmt: skip
    return title, series, layout


def _where(p: Point, constant: set[str]) -> str:
    """Where a point is: its hover lines that vary, and the name its value carries when that varies too ("j = 3")."""
    parts = [w for w in p.where if w not in constant]
    if p.label and p.label not in constant:
        parts.append(p.label)
    return " · ".join(parts) or p.label


def _constant_lines(series: list[Series]) -> set[str]:
    """Lines that the first and the last point share (a heading like "(query → key)"): they say nothing about where."""
    filled = [s for s in series if s.fields]
    if not filled or (len(filled) == 1 and len(filled[0].fields) < 2):
        return set()
    first, last = filled[0].point(0), filled[-1].point(len(filled[-1].fields) - 1)
    return (set(first.where) | {first.label}) & (set(last.where) | {last.label})


def _size(series: list[Series], layout: dict, lang: str) -> str:
    kinds = {s.kind for s in series}
    meta = layout.get("meta") if isinstance(layout.get("meta"), dict) else {}
    if kinds == {"heatmap"}:
        if meta.get("tiles"):
            return t("a11y.size.tiles", lang, n=meta["tiles"], rows=meta["rows"], cols=meta["cols"])
        rows, cols = series[0].shape or (0, 0)
        return t("a11y.size.heatmap", lang, rows=rows, cols=cols)
    parts = []
    for kind in ("line", "bar", "scatter", "heatmap"):
        group = [s for s in series if s.kind == kind]
        if group:
            names = ", ".join(dict.fromkeys(s.name for s in group if s.name))
            n_points = max(len(s.fields) for s in group)
            which = f"{kind}_one" if len(group) == 1 else "heatmap_many" if kind == "heatmap" else kind
            parts.append(t(f"a11y.size.{which}", lang, n=len(group), points=n_points)
                         + (t("a11y.names", lang, names=names) if names and len(names) < 160 else ""))  # fmt: skip
    return t("a11y.sep", lang).join(parts)


def _short(v: float) -> str:
    return f"{v + 0.0:.3g}".replace("-", "−")  # + 0.0: no "−0"


def summary(fig: dict | str, lang: str = "en", title: str = "") -> str:
    """One paragraph for a screen reader: what the chart shows, its size, its range, its largest values and where.
    `title` names a figure that has no title of its own (its heading is on the page)."""
    return describe(fig, lang, title)[1]


def describe(fig: dict | str, lang: str = "en", title: str = "") -> tuple[str, str]:
    """(title, summary) of a figure, read once: the figure's own title, else `title`, else the generic word."""
    own, series, layout = read(fig)
    head = own or title or t("a11y.untitled", lang)
    return head, _summary(head, series, layout, lang)


def _summary(head: str, series: list[Series], layout: dict, lang: str) -> str:
    series = [s for s in series if len(s.fields)]
    if not series:
        return t("a11y.summary_empty", lang, title=head)
    values = np.concatenate([s.values for s in series])
    owner = np.concatenate([np.full(len(s.values), i) for i, s in enumerate(series)])
    index = np.concatenate([np.arange(len(s.values)) for s in series])
    finite = np.isfinite(values)
    parts = [head, _size(series, layout, lang)]
    constant = _constant_lines(series)

    def at(k: int) -> str:
        s = series[int(owner[k])]
        p = s.point(int(index[k]))
        where = _where(p, constant)
        if s.name and len(series) > 1 and s.name not in where:
            where = f"{s.name} · {where}" if where else s.name
        shown = "0" if p.text.strip() in ("-0", "−0") else p.text.replace("-", "−")
        return t("a11y.at", lang, value=shown, where=where)

    if finite.any():
        lo, hi = float(values[finite].min()), float(values[finite].max())
        parts.append(t("a11y.range", lang, lo=_short(lo), hi=_short(hi)))
        order = np.argsort(np.where(finite, -values, np.inf), kind="stable")[: min(TOP, int(finite.sum()))]
        parts.append(t("a11y.largest", lang, items=t("a11y.sep", lang).join(at(int(k)) for k in order)))
        if lo < 0:
            parts.append(t("a11y.smallest", lang, item=at(int(np.argmin(np.where(finite, values, np.inf))))))
    masked = int((~finite).sum())
    if masked:
        parts.append(t("a11y.masked", lang, n=masked))
    parts.append(t("a11y.table_hint", lang))
    return t("a11y.join", lang).join(p for p in parts if p)


def table_rows(fig: dict | str, lang: str = "en") -> tuple[list[str], list[list[str]]]:
    """(header, rows): every point of the figure, one row each: its series, where it is (a column per hover line
    that has a name, e.g. "Query", "Key"), and its value."""
    _, series, _ = read(fig)
    where_col = t("a11y.col.where", lang)
    value_col = t("a11y.col.value", lang)
    series_col = t("a11y.col.series", lang)
    named = len({s.name for s in series if s.name}) > 1
    columns: list[str] = [series_col] if named else []
    rows: list[dict[str, str]] = []
    constant = _constant_lines(series)
    for s in series:
        for p in s.points():
            row: dict[str, str] = {series_col: s.name} if named else {}
            free = []
            for w in p.where:
                if w in constant or w == s.name:
                    continue
                name, sep, content = w.partition(": ")
                if sep and len(name) < 40:
                    n = 2
                    while name in row:  # a row and a column both named "head": "head", "head (2)"
                        name = f"{w.partition(': ')[0]} ({n})"
                        n += 1
                    row[name] = content
                    if name not in columns:
                        columns.append(name)
                else:
                    free.append(w)
            if free:
                row[where_col] = " · ".join(free)
                if where_col not in columns:
                    columns.insert(1 if named else 0, where_col)
            label = p.label if p.label and len(p.label) < 40 and not named else value_col
            row[label] = p.text
            if label not in columns:
                columns.append(label)
            rows.append(row)
    return columns, [[r.get(c, "") for c in columns] for r in rows]


def table_csv(fig: dict | str, lang: str = "en") -> str:
    """table_rows as CSV text (what a chart's numbers download holds)."""
    header, rows = table_rows(fig, lang)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buf.getvalue()
