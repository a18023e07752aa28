"""The decoding page with the trained checkpoint (AppTest): it opens with the trained decoder's heads, names it, and
shows the measured heads beside the untrained model's, in English and in Chinese, on an English and a Chinese
sentence."""

from __future__ import annotations

import pytest

from explorer import Settings, apply_preset
from i18n import t
from tests.conftest import PAGES, plotly_specs
from training.checkpoint import trained_decoder


def open_decoding(make_app, lang: str, text: str | None = None):
    at = make_app(**({"text": text} if text else {}))
    at.query_params["lang"] = lang
    at.run()
    at.run()
    at.switch_page(PAGES["decoding"]).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def markdown(at) -> str:
    return "\n".join(str(m.value) for m in at.markdown)


@pytest.mark.parametrize(("lang", "preset"), [("en", "en"), ("zh", "zh")])
def test_the_page_opens_with_the_trained_decoder_and_its_measured_heads(make_app, lang, preset):
    text = apply_preset(Settings(), preset).text
    at = open_decoding(make_app, lang, text)
    captions = " ".join(str(c.value) for c in at.caption)
    assert t("decoder.name", lang) in captions and t("llm.decode.seeded", lang) not in captions
    assert [s.value for s in at.subheader].count(t("decoder.heads_title", lang)) == 1
    table = markdown(at)
    assert t("decoder.col_previous", lang) in table
    report = trained_decoder().heads
    first = report.trained["previous"][0, 0]
    assert f"{first:.2f} ({report.untrained['previous'][0, 0]:.2f})" in table  # layer 1, head 1, as measured
    labelled = {lab.head for lab in report.labels() if lab.layer == 0 and lab.measure == "previous"}
    assert labelled  # the checkpoint's layer-1 previous-token head, named in the page's language
    for head in labelled:
        assert f"| {head + 1} | {report.trained['previous'][0, head]:.2f} (" in table
    assert table.count(f"**{t('decoder.label.previous', lang)}**") == len(labelled)
    spec = plotly_specs(at)[0]  # the heads of layer 1 over the sentence's tokens
    ticks = " ".join(str(x) for x in spec["layout"]["xaxis"].get("ticktext", []))
    assert "[UNK]" not in ticks


def test_layer_two_shows_its_own_measures(make_app):
    at = open_decoding(make_app, "en")
    next(r for r in at.radio if "decode_layer" in str(r.key)).set_value(2).run()
    assert not at.exception
    report = trained_decoder().heads
    table = markdown(at)
    for head in range(report.trained["previous"].shape[1]):
        assert f"| {head + 1} | {report.trained['previous'][1, head]:.2f} (" in table
    induction = [lab.head for lab in report.labels() if lab.layer == 1 and lab.measure == "induction"]
    assert induction and table.count(f"**{t('decoder.label.induction', 'en')}**") == len(induction)
    for head in induction:  # the label sits on its own head's row
        row = next(line for line in table.splitlines() if line.startswith(f"| {head + 1} | "))
        assert t("decoder.label.induction", "en") in row
    c = report.composition  # below the table: what the induction heads read, measured (K-composition)
    assert f"fall from {c.before[induction[0]]:.2f}" in table and f"{c.keys_without[induction[0]]:.2f}" in table
