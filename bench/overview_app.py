"""For bench_app.py: the all-layers x all-heads overview of a 12-layer, 12-head model (144 attention maps of
12 x 12 tokens) as ONE tiled figure, drawn the way the app draws every chart
(ui.chart_element.show). A seed input forces a redraw."""

import shutil
import sys
from pathlib import Path

import numpy as np
import streamlit as st

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from figures import tiled_heads
from ui.chart_element import PLOTLY_JS, show

# Streamlit serves the static folder beside the main script: this app's is bench/static (not in git)
_static = Path(__file__).resolve().parent / "static" / PLOTLY_JS.name
if not _static.is_file():
    _static.parent.mkdir(exist_ok=True)
    shutil.copyfile(PLOTLY_JS, _static)

LAYERS, HEADS, TOKENS = 12, 12, 12
seed = int(st.number_input("seed", 0, 1000, 0, key="seed"))
logits = np.random.default_rng(seed).normal(size=(LAYERS * HEADS, TOKENS, TOKENS)) * 2
weights = np.exp(logits) / np.exp(logits).sum(axis=-1, keepdims=True)
tokens = [f"t{i}" for i in range(TOKENS)]
titles = [f"L{layer + 1} H{head + 1}" for layer in range(LAYERS) for head in range(HEADS)]
show(tiled_heads(weights, tokens, tokens, tile_titles=titles, max_cols=HEADS), key="all")  # as the app draws it
