"""The app: `streamlit run app.py`.

Streamlit runs this file for every page a browser opens (as `__main__`): the frame (language, settings sidebar,
navigation) draws the page, ui/frame.py. Before that, when the server starts, `streamlit run` imports this file to
serve the `st.App` below, whose lifespan warms the server up for its first visitor (ui/warmup.py).
"""

import streamlit as st

if __name__ == "__main__":  # a page's run
    from ui.frame import run_frame

    run_frame()
else:  # the server's start
    from ui import warmup

    app = st.App(__file__, lifespan=warmup.lifespan, middleware=warmup.middleware())
