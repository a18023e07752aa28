"""Time the training lab's default trainings (one thread), each beside a floor measured in the same run.

The floor is torch's own `nn.TransformerEncoderLayer` of the same d_model, h and layers, trained the same number of
steps on batches of the same shape with Adam: what the same amount of training costs without our trace, our
evaluation and our heads' snapshots. Runs alternate (ours, floor) so a busy machine slows both alike; quote the
ratio, not the seconds (a slower or loaded machine took 54 s where this one takes 2-8 s).

    python bench/bench_training.py             # every task, one repetition each
    python bench/bench_training.py --reps 3 --task induction
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import torch
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere

from training import DEFAULTS, TASKS, train
from training.trainer import BATCH_SIZE


def floor_seconds(name: str) -> float:
    """The same steps of torch's encoder layer(s) at the task's sizes, with Adam and a linear read-out."""
    cfg, task = DEFAULTS[name], TASKS[name]
    torch.manual_seed(0)
    layers = nn.Sequential(*[nn.TransformerEncoderLayer(cfg.d_model, cfg.n_heads, 4 * cfg.d_model, 0.0,
                                                        batch_first=True) for _ in range(cfg.n_layers)])  # fmt: skip
    embed, head = nn.Embedding(task.vocab_size, cfg.d_model), nn.Linear(cfg.d_model, task.vocab_size)
    params = [*layers.parameters(), *embed.parameters(), *head.parameters()]
    opt = torch.optim.Adam(params, lr=cfg.lr)
    tokens = torch.randint(0, task.vocab_size, (BATCH_SIZE, task.seq_len))
    start = time.perf_counter()
    for _ in range(cfg.steps):
        logits = head(layers(embed(tokens)))  # (B, L, vocab)
        loss = nn.functional.cross_entropy(logits.flatten(0, 1), tokens.flatten())
        opt.zero_grad()
        loss.backward()
        opt.step()
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=1)
    parser.add_argument("--task", choices=sorted(TASKS), action="append")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    print(f"{'task':<10} {'ours s':>8} {'floor s':>8} {'ours / floor':>12}  accuracy")
    for name in args.task or list(TASKS):
        ours, floor, acc = [], [], 0.0
        for _ in range(args.reps):
            trainer = train(DEFAULTS[name])
            ours.append(trainer.seconds)
            acc = trainer.history.accuracy[-1]
            floor.append(floor_seconds(name))
        o, f = statistics.median(ours), statistics.median(floor)
        print(f"{name:<10} {o:8.2f} {f:8.2f} {o / f:12.2f}x  {acc:.3f}")


if __name__ == "__main__":
    main()
