"""The app: `streamlit run app.py`.

Streamlit runs this file for every page a browser opens (as `__main__`): the frame (language, settings sidebar,
navigation) draws the page, frame.py. Before that, when the server starts, `streamlit run` imports this file to
serve the `st.App` below, whose lifespan warms the server up for its first visitor (ui/warmup.py).
"""

import streamlit as st

if __name__ == "__main__":  # a page's run
    from frame import run_frame

    run_frame()
else:  # the server's start
    from ui import warmup

    def _import_frame() -> None:
        """What every page's run imports (the warm-up does it in its own thread, after the server answers)."""
        import frame  # noqa: F401

    app = st.App(__file__, lifespan=warmup.lifespan(_import_frame), middleware=warmup.middleware())
