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


def composition_text(report: HeadReport, layer: int, tr: Callable[..., str]) -> str | None:
    """Below the induction heads' layer: what happens to their scores without the previous-token head in their keys,
    then in their queries (training.heads.composition); None on the other layers or when it was not measured."""
    c = report.composition
    if c is None or c.reader != layer:
        return None
    readers = [i for i in range(len(c.before)) if (c.reader, i, "induction") in
               {(lab.layer, lab.head, lab.measure) for lab in report.labels()}]  # fmt: skip

    sep = tr("decoder.sep")

    def scores(values) -> str:
        return sep.join(f"{values[i]:.2f}" for i in readers)

    return tr("decoder.composition", w_layer=c.writer[0] + 1, w_head=c.writer[1] + 1, layer=c.reader + 1,
              heads=sep.join(str(i + 1) for i in readers), before=scores(c.before), keys=scores(c.keys_without),
              queries=scores(c.queries_without))  # fmt: skip
