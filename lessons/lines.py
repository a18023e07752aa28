"""Where a key of a TOML file is written: its line, so that a message can say "line 42".

`tomllib` gives values without positions. This reads the file's lines once more and records, for every table
header and every `key = value`, the path it defines: ("stops", 2, "settings", "n_heads") -> line. It understands
what lesson files use: [table], [[array of tables]], dotted keys, inline tables { a = 1, b = 2 } on one line,
and multi-line strings (skipped). A path it cannot find is looked up by its nearest parent.
"""

from __future__ import annotations

import re

Path = tuple[str | int, ...]

_HEADER = re.compile(r"^\s*(\[\[?)\s*([A-Za-z0-9_.\- \"']+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"^\s*([A-Za-z0-9_\-]+(?:\s*\.\s*[A-Za-z0-9_\-]+)*)\s*=\s*(.*)$")
_INLINE_KEY = re.compile(r"[{,]\s*([A-Za-z0-9_\-]+)\s*=")


def _parts(dotted: str) -> list[str]:
    return [p.strip().strip("\"'") for p in dotted.split(".")]


def _opens_multiline(value: str) -> str | None:
    """The delimiter of a multi-line string that starts in `value` and does not end on the same line."""
    for quote in ('"""', "'''"):
        if value.startswith(quote) and value.count(quote) == 1:
            return quote
    return None


def index_lines(text: str) -> dict[Path, int]:
    """Every path the file writes, with its 1-based line number (the first line that defines it)."""
    found: dict[Path, int] = {}
    counts: dict[Path, int] = {}
    table: Path = ()
    open_quote: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        if open_quote:
            if open_quote in line:
                open_quote = None
            continue
        header = _HEADER.match(line)
        if header:
            names = _parts(header.group(2))
            path: list[str | int] = []
            for depth, name in enumerate(names):
                path.append(name)
                key = tuple(path)
                if header.group(1) == "[[" and depth == len(names) - 1:
                    counts[key] = counts.get(key, -1) + 1
                    path.append(counts[key])
                elif key in counts:  # inside the latest element of an array of tables
                    path.append(counts[key])
            table = tuple(path)
            found.setdefault(table, number)
            continue
        m = _KEY.match(line)
        if not m:
            continue
        key_path = (*table, *_parts(m.group(1)))
        found.setdefault(key_path, number)
        value = m.group(2).strip()
        if value.startswith("{"):
            for inner in _INLINE_KEY.findall(value):
                found.setdefault((*key_path, inner), number)
        open_quote = _opens_multiline(value)
    return found


def line_of(index: dict[Path, int], path: Path) -> int | None:
    """The line of `path`, or of its nearest parent that the file writes; None if none is written."""
    for end in range(len(path), 0, -1):
        if path[:end] in index:
            return index[path[:end]]
    return None
