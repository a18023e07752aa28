"""The app's pages, in one list: file, url path, title key, section (the frame builds the navigation from it, the
classroom sends followers to a page by its url path, the theme switch stores its choice for every path)."""

from __future__ import annotations

PAGES: tuple[tuple[str, ...], ...] = (
    # (file, url_path == file stem, title key, section key); the first is the home page at "/"
    ("app_pages/home.py", "home", "page.home", "nav.explore"),
    ("app_pages/inputs.py", "inputs", "page.inputs", "nav.explore"),
    ("app_pages/steps.py", "steps", "page.steps", "nav.explore"),
    ("app_pages/heads.py", "heads", "page.heads", "nav.explore"),
    ("app_pages/positional.py", "positional", "page.positional", "nav.explore"),
    ("app_pages/worked.py", "worked", "page.worked", "nav.classroom"),
    ("app_pages/quiz.py", "quiz", "page.quiz", "nav.classroom"),
    ("app_pages/glossary.py", "glossary", "page.glossary", "nav.classroom"),
    ("app_pages/lesson.py", "lesson", "page.lesson", "nav.classroom"),
    ("app_pages/console.py", "console", "page.console", "nav.classroom"),
    ("app_pages/privacy.py", "privacy", "page.privacy", "nav.classroom"),
    ("app_pages/lab.py", "lab", "page.lab", "nav.beyond"),
    ("app_pages/why.py", "why", "page.why", "nav.beyond"),
    ("app_pages/subspaces.py", "subspaces", "page.subspaces", "nav.beyond"),
    ("app_pages/minilm.py", "minilm", "page.minilm", "nav.beyond"),
    ("app_pages/note004.py", "note004", "page.note004", "nav.beyond"),
    ("app_pages/errata.py", "errata", "page.errata", "nav.beyond"),
    ("app_pages/decoding.py", "decoding", "page.decoding", "nav.llm"),
    ("app_pages/sharing.py", "sharing", "page.sharing", "nav.llm"),
    ("app_pages/positions.py", "positions", "page.positions", "nav.llm"),
    ("app_pages/longcontext.py", "longcontext", "page.longcontext", "nav.llm"),
)
# Pages that draw no plotly chart (text, LaTeX, widgets, the Graphviz diagram): plotly.js is not loaded early for them
CHARTLESS = frozenset({"home", "worked", "quiz", "lesson", "console", "privacy", "lab", "errata"})
HOME_INNER = "home-page"  # Streamlit's own name of the home page (its address is "/"; /home is an alias)
# Material Symbols ship with Streamlit's own static files: they draw the same on every machine, offline,
# where emoji need an emoji font the classroom computer may not have (they show as empty boxes there).
ICONS = {
    "home": "home", "inputs": "text_fields", "steps": "stairs", "heads": "view_module", "positional": "waves",
    "worked": "edit_note", "quiz": "quiz", "lab": "model_training", "why": "lightbulb", "minilm": "smart_toy",
    "subspaces": "extension", "note004": "science", "errata": "rule", "glossary": "translate", "lesson": "school",
    "decoding": "keyboard_double_arrow_right", "sharing": "group_work", "positions": "rotate_right",
    "longcontext": "width_wide", "console": "co_present", "privacy": "privacy_tip",
}  # fmt: skip


def page_icon(url: str) -> str:
    """The Material Symbol of a page (its url_path), as Streamlit's icon= parameters take it."""
    return f":material/{ICONS.get(url, 'description')}:"
