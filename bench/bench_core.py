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
    python bench/bench_core.py --llm           # only the two tables of today's decoders (below)

Today's decoders (two more tables, printed by default and with --llm): decoding with a KV cache against
recomputing the whole causal forward, one step at position L for L = 1, 2, 4, ..., 512 (ratio recompute /
cached), and the forward with each option (shared K/V heads, RoPE, ALiBi, a window) against the same
forward without it (ratio variant / plain), each pair timed alternately in one run.

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

from mha_core import AttentionConfig, KVCache, MultiHeadAttention

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


CACHE_LENGTHS = tuple(2**i for i in range(10))  # 1 .. 512
CACHE_SIZE = (256, 8, 2)  # d_model, h, g of the decoding table
VARIANT_SIZE = (1, 64, 256, 16)  # B, L, d_model, h of the variants table


def alternate(calls: dict[str, object], reps: int, warmup: int) -> dict[str, float]:
    """Median seconds of each call, the calls taking turns (as time_pair); reps <= 0: about 1 s per call."""
    for _ in range(warmup):
        for fn in calls.values():
            fn()
    if reps <= 0:
        start = time.perf_counter()
        for fn in calls.values():
            fn()
        reps = max(21, min(1001, math.ceil(TARGET_SECONDS / 3 / (time.perf_counter() - start))))
    times: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(reps):
        for name, fn in calls.items():
            start = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(t) for name, t in times.items()}


def cache_table(reps: int, warmup: int, lengths: tuple[int, ...] = CACHE_LENGTHS,
                size: tuple[int, int, int] = CACHE_SIZE) -> list[tuple[int, float, float]]:  # fmt: skip
    """(L, cached ms, recompute ms): the step that produces token L with a cache of L - 1 tokens (K and V
    appended, one query row) against the whole causal forward over the L tokens."""
    d_model, h, g = size
    mha = MultiHeadAttention(AttentionConfig(d_model, h, n_kv_heads=g, rope=True)).eval()
    x = torch.randn(1, max(lengths), d_model)
    rows = []
    for length in lengths:
        prefix = KVCache()
        if length > 1:
            mha(x[:, : length - 1], causal=True, cache=prefix)
        cache = KVCache()

        def cached(length: int = length, prefix: KVCache = prefix, cache: KVCache = cache) -> None:
            cache.k, cache.v = prefix.k, prefix.v  # the cache of L - 1 tokens, again for each call
            mha(x[:, length - 1 : length], causal=True, cache=cache)

        t = alternate({"cached": cached, "full": lambda length=length: mha(x[:, :length], causal=True)}, reps, warmup)
        rows.append((length, t["cached"] * 1e3, t["full"] * 1e3))
    return rows


def variant_table(
    reps: int, warmup: int, size: tuple[int, int, int, int] = VARIANT_SIZE
) -> list[tuple[str, float, float]]:
    """(variant, ms, plain ms): the causal forward with one option against the notes' causal forward."""
    batch, length, d_model, h = size
    x = torch.randn(batch, length, d_model)
    plain = MultiHeadAttention(AttentionConfig(d_model, h)).eval()
    variants = {
        f"grouped K/V g={h // 4}": (AttentionConfig(d_model, h, n_kv_heads=h // 4), {}),
        "multi-query g=1": (AttentionConfig(d_model, h, n_kv_heads=1), {}),
        "RoPE": (AttentionConfig(d_model, h, rope=True), {}),
        "ALiBi": (AttentionConfig(d_model, h, alibi=True), {}),
        f"window w={max(1, length // 4)}": (AttentionConfig(d_model, h), {"window": max(1, length // 4)}),
    }
    rows = []
    for name, (config, options) in variants.items():
        mha = MultiHeadAttention(config).eval()
        t = alternate({"variant": lambda mha=mha, o=options: mha(x, causal=True, **o),
                       "plain": lambda: plain(x, causal=True)}, reps, warmup)  # fmt: skip
        rows.append((name, t["variant"] * 1e3, t["plain"] * 1e3))
    return rows


def format_llm_tables(cache_rows: list, variant_rows: list) -> str:
    d_model, h, g = CACHE_SIZE
    lines = [f"decoding one step at position L (d_model={d_model}, h={h}, g={g}, RoPE): KV cache vs recomputing",
             f"{'L':>5} | {'cached ms':>9} {'recompute ms':>12} {'recompute/cached':>16}"]  # fmt: skip
    lines += [f"{n:>5} | {c:>9.3f} {f:>12.3f} {f / c:>16.2f}" for n, c, f in cache_rows]
    batch, length, d_model, h = VARIANT_SIZE
    lines += ["", f"today's options, causal forward (B={batch}, L={length}, d_model={d_model}, h={h}): vs plain",
              f"{'variant':<22} | {'ms':>8} {'plain ms':>8} {'ratio':>6}"]  # fmt: skip
    lines += [f"{name:<22} | {v:>8.3f} {p:>8.3f} {v / p:>6.2f}" for name, v, p in variant_rows]
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
    parser.add_argument("--llm", action="store_true", help="only the tables of today's decoders (cache, variants)")
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
            for batch, length, d_model, n_heads in () if args.llm else sizes:
                ours, ref, x = build_pair(batch, length, d_model, n_heads)
                t_ours, t_ref, diff = time_pair(ours, ref, x, reps, warmup)
                rows.append(BenchRow(batch, length, d_model, n_heads, t_ours * 1e3, t_ref * 1e3, diff))
            if rows:
                print(format_table(rows, args.threads))
            if args.llm or not args.size:
                print(format_llm_tables(cache_table(reps, warmup), variant_table(reps, warmup)))
    finally:
        torch.set_num_threads(previous_threads)
    return rows


if __name__ == "__main__":
    main()
