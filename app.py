"""The app: `streamlit run app.py`. The frame (language, settings sidebar, navigation) is in frame.py."""

from frame import run_frame

run_frame()
