"""Text -> tokens -> seeded embeddings: the toy input pipeline the app starts from."""

from __future__ import annotations

import hashlib
import re
import unicodedata

import torch
from torch import Tensor

from .errors import AttentionError


def _combining_class() -> str:
    """Regex class body of the characters that belong to the character before them: combining marks
    (accents, Indic vowel signs, variation selectors such as the emoji U+FE0F) and emoji skin tones."""
    codes = [
        c
        for c in (*range(0x20000), *range(0xE0100, 0xE01F0))
        if unicodedata.category(chr(c)) in ("Mn", "Mc", "Me")
    ]
    codes += range(0x1F3FB, 0x1F400)  # emoji modifiers (skin tones)
    ranges: list[list[int]] = []
    for c in sorted(codes):
        if ranges and ranges[-1][1] == c - 1:
            ranges[-1][1] = c
        else:
            ranges.append([c, c])
    return "".join(re.escape(chr(a)) + (f"-{re.escape(chr(b))}" if b > a else "") for a, b in ranges)


# A CJK ideograph (or kana/hangul) is one token; a run of letters/digits is one token (with inner
# apostrophes: "didn't"); any other visible character (punctuation, symbols, emoji) is a token of its
# own. Combining characters stay with the character before them. Whitespace separates.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_MARK = _combining_class()
_WORD = rf"[^\W{_CJK}](?:[^\W{_CJK}]|[{_MARK}])*"
_TOKEN_RE = re.compile(rf"[{_CJK}][{_MARK}]*|{_WORD}(?:['\u2019]{_WORD})*|[^\w\s{_MARK}][{_MARK}]*")


def tokenize(text: str) -> list[str]:
    """Split a sentence into tokens: English by words and punctuation, Chinese one character each.

    Duplicates are kept (each occurrence is its own position); control characters are dropped (they
    separate tokens like a space); accents, vowel signs and emoji modifiers stay inside their token.
    """
    if not isinstance(text, str):
        raise AttentionError("bad_input", f"text must be a string, got {type(text).__name__}")
    # NFC first, so that a word typed with a precomposed or a decomposed accent is the same token
    clean = "".join(ch if ch.isprintable() or ch.isspace() else " " for ch in unicodedata.normalize("NFC", text))
    return _TOKEN_RE.findall(clean)


def token_labels(tokens: list[str]) -> list[str]:
    """Axis labels that keep duplicates apart: '0:the', '1:cat', ..., '4:the'."""
    return [f"{i}:{tok}" for i, tok in enumerate(tokens)]


def _token_seed(token: str, seed: int) -> int:
    digest = hashlib.blake2b(f"{seed}\x00{token}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little") & 0x7FFF_FFFF_FFFF_FFFF


def embed_tokens(tokens: list[str], d_model: int, seed: int = 0) -> Tensor:
    """Seeded embeddings X (L, d_model) with entries ~ N(0, 1): the same token always gets the same row.

    The row depends only on (token, seed, d_model), so a repeated word has identical embeddings and only
    the positional encoding tells its occurrences apart.
    """
    if isinstance(d_model, bool) or not isinstance(d_model, int) or d_model < 1:
        raise AttentionError("not_positive", f"d_model must be a whole number >= 1, got {d_model!r}")
    rows = []
    for tok in tokens:
        g = torch.Generator().manual_seed(_token_seed(tok, seed))
        rows.append(torch.randn(d_model, generator=g))
    if not rows:
        return torch.zeros(0, d_model)
    return torch.stack(rows)
