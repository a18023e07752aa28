"""Text -> tokens -> seeded embeddings: the toy input pipeline the app starts from."""

from __future__ import annotations

import hashlib
import re

import torch
from torch import Tensor

from .errors import AttentionError

# A CJK ideograph (or kana/hangul) is one token; a run of letters/digits is one token; any other
# visible character (punctuation, symbols, emoji) is a token of its own. Whitespace separates.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_TOKEN_RE = re.compile(rf"[{_CJK}]|[^\W{_CJK}]+(?:'[^\W{_CJK}]+)*|[^\w\s]", re.UNICODE)


def tokenize(text: str) -> list[str]:
    """Split a sentence into tokens: English by words and punctuation, Chinese one character each.

    Duplicates are kept (each occurrence is its own position); control characters are dropped.
    """
    if not isinstance(text, str):
        raise AttentionError("bad_input", f"text must be a string, got {type(text).__name__}")
    clean = "".join(ch if ch.isprintable() or ch.isspace() else " " for ch in text)
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
