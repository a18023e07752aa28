"""Stylesheet of pages meant to be redone by hand (/worked): wide equations scroll rather than being cut on
screen, and the page prints as a handout: no sidebar, toolbar or widgets, equations never cut off."""

from __future__ import annotations

import streamlit as st

HANDOUT_CSS = """<style>
[data-testid='stMarkdownContainer'] .katex-display {
  overflow-x: auto; overflow-y: hidden; padding: 0.2em 0; scrollbar-width: thin; }
@media print {
  [data-testid='stSidebar'], [data-testid='stHeader'], [data-testid='stToolbar'], [data-testid='stDecoration'],
  [data-testid='stSidebarCollapsedControl'], [data-testid='stExpandSidebarButton'], [data-testid='stStatusWidget'],
  .stSelectbox, .stToggle, .stCheckbox, .stButton, .stDownloadButton, .stRadio, .stNumberInput,
  [data-testid='stElementToolbar'] { display: none !important; }
  .stMainBlockContainer { max-width: 100% !important; padding: 0 !important; }
  [data-testid='stAppViewContainer'], [data-testid='stMain'] {
    position: static !important; overflow: visible !important; }
  [data-testid='stMarkdownContainer'] .katex-display { overflow: visible !important; }
  .katex-display, [data-testid='stAlert'] { break-inside: avoid; }
  .katex { font-size: 1.05em !important; }
}
</style>"""


def handout_css() -> None:
    st.html(HANDOUT_CSS)
