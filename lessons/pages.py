"""The pages a stop may name: the url_paths of the app's one page table, `PAGES` (ui/nav.py), read from that file's
source.

Importing the ui package starts Streamlit; the lesson model stays without Streamlit, so it reads the literal table
with `ast` instead (tests/test_lessons.py checks that the two agree). The lesson page itself is
not a stop.
"""

from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

NAV = Path(__file__).resolve().parent.parent / "ui" / "nav.py"  # the page table, without Streamlit
N_STEPS = 9  # the steps of /steps (ui.steps_view.STEP_KEYS; a test checks the count)
STEP_PAGE = "steps"
NOT_A_STOP = frozenset({"lesson", "console"})  # the console is the teacher's screen, never a stop


@lru_cache(maxsize=1)
def page_table() -> tuple[tuple[str, ...], ...]:
    """The rows of PAGES: (file, url_path, title key, section key)."""
    for node in ast.parse(NAV.read_text(encoding="utf-8")).body:
        target = node.target if isinstance(node, ast.AnnAssign) else None
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
        if isinstance(target, ast.Name) and target.id == "PAGES" and node.value is not None:
            return tuple(tuple(str(x) for x in row) for row in ast.literal_eval(node.value))
    raise LookupError(f"no literal PAGES table in {NAV}")


def app_pages() -> tuple[str, ...]:
    """Every page's url_path, in the order of the navigation."""
    return tuple(row[1] for row in page_table())


def page_files() -> dict[str, str]:
    """url_path -> the page's file (as st.switch_page takes it)."""
    return {row[1]: row[0] for row in page_table()}


def page_title_keys() -> dict[str, str]:
    """url_path -> the i18n key of the page's title."""
    return {row[1]: row[2] for row in page_table()}


def stop_pages() -> tuple[str, ...]:
    """The pages a lesson stop may show."""
    return tuple(p for p in app_pages() if p not in NOT_A_STOP)
