"""The app's logic without UI: settings, presets, and the cached pipeline that turns settings into a Scene."""

from .derived import (
    closest_head_subspaces,
    head_subspace_overlap,
    off_diagonal,
    output_by_head,
    positional_tables,
    valid_head_counts,
    weight_blocks,
)
from .models import REAL_MODELS, model_rows
from .pipeline import Scene, run_scene, shape_table
from .presets import PRESETS, WORKED_EXAMPLE, apply_preset
from .settings import LIMITS, MASKS, REAL_SIZES, WEIGHT_SOURCES, Problem, Settings, validate

__all__ = [
    "LIMITS",
    "MASKS",
    "PRESETS",
    "REAL_MODELS",
    "REAL_SIZES",
    "WEIGHT_SOURCES",
    "WORKED_EXAMPLE",
    "Problem",
    "Scene",
    "Settings",
    "apply_preset",
    "closest_head_subspaces",
    "head_subspace_overlap",
    "model_rows",
    "off_diagonal",
    "output_by_head",
    "positional_tables",
    "run_scene",
    "shape_table",
    "valid_head_counts",
    "validate",
    "weight_blocks",
]
