"""Streamlit helpers shared by the pages: the settings sidebar, the per-run context, chart display."""
