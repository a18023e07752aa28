"""Figure builders: plain numpy arrays + labels in, plotly Figure out. No streamlit, no attention math."""

from .distribution import attention_lines, query_bars
from .heads import tiled_heads
from .heatmap import matrix_heatmap
from .positional import pe_curves, pe_heatmap, pe_similarity, wavelength_chart
from .similarity import RHO_LATEX, head_similarity_figure
from .style import FigureStyle, safe_label, token_ticks

__all__ = [
    "RHO_LATEX",
    "FigureStyle",
    "attention_lines",
    "head_similarity_figure",
    "matrix_heatmap",
    "pe_curves",
    "pe_heatmap",
    "pe_similarity",
    "query_bars",
    "safe_label",
    "tiled_heads",
    "token_ticks",
    "wavelength_chart",
]
