"""The head table of the trained decoder on the decoding page (Streamlit markdown, no math)."""

from __future__ import annotations

from collections.abc import Callable

from training.heads import LABEL_AT, MEASURES, RATIO_OVER_UNTRAINED, HeadReport


def head_table(report: HeadReport, layer: int, tr: Callable[..., str]) -> str:
    """One markdown row per head of `layer` (0-based): both measures trained (untrained), and its labels."""
    labels = {(lab.head, lab.measure) for lab in report.labels() if lab.layer == layer}
    head = [tr("decoder.col_head"), tr("decoder.col_previous"), tr("decoder.col_induction"), tr("decoder.col_label")]
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for i in range(report.trained["previous"].shape[1]):
        cells = [f"{report.trained[m][layer, i]:.2f} ({report.untrained[m][layer, i]:.2f})" for m in MEASURES]
        named = [f"**{tr(f'decoder.label.{m}')}**" for m in MEASURES if (i, m) in labels]
        rows.append(f"| {i + 1} | {cells[0]} | {cells[1]} | {', '.join(named) or tr('decoder.label.none')} |")
    return "\n".join(rows)


def head_text(report: HeadReport, layer: int, tr: Callable[..., str]) -> str:
    """The paragraph above the table: what the two measures are, the uniform values, the labelling rule."""
    return tr(
        "decoder.heads_text", layer=layer + 1, n=report.induction_n, uniform_prev=f"{report.uniform['previous']:.2f}",
        uniform_ind=f"{report.uniform['induction']:.2f}", at=LABEL_AT, ratio=f"{RATIO_OVER_UNTRAINED:g}",
    )  # fmt: skip
