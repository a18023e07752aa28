"""The few pieces of HTML the printable handout is made of: the markdown subset of lesson texts, the app's texts
with their inline math (`$W_i^Q$`, shown by KaTeX on a page; paper has no KaTeX) and links, and plain tables.
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
    """One line of that markdown subset, escaped (inline math and links as rich_text prints them)."""
    html = rich_text(text)
    html = re.sub(r"`([^`]+)`", r"<code>\1</code>", html)
    html = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", html)
    return re.sub(r"(?<![*\w])\*([^*]+)\*(?![*\w])", r"<em>\1</em>", html)


_MATH = re.compile(r"(?<!\\)\$([^$]+)\$")
_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_WORDS = re.compile(r"\\(?:mathrm|text|operatorname|mathbf|boldsymbol)\{")
_SQRT = re.compile(r"\\sqrt\{([^{}]*(?:\{[^{}]*\}[^{}]*)*)\}")
_SYMBOLS = {  # the LaTeX of the app's texts (tests/test_math_notation.py keeps it to this kind of subset)
    r"\mathbb{R}": "ℝ", r"\bigoplus": "⊕", r"\cdot": "·", r"\times": "×", r"\top": "T", r"\dots": "…",
    r"\ldots": "…", r"\beta": "β", r"\omega": "ω", r"\rho": "ρ", r"\sum": "Σ", r"\exp": "exp", r"\cos": "cos",
    r"\ln": "ln", r"\le": "≤", r"\ge": "≥", r"\infty": "∞", r"\,": " ", r"\;": " ", r"\ ": " ",
}  # fmt: skip


def _root(m: re.Match) -> str:
    """\\sqrt{d_k} -> √{d_k}; a longer radicand keeps parentheses: √({L · d_k})."""
    simple = re.fullmatch(r"\w(_\{?\w+\}?)?", m[1])
    return "√{" + m[1] + "}" if simple else "√({" + m[1] + "})"


def math_html(tex: str) -> str:
    """One inline formula of the app's texts as HTML: W_i^Q as W<sub>i</sub><sup>Q</sup>, \\sqrt{d_k} as
    √d<sub>k</sub>, d_\\text{model} as d<sub>model</sub>, K^\\top as K<sup>T</sup>; what it does not know stays."""
    s = _WORDS.sub("{", tex)  # \\text{model} -> {model}: a group, so d_{model} subscripts the whole word
    s = _SQRT.sub(_root, s)
    for name, symbol in sorted(_SYMBOLS.items(), key=lambda kv: -len(kv[0])):
        s = s.replace(name, symbol)
    s = escape(s)
    for _ in range(2):  # groups inside groups: W^{(q)}_{i}, \\mathbb{R}^{d_\\text{model}}
        s = re.sub(r"\^\{([^{}]*)\}", r"<sup>\1</sup>", s)
        s = re.sub(r"_\{([^{}]*)\}", r"<sub>\1</sub>", s)
    s = re.sub(r"\^([^\s<{}])", r"<sup>\1</sup>", s)
    s = re.sub(r"_([^\s<{}])", r"<sub>\1</sub>", s)
    return re.sub(r" {2,}", " ", s.replace("{", "").replace("}", ""))


def rich_text(text: str) -> str:
    """An app text for paper: its inline math as HTML (math_html), a link as its words, the rest escaped."""
    out, at = [], 0
    text = _LINK.sub(r"\1", str(text))
    for m in _MATH.finditer(text):
        out += [escape(text[at: m.start()]), math_html(m[1])]
        at = m.end()
    return "".join(out) + escape(text[at:])


def table(header: list[str], rows: list[list[object]], caption: str = "") -> str:
    """A plain table (cells may hold the app's inline math); `caption` (optional) is its title, printed above it."""
    head = "".join(f"<th>{rich_text(str(h))}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{rich_text(str(c))}</td>" for c in row) + "</tr>" for row in rows)
    title = f"<caption>{escape(caption)}</caption>" if caption else ""
    return f"<table>{title}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
