"""Load the committed tiny decoder (training/checkpoint/tiny_decoder.safetensors), refusing any other bytes.

The file's SHA-256 is pinned here, as pretrained/loading.py pins all-MiniLM-L6-v2's: a file that is not the one
`python3 -m training.train_decoder` wrote and this commit checked is refused with a message, before anything in it
is read. safetensors holds tensors and a JSON header only (no pickle, no code), and the header's recipe, vocabulary
and tensor shapes are checked against the model they build.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, fields
from functools import lru_cache
from pathlib import Path

import torch
from safetensors import SafetensorError
from safetensors.torch import load as load_tensors
from torch import Tensor

from mha_core import AttentionConfig, AttentionTrace, KVCache

from .corpus import Vocabulary, token_streams
from .decoder import TinyDecoder
from .heads import HeadReport, measure_heads
from .train_decoder import CHECKPOINT, FORMAT, Recipe

CHECKPOINT_SHA256 = "f656b7d6928d362cd63cef8d18376d5dd7e23b5018f7bc41529b8cf68bc2b967"
NAME = "tiny-decoder"  # shown on the decoding page; language-neutral
MEASURE_SEED = 0


class CheckpointError(Exception):
    """The checkpoint cannot be used. reason: "missing" (no file), "altered" (other bytes than the pinned ones) or
    "broken" (the pinned bytes, but unreadable by this code); detail says which and why."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail


@dataclass(frozen=True)
class Checkpoint:
    """What the file holds: the recipe that trained it, the vocabulary, the losses logged, and the model."""

    recipe: Recipe
    vocab: Vocabulary
    losses: tuple[float, ...]
    held_out_loss: float
    steps: int
    model: TinyDecoder = field(repr=False)


def read_checkpoint(path: Path = CHECKPOINT, sha256: str | None = CHECKPOINT_SHA256) -> Checkpoint:
    """Read and check the file: its SHA-256 (unless sha256 is None: a file the caller just wrote), its format,
    then every tensor's name and shape against the model its recipe builds."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise CheckpointError("missing", f"{path}: {exc.strerror or exc}") from exc
    digest = hashlib.sha256(data).hexdigest()
    if sha256 is not None and digest != sha256:
        raise CheckpointError(
            "altered", f"{path.name} has SHA-256 {digest}, not the pinned {sha256}: it is not the checkpoint this "
            "code was released with (run `python3 -m training.train_decoder` and pin the new hash to replace it)",
        )  # fmt: skip
    try:
        header_len = int.from_bytes(data[:8], "little")
        meta = json.loads(data[8 : 8 + header_len]).get("__metadata__", {})
        if meta.get("format") != FORMAT:
            raise CheckpointError("broken", f"format {meta.get('format')!r}, expected {FORMAT!r}")
        known = {f.name for f in fields(Recipe)}
        recipe = Recipe(**{k: v for k, v in json.loads(meta["recipe"]).items() if k in known})
        vocab = Vocabulary(tuple(json.loads(meta["vocab"])))
        state = load_tensors(data)
        model = TinyDecoder(recipe.model_config(len(vocab)))
        expected = {k: tuple(v.shape) for k, v in model.state_dict().items()}
        if {k: tuple(v.shape) for k, v in state.items()} != expected:
            raise CheckpointError("broken", "its tensors do not match the model its recipe describes")
        model.load_state_dict(state)
        model.eval()
        return Checkpoint(recipe, vocab, tuple(json.loads(meta["losses"])), float(meta["held_out_loss"]),
                          int(meta["steps"]), model)  # fmt: skip
    except CheckpointError:
        raise
    except (SafetensorError, ValueError, KeyError, TypeError, RuntimeError) as exc:
        raise CheckpointError("broken", f"{path.name}: {exc}") from exc


@dataclass(frozen=True, eq=False)
class TrainedDecoder:
    """The checkpoint as the decoding page's `Decoder` (explorer/decoding.py): encode, step with a KV cache, and the
    head measures of its trained heads beside the untrained model's."""

    checkpoint: Checkpoint
    heads: HeadReport
    name: str = NAME
    trained: bool = True

    @property
    def n_layers(self) -> int:
        return self.checkpoint.recipe.n_layers

    @property
    def config(self) -> AttentionConfig:
        """Every layer's attention sizes and options (layer 0's config; the layers differ only in their seed)."""
        return self.checkpoint.model.config.attention(0)

    def encode(self, text: str) -> list[int]:
        return self.checkpoint.vocab.encode(text)

    def token_text(self, token_id: int) -> str:
        return self.checkpoint.vocab.tokens[token_id]

    def new_caches(self) -> list[KVCache]:
        return self.checkpoint.model.new_caches()

    def step(self, token_id: int, caches: list[KVCache]) -> tuple[Tensor, tuple[AttentionTrace, ...]]:
        """The model's step, with UNK's logit at -inf: the decoder never writes a token it cannot name."""
        logits, traces = self.checkpoint.model.step(token_id, caches)
        return logits.index_fill(0, torch.tensor([0]), float("-inf")), traces


def head_report(checkpoint: Checkpoint) -> HeadReport:
    """Both head measures on the trained model and on the untrained one of the same recipe (its initial weights)."""
    recipe = checkpoint.recipe
    streams = token_streams()
    if streams.vocab != checkpoint.vocab:
        raise CheckpointError("broken", "the corpus in training/corpus/ is not the one this checkpoint was trained on")
    text = streams.windows(32, recipe.length, torch.Generator().manual_seed(MEASURE_SEED), "held_out")  # (32, L)
    untrained = TinyDecoder(recipe.model_config(len(checkpoint.vocab)))
    return measure_heads(checkpoint.model, untrained, text, len(checkpoint.vocab), seed=MEASURE_SEED)


@lru_cache(maxsize=1)
def trained_decoder() -> TrainedDecoder:
    """The committed checkpoint, checked, with its head report (read once per process; read-only afterwards)."""
    checkpoint = read_checkpoint()
    return TrainedDecoder(checkpoint, head_report(checkpoint))
