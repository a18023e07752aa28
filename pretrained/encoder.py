"""The BERT encoder forward pass, written out step by step, with our own attention core in every layer.

    E = LayerNorm(word[ids] + position[0..L-1] + token_type[0])           embeddings, (L, d_model)
    per layer:  A = MultiHeadAttention(X)                                   mha_core, real W^Q, W^K, W^V, W^O
                X' = LayerNorm(X + A.output)                                add & norm
                Y = LayerNorm(X' + GELU(X' W_1 + b_1) W_2 + b_2)            feed-forward, add & norm
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cached_property

import torch
from torch import Tensor
from torch.nn import functional as F

from budget import ByteLRU, memoize
from mha_core import AttentionTrace

from .loading import EncoderLayer, LayerNormParams, PretrainedBert, load_model

DEFAULT_MAX_TOKENS = 48  # wordpieces incl. [CLS] and [SEP] shown by the page: 72 maps of L x L stay light


@dataclass(frozen=True, eq=False)
class LayerTrace:
    """One encoder layer. x (L, d_model) in; attention: our AttentionTrace of self-attention on x;
    after_attention = LayerNorm(x + attention.output); ffn_hidden = GELU(after_attention W_1 + b_1)
    (L, d_ff); output = LayerNorm(after_attention + ffn_hidden W_2 + b_2) (L, d_model)."""

    x: Tensor
    attention: AttentionTrace
    after_attention: Tensor
    ffn_hidden: Tensor
    output: Tensor


@dataclass(frozen=True, eq=False)
class Encoding:
    """Every intermediate of one sentence through the model. L = len(tokens) wordpieces."""

    input_ids: tuple[int, ...]
    tokens: tuple[str, ...]
    n_wordpieces: int  # before truncation (incl. [CLS] and [SEP]); > L when the sentence was cut
    embeddings: Tensor  # (L, d_model), after the embedding LayerNorm
    layers: tuple[LayerTrace, ...]

    @property
    def truncated(self) -> bool:
        return self.n_wordpieces > len(self.tokens)

    @property
    def hidden_states(self) -> tuple[Tensor, ...]:
        """(n_layers + 1) tensors (L, d_model): the embeddings, then each layer's output (as HF)."""
        return (self.embeddings, *(layer.output for layer in self.layers))

    @property
    def output(self) -> Tensor:
        """Last hidden state (L, d_model)."""
        return self.layers[-1].output

    @cached_property
    def weights(self) -> Tensor:
        """Attention weights of every layer and head: (n_layers, h, L, L)."""
        return torch.stack([layer.attention.weights for layer in self.layers])


def _layer_norm(x: Tensor, p: LayerNormParams, eps: float) -> Tensor:
    return F.layer_norm(x, (x.shape[-1],), p.weight, p.bias, eps)


def _run_layer(layer: EncoderLayer, x: Tensor, key_padding_mask: Tensor | None, eps: float) -> LayerTrace:
    """One encoder layer on x (L, d_model) or a padded batch (B, L, d_model) with key_padding_mask (B, L)."""
    att = layer.attention(x, key_padding_mask=key_padding_mask)  # AttentionTrace: weights (..., h, L, L)
    after = _layer_norm(x + att.output, layer.norm_attention, eps)
    hidden = F.gelu(after @ layer.w_ff1 + layer.b_ff1)  # exact (erf) GELU, (..., L, d_ff)
    out = _layer_norm(after + hidden @ layer.w_ff2 + layer.b_ff2, layer.norm_ffn, eps)
    return LayerTrace(x=x, attention=att, after_attention=after, ffn_hidden=hidden, output=out)


def encode_ids(model: PretrainedBert, input_ids: list[int], n_wordpieces: int | None = None) -> Encoding:
    """Run the encoder on wordpiece ids (one sentence, token type 0, no padding)."""
    cfg = model.config
    if not 1 <= len(input_ids) <= cfg.max_positions:
        raise ValueError(f"need 1 to {cfg.max_positions} wordpiece ids, got {len(input_ids)}")
    ids = torch.tensor(input_ids, dtype=torch.long)
    if int(ids.min()) < 0 or int(ids.max()) >= cfg.vocab_size:
        raise ValueError(f"wordpiece ids must lie in 0..{cfg.vocab_size - 1}")
    tokens = tuple(model.tokenizer.id_to_token(i) or "[UNK]" for i in input_ids)
    eps = cfg.layer_norm_eps
    with torch.no_grad():
        length = ids.shape[0]
        x = (model.word_embeddings[ids] + model.position_embeddings[:length]
             + model.token_type_embeddings[0])  # (L, d_model)  # fmt: skip
        x = _layer_norm(x, model.norm_embeddings, eps)
        embeddings, traces = x, []
        for layer in model.layers:
            trace = _run_layer(layer, x, None, eps)
            traces.append(trace)
            x = trace.output
    return Encoding(
        input_ids=tuple(input_ids), tokens=tokens, n_wordpieces=n_wordpieces or len(input_ids),
        embeddings=embeddings, layers=tuple(traces),
    )  # fmt: skip


def encode(model: PretrainedBert, text: str, max_tokens: int | None = None) -> Encoding:
    """Tokenize and run one sentence. max_tokens (>= 2, incl. [CLS] and [SEP]) cuts a long sentence and
    keeps the final [SEP], as BERT's own truncation does; None means the model's limit (512)."""
    limit = model.config.max_positions if max_tokens is None else min(max_tokens, model.config.max_positions)
    if limit < 2:
        raise ValueError(f"max_tokens must be at least 2 ([CLS] and [SEP]), got {max_tokens}")
    ids, _ = model.tokenize(text)
    n = len(ids)
    if n > limit:
        ids = ids[: limit - 1] + ids[-1:]
    return encode_ids(model, ids, n_wordpieces=n)


def encoding_bytes(enc: Encoding) -> int:
    """The memory of every tensor an encoding holds (shared storages counted once)."""
    storages: dict[int, int] = {}

    def visit(value: object) -> None:
        if isinstance(value, Tensor):
            st = value.untyped_storage()
            storages[st.data_ptr()] = st.nbytes()
        elif isinstance(value, (tuple, list)):
            for v in value:
                visit(v)
        elif dataclasses.is_dataclass(value):
            for f in dataclasses.fields(value):
                visit(getattr(value, f.name))

    visit(enc)
    return sum(storages.values())


ENCODINGS = ByteLRU("encodings", 64 << 20)  # about 5 MB each at 48 wordpieces


@memoize(ENCODINGS, encoding_bytes)
def encode_text(text: str, max_tokens: int | None = DEFAULT_MAX_TOKENS) -> Encoding:
    """encode() with the process-wide model, cached on the plain text (the page calls this)."""
    return encode(load_model(), text, max_tokens)


PAD_TOKEN = "[PAD]"


@dataclass(frozen=True, eq=False)
class LayerInput:
    """What one layer receives for a batch of sentences padded to the longest: tokens (B rows of L wordpieces,
    [PAD] after a shorter sentence), x (B, L, d_model) the layer's input hidden states, key_padding_mask
    (B, L) True at [PAD], n_wordpieces before truncation per sentence."""

    tokens: tuple[tuple[str, ...], ...]
    x: Tensor
    key_padding_mask: Tensor
    n_wordpieces: tuple[int, ...]


def layer_input(model: PretrainedBert, texts: tuple[str, ...], layer: int, max_tokens: int) -> LayerInput:
    """Tokenize `texts` (each cut to max_tokens wordpieces, keeping [SEP]), pad them with [PAD] to one length,
    and run the embeddings and layers 1 .. layer-1 with the key padding mask: the input of `layer` (1-based),
    as BertModel computes it with an attention mask."""
    cfg = model.config
    if not 1 <= layer <= cfg.n_layers:
        raise ValueError(f"layer must lie in 1..{cfg.n_layers}, got {layer}")
    limit = min(max_tokens, cfg.max_positions)
    rows, counts = [], []
    for text in texts:
        ids, _ = model.tokenize(text)
        counts.append(len(ids))
        rows.append(ids[: limit - 1] + ids[-1:] if len(ids) > limit else ids)
    length = max(len(r) for r in rows)
    pad_id = model.tokenizer.token_to_id(PAD_TOKEN) or 0
    ids = torch.tensor([r + [pad_id] * (length - len(r)) for r in rows], dtype=torch.long)  # (B, L)
    padding = torch.tensor([[j >= len(r) for j in range(length)] for r in rows])  # (B, L) True at [PAD]
    eps = cfg.layer_norm_eps
    with torch.no_grad():
        x = model.word_embeddings[ids] + model.position_embeddings[:length] + model.token_type_embeddings[0]
        x = _layer_norm(x, model.norm_embeddings, eps)  # (B, L, d_model)
        for enc_layer in model.layers[: layer - 1]:
            x = _run_layer(enc_layer, x, padding if padding.any() else None, eps).output
    tokens = tuple(tuple(model.tokenizer.id_to_token(int(i)) or "[UNK]" for i in row) for row in ids)
    return LayerInput(tokens=tokens, x=x, key_padding_mask=padding, n_wordpieces=tuple(counts))
