"""The app's Streamlit script. The frame (language, settings sidebar, navigation) is in frame.py. The server runs it
through serve.py (`python3 -m ui.streamlit_guard run serve.py`), which adds the live class's version route; plain
`streamlit run app.py` runs it alone."""

from frame import run_frame

run_frame()
