"""Toy sequence tasks: random token sequences, the target at every position, and where attention should look.

Every task gives `tokens` (n, L) and `targets` (n, L) as int64 tensors; positions that carry no target
hold IGNORE. `expected_attention` is the (n, L, L) 0/1 map of the keys a head must read to solve the
task (an empty row where a query has nothing to look up); the trainer scores heads against it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import torch
from torch import Tensor

IGNORE = -100  # targets with this value are left out of the loss and the accuracy (torch's ignore_index)


class Batch(NamedTuple):
    tokens: Tensor  # (n, L) int64
    targets: Tensor  # (n, L) int64, IGNORE where there is nothing to predict


@dataclass(frozen=True)
class Task:
    """One toy task. `n_symbols` ordinary tokens 0..n_symbols-1, plus a separator "|" when `uses_sep`."""

    name: str
    n_symbols: int
    seq_len: int
    causal: bool  # decoder-style: a query sees only keys at or before its position
    uses_sep: bool = False
    layers_needed: int = 1  # the fewest attention layers that can solve it (induction needs two)

    @property
    def vocab(self) -> tuple[str, ...]:
        """Token labels for the figures: "0".."9" (then "a".."z"), and "|" for the separator."""
        symbols = "0123456789abcdefghijklmnopqrstuvwxyz"[: self.n_symbols]
        return (*symbols, "|") if self.uses_sep else tuple(symbols)

    @property
    def vocab_size(self) -> int:
        return len(self.vocab)

    @property
    def n_items(self) -> int:
        """Symbols in the list to sort, or in the run that induction repeats."""
        return self.seq_len // 2 if self.name == "sort" else self.seq_len // 3

    @property
    def sep(self) -> int:
        return self.n_symbols

    def sample(self, n: int, generator: torch.Generator) -> Batch:
        """n random examples drawn with `generator` (the same generator state gives the same batch)."""
        return _SAMPLERS[self.name](self, n, generator)

    def expected_attention(self, batch: Batch) -> Tensor:
        """(n, L, L): 1 where a query must look to solve the task, else 0; a query without a target
        has an empty row."""
        pattern = _EXPECTED[self.name](self, batch.tokens)
        return pattern * (batch.targets != IGNORE)[:, :, None]

    def labels(self, tokens: Tensor) -> list[str]:
        """One example's (L,) tokens as their labels."""
        return [self.vocab[int(i)] for i in tokens]

    def answer_labels(self, values: Tensor, targets: Tensor) -> list[str]:
        """(L,) values (targets or predictions) as labels where `targets` has an answer, "·" elsewhere."""
        return [self.vocab[int(v)] if int(y) != IGNORE else "·" for v, y in zip(values, targets, strict=True)]


def _distinct(task: Task, n: int, k: int, generator: torch.Generator) -> Tensor:
    """(n, k) rows of k different symbols each, in random order."""
    return torch.rand(n, task.n_symbols, generator=generator).argsort(dim=1)[:, :k]


# ----- copy the previous token -------------------------------------------------------------------
def _previous_sample(task: Task, n: int, g: torch.Generator) -> Batch:
    tokens = torch.randint(task.n_symbols, (n, task.seq_len), generator=g)
    targets = torch.full_like(tokens, IGNORE)
    targets[:, 1:] = tokens[:, :-1]  # position i answers x[i-1]; position 0 has no previous token
    return Batch(tokens, targets)


def _previous_expected(task: Task, tokens: Tensor) -> Tensor:
    n, length = tokens.shape
    return torch.diag(torch.ones(length - 1), -1).expand(n, length, length).clone()  # row i: key i-1


# ----- reverse the sequence ------------------------------------------------------------------------
def _reverse_sample(task: Task, n: int, g: torch.Generator) -> Batch:
    tokens = torch.randint(task.n_symbols, (n, task.seq_len), generator=g)
    return Batch(tokens, tokens.flip(-1))  # position i answers x[L-1-i]


def _reverse_expected(task: Task, tokens: Tensor) -> Tensor:
    n, length = tokens.shape
    return torch.eye(length).flip(-1).expand(n, length, length).clone()  # row i: key L-1-i


# ----- sort: read k distinct symbols, then write them in increasing order ---------------------------
def _sort_sample(task: Task, n: int, g: torch.Generator) -> Batch:
    k = task.n_items
    items = _distinct(task, n, k, g)  # (n, k)
    ordered = items.sort(dim=1).values
    sep = torch.full((n, 1), task.sep)
    tokens = torch.cat([items, sep, ordered[:, :-1]], dim=1)  # x_1..x_k | s_1..s_{k-1}
    targets = torch.full_like(tokens, IGNORE)
    targets[:, k:] = ordered  # at "|" answer s_1, at s_i answer s_{i+1}
    return Batch(tokens, targets)


def _sort_expected(task: Task, tokens: Tensor) -> Tensor:
    """The query that must write s_{i+1} looks at the input position that holds s_{i+1}."""
    n, length = tokens.shape
    k = length // 2
    items = tokens[:, :k]
    ordered = items.sort(dim=1).values
    out = torch.zeros(n, length, length)
    out[:, k:, :k] = (ordered[:, :, None] == items[:, None, :]).float()  # (n, k queries, k keys)
    return out


# ----- induction: a random run of distinct symbols, repeated; predict the next one the second time ---
def _induction_sample(task: Task, n: int, g: torch.Generator) -> Batch:
    """Filler of random length, a run r of k distinct symbols, more filler, r again, filler to length L.

    The gap between the two copies varies, so "look back a fixed distance" does not work: the model
    must find the earlier copy of the current token and read the token after it (an induction head).
    Filler symbols never occur in the run, so the only repeated run symbols are the two copies.
    """
    length, k = task.seq_len, task.n_items
    spare = length - 2 * k  # filler positions in total
    perm = torch.rand(n, task.n_symbols, generator=g).argsort(dim=1)
    run, pool = perm[:, :k], perm[:, k:]  # (n, k), (n, V - k)
    filler = pool.gather(1, torch.randint(pool.shape[1], (n, spare), generator=g))  # (n, spare)
    cuts = torch.randint(spare + 1, (n, 2), generator=g).sort(dim=1).values
    before, between = cuts[:, :1], cuts[:, 1:] - cuts[:, :1]  # filler lengths, (n, 1) each
    first, second = before, before + k + between  # where the two copies start
    pos = torch.arange(length).expand(n, length)
    in_first = (pos >= first) & (pos < first + k)
    in_second = (pos >= second) & (pos < second + k)
    run_index = torch.where(in_first, pos - first, pos - second).clamp(0, k - 1)
    # filler slot of a position: its position minus the run positions before it
    filler_index = (pos - k * (pos >= first + k).long() - k * (pos >= second + k).long()).clamp(0, spare - 1)
    tokens = torch.where(in_first | in_second, run.gather(1, run_index), filler.gather(1, filler_index))
    targets = torch.full_like(tokens, IGNORE)
    answer = in_second & (pos < second + k - 1)  # at r_i (second time) answer r_{i+1}
    targets[answer] = run.gather(1, (run_index + 1).clamp(max=k - 1))[answer]
    return Batch(tokens, targets)


def _induction_expected(task: Task, tokens: Tensor) -> Tensor:
    """Query q looks at the key just after an earlier occurrence of its own token x[q]."""
    n, length = tokens.shape
    same = tokens[:, :, None] == tokens[:, None, :]  # (n, Lq, Lk): x[q] == x[j]
    earlier = torch.ones(length, length, dtype=torch.bool).tril(-1)  # j < q
    out = torch.zeros(n, length, length)
    out[:, :, 1:] = (same & earlier)[:, :, :-1].float()  # key j+1 where x[j] == x[q], j < q
    return out * torch.ones(length, length).tril()  # the key must be visible to the query (j + 1 <= q)


_SAMPLERS = {
    "previous": _previous_sample,
    "reverse": _reverse_sample,
    "sort": _sort_sample,
    "induction": _induction_sample,
}
_EXPECTED = {
    "previous": _previous_expected,
    "reverse": _reverse_expected,
    "sort": _sort_expected,
    "induction": _induction_expected,
}

TASKS: dict[str, Task] = {
    "previous": Task("previous", n_symbols=8, seq_len=10, causal=True),
    "reverse": Task("reverse", n_symbols=8, seq_len=8, causal=False),
    "sort": Task("sort", n_symbols=10, seq_len=10, causal=True, uses_sep=True),
    "induction": Task("induction", n_symbols=12, seq_len=16, causal=True, layers_needed=2),
}
TASK_NAMES: tuple[str, ...] = tuple(TASKS)
