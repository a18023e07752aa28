"""The pages a stop may name: the url_paths of `PAGES` in ui/frame.py, read from that file's source.

ui/frame.py is the one list of pages, but importing it starts Streamlit (and the live class); the lesson model
stays without Streamlit, so it reads the literal table with `ast` instead (tests/test_lessons.py checks that the
two agree). The lesson page itself is not a stop.
"""

from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

FRAME = Path(__file__).resolve().parent.parent / "ui" / "nav.py"  # the page table, without Streamlit
N_STEPS = 9  # the steps of /steps (ui.steps_view.STEP_KEYS; a test checks the count)
STEP_PAGE = "steps"
NOT_A_STOP = frozenset({"lesson", "console"})  # the console is the teacher's screen, never a stop


@lru_cache(maxsize=1)
def app_pages() -> tuple[str, ...]:
    """Every page's url_path, in the order of the navigation."""
    tree = ast.parse(FRAME.read_text(encoding="utf-8"))
    for node in tree.body:
        target = node.target if isinstance(node, ast.AnnAssign) else None
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
        if isinstance(target, ast.Name) and target.id == "PAGES" and node.value is not None:
            return tuple(str(row[1]) for row in ast.literal_eval(node.value))
    raise LookupError(f"no literal PAGES table in {FRAME}")


def stop_pages() -> tuple[str, ...]:
    """The pages a lesson stop may show."""
    return tuple(p for p in app_pages() if p not in NOT_A_STOP)
