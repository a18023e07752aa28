"""Train a TinyTransformer on a toy task in chunks, recording the loss, the accuracy, how much of each
head's attention lands where the task needs it, and snapshots of the heads on one fixed probe example.

Reproducible: the model, the training batches, the evaluation batch and the probe all come from the
seed, and every chunk runs on one thread (see `single_thread`), so the same config gives the same curve.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np
import torch
import torch.nn.functional as F

from mha_core import contribution_similarity, head_similarity

from .model import ModelConfig, TinyTransformer
from .tasks import IGNORE, TASK_NAMES, TASKS, Batch, Task


class TrainingError(ValueError):
    """An invalid training setting, with a stable `code` and the `params` a UI needs to translate it."""

    def __init__(self, code: str, message: str, **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class Limits:
    """Bounds that keep one training to well under a minute of one CPU core."""

    d_models: tuple[int, ...] = (16, 24, 32, 48, 64)
    heads: tuple[int, ...] = (1, 2, 4, 8)  # every one divides every d_model above
    max_layers: int = 2
    min_steps: int = 10
    max_steps: int = 2000  # the largest model (d_model 64, h 8, 2 layers) takes ~15-20 ms a step
    learning_rates: tuple[float, ...] = (3e-4, 1e-3, 3e-3, 1e-2, 3e-2)
    max_seed: int = 9999
    max_snapshots: int = 40


LIMITS = Limits()
BATCH_SIZE = 64
EVAL_SIZE = 256


@dataclass(frozen=True)
class TrainConfig:
    """Everything that decides a training run; hashable, so it can key a cache."""

    task: str = "previous"
    d_model: int = 16
    n_heads: int = 4
    n_layers: int = 1
    steps: int = 500
    lr: float = 1e-2
    seed: int = 0

    def __post_init__(self) -> None:
        if self.task not in TASKS:
            raise TrainingError("bad_task", f"task must be one of {TASK_NAMES}, got {self.task!r}", task=self.task)
        checks = (
            ("d_model", self.d_model, LIMITS.d_models),
            ("n_heads", self.n_heads, LIMITS.heads),
            ("n_layers", self.n_layers, tuple(range(1, LIMITS.max_layers + 1))),
            ("lr", self.lr, LIMITS.learning_rates),
        )
        for name, value, allowed in checks:
            if value not in allowed or isinstance(value, bool):
                raise TrainingError(
                    "not_allowed", f"{name} must be one of {allowed}, got {value!r}", name=name, allowed=allowed
                )
        for name, value, low, high in (
            ("steps", self.steps, LIMITS.min_steps, LIMITS.max_steps),
            ("seed", self.seed, 0, LIMITS.max_seed),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise TrainingError(
                    "out_of_range", f"{name} must be a whole number from {low} to {high}, got {value!r}",
                    name=name, low=low, high=high,
                )  # fmt: skip

    @property
    def task_spec(self) -> Task:
        return TASKS[self.task]

    def model_config(self) -> ModelConfig:
        t = self.task_spec
        return ModelConfig(
            vocab_size=t.vocab_size, seq_len=t.seq_len, d_model=self.d_model, n_heads=self.n_heads,
            n_layers=self.n_layers, causal=t.causal, see_self=False, seed=self.seed,
        )  # fmt: skip


# Defaults per task, tuned so that each trains to its stated accuracy in a few seconds on one thread.
DEFAULTS: dict[str, TrainConfig] = {
    "previous": TrainConfig("previous", d_model=16, n_heads=4, lr=1e-2, steps=500),
    "reverse": TrainConfig("reverse", d_model=16, n_heads=4, lr=1e-2, steps=600),
    "sort": TrainConfig("sort", d_model=16, n_heads=4, lr=1e-2, steps=600),
    "induction": TrainConfig("induction", d_model=32, n_heads=4, n_layers=2, lr=3e-3, steps=900),
}


# ----- sharing the CPU --------------------------------------------------------------------------------
_threads_lock = threading.Lock()
_threads_users = 0
_threads_saved = 1


@contextlib.contextmanager
def single_thread() -> Iterator[None]:
    """torch on one thread while inside (deterministic sums, and one core left for everyone else).

    torch's thread count is process-wide: the first user sets it to 1, the last one restores it.
    """
    global _threads_users, _threads_saved
    with _threads_lock:
        if _threads_users == 0:
            _threads_saved = torch.get_num_threads()
            torch.set_num_threads(1)
        _threads_users += 1
    try:
        yield
    finally:
        with _threads_lock:
            _threads_users -= 1
            if _threads_users == 0:
                torch.set_num_threads(_threads_saved)


# At most this many chunks of training run at the same moment in this process, whoever started them:
# many students training at once take turns chunk by chunk instead of taking every core.
MAX_PARALLEL_TRAININGS = 1
_training_slots = threading.BoundedSemaphore(MAX_PARALLEL_TRAININGS)
_recent_lock = threading.Lock()
_recent_runs: dict[int, float] = {}  # id(trainer) -> time.monotonic() of its last chunk
ACTIVE_WINDOW_S = 3.0


def _mark_active(trainer_id: int) -> None:
    now = time.monotonic()
    with _recent_lock:
        _recent_runs[trainer_id] = now
        for key in [k for k, t in _recent_runs.items() if now - t > ACTIVE_WINDOW_S]:
            del _recent_runs[key]


def active_trainings() -> int:
    """How many trainers in this process ran a chunk in the last few seconds."""
    now = time.monotonic()
    with _recent_lock:
        return sum(1 for t in _recent_runs.values() if now - t <= ACTIVE_WINDOW_S)


# ----- records ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Snapshot:
    """The heads on the probe example at one step: weights (n_layers, h, L, L)."""

    step: int
    weights: np.ndarray


@dataclass
class History:
    """One entry per evaluation: the step, the mean training loss since the last evaluation, the token
    accuracy on the fixed evaluation batch, and each head's pattern score (n_layers, h)."""

    steps: list[int] = field(default_factory=list)
    loss: list[float] = field(default_factory=list)
    accuracy: list[float] = field(default_factory=list)
    pattern: list[np.ndarray] = field(default_factory=list)

    def pattern_array(self) -> np.ndarray:
        """(n_evaluations, n_layers, h)."""
        return np.stack(self.pattern) if self.pattern else np.zeros((0, 0, 0))


def pattern_score(weights: torch.Tensor, expected: torch.Tensor) -> torch.Tensor:
    """How much of each head's attention lands where the task needs it.

    weights (n_layers, B, h, L, L), expected (B, L, L) 0/1 -> (n_layers, h): the weight on the expected
    keys, averaged over every query that has an expected key (1 = exactly the needed pattern).
    """
    rows = expected.sum(-1) > 0  # (B, L)
    mass = (weights * expected[None, :, None]).sum(-1)  # (n_layers, B, h, L)
    return (mass * rows[None, :, None]).sum(dim=(1, 3)) / rows.sum().clamp_min(1)


def schedule(total: int, n: int) -> frozenset[int]:
    """About n steps from 0 to total: half evenly spaced, half geometrically (dense early, where
    most of the learning happens)."""
    even = np.linspace(0, total, n // 2 + 1)
    early = np.geomspace(1, total, n - n // 2)
    return frozenset(int(s) for s in np.unique(np.round(np.concatenate([even, early]))))


def _accuracy(logits: torch.Tensor, targets: torch.Tensor) -> float:
    keep = targets != IGNORE
    return float((logits.argmax(-1)[keep] == targets[keep]).float().mean())


@dataclass(frozen=True)
class ExampleResult:
    """One fresh example through the trained model: labels ("·" where a position has no target), how
    many targets it got right, and the heads (n_layers, h, L, L) and needed pattern (L, L), NaN = masked."""

    tokens: list[str]
    targets: list[str]
    predictions: list[str]
    right: int
    total: int
    weights: np.ndarray
    expected: np.ndarray


# ----- the trainer -----------------------------------------------------------------------------------
class Trainer:
    """Holds a model, its optimiser and everything recorded so far; `run(n)` trains n more steps.

    Batches come from one generator seeded with config.seed, the evaluation batch and the probe example
    from generators of their own, so changing how often we evaluate never changes the training data.
    """

    def __init__(self, config: TrainConfig) -> None:
        self.config = config
        self.task = config.task_spec
        with single_thread():
            self.model = TinyTransformer(config.model_config())
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=config.lr)
        self.data = torch.Generator().manual_seed(config.seed)
        self.eval_batch = self.task.sample(EVAL_SIZE, torch.Generator().manual_seed(1_000_003 + config.seed))
        self.eval_expected = self.task.expected_attention(self.eval_batch)
        probe = self.task.sample(1, torch.Generator().manual_seed(2_000_003 + config.seed))
        self.probe = Batch(probe.tokens[0], probe.targets[0])
        self.step = 0
        self.history = History()
        self.snapshots: list[Snapshot] = []
        self.stopped = False
        self.seconds = 0.0  # time spent inside run()
        self.eval_steps = schedule(config.steps, 100)
        self.snapshot_steps = schedule(config.steps, LIMITS.max_snapshots)
        self._losses: list[float] = []
        with single_thread():
            self._evaluate()
            self._snapshot()
            self.similarity_before = self.head_similarity()
            self.contribution_before = self.contribution_similarity()

    @property
    def done(self) -> bool:
        return self.step >= self.config.steps or self.stopped

    @property
    def mask(self) -> np.ndarray:
        """(L, L) bool: True where a query may not look (later keys, and its own position)."""
        return self.model.mask.numpy()

    def stop(self) -> None:
        """Stop early: the model keeps what it learned so far, recorded at the step it stopped at."""
        self.stopped = True
        with single_thread():
            if self.history.steps[-1] != self.step:
                self._evaluate()
            if self.snapshots[-1].step != self.step:
                self._snapshot()

    def run(self, n_steps: int) -> None:
        """Train up to n_steps more steps (fewer when the budget runs out), on one thread, in one slot."""
        n = min(n_steps, self.config.steps - self.step) if not self.stopped else 0
        if n <= 0:
            return
        start = time.perf_counter()
        with _training_slots, single_thread():
            for _ in range(n):
                self._train_step()
        self.seconds += time.perf_counter() - start
        _mark_active(id(self))

    def _train_step(self) -> None:
        batch = self.task.sample(BATCH_SIZE, self.data)
        logits = self.model(batch.tokens).logits  # (B, L, vocab)
        loss = F.cross_entropy(logits.flatten(0, 1), batch.targets.flatten(), ignore_index=IGNORE)
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        self.optimizer.step()
        self.step += 1
        self._losses.append(loss.item())
        if self.step in self.eval_steps:
            self._evaluate()
        if self.step in self.snapshot_steps:
            self._snapshot()

    @torch.no_grad()
    def _evaluate(self) -> None:
        out = self.model(self.eval_batch.tokens)
        if self._losses:
            loss = float(np.mean(self._losses))
        else:  # step 0: the loss of the untrained model on the evaluation batch
            logits, targets = out.logits.flatten(0, 1), self.eval_batch.targets.flatten()
            loss = float(F.cross_entropy(logits, targets, ignore_index=IGNORE))
        self._losses = []
        self.history.steps.append(self.step)
        self.history.loss.append(loss)
        self.history.accuracy.append(_accuracy(out.logits, self.eval_batch.targets))
        self.history.pattern.append(pattern_score(out.weights, self.eval_expected).numpy())

    @torch.no_grad()
    def _snapshot(self) -> None:
        weights = self.model(self.probe.tokens[None]).weights[:, 0]  # (n_layers, h, L, L)
        self.snapshots.append(Snapshot(self.step, weights.numpy().copy()))

    # ----- reading the model -----------------------------------------------------------------------
    @torch.no_grad()
    def head_similarity(self) -> np.ndarray:
        """(n_layers, h, h): cosine similarity of the heads' outputs on the probe (mha_core.head_similarity)."""
        with single_thread():
            traces = self.model(self.probe.tokens[None]).traces
        return np.stack([head_similarity(t.head_outputs[0]).numpy() for t in traces])

    @torch.no_grad()
    def contribution_similarity(self) -> np.ndarray:
        """(n_layers, h, h): cosine of the heads' contributions head_i W^O_i on the probe (does not depend on the
        heads' arbitrary value coordinates, unlike head_similarity)."""
        with single_thread():
            traces = self.model(self.probe.tokens[None]).traces
        return np.stack([contribution_similarity(t.head_outputs[0], t.w_o_heads.detach()).numpy() for t in traces])

    @torch.no_grad()
    def predict(self, tokens: torch.Tensor) -> tuple[np.ndarray, np.ndarray]:
        """One example (L,) -> (predicted tokens (L,), weights (n_layers, h, L, L))."""
        with single_thread():
            out = self.model(tokens[None])
        return out.logits[0].argmax(-1).numpy(), out.weights[:, 0].numpy()

    def fresh_example(self, number: int) -> Batch:
        """Example `number` of a stream the model never trained on (its own seed), unbatched."""
        b = self.task.sample(1, torch.Generator().manual_seed(3_000_017 + 7919 * number + self.config.seed))
        return Batch(b.tokens[0], b.targets[0])

    def try_example(self, number: int) -> ExampleResult:
        """The model on fresh example `number`: labels of input, target and prediction, and its heads."""
        example = self.fresh_example(number)
        predicted, weights = self.predict(example.tokens)
        has_target = (example.targets != IGNORE).numpy()
        return ExampleResult(
            tokens=self.task.labels(example.tokens),
            targets=self.task.answer_labels(example.targets, example.targets),
            predictions=self.task.answer_labels(torch.as_tensor(predicted), example.targets),
            right=int(((predicted == example.targets.numpy()) & has_target).sum()),
            total=int(has_target.sum()),
            weights=self.for_display(weights),
            expected=self.for_display(self.expected(example)),
        )

    def uniform_pattern(self) -> float:
        """The pattern score of attention spread evenly over the visible keys: where training starts from."""
        visible = ~self.model.mask
        uniform = visible / visible.sum(-1, keepdim=True).clamp_min(1)  # (L, L)
        weights = uniform.expand(1, len(self.eval_batch.tokens), 1, *uniform.shape).float()
        return float(pattern_score(weights, self.eval_expected).mean())

    def expected(self, example: Batch) -> np.ndarray:
        """Where the task needs attention on one unbatched example: (L, L) 0/1."""
        batch = Batch(example.tokens[None], example.targets[None])
        return self.task.expected_attention(batch)[0].numpy()

    def for_display(self, weights: np.ndarray) -> np.ndarray:
        """Weights (..., L, L) with NaN where the mask hides a key, so figures show them as masked."""
        return np.where(self.mask, np.nan, weights)

    def final_summary(self) -> dict[str, float]:
        """The last accuracy, the best head's pattern score and the seconds spent training."""
        best = float(self.history.pattern[-1].max())
        return {"accuracy": self.history.accuracy[-1], "best_pattern": best, "seconds": self.seconds}


def train(config: TrainConfig, chunk: int = 100) -> Trainer:
    """Train to the end of the budget (for tests and notebooks)."""
    trainer = Trainer(config)
    while not trainer.done:
        trainer.run(chunk)
    return trainer
