"""The app's logic without UI: settings, presets, and the cached pipeline that turns settings into a Scene."""

from .pipeline import Scene, run_scene, shape_table
from .presets import PRESETS, WORKED_EXAMPLE, apply_preset
from .settings import LIMITS, MASKS, Problem, Settings, validate

__all__ = [
    "LIMITS",
    "MASKS",
    "PRESETS",
    "WORKED_EXAMPLE",
    "Problem",
    "Scene",
    "Settings",
    "apply_preset",
    "run_scene",
    "shape_table",
    "validate",
]
