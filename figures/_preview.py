"""Look at the figures without the app: writes one HTML file per figure (and optionally a PNG
screenshot taken with headless Chromium) for sample data, in both languages and both styles.

    python -m figures._preview /tmp/fig_preview            # HTML only
    python -m figures._preview /tmp/fig_preview --png      # + screenshots (needs /usr/bin/chromium)

The sample numbers are made up here with numpy (a softmax of random scores, a sinusoid table); the
app gets the real ones from mha_core.
"""

from __future__ import annotations

import argparse
import math
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import numpy as np
import plotly.graph_objects as go

from .distribution import attention_lines, query_bars
from .heads import tiled_heads
from .heatmap import matrix_heatmap
from .positional import pe_curves, pe_heatmap, pe_similarity, wavelength_chart
from .style import FigureStyle

TOKENS = ["the", "cat", "<script>", "sat", "on", "the", "猫", '<a href="javascript:alert(1)">x</a>']
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--hide-scrollbars"]


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - np.nanmax(x, axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def sample_data(n_heads: int = 8, length: int = len(TOKENS), d_model: int = 32) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(0)
    scores = rng.normal(size=(n_heads, length, length)) * 1.5
    masked = scores.copy()
    masked[:, np.triu(np.ones((length, length), dtype=bool), k=1)] = -np.inf  # causal mask
    pos = np.arange(length)[:, None]
    angles = pos / 10000 ** (np.arange(0, d_model, 2) / d_model)
    p = np.zeros((length, d_model))
    p[:, 0::2], p[:, 1::2] = np.sin(angles), np.cos(angles)
    return {
        "scores": scores, "masked_scores": masked, "weights": _softmax(masked), "p": p,
        "wavelengths": 2 * math.pi * 10000 ** (np.arange(0, d_model, 2) / d_model),
    }


def figures(lang: str, style: FigureStyle) -> dict[str, go.Figure]:
    d = sample_data()
    big = sample_data(n_heads=16, length=64, d_model=128)
    big_tokens = [f"w{i % 20}" for i in range(64)]
    kw = {"lang": lang, "style": style}
    return {
        "heatmap_weights": matrix_heatmap(d["weights"][0], TOKENS, TOKENS, title="A (head 1)", kind="weights", **kw),
        "heatmap_masked_scores": matrix_heatmap(d["masked_scores"][0], TOKENS, TOKENS, title="QKᵀ/√d_k",
                                                kind="signed", **kw),
        "tiled_8": tiled_heads(d["weights"], TOKENS, TOKENS, title="A", **kw),
        "tiled_8_own_scale": tiled_heads(d["masked_scores"], TOKENS, TOKENS, kind="signed", shared_scale=False,
                                         title="scores", **kw),
        "tiled_16x64": tiled_heads(big["weights"], big_tokens, big_tokens, **kw),
        "query_bars": query_bars(d["weights"][:, 6], TOKENS, "6:猫", **kw),
        "attention_lines": attention_lines(d["weights"], TOKENS, TOKENS, heads=[0, 1, 2], **kw),
        "attention_lines_one": attention_lines(d["weights"], TOKENS, TOKENS, heads=list(range(8)), query=7, **kw),
        "pe_curves": pe_curves(big["p"], [0, 1, 4, 5, 20], **kw),
        "pe_heatmap": pe_heatmap(big["p"], **kw),
        "wavelengths": wavelength_chart(big["wavelengths"], **kw),
        "pe_similarity": pe_similarity(big["p"] @ big["p"].T, **kw),
    }


def write(out: Path, png: bool, only: Callable[[str], bool] = lambda name: True) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for lang in ("en", "zh"):
        for style_name, style in (("normal", FigureStyle()), ("large", FigureStyle.large())):
            for name, fig in figures(lang, style).items():
                if not only(name):
                    continue
                html = out / f"{name}_{lang}_{style_name}.html"
                fig.write_html(html, include_plotlyjs=True, full_html=True)
                written.append(html)
                if png:
                    width = style.width_px + 150
                    height = (fig.layout.height or 600) + 40
                    subprocess.run(
                        [shutil.which("chromium") or "/usr/bin/chromium", *CHROMIUM_ARGS,
                         f"--screenshot={html.with_suffix('.png')}", f"--window-size={width},{height}",
                         html.as_uri()],
                        check=True, capture_output=True, timeout=120,
                    )
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--png", action="store_true", help="screenshot every HTML file with headless Chromium")
    parser.add_argument("--only", default="", help="only figures whose name contains this")
    args = parser.parse_args()
    for path in write(args.out, args.png, lambda name: args.only in name):
        print(path)


if __name__ == "__main__":
    main()
