"""The few pieces of HTML the printable handout is made of: the markdown subset of lesson texts, and plain tables.
Every text is escaped here; nothing else builds HTML from text."""

from __future__ import annotations

import re
from html import escape


def md_html(text: str) -> str:
    """The markdown subset lesson texts use, as HTML: paragraphs, "- " lists, **bold**, *italic*, `code`."""
    blocks = []
    for block in re.split(r"\n\s*\n", text.strip()):
        lines = [ln.strip() for ln in block.splitlines() if ln.strip()]
        if lines and all(ln.startswith("- ") for ln in lines):
            blocks.append("<ul>" + "".join(f"<li>{inline(ln[2:])}</li>" for ln in lines) + "</ul>")
        else:
            blocks.append(f"<p>{inline(' '.join(lines))}</p>")
    return "".join(blocks)


def inline(text: str) -> str:
    """One line of that markdown subset, escaped."""
    html = escape(text)
    html = re.sub(r"`([^`]+)`", r"<code>\1</code>", html)
    html = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", html)
    return re.sub(r"(?<![*\w])\*([^*]+)\*(?![*\w])", r"<em>\1</em>", html)


def table(header: list[str], rows: list[list[object]], caption: str = "") -> str:
    """A plain table; `caption` (optional) is its title, printed above it."""
    head = "".join(f"<th>{escape(str(h))}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in row) + "</tr>" for row in rows)
    title = f"<caption>{escape(caption)}</caption>" if caption else ""
    return f"<table>{title}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
