"""Train the tiny decoder on the corpus (training/corpus.py) and write the checkpoint the decoding page loads.

    python3 -m training.train_decoder               # the committed run -> training/checkpoint/tiny_decoder.safetensors
    python3 -m training.train_decoder --steps 50 --out /tmp/x.safetensors      # a quick look

Everything that decides the run is in `Recipe` (seed included); torch runs on one thread, so the same recipe gives
the same losses and weights on the same machine, and within a small tolerance on another
(tests/test_decoder_checkpoint.py).

The batches: text windows of the training part of the corpus, and one row in `repeat_every` of random tokens in which
a run of distinct tokens appears twice in a row (the training lab's induction task in the corpus' vocabulary), with a
loss on the run's second copy only. Why (measured, training/checkpoint/README.md): a minute of training reads about
three million tokens of a text of sixty thousand, which the decoder largely learns by heart, so nothing rewards it for
copying from its context and no induction head formed on text alone. And the run's length and place vary from row to
row: with the copy always 32 tokens back, RoPE learned to look exactly 32 tokens back (the loss fell as far), and the
induction score on runs of other lengths stayed at the untrained model's.

What the induction head needed (the runs tried: training/checkpoint/README.md; the changes were made together, not
each tested alone): a run's target weighs copy_weight text tokens (else the text's loss drowns the copy's); half the
runs are drawn from the 128 most frequent tokens (a copy over few tokens is learnable sooner: the runs' loss falls
from 6.1 to 0.2 between steps 1,000 and 1,500), the other half from every token (trained on narrow runs only, the
decoder copied them with a loss of 0.01 yet scored 0.06-0.10 on the measure's runs drawn from the whole vocabulary);
lr 1e-2 after a 100-step warmup; b^Q and b^K drawn at random rather than zero (with both zero, the gradient of RoPE's
position-only score b^Q . R b^K is zero too; with zero biases, layer 1's heads stayed at even attention, 0.06, for
800 steps of runs).
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import time
from dataclasses import dataclass, field
from pathlib import Path

import torch
import torch.nn.functional as F
from safetensors.torch import save as save_tensors
from torch import Tensor

from .corpus import TokenStreams, token_streams
from .decoder import DecoderConfig, TinyDecoder
from .tasks import IGNORE
from .trainer import single_thread

CHECKPOINT_DIR = Path(__file__).resolve().parent / "checkpoint"
CHECKPOINT = CHECKPOINT_DIR / "tiny_decoder.safetensors"
FORMAT = "mha-tiny-decoder/1"
MIN_RUN = 4  # the shortest run read twice


@dataclass(frozen=True)
class Recipe:
    """Everything that decides a training run of the tiny decoder."""

    d_model: int = 64
    n_heads: int = 4
    n_kv_heads: int | None = 2
    n_layers: int = 2
    rope: bool = True
    bias: bool = True  # a constant part in every query and key: what a RoPE head needs to prefer a distance
    qk_bias_init: float = 1.0  # std of the initial b^Q and b^K (0: zeros, a saddle of RoPE's positional scores)
    d_ff: int = 0
    length: int = 64  # tokens per training window
    batch: int = 32
    steps: int = 2000
    lr: float = 1e-2
    weight_decay: float = 0.01
    repeat_every: int = 2  # one sequence in this many holds a random run read twice (0: text only)
    run_vocab: int = 128  # a narrow run's tokens: the run_vocab most frequent (ids 1..run_vocab); 0: every token
    narrow_every: int = 2  # one run in this many is narrow (run_vocab), the others draw from every token
    copy_weight: float = 8.0  # the weight of a run's target in the loss, a text token's being 1
    warmup: int = 100  # steps of linear learning-rate warmup, then constant
    seed: int = 0
    log_every: int = 50

    def model_config(self, vocab_size: int) -> DecoderConfig:
        return DecoderConfig(
            vocab_size=vocab_size, d_model=self.d_model, n_heads=self.n_heads, n_kv_heads=self.n_kv_heads,
            n_layers=self.n_layers, rope=self.rope, bias=self.bias, d_ff=self.d_ff, max_len=self.length, seed=self.seed,
            qk_bias_init=self.qk_bias_init,
        )  # fmt: skip


@dataclass
class Run:
    """A finished run: the model, the corpus it read, the mean training loss of every log_every steps, the held-out
    loss at the end, and the time it took (CPU seconds of this process and wall-clock seconds)."""

    recipe: Recipe
    streams: TokenStreams
    model: TinyDecoder
    steps: int
    losses: list[float] = field(default_factory=list)
    held_out_loss: float = float("nan")
    cpu_seconds: float = 0.0
    wall_seconds: float = 0.0


def repeated_rows(
    k: int, length: int, vocab_size: int, generator: torch.Generator, run_vocab: int = 0, narrow_every: int = 1
) -> tuple[Tensor, Tensor]:
    """(inputs, targets), each (k, length): random tokens, in which a run of n distinct tokens appears twice in a row
    (n from MIN_RUN to length // 2, the first copy at a random place), with a target on the second copy only. n and
    the place vary from row to row, so no fixed distance back finds the earlier copy: only the token itself does."""
    rows = torch.randint(1, vocab_size, (k, length + 1), generator=generator)  # (k, L + 1) filler, never UNK
    targets = torch.full((k, length), IGNORE)
    for r in range(k):
        n = int(torch.randint(MIN_RUN, (length + 1) // 2 + 1, (1,), generator=generator))
        at = int(torch.randint(0, length + 2 - 2 * n, (1,), generator=generator))
        drawn = run_vocab if run_vocab and r % narrow_every == 0 else vocab_size - 1  # narrow runs: frequent tokens
        run = torch.randperm(drawn, generator=generator)[:n] + 1  # (n,) distinct tokens
        rows[r, at : at + 2 * n] = torch.cat([run, run])
        targets[r, at + n : at + 2 * n - 1] = run[1:]  # after token j of the second copy comes token j + 1
    return rows[:, :-1], targets


def batch(streams: TokenStreams, recipe: Recipe, generator: torch.Generator) -> tuple[Tensor, Tensor]:
    """(inputs, targets), each (batch, length): text windows, and every repeat_every-th row a random run read twice."""
    rows = streams.windows(recipe.batch, recipe.length + 1, generator)  # (B, L + 1)
    inputs, targets = rows[:, :-1], rows[:, 1:].clone()  # (B, L): the next token at every position
    if recipe.repeat_every:
        picked = torch.arange(0, recipe.batch, recipe.repeat_every)  # (k,)
        inputs[picked], targets[picked] = repeated_rows(
            len(picked), recipe.length, len(streams.vocab), generator, recipe.run_vocab, recipe.narrow_every
        )
    return inputs, targets


def weighted_loss(model: TinyDecoder, inputs: Tensor, targets: Tensor, recipe: Recipe) -> Tensor:
    """Mean next-token loss over the targets (B, L) of inputs (B, L), a run's target (the repeated rows) weighing
    copy_weight, a text token's 1. Only the positions with a target are unembedded (the vocabulary's logits are most
    of a step's work, and a repeated row has targets on its second copy only)."""
    stream, _ = model.hidden(inputs)  # (B, L, d_model)
    kept = targets != IGNORE  # (B, L)
    weights = torch.ones(targets.shape)  # (B, L)
    if recipe.repeat_every:
        weights[:: recipe.repeat_every] = recipe.copy_weight  # the rows batch() filled with a run read twice
    logits = model.unembed(stream[kept])  # (N, vocab): the N positions with a target
    losses = F.cross_entropy(logits, targets[kept], reduction="none")  # (N,)
    return (weights[kept] * losses).sum() / weights[kept].sum()


def held_out_loss(model: TinyDecoder, streams: TokenStreams, length: int) -> float:
    """Mean next-token loss over the held-out text, cut into consecutive windows of `length` + 1 tokens."""
    ids = streams.held_out
    n = (len(ids) - 1) // length
    rows = torch.stack([ids[i * length : i * length + length + 1] for i in range(n)])  # (n, L + 1)
    with torch.no_grad():
        logits = model(rows[:, :-1]).logits  # (n, L, vocab)
    return float(F.cross_entropy(logits.flatten(0, 1), rows[:, 1:].flatten()))


def unigram_loss(streams: TokenStreams, length: int) -> float:
    """The held-out loss of the model that ignores every token before: each target predicted by its frequency in the
    training text (the same targets as held_out_loss). The baseline a decoder has to beat; uniform over the
    vocabulary (ln of its size) is a weaker one."""
    ids = streams.held_out
    n = (len(ids) - 1) // length
    targets = torch.cat([ids[i * length + 1 : i * length + length + 1] for i in range(n)])  # as held_out_loss reads
    counts = torch.bincount(streams.train, minlength=len(streams.vocab)).to(torch.float64)
    return float(-(counts[targets] / counts.sum()).log().mean())


def train_decoder(recipe: Recipe = Recipe(), steps: int | None = None) -> Run:
    """Train `steps` steps of the recipe (all of them by default), on one thread, from the recipe's seed."""
    streams = token_streams()
    total = recipe.steps if steps is None else steps
    with single_thread():
        model = TinyDecoder(recipe.model_config(len(streams.vocab)))
        optimizer = torch.optim.AdamW(model.parameters(), lr=recipe.lr, weight_decay=recipe.weight_decay)
        warmup = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda i: min(1.0, (i + 1) / max(recipe.warmup, 1)))
        data = torch.Generator().manual_seed(recipe.seed)
        run = Run(recipe, streams, model, total)
        cpu, wall, window = time.process_time(), time.perf_counter(), []
        for step in range(1, total + 1):
            inputs, targets = batch(streams, recipe, data)
            loss = weighted_loss(model, inputs, targets, recipe)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            warmup.step()
            window.append(loss.item())
            if step % recipe.log_every == 0 or step == total:
                run.losses.append(sum(window) / len(window))
                window = []
        run.cpu_seconds, run.wall_seconds = time.process_time() - cpu, time.perf_counter() - wall
        model.eval()
        run.held_out_loss = held_out_loss(model, streams, recipe.length)
    return run


def checkpoint_bytes(run: Run) -> bytes:
    """The run as safetensors bytes: the weights, and in the header the recipe, the vocabulary and the losses."""
    metadata = {
        "format": FORMAT,
        "recipe": json.dumps(dataclasses.asdict(run.recipe)),
        "steps": str(run.steps),
        "vocab": json.dumps(run.streams.vocab.tokens, ensure_ascii=False),
        "losses": json.dumps([round(x, 6) for x in run.losses]),
        "held_out_loss": f"{run.held_out_loss:.6f}",
    }
    state = {k: v.detach().contiguous() for k, v in run.model.state_dict().items()}
    return save_tensors(state, metadata)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=None, help="train fewer steps than the recipe (a quick look)")
    parser.add_argument("--out", type=Path, default=CHECKPOINT)
    args = parser.parse_args(argv)
    run = train_decoder(steps=args.steps)
    data = checkpoint_bytes(run)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(data)
    print(f"{run.steps} steps: loss {run.losses[0]:.3f} -> {run.losses[-1]:.3f}, held-out {run.held_out_loss:.3f}")
    print(f"CPU {run.cpu_seconds:.1f} s, wall {run.wall_seconds:.1f} s (torch on one thread)")
    print(f"{args.out}: {len(data):,} bytes, SHA-256 {hashlib.sha256(data).hexdigest()}")


if __name__ == "__main__":
    main()
