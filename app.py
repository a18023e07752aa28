"""The app: `streamlit run app.py`. The frame (language, settings sidebar, navigation) is in ui/frame.py."""

from ui.frame import run_frame

run_frame()
