"""Time a full-trace forward of our MultiHeadAttention against torch.nn.MultiheadAttention.

Both modules hold the same weights and see the same input. torch is asked for everything we return
that it can return (need_weights=True, average_attn_weights=False); we return the whole trace.
Calls alternate (ours, torch, ours, torch, ...) in one process after a few warm-ups, under
torch.no_grad(), and each side's median over the repetitions is reported. Goal: ours / torch <= 1.3 at
the app's own sizes (one sentence of up to 64 tokens); the larger sizes are printed for reference.

    python bench/bench_core.py                 # the app's sizes and two reference sizes, 1 thread
    python bench/bench_core.py --threads 2 --reps 30
    python bench/bench_core.py --quick         # smoke mode: few repetitions
    python bench/bench_core.py --size 2,64,128,4   # custom B,L,d_model,h (repeatable)

Our forward is the reference one (mha_core/attention.py): three projections, a reshape into heads,
one score multiply, the mask, a softmax, one multiply by V, the concatenation and W^O, about a dozen
torch calls from Python, and it keeps every intermediate. torch's module runs one fused C++ path.
At the app's sizes the whole forward takes tens of microseconds, so the difference is Python overhead;
at the largest size our trace keeps two or three (B, h, L, L) matrices where torch keeps one.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere

from mha_core import MultiHeadAttention

GOAL = 1.3
TARGET_SECONDS = 3.0  # timed seconds per size in the default (auto) mode: many short calls, fewer long ones
APP_SIZES = ((1, 11, 64, 8), (1, 64, 256, 16), (1, 64, 1024, 16))  # (B, L, d_model, h): the goal applies
REFERENCE_SIZES = ((1, 128, 512, 8), (4, 512, 768, 12))  # printed for reference, no goal


@dataclass(frozen=True)
class BenchRow:
    """One size: medians in milliseconds and the ratio ours / torch."""

    batch: int
    length: int
    d_model: int
    n_heads: int
    ours_ms: float
    torch_ms: float
    max_abs_diff: float

    @property
    def ratio(self) -> float:
        return self.ours_ms / self.torch_ms


def build_pair(
    batch: int, length: int, d_model: int, n_heads: int, seed: int = 0
) -> tuple[MultiHeadAttention, torch.nn.MultiheadAttention, torch.Tensor]:
    """A torch module with random weights and biases, our copy of it, and one input x (B, L, d_model)."""
    torch.manual_seed(seed)
    ref = torch.nn.MultiheadAttention(d_model, n_heads, batch_first=True)
    torch.nn.init.normal_(ref.in_proj_bias, std=0.1)
    torch.nn.init.normal_(ref.out_proj.bias, std=0.1)
    ref.eval()
    ours = MultiHeadAttention.from_torch(ref).eval()
    x = torch.randn(batch, length, d_model)
    return ours, ref, x


def time_pair(
    ours: MultiHeadAttention, ref: torch.nn.MultiheadAttention, x: torch.Tensor, reps: int, warmup: int
) -> tuple[float, float, float]:
    """Median seconds of ours(x) and ref(x, x, x, ...), interleaved; and max |output difference|."""

    def run_ours() -> torch.Tensor:
        return ours(x).output

    def run_ref() -> torch.Tensor:
        return ref(x, x, x, need_weights=True, average_attn_weights=False)[0]

    for _ in range(warmup):
        run_ours()
        run_ref()
    if reps <= 0:  # auto: about TARGET_SECONDS of timed calls, at least 21 per side
        start = time.perf_counter()
        run_ours()
        run_ref()
        reps = max(21, min(1001, math.ceil(TARGET_SECONDS / (time.perf_counter() - start))))
    t_ours: list[float] = []
    t_ref: list[float] = []
    for _ in range(reps):
        for fn, store in ((run_ours, t_ours), (run_ref, t_ref)):
            start = time.perf_counter()
            fn()
            store.append(time.perf_counter() - start)
    diff = (run_ours() - run_ref()).abs().max().item()
    return statistics.median(t_ours), statistics.median(t_ref), diff


def format_table(rows: list[BenchRow], threads: int) -> str:
    lines = [
        f"torch {torch.__version__}, {threads} thread(s), goal ours/torch <= {GOAL} at the app's sizes",
        f"{'B':>3} {'L':>5} {'d_model':>7} {'h':>3} | {'ours ms':>9} {'torch ms':>9} {'ratio':>6}"
        f" | {'max|diff|':>9}",
    ]
    for r in rows:
        app_size = (r.batch, r.length, r.d_model, r.n_heads) in APP_SIZES
        flag = ("" if r.ratio <= GOAL else "  > goal") if app_size else "  (reference)"
        lines.append(
            f"{r.batch:>3} {r.length:>5} {r.d_model:>7} {r.n_heads:>3} | {r.ours_ms:>9.3f} "
            f"{r.torch_ms:>9.3f} {r.ratio:>6.3f} | {r.max_abs_diff:>9.2e}{flag}"
        )
    return "\n".join(lines)


def parse_size(text: str) -> tuple[int, int, int, int]:
    parts = tuple(int(p) for p in text.split(","))
    if len(parts) != 4:
        raise argparse.ArgumentTypeError(f"--size wants B,L,d_model,h, got {text!r}")
    return parts  # type: ignore[return-value]


def main(argv: list[str] | None = None) -> list[BenchRow]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=1, help="torch.set_num_threads (default 1)")
    parser.add_argument(
        "--reps", type=int, default=None, help=f"timed repetitions per side (default: ~{TARGET_SECONDS:g} s, >= 21)"
    )
    parser.add_argument("--warmup", type=int, default=None, help="untimed warm-up calls (default 5)")
    parser.add_argument("--quick", action="store_true", help="smoke mode: 2 warm-ups, 3 repetitions")
    parser.add_argument(
        "--size", type=parse_size, action="append",
        help="B,L,d_model,h (repeatable; default: the app's sizes and the reference sizes)",
    )
    args = parser.parse_args(argv)
    reps = args.reps if args.reps is not None else (3 if args.quick else 0)
    warmup = args.warmup if args.warmup is not None else (2 if args.quick else 5)
    sizes = args.size or APP_SIZES + REFERENCE_SIZES

    previous_threads = torch.get_num_threads()
    torch.set_num_threads(args.threads)
    rows: list[BenchRow] = []
    try:
        with torch.no_grad():
            for batch, length, d_model, n_heads in sizes:
                ours, ref, x = build_pair(batch, length, d_model, n_heads)
                t_ours, t_ref, diff = time_pair(ours, ref, x, reps, warmup)
                rows.append(BenchRow(batch, length, d_model, n_heads, t_ours * 1e3, t_ref * 1e3, diff))
    finally:
        torch.set_num_threads(previous_threads)
    print(format_table(rows, args.threads))
    return rows


if __name__ == "__main__":
    main()
