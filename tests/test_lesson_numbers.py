"""Every number a lesson states is tied to the function that computes it.

For each text of each built-in lesson (title, summary, objectives, and each stop's title, task and notes), every
numeral of the English text is listed here with where it comes from: a function of the app evaluated at the stop's
setting (the Scene, the quiz bank's question, the page's own computation, the published sizes), a constant of a
formula the text writes out, or an example the text offers as one. A numeral that is not listed fails the test, and
so does a listed one whose function gives another value: a lesson cannot state a number nobody computed. The Chinese
text states the same numbers. Names that contain digits (Llama-2-70B, note 004, years of citations) are not numbers.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

import numpy as np
import pytest
import torch

import lessons
from explorer.decoding import run_decoding
from explorer.llm import POSITIONS, beyond_view, kv_head_choices, memory_rows, positions_view, window_view
from explorer.models import LLM_MODELS, REAL_MODELS
from explorer.pipeline import run_scene
from explorer.quiz import render
from i18n import t
from lessons import handout_llm
from mha_core import alibi_slopes, kv_cache_bytes, parameter_count, window_reach
from mha_core.note004 import bottleneck_sweep, inclusion_check, reachable_keys
from tests.test_lesson_llm import page_literal

NAMES = re.compile(
    r"Llama[- ]2[- ]\d+B|Mistral[- ]7B|Qwen2(?:-\d+B)?|GPT-3(?: 175B)?|all-MiniLM-L6-v2|Gemma-2B|"
    r"(?:[Nn]otes?|笔记) \d{3}(?:(?: and |/| 和 |、|, )\d{3})*|"  # note 000, notes 002 and 004, 笔记 000 和 001
    r"(?<![\d,])(?:19|20)\d\d(?!\d|,\d)"  # the year of a citation
)
NUMERAL = re.compile(r"(?<![\w^])[−-]?\d+(?:[.,]\d+)*(?:e-\d+)?")


def numerals(text: str) -> list[str]:
    return NUMERAL.findall(NAMES.sub(" ", text))


def as_number(numeral: str) -> float:
    return float(numeral.replace("−", "-").replace(",", ""))


class Formula:
    """A constant of a formula the text writes out (the snippet must be in the text)."""

    def __init__(self, snippet: str) -> None:
        self.snippet = snippet


class Example(Formula):
    """A number the text offers as an example (“a server answering 32 requests”), not a result."""


class About:
    """A measured number the text gives as an order of magnitude: within a factor of 10."""

    def __init__(self, fn: Callable[[], float]) -> None:
        self.fn = fn


def stop(lesson: str, stop_id: str) -> lessons.Stop:
    return lessons.get(lesson).stop_by_id(stop_id)


def scene(lesson: str, stop_id: str):
    return run_scene(stop(lesson, stop_id).settings)


def question(lesson: str, stop_id: str):
    return lessons.question(stop(lesson, stop_id))


def prompt(lesson: str, stop_id: str) -> dict:
    return question(lesson, stop_id).prompt.args


def llm_model(prefix: str):
    return next(m for m in LLM_MODELS if m.name.startswith(prefix))


def llm70():
    return llm_model("Llama-2-70B")


def n4_section(key: str) -> int:
    """The number a note004 page section's heading starts with."""
    return int(t(f"n4.{key}.title").split(".")[0])


MHA = "mha45"
WHY = "why-heads"
LLM = "llm"


def sc(stop_id: str, lesson: str = MHA):
    return scene(lesson, stop_id)


# (lesson, stop id or "" for the lesson's own texts, field) -> {numeral: source}
NUMBERS: dict[tuple[str, str, str], dict[str, object]] = {
    # ------------------------------------------------------------------------------------ mha45
    (MHA, "", "title"): {"45": lambda: lessons.get(MHA).minutes},
    (MHA, "overview", "task"): {"11": lambda: sc("overview").len_q, "64": lambda: sc("overview").d_model,
                                "8": (lambda: sc("overview").n_heads, lambda: sc("overview").d_k)},
    (MHA, "overview", "notes"): {"45": lambda: lessons.get(MHA).minutes},
    (MHA, "one-head", "task"): {"1": lambda: sc("one-head").n_heads,
                                "64": (lambda: sc("one-head").d_k, lambda: sc("one-head").d_model),
                                "8": lambda: math.sqrt(sc("one-head").d_k)},
    (MHA, "one-head", "notes"): {"1": Formula("one weight near 1"), "0": Formula("the rest near 0")},
    (MHA, "softmax", "task"): {"0": Formula("between 0 and 1"),
                               "1": (Formula("between 0 and 1"), lambda: sc("softmax").weights.sum(-1).max())},
    (MHA, "softmax", "notes"): {"1": lambda: question(MHA, "softmax").traps[0].value * 3,
                                "3": lambda: 1 / question(MHA, "softmax").traps[0].value},  # the uniform guess
    (MHA, "h-heads", "task"): {"8": (lambda: sc("h-heads").n_heads, lambda: sc("h-heads").d_k),
                               "64": lambda: sc("h-heads").d_model},
    (MHA, "h-heads", "notes"): {"64": lambda: sc("h-heads").d_model, "8": lambda: sc("h-heads").d_k},
    (MHA, "projections", "task"): {"1": Formula("columns of head 1")},
    (MHA, "shapes", "task"): {"512": lambda: sc("shapes").d_model, "8": lambda: sc("shapes").n_heads,
                              "64": lambda: sc("shapes").d_k, "32": lambda: prompt(MHA, "shapes")["B"]},
    (MHA, "concat-output", "task"): {"8": (lambda: sc("concat-output").n_heads, lambda: sc("concat-output").d_k),
                                     "64": lambda: sc("concat-output").d_model},
    (MHA, "concat-output", "notes"): {"4": Formula("section 4")},
    (MHA, "worked-example", "task"): {"4": lambda: sc("worked-example").d_model,
                                      "2": (lambda: sc("worked-example").n_heads, lambda: sc("worked-example").len_q,
                                            lambda: sc("worked-example").d_k)},
    (MHA, "worked-example", "notes"): {
        "1": lambda: prompt(MHA, "worked-example")["r"], "2": lambda: prompt(MHA, "worked-example")["c"],
        "1.45": lambda: float(sc("worked-example").q[0][0, 1]),
        "−0.05": lambda: as_number(prompt(MHA, "worked-example")["note"]),
    },
    (MHA, "causal-mask", "task"): {"0": (Formula("keys 0 … i"), lambda: float(sc("causal-mask").weights[0, 0, 1]))},
    (MHA, "causal-mask", "notes"): {"0": (Formula("A score of 0"), Formula("e^−∞ = 0")), "1": Formula("sum to 1"),
                                    "6": lambda: stop(MHA, "softmax").step},
    (MHA, "positional-encoding", "task"): {"2": Formula("2j + 1"), "1": Formula("2j + 1"),
                                           "10000": lambda: sc("positional-encoding").settings.pe_base},
    # ------------------------------------------------------------------------------------ why-heads
    (WHY, "", "obj1"): {"4": Formula("4 d_model²")},
    (WHY, "same-parameters", "task"): {"32": lambda: min(m.d_model // m.n_heads for m in REAL_MODELS),
                                       "128": lambda: max(m.d_model // m.n_heads for m in REAL_MODELS)},
    (WHY, "same-parameters", "notes"): {"4": lambda: parameter_count(64, 8).weights / 64**2,
                                       "3": Formula("3 d_model²"), "64": Example("why not 64 heads")},
    (WHY, "side-by-side", "task"): {"64": lambda: sc("side-by-side", WHY).d_model, "1": Formula("(i − 1)"),
                                    "0": Formula("counted from 0")},
    (WHY, "low-rank", "task"): {"16": lambda: sc("low-rank", WHY).n_heads, "64": lambda: sc("low-rank", WHY).d_model,
                                "4": (lambda: sc("low-rank", WHY).d_k, lambda: low_rank_rank()),
                                "11": lambda: sc("low-rank", WHY).len_q, "1": lambda: n4_section("rank")},
    (WHY, "low-rank", "notes"): {"1": (Formula("At d_k = 1"), lambda: keys_that_can_win_at_d_k_one() - 1)},
    (WHY, "sum-of-heads", "task"): {"8": lambda: sc("sum-of-heads", WHY).n_heads, "2": lambda: n4_section("basis")},
    (WHY, "sum-of-heads", "notes"): {"1e-7": About(lambda: sum_of_heads_gap())},
    (WHY, "kernel-and-inclusion", "task"): {"3": lambda: n4_section("kernel"), "4": lambda: n4_section("incl")},
    (WHY, "kernel-and-inclusion", "notes"): {"8": (lambda: first_failing_h(), lambda: 64 // first_failing_h()),
                                             "11": lambda: single_rank()},
    (WHY, "not-free", "task"): {"5": lambda: n4_section("cost"), "256": lambda: 256},
    # ------------------------------------------------------------------------------------ llm
    (LLM, "", "obj2"): {"2": Formula("2 × layers")},
    (LLM, "causal-mask", "task"): {"0": Formula("keys 0 … i"), "1": (Formula("sums to 1"), Formula("i + 1"))},
    (LLM, "kv-cache", "task"): {"1": Formula("from 1 to the end"), "10": lambda: prompt(LLM, "kv-cache")["n"]},
    (LLM, "shared-kv", "task"): {
        "8": (lambda: max(kv_head_choices(8)), lambda: sc("shared-kv", LLM).n_heads),
        "1": lambda: min(kv_head_choices(8)), "2": (lambda: kv_head_choices(8)[-2], Formula("2 d²")),
        "4": lambda: 8 // kv_head_choices(8)[-2],  # g = 2: each K/V head serves 4 query heads
    },
    (LLM, "shared-kv", "notes"): {"64": lambda: llm70().n_heads,
                                  "8": (lambda: llm70().n_kv_heads, lambda: llm70().n_heads / llm70().n_kv_heads)},
    (LLM, "real-cache", "task"): {
        "2": Formula("2 × layers × g × d_k × L × 2 bytes"),
        "320": lambda: kib_per_token("Llama-2-70B"), "512": lambda: kib_per_token("Llama-2-7B"),
    },
    (LLM, "real-cache", "notes"): {
        "32": (lambda: llm_model("Llama-2-7B").n_heads, Example("32 requests")),
        "8": (lambda: llm70().n_kv_heads, lambda: llm70().n_heads / llm70().n_kv_heads), "64": lambda: llm70().n_heads,
        "2": Formula("2 (K and V) × layers × g × d_k × 2 bytes"), "2,048": lambda: prompt(LLM, "real-cache")["L"],
        "320": lambda: kib_per_token("Llama-2-70B"), "640": lambda: question(LLM, "real-cache").answer,
        "4": Formula("4-byte numbers"),
    },
    (LLM, "rope-shift", "task"): {"100": lambda: handout_llm.SHIFT},
    (LLM, "rope-shift", "notes"): {"1e-7": About(lambda: shift_change("rope")),
                                   "0": lambda: shift_change("alibi"), "1": About(lambda: shift_change("sinusoidal"))},
    (LLM, "alibi-beyond", "task"): {
        "0.5": lambda: round(float(alibi_slopes(8)[0]), 4), "1": Formula("head 1"),
        "0.0039": lambda: round(float(alibi_slopes(8)[-1]), 4), "8": lambda: sc("alibi-beyond", LLM).n_heads,
        "64": lambda: handout_llm.BEYOND_DK, "512": lambda: handout_llm.TRAINED, "16": lambda: never_turned(512),
        "32": lambda: handout_llm.BEYOND_DK // 2, "4,096": lambda: max(page_literal("positions", "TRAINED")),
    },
    (LLM, "alibi-beyond", "notes"): {
        "2": Formula("2^(−8a/h)"), "−8": Formula("2^(−8a/h)"), "1": Formula("a = 1 … h"),
        "4,096": lambda: max(page_literal("positions", "TRAINED")), "9": lambda: never_turned(4096),
        "32": lambda: handout_llm.BEYOND_DK // 2,
    },
    (LLM, "windows", "task"): {
        "4": lambda: handout_llm.WINDOW, "1": Formula("layer 1"), "2": Formula("layer 2"),
        "3": (lambda: handout_llm.WINDOW - 1, lambda: handout_llm.WINDOW_LAYERS),
        "9": lambda: window_view(handout_llm.WINDOW_LENGTH, handout_llm.WINDOW, handout_llm.WINDOW_LAYERS).reach,
    },
    (LLM, "windows", "notes"): {
        "4,096": lambda: llm_model("Mistral").window, "32": lambda: llm_model("Mistral").layers,
        "131,040": lambda: window_reach(llm_model("Mistral").window, llm_model("Mistral").layers),
        "131": lambda: window_reach(llm_model("Mistral").window, llm_model("Mistral").layers) // 1000,
        "100,000": Example("100,000 positions back"), "1": Formula("w − 1"),
    },
    (LLM, "online-softmax", "task"): {
        "8": lambda: sc("online-softmax", LLM).n_heads,
        "32": lambda: memory_mib(1024), "1,024": lambda: min(page_literal("longcontext", "LENGTHS")),
        "512": lambda: memory_mib(131072) / 1024, "131,072": lambda: max(page_literal("longcontext", "LENGTHS")),
        "2": Formula("(b + 2)"), "3": lambda: handout_llm.TILE,
    },
}  # fmt: skip


def low_rank_rank() -> int:
    s = stop(WHY, "low-rank").settings
    rows = bottleneck_sweep(run_scene(s).x_in, s.d_model, seed=s.seed)
    return next(r.max_rank for r in rows if r.n_heads == s.n_heads)


def keys_that_can_win_at_d_k_one() -> int:
    """"Only the largest and the smallest key can ever win": 2 of 11 keys, whatever the query."""
    return reachable_keys(torch.from_numpy(np.random.default_rng(0).standard_normal((11, 1))))


def sum_of_heads_gap() -> float:
    from explorer import output_by_head

    return output_by_head(sc("sum-of-heads", WHY)).gap


def first_failing_h() -> int:
    s = stop(WHY, "kernel-and-inclusion").settings
    return next(r.n_heads for r in inclusion_check(run_scene(s).x_in, s.d_model, seed=s.seed) if not r.reproducible)


def single_rank() -> int:
    s = stop(WHY, "kernel-and-inclusion").settings
    return inclusion_check(run_scene(s).x_in, s.d_model, seed=s.seed)[0].single_rank


def kib_per_token(prefix: str) -> float:
    m = llm_model(prefix)
    return kv_cache_bytes(1, m.n_kv_heads, m.d_k, m.layers, 2) / 1024


def shift_change(method: str) -> float:
    view = positions_view(stop(LLM, "rope-shift").settings, handout_llm.SHIFT)
    return float(view.score_change[POSITIONS.index(method)])


def never_turned(trained: int) -> int:
    return int(beyond_view(handout_llm.BEYOND_DK, trained, 8).unseen)


def memory_mib(length: int) -> float:
    full = next(f for n, f, _ in memory_rows((length,), handout_llm.BLOCK, 8) if n == length)
    return full / 2**20


# ---------------------------------------------------------------- the texts
def texts():
    """(lesson id, stop id or "", field, Text) of every built-in lesson."""
    for lesson in lessons.catalog().lessons:
        yield lesson.id, "", "title", lesson.title_text
        yield lesson.id, "", "summary", lesson.summary_text
        for i, o in enumerate(lesson.objective_texts):
            yield lesson.id, "", f"obj{i + 1}", o
        for s in lesson.stops:
            for field in ("title", "task", "notes"):
                yield lesson.id, s.id, field, getattr(s, f"{field}_text")


def check(numeral: str, source: object, text: str) -> None:
    if isinstance(source, tuple):
        for one in source:
            check(numeral, one, text)
        return
    if isinstance(source, Formula):
        assert source.snippet in text, (numeral, source.snippet)
        return
    if isinstance(source, About):
        got = abs(float(source.fn()))
        want = as_number(numeral)
        assert (got == want == 0) or (want / 10 <= got <= want * 10), (numeral, got)
        return
    got = source()
    assert got is not False and abs(float(got) - as_number(numeral)) <= 0.5 * 10 ** -decimals(numeral), (numeral, got)


def decimals(numeral: str) -> int:
    return len(numeral.split(".")[1]) if "." in numeral else 0


@pytest.mark.parametrize("where", list(texts()), ids=lambda w: f"{w[0]}:{w[1] or '-'}:{w[2]}")
def test_every_number_a_lesson_states_is_computed(where):
    lesson, stop_id, field, text = where
    found = set(numerals(text.en))
    spec = NUMBERS.get((lesson, stop_id, field), {})
    assert found == set(spec), f"numbers without a source: {found - set(spec)}; listed but absent: {set(spec) - found}"
    for numeral, source in spec.items():
        check(numeral, source, text.en)
    assert set(numerals(text.zh)) == found, (set(numerals(text.zh)) ^ found)  # the Chinese states the same numbers


def test_the_lesson_checkpoints_render_the_numbers_their_stops_name():
    """The numbers a stop's notes give about its checkpoint are the question's own (drawn from the bank)."""
    r = render(question(LLM, "real-cache"))
    assert "2,048" in r["prompt"] and r["answer_text"] == "640"
    assert decimals("1.45") == 2 and stop(MHA, "worked-example").checkpoint is not None
    assert run_decoding(stop(LLM, "kv-cache").settings.text, handout_llm.DECODE_NEW).steps[9].weights.shape[-1] == 10


def test_the_overview_promises_the_errata_the_lesson_cites():
    """The overview's notes say the class meets "several" of the notes' mistakes, naming three (the worked example's
    arithmetic, Concat alone as MultiHead, what each head reads): the lesson does cite those, and more, by key; the
    notes name no count of their own (they once said "two" while the lesson cited seven)."""
    from i18n import cited_ids

    lesson = lessons.get(MHA)
    cited = {e for s in lesson.stops for f in ("task", "notes") for e in cited_ids(getattr(s, f"{f}_text").en)}
    assert {"n001_q", "n000_wo", "n000_split"} <= cited and len(cited) >= 5
    notes = stop(MHA, "overview").notes_text
    assert "several" in notes.en and "好几处" in notes.zh
    assert not re.search(r"\b(one|two|three|four) of them\b", notes.en)
    assert not re.search(r"其中[一两二三四]处", notes.zh)
