"""The toy tasks: every generated example follows its task's rule (checked by plain-Python oracles), and
the attention each task needs matches hand-written maps."""

from __future__ import annotations

import pytest
import torch

from training import IGNORE, TASKS, Batch

N = 200  # examples checked per task


def sample(name: str, n: int = N, seed: int = 0) -> tuple[list[list[int]], list[list[int]]]:
    b = TASKS[name].sample(n, torch.Generator().manual_seed(seed))
    assert b.tokens.dtype == b.targets.dtype == torch.int64
    assert b.tokens.shape == b.targets.shape == (n, TASKS[name].seq_len)
    return b.tokens.tolist(), b.targets.tolist()


@pytest.mark.parametrize("name", list(TASKS))
def test_same_generator_seed_gives_the_same_examples(name):
    assert sample(name, 8, seed=3) == sample(name, 8, seed=3)
    assert sample(name, 8, seed=3) != sample(name, 8, seed=4)


@pytest.mark.parametrize("name", list(TASKS))
def test_tokens_are_in_the_vocabulary(name):
    task = TASKS[name]
    tokens, targets = sample(name)
    assert all(0 <= v < task.vocab_size for row in tokens for v in row)
    assert all(v == IGNORE or 0 <= v < task.n_symbols for row in targets for v in row)  # never the separator


def test_previous_targets_are_the_token_one_position_back():
    for x, y in zip(*sample("previous"), strict=True):
        assert y[0] == IGNORE
        assert y[1:] == x[:-1]


def test_reverse_targets_are_the_sequence_backwards():
    for x, y in zip(*sample("reverse"), strict=True):
        assert y == x[::-1]


def test_sort_writes_the_distinct_inputs_in_increasing_order_after_the_separator():
    task = TASKS["sort"]
    k = task.n_items
    for x, y in zip(*sample("sort"), strict=True):
        items = x[:k]
        assert len(set(items)) == k  # distinct, so "the next larger one" is always unique
        assert x[k] == task.sep
        assert x[k + 1 :] == sorted(items)[:-1]  # what was written so far (teacher forcing)
        assert y[:k] == [IGNORE] * k
        assert y[k:] == sorted(items)


def test_induction_repeats_one_run_and_asks_for_its_next_symbol_the_second_time():
    k = TASKS["induction"].n_items
    gaps = set()
    for x, y in zip(*sample("induction"), strict=True):
        asked = [i for i, v in enumerate(y) if v != IGNORE]
        second = asked[0]
        assert asked == list(range(second, second + k - 1))  # the second copy, except its last symbol
        run = x[second : second + k]
        assert len(set(run)) == k
        assert [y[second + i] for i in range(k - 1)] == run[1:]  # answer: the run's next symbol
        [first] = [i for i in range(second - k + 1) if x[i : i + k] == run]  # exactly one earlier copy
        filler = [v for i, v in enumerate(x) if not (first <= i < first + k or second <= i < second + k)]
        assert not set(filler) & set(run)  # no false matches for the symbols that matter
        gaps.add(second - first)
    assert len(gaps) > 3  # the distance varies: counting back a fixed number of positions cannot work


def test_previous_needs_the_key_one_position_back():
    tokens = torch.tensor([[3, 1, 4, 1]])
    targets = torch.tensor([[IGNORE, 3, 1, 4]])
    want = [[0, 0, 0, 0], [1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]]
    assert TASKS["previous"].expected_attention(Batch(tokens, targets))[0].tolist() == want


def test_reverse_needs_the_mirror_position():
    tokens = torch.tensor([[3, 1, 4, 1]])
    want = [[0, 0, 0, 1], [0, 0, 1, 0], [0, 1, 0, 0], [1, 0, 0, 0]]
    assert TASKS["reverse"].expected_attention(Batch(tokens, tokens.flip(-1)))[0].tolist() == want


def test_sort_needs_the_input_holding_the_next_number():
    sep = TASKS["sort"].sep
    tokens = torch.tensor([[4, 1, 6, 2, 9, sep, 1, 2, 4, 6]])
    targets = torch.tensor([[IGNORE] * 5 + [1, 2, 4, 6, 9]])
    got = TASKS["sort"].expected_attention(Batch(tokens, targets))[0]
    assert got[:5].sum() == 0  # the inputs have nothing to write
    # "|" must find 1 (position 1), "1" must find 2 (position 3), then 4 (0), 6 (2), 9 (4)
    assert [int(row.argmax()) for row in got[5:]] == [1, 3, 0, 2, 4]
    assert got[5:].sum(-1).tolist() == [1.0] * 5


def test_induction_needs_the_key_after_the_earlier_copy():
    # filler 5 10 | run 4 1 6 2 9 | filler 8 0 10 | run again | filler 0
    tokens = torch.tensor([[5, 10, 4, 1, 6, 2, 9, 8, 0, 10, 4, 1, 6, 2, 9, 0]])
    targets = torch.full_like(tokens, IGNORE)
    targets[0, 10:14] = torch.tensor([1, 6, 2, 9])
    got = TASKS["induction"].expected_attention(Batch(tokens, targets))[0]
    assert got.sum() == 4
    # the second 4 (position 10) reads 1 (position 3), the first copy's next token; and so on
    assert {(q, int(got[q].argmax())) for q in range(10, 14)} == {(10, 3), (11, 4), (12, 5), (13, 6)}


@pytest.mark.parametrize("name", list(TASKS))
def test_every_query_with_a_target_has_exactly_one_needed_key_that_holds_the_answer(name):
    task = TASKS[name]
    batch = task.sample(64, torch.Generator().manual_seed(1))
    expected = task.expected_attention(batch)
    has_target = batch.targets != IGNORE
    assert torch.equal(expected.sum(-1), has_target.float())
    key = expected.argmax(-1)  # (n, L)
    answer_at_key = batch.tokens.gather(1, key)
    assert torch.equal(answer_at_key[has_target], batch.targets[has_target])


def test_labels_show_the_separator_and_dots_where_there_is_no_target():
    task = TASKS["sort"]
    tokens = torch.tensor([4, 1, 6, 2, 9, task.sep, 1, 2, 4, 6])
    targets = torch.tensor([IGNORE] * 5 + [1, 2, 4, 6, 9])
    assert task.labels(tokens) == ["4", "1", "6", "2", "9", "|", "1", "2", "4", "6"]
    assert task.answer_labels(targets, targets) == ["·"] * 5 + ["1", "2", "4", "6", "9"]
