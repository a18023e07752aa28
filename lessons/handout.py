"""A lesson as a printable handout: one self-contained HTML page (no script, no network: figures are inline SVG
drawn from the Scene's arrays by figures.svg, those of the LLM pages by lessons/handout_llm.py), in English or
Chinese. The stops with their setting, a figure of what the stop's page shows, the checkpoint questions with room
to answer, and an answer key that starts on a page of its own when printed. `notes=True` adds the speaker notes
(the teacher's copy).
"""

from __future__ import annotations

from html import escape

import numpy as np

import i18n
from explorer import output_by_head, positional_tables, run_scene, shape_table, valid_head_counts
from explorer.note004 import note004_data
from explorer.pipeline import Scene
from explorer.quiz import render
from explorer.settings import Settings
from figures.svg import heatmap_svg, tiles_svg
from i18n.catalog_errata import ERRATA
from mha_core import parameter_count

from . import question
from .handout_llm import LLM_FIGURES, setting_line
from .html import inline as _inline
from .html import md_html, rich_text
from .html import table as _table
from .model import Lesson, Stop
from .pages import page_title_keys

MAX_TILES = 16
PE_LENGTH, PE_D = 50, 64  # what /positional shows before its own controls are touched

CSS = """
@page { size: A4; margin: 15mm 14mm; }
* { box-sizing: border-box; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { font-family: "Noto Sans", "Noto Sans CJK SC", "Source Han Sans SC", "PingFang SC", "Microsoft YaHei",
       "Helvetica Neue", Arial, sans-serif; color: #111; line-height: 1.45; max-width: 190mm; margin: 0 auto;
       padding: 12px; font-size: 11pt; }
h1 { font-size: 20pt; margin: 0 0 4px; } h2 { font-size: 14pt; margin: 18px 0 4px; }
h3 { font-size: 11.5pt; margin: 10px 0 4px; }
h2, h3, .where, .setting { break-after: avoid; page-break-after: avoid; }
.facts, .setting, .where { color: #333; font-size: 9.5pt; margin: 2px 0; }
.name { margin: 10px 0 4px; font-size: 10.5pt; }
.stop { border-top: 1.5px solid #444; padding-top: 4px; margin-top: 14px; }
.stop h2 .minutes { font-weight: normal; color: #333; font-size: 10pt; }
figure { margin: 8px 0; break-inside: avoid; } figure svg { max-width: 100%; height: auto; }
figcaption { font-size: 9pt; color: #333; }
table { border-collapse: collapse; font-size: 9.5pt; margin: 6px 0; break-inside: avoid; }
th, td { border: 1px solid #999; padding: 2px 6px; text-align: left; vertical-align: top; }
th { background: #eee; }
caption { text-align: left; font-weight: bold; font-size: 10pt; padding: 2px 0; }
.question { border: 1.5px solid #222; border-radius: 6px; padding: 6px 10px; margin: 10px 0; break-inside: avoid; }
.question ol { list-style: none; padding-left: 4px; margin: 4px 0; }
.question li::before { content: "\\2610\\00a0 "; font-size: 12pt; }
.blank { display: inline-block; border-bottom: 1px solid #000; min-width: 45mm; height: 1.2em; }
.notes { background: #f3f3f3; border-left: 4px solid #777; padding: 4px 10px; margin: 8px 0; font-size: 10pt; }
.answers { break-before: page; page-break-before: always; }
.answers li { margin-bottom: 8px; }
footer { margin-top: 24px; font-size: 8.5pt; color: #444; }
"""


def _shown_scene(s: Settings) -> Scene:
    """The Scene the stop's page shows: with the padding batch, the sentence with the most [PAD] (as /steps)."""
    sc = run_scene(s)
    if sc.batch and sc.key_padding is not None:
        return sc.batch[int(np.argmax(sc.key_padding.sum(axis=1)))]
    return sc


def _figure(stop: Stop, lang: str) -> str:
    """What the stop's page shows at its setting, drawn for paper (SVG or a table); empty for pages without one."""
    if stop.page in LLM_FIGURES:
        return LLM_FIGURES[stop.page](stop.settings, lang)
    t = i18n.translator(lang)
    s = stop.settings
    sc = _shown_scene(s)
    heads = [t("common.head_n", n=i + 1) for i in range(min(sc.n_heads, MAX_TILES))]

    def tiles(stack: np.ndarray, kind: str, title: str, cols=None) -> str:
        return tiles_svg(stack[:MAX_TILES], sc.labels, cols, heads, kind=kind, title=title)

    page, step = stop.page, stop.step
    if page == "steps" and step is not None:
        if step == 3:
            return _table([t("handout.col.tensor"), t("handout.col.shape"), t("handout.col.here")],
                          [list(r) for r in shape_table(s, sc.len_q, sc.len_k)])  # fmt: skip
        by_step = {
            1: lambda: heatmap_svg(sc.x_in, sc.labels, None, title=t("handout.fig.x_in")),
            2: lambda: heatmap_svg(sc.w_q, [str(i) for i in range(s.d_model)], None,
                                   title=t("handout.fig.w_q", dk=s.d_k), row_title=t("handout.axis.input"),
                                   col_title=t("handout.axis.query")),
            4: lambda: tiles(sc.scores, "signed", t("handout.fig.scores"), sc.kv_labels),
            5: lambda: tiles(sc.masked_scores, "signed", t("handout.fig.masked"), sc.kv_labels),
            6: lambda: tiles(sc.weights, "weights", t("handout.fig.weights"), sc.kv_labels),
            7: lambda: tiles(sc.head_outputs, "signed", t("handout.fig.head_outputs")),
            8: lambda: heatmap_svg(sc.concat, sc.labels, None, title=t("handout.fig.concat")),
            9: lambda: heatmap_svg(sc.output, sc.labels, None, title=t("handout.fig.output")),
        }
        return by_step[step]()
    if page == "home":
        return _table([t("handout.col.tensor"), t("handout.col.shape"), t("handout.col.here")],
                      [list(r) for r in shape_table(s, sc.len_q, sc.len_k)])  # fmt: skip
    if page in ("heads", "minilm"):
        return tiles(sc.weights, "weights", t("handout.fig.weights"), sc.kv_labels)
    if page == "worked":
        return tiles(sc.q, "signed", t("handout.fig.q")) + tiles(sc.weights, "weights", t("handout.fig.weights"),
                                                                 sc.kv_labels)  # fmt: skip
    if page == "inputs":
        return heatmap_svg(sc.x_in, sc.labels, None, title=t("handout.fig.x_in"))
    if page == "positional":
        p = positional_tables(PE_LENGTH, PE_D, float(s.pe_base)).p
        return heatmap_svg(p, [str(i) for i in range(PE_LENGTH)], None, title=t("handout.fig.pe", n=PE_LENGTH, d=PE_D),
                           row_title=t("handout.axis.position"), col_title=t("handout.axis.dimension"))  # fmt: skip
    if page == "why":
        rows = [[h, s.d_model // h, f"{parameter_count(s.d_model, h, bias=False).total:,}"]
                for h in valid_head_counts(s.d_model, 16)]  # fmt: skip
        return _table(["h", "d_k", t("handout.col.params")], rows)
    if page == "subspaces":
        return tiles(output_by_head(sc).contributions, "signed", t("handout.fig.contributions"))
    if page == "note004":
        data = note004_data(s)
        ranks = _table(["h", "d_k", t("handout.col.max_rank"), t("handout.col.reachable")],
                       [[r.n_heads, r.d_k, r.max_rank, f"{r.reachable:g}"] for r in data.bottleneck])  # fmt: skip
        costs = _table(["h", "d_k", t("handout.col.mults"), t("handout.col.exps"), t("handout.col.bytes")],
                       [[c.n_heads, c.d_k, f"{c.matmul_mults:,}", f"{c.exponentials:,}", f"{c.score_bytes:,}"]
                        for c in data.costs])  # fmt: skip
        return ranks + costs
    if page == "errata":
        items = [f"{t('errata.note_n', n=e['note'])} · {t('errata.' + e['id'] + '.title')}" for e in ERRATA]
        return "<ul>" + "".join(f"<li>{rich_text(item)}</li>" for item in items) + "</ul>"
    return ""


def _setting_line(s: Settings, sc: Scene, lang: str) -> str:
    t = i18n.translator(lang)
    sentence = " ".join(sc.tokens)
    return t("handout.setting", sentence=sentence, L=sc.len_q, d=s.d_model, h=s.n_heads, dk=s.d_k,
             mask=t(f"mask.{s.mask}"), pe=t("handout.pe_on" if s.add_pe else "handout.pe_off"))  # fmt: skip


def _question_html(q_rendered: dict, number: int, lang: str) -> str:
    t = i18n.translator(lang)
    body = f"<h3>{escape(t('handout.checkpoint', n=number))}</h3><p>{rich_text(q_rendered['prompt'])}</p>"
    if q_rendered["answer_type"] == "choice":
        body += "<ol>" + "".join(f"<li>{rich_text(o['label'])}</li>" for o in q_rendered["options"]) + "</ol>"
    else:
        body += f'<p>{escape(t("handout.answer"))} <span class="blank"></span></p>'
    return f'<div class="question">{body}</div>'


def handout_html(lesson: Lesson, lang: str = "en", notes: bool = False) -> str:
    """The whole handout as one HTML document (UTF-8), ready to print or save as PDF from any browser."""
    lang = i18n.normalise_lang(lang)
    t = i18n.translator(lang)
    titles = page_title_keys()
    out = [f'<!doctype html><html lang="{"zh-Hans" if lang == "zh" else "en"}"><head><meta charset="utf-8">'
           f'<meta name="viewport" content="width=device-width, initial-scale=1">'
           f"<title>{escape(lesson.title(lang))}</title><style>{CSS}</style></head><body>"]  # fmt: skip
    out.append(f"<header><h1>{escape(lesson.title(lang))}</h1>")
    out.append(f"<p>{escape(lesson.summary(lang))}</p>")
    facts = t("handout.facts", stops=len(lesson.stops), minutes=f"{lesson.minutes:g}",
              questions=len(lesson.checkpoints))
    out.append(f'<p class="facts">{escape(facts)}</p>')
    if notes:
        out.append(f'<p class="facts"><strong>{escape(t("handout.teacher_copy"))}</strong></p>')
    else:
        out.append(f'<p class="name">{escape(t("handout.name"))} <span class="blank"></span></p>')
    out.append(f"<h2>{escape(t('handout.objectives'))}</h2><ul>")
    out += [f"<li>{_inline(o)}</li>" for o in lesson.objectives(lang)]
    out.append("</ul></header>")
    key = []
    drawn: dict[tuple, int] = {}
    for stop in lesson.stops:
        sc = _shown_scene(stop.settings)
        page = t(titles[stop.page]) + (f" · {t('handout.step', n=stop.step)}" if stop.step else "")
        heading = escape(t("handout.stop", n=stop.number, title=stop.title(lang)))
        minutes = escape(t("handout.minutes", m=f"{stop.minutes:g}"))
        out.append(f'<section class="stop"><h2>{heading} <span class="minutes">{minutes}</span></h2>')
        out.append(f'<p class="where">{escape(t("handout.page", page=page))}</p>')
        setting = setting_line(stop, lang) or _setting_line(stop.settings, sc, lang)
        out.append(f'<p class="setting">{escape(setting)}</p>')
        out.append(md_html(stop.task(lang)))
        seen = (stop.page, stop.step, stop.settings)
        if seen in drawn:
            out.append(f'<p class="where">{escape(t("handout.same_figure", n=drawn[seen]))}</p>')
        else:
            figure = _figure(stop, lang)
            if figure:
                drawn[seen] = stop.number
                out.append(f"<figure>{figure}</figure>")
        q = question(stop, lang)
        if q is not None:
            rendered = render(q, lang)
            number = len(key) + 1
            out.append(_question_html(rendered, number, lang))
            key.append((number, stop, rendered))
        if notes:
            out.append(f'<aside class="notes"><strong>{escape(t("handout.notes"))}</strong>{md_html(stop.notes(lang))}'
                       "</aside>")  # fmt: skip
        out.append("</section>")
    out.append(f'<section class="answers"><h2>{escape(t("handout.key"))}</h2><ol>')
    for number, stop, r in key:
        out.append(f"<li><strong>{escape(t('handout.checkpoint', n=number))}</strong> "
                   f"{escape(t('handout.stop_ref', n=stop.number))}{rich_text(r['answer_text'])}"
                   f"<br>{rich_text(r['explain'])}</li>")  # fmt: skip
    out.append("</ol></section>")
    out.append(f"<footer>{escape(t('handout.footer'))}</footer></body></html>")
    return "".join(out)


def handout_name(lesson: Lesson, lang: str, notes: bool = False) -> str:
    """The file name of a download: mha45-handout-zh.html, mha45-teacher-en.html."""
    return f"{lesson.id}-{'teacher' if notes else 'handout'}-{i18n.normalise_lang(lang)}.html"
