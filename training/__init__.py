"""Training lab: a tiny transformer on mha_core.MultiHeadAttention learns toy tasks while we watch its heads.

No streamlit here: the page drives a `Trainer` chunk by chunk; `training.figures` draws what it recorded.
"""

from .model import ModelConfig, ModelOutput, TinyTransformer
from .tasks import IGNORE, TASK_NAMES, TASKS, Batch, Task
from .trainer import (
    BATCH_SIZE,
    DEFAULTS,
    EVAL_SIZE,
    LIMITS,
    MAX_PARALLEL_TRAININGS,
    ExampleResult,
    History,
    Limits,
    Snapshot,
    TrainConfig,
    Trainer,
    TrainingError,
    active_trainings,
    pattern_score,
    single_thread,
    train,
)

__all__ = [
    "BATCH_SIZE",
    "DEFAULTS",
    "EVAL_SIZE",
    "IGNORE",
    "LIMITS",
    "MAX_PARALLEL_TRAININGS",
    "TASKS",
    "TASK_NAMES",
    "Batch",
    "ExampleResult",
    "History",
    "Limits",
    "ModelConfig",
    "ModelOutput",
    "Snapshot",
    "Task",
    "TinyTransformer",
    "TrainConfig",
    "Trainer",
    "TrainingError",
    "active_trainings",
    "pattern_score",
    "single_thread",
    "train",
]
