"""bench/bench_core.py still runs (tiny sizes, quick mode) and compares like with like; timings are not asserted."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import torch

BENCH = Path(__file__).resolve().parent.parent / "bench" / "bench_core.py"


def load_bench():
    spec = importlib.util.spec_from_file_location("bench_core", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_bench_runs_in_quick_mode_and_prints_one_table(capsys) -> None:
    bench = load_bench()
    threads = torch.get_num_threads()
    rows = bench.main(["--quick", "--size", "1,4,8,2", "--size", "2,3,6,3"])
    assert [(r.batch, r.length, r.d_model, r.n_heads) for r in rows] == [(1, 4, 8, 2), (2, 3, 6, 3)]
    for r in rows:
        assert r.ours_ms > 0 and r.torch_ms > 0 and r.ratio > 0
        assert r.max_abs_diff < 1e-5  # same weights, same input: the bench compares like with like
    out = capsys.readouterr().out
    assert "ratio" in out and "ours ms" in out and "torch ms" in out
    assert torch.get_num_threads() == threads  # --threads is undone afterwards


def test_bench_llm_tables_run_in_quick_mode(capsys) -> None:
    bench = load_bench()
    cache_rows = bench.cache_table(1, 1, lengths=(1, 2, 8), size=(16, 4, 2))
    assert [n for n, _, _ in cache_rows] == [1, 2, 8] and all(c > 0 and f > 0 for _, c, f in cache_rows)
    variant_rows = bench.variant_table(1, 1, size=(1, 8, 16, 4))
    assert len(variant_rows) == 5 and all(v > 0 and p > 0 for _, v, p in variant_rows)
    print(bench.format_llm_tables(cache_rows, variant_rows))
    out = capsys.readouterr().out
    assert "recompute/cached" in out and "RoPE" in out and "window" in out
