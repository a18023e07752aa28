"""Placeholder frame; the explorer pages arrive with the app issue."""

import streamlit as st

st.set_page_config(page_title="Multi-head attention explorer", layout="wide")
st.title("Multi-head attention explorer")
