"""The floor for bench_app.py: one Streamlit page with one small plotly heatmap, started the same way."""

import numpy as np
import plotly.graph_objects as go
import streamlit as st

st.title("Minimal")
z = np.random.default_rng(0).random((11, 11))
st.plotly_chart(go.Figure(go.Heatmap(z=z)), width="stretch", key="only")
