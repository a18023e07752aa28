"""Streamlit's own English texts, replaced by the app's translated ones where Streamlit lets us.

- An unknown page (/no-such-page): Streamlit shows an English "Page not found" dialog when the URL names no
  page. A hidden page of ours, registered under exactly that name, answers instead, in the user's language.
- Its English names in the page (aria-label, title, placeholder: "Help for ...", "Open", the plot toolbar) are
  replaced on a Chinese page by ui/a11y.js (the list in ui/a11y.py).
- The file uploader: its "Drag and drop file here · Limit 200MB per file" is English and the limit is the
  server's. The uploader gets a limit of its own (1 MB; a settings file is at most 64 KB) and its instructions
  are replaced by a translated caption.
"""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Callable

import streamlit as st

PAGE_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
UPLOAD_LIMIT_MB = 1


def requested_page() -> str:
    """The first path segment of the address the browser shows ("" for the home page)."""
    try:
        path = urllib.parse.urlsplit(str(st.context.url or "")).path
    except Exception:  # no browser context (AppTest)
        return ""
    base = str(st.get_option("server.baseUrlPath") or "").strip("/")
    parts = [p for p in path.strip("/").split("/") if p]
    if base and parts[: len(base.split("/"))] == base.split("/"):
        parts = parts[len(base.split("/")):]
    return parts[0] if parts else ""


def not_found_page(known: set[str], tr: Callable[..., str], home: str) -> st.Page | None:
    """A hidden page for an unknown page name in the URL (None when the name is known, empty or unusable)."""
    name = requested_page()
    if not name or name in known or not PAGE_NAME.fullmatch(name):
        return None

    def not_found() -> None:
        st.title(tr("nav.not_found_title"))
        st.warning(tr("nav.not_found", page=name), icon=":material/explore_off:")
        st.page_link(home, label=tr("nav.go_home"), icon=":material/home:")

    return st.Page(not_found, title=tr("nav.not_found_title"), url_path=name, visibility="hidden")


def uploader_note(tr: Callable[..., str]) -> None:
    """Under a file uploader: hide Streamlit's English instructions, say the limit in the user's language."""
    st.html("<style>[data-testid='stFileUploaderDropzoneInstructions'] { display: none; }</style>")
    st.caption(tr("io.upload_limit", mb=UPLOAD_LIMIT_MB))
