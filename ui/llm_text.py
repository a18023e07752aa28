"""Small text helpers of the "From the notes to LLMs" pages (Streamlit markdown, no math)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

MARKDOWN_SPECIAL = "\\`*_{}[]()#+-.!|<>~$"


def escape_markdown(text: str) -> str:
    """A token as literal markdown text: every character markdown or LaTeX could read escaped with a backslash."""
    return "".join("\\" + ch if ch in MARKDOWN_SPECIAL else ch for ch in str(text))


def token_line(tokens: Sequence[str], generated: Sequence[bool], tr: Callable[..., str]) -> str:
    """The tokens so far as one markdown line: the prompt plain, generated tokens in italics, the newest in bold,
    each numbered by its position; then what the styles mean."""
    parts = []
    for i, (tok, gen) in enumerate(zip(tokens, generated, strict=True)):
        word = f"{i}:{escape_markdown(tok)}"
        word = f"*{word}*" if gen else word
        parts.append(f"**[{word}]**" if i == len(tokens) - 1 else word)
    return " ".join(parts) + "  \n" + tr("llm.decode.legend")
