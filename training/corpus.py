"""The text the tiny decoder learns from, and its vocabulary.

The corpus is the course's five lecture notes (Chinese, copied unchanged from the course's seeds into
training/corpus/note_*.txt) and two short texts written for this project (english.txt, chinese.txt); where each
comes from: training/corpus/README.md. Tokens are the app's own (mha_core.tokenize: English by words and
punctuation, Chinese one character each), so the decoder reads a sentence exactly as every other page splits it.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import torch
from torch import Tensor

from mha_core import tokenize

CORPUS_DIR = Path(__file__).resolve().parent / "corpus"
NOTES = ("note_000.txt", "note_001.txt", "note_002.txt", "note_003.txt", "note_004.txt")
OWN = ("english.txt", "chinese.txt", "app_strings_en.txt", "app_strings_zh.txt")
UNK = "[UNK]"  # every token seen fewer than MIN_COUNT times in the corpus, and every token it never saw
MIN_COUNT = 2
HELD_OUT = 0.1  # the last tenth of every document: text the decoder never trains on (its loss, the head measures)

_EMBED = re.compile(r"!\[\[[^\]]*\]\]")  # Obsidian image embeds: ![[Pasted image 2025....png|600]]
_ANCHOR = re.compile(r"[ \t]*\^[0-9a-f]{6}(?=\s|$)")  # Obsidian block anchors at a line's end: ^59530b


def clean_note(text: str) -> str:
    """A note without the editor's artefacts (image embeds, block anchors); its prose and formulas unchanged."""
    return _ANCHOR.sub("", _EMBED.sub("", text))


def documents() -> dict[str, str]:
    """Every text of the corpus by file name: the notes cleaned, the project's own texts as written."""
    texts = {name: clean_note((CORPUS_DIR / name).read_text(encoding="utf-8")) for name in NOTES}
    texts.update({name: (CORPUS_DIR / name).read_text(encoding="utf-8") for name in OWN})
    return texts


@dataclass(frozen=True)
class Vocabulary:
    """Token strings by id; id 0 is UNK."""

    tokens: tuple[str, ...]

    def __post_init__(self) -> None:
        if not self.tokens or self.tokens[0] != UNK or len(set(self.tokens)) != len(self.tokens):
            raise ValueError("a vocabulary starts with UNK and holds each token once")
        object.__setattr__(self, "_ids", {tok: i for i, tok in enumerate(self.tokens)})

    def __len__(self) -> int:
        return len(self.tokens)

    def ids(self, tokens: list[str]) -> list[int]:
        """Token strings -> ids, UNK (0) for a token outside the vocabulary."""
        return [self._ids.get(tok, 0) for tok in tokens]  # type: ignore[attr-defined]

    def encode(self, text: str) -> list[int]:
        """A text -> ids, split as every page splits it (mha_core.tokenize)."""
        return self.ids(tokenize(text))

    @classmethod
    def build(cls, documents: list[list[str]], min_count: int = MIN_COUNT) -> Vocabulary:
        """UNK, then every token seen at least min_count times, most frequent first (ties in code-point order)."""
        counts = Counter(tok for tokens in documents for tok in tokens)
        kept = [tok for tok, n in counts.items() if n >= min_count and tok != UNK]
        kept.sort(key=lambda tok: (-counts[tok], tok))
        return cls((UNK, *kept))


@dataclass(frozen=True)
class TokenStreams:
    """The corpus as ids: train (N,) and held_out (M,), every document's tokens in a fixed order, its last
    tenth kept out of training."""

    vocab: Vocabulary
    train: Tensor
    held_out: Tensor

    def windows(self, n: int, length: int, generator: torch.Generator, split: str = "train") -> Tensor:
        """(n, length) int64: n windows of consecutive tokens at random starts drawn with `generator`."""
        stream = self.train if split == "train" else self.held_out
        starts = torch.randint(len(stream) - length + 1, (n,), generator=generator)  # (n,)
        return stream[starts[:, None] + torch.arange(length)]  # (n, length)


def token_streams(min_count: int = MIN_COUNT) -> TokenStreams:
    """The corpus split into training and held-out ids; the vocabulary comes from the training part only."""
    train_parts, held_parts = [], []
    for text in documents().values():
        tokens = tokenize(text)
        cut = round(len(tokens) * (1 - HELD_OUT))
        train_parts.append(tokens[:cut])
        held_parts.append(tokens[cut:])
    vocab = Vocabulary.build(train_parts, min_count)
    train, held_out = ([i for part in parts for i in vocab.ids(part)] for parts in (train_parts, held_parts))
    return TokenStreams(vocab, torch.tensor(train, dtype=torch.int64), torch.tensor(held_out, dtype=torch.int64))
