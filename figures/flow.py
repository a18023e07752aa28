"""The pipeline as a Graphviz DOT diagram with live shapes (note 001's flow chart). No streamlit."""

from __future__ import annotations

_SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def _sub(n: int) -> str:
    """A head index as subscript digits (Q₁, head₁₆): the notation of the notes, in plain text.
    (Graphviz HTML labels with <SUB> lay out badly in Streamlit's renderer, so plain text it is.)"""
    return str(n).translate(_SUB)


def _esc(s: str) -> str:
    return s.replace("\\", "\\\\").replace('"', '\\"').replace("<", "‹").replace(">", "›")


def pipeline_dot(len_q: int, len_k: int, d_model: int, n_heads: int, labels: dict[str, str], max_heads: int = 4,
                 *, title: str = "pipeline", dark: bool = False) -> str:  # fmt: skip
    """DOT source: X -> per-head projections -> attention per head -> concat -> W^O -> output.

    Draws at most `max_heads` head lanes (the last one is head h) with "…" between; `labels` are the
    translated words: input, head, concat, output, softmax. `title` names the graph (its SVG's <title>, what
    ui/a11y.js gives a screen reader); `dark`: arrows and free text light on the dark screen (at least 3:1 and 4.5:1).
    """
    dk = d_model // n_heads
    lanes = list(range(min(n_heads, max_heads - 1))) + ([n_heads - 1] if n_heads >= max_heads else [])
    free_text, arrows = ("#f2f2f2", "#b0b0b0") if dark else ("#1a1a1a", "#555555")
    lines = [
        f'digraph "{_esc(title)}" {{',
        f'  rankdir=LR; bgcolor="transparent"; nodesep=0.25; ranksep=0.45; fontcolor="{free_text}";',
        '  node [shape=box, style="rounded,filled", fillcolor="#eef3fb", color="#1f5fbf", fontcolor="#1a1a1a", '
        'fontname="Helvetica", fontsize=12];',
        f'  edge [color="{arrows}"];',
        f'  X [label="{_esc(labels["input"])}\\nX: {len_q}×{d_model}"];',
        f'  C [label="{_esc(labels["concat"])}\\n{len_q}×{n_heads}·{dk} = {len_q}×{d_model}"];',
        f'  O [label="{_esc(labels["output"])} = Concat · W^O\\n{len_q}×{d_model}"];',
    ]
    for i in lanes:
        n, s = i + 1, _sub(i + 1)
        lines += [
            f'  P{i} [label="{_esc(labels["head"])} {n}\\nQ{s} = XW{s}^Q: {len_q}×{dk}\\nK{s}, V{s}: {len_k}×{dk}"];',
            f'  A{i} [label="A{s} = {_esc(labels["softmax"])}(Q{s}K{s}ᵀ / √{dk})\\n{len_q}×{len_k}", '
            'fillcolor="#fdf0e6", color="#c0602a"];',
            f'  H{i} [label="head{s} = A{s}V{s}\\n{len_q}×{dk}"];',
            f"  X -> P{i} -> A{i} -> H{i} -> C;",
        ]
    if n_heads > max_heads:
        lines += [
            f'  dots [label="… {n_heads - len(lanes)} …", shape=plaintext, style="", fontcolor="{free_text}"];',
            "  X -> dots -> C [style=dotted];",
        ]
    lines += ["  C -> O;", "}"]
    return "\n".join(lines)
