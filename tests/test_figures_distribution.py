"""figures.query_bars and figures.attention_lines: one query's weights per head, BertViz lines."""

from __future__ import annotations

import json

import numpy as np
import pytest

from figures import attention_lines, query_bars
from figures.distribution import LINE_LEVELS
from figures.style import head_color, round_sig

TOKENS = ["the", "cat", "<script>", "the"]


def spec(fig) -> dict:
    return json.loads(fig.to_json())


def softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def weights(h: int = 3, lq: int = 4, lk: int = 4, seed: int = 0) -> np.ndarray:
    return softmax(np.random.default_rng(seed).normal(size=(h, lq, lk)) * 2)


# query_bars


def test_one_bar_panel_per_head_with_the_input_weights():
    w = weights()[:, 1]  # (h, Lk): query 1 in every head
    d = spec(query_bars(w, TOKENS, "1:cat"))
    assert len(d["data"]) == 3
    for k, bar in enumerate(d["data"]):
        assert bar["type"] == "bar"
        assert bar["x"] == [0, 1, 2, 3]
        assert np.array_equal(np.array(bar["y"]), round_sig(w[k]))
        assert bar["marker"]["color"] == head_color(k)


def test_every_panel_has_the_same_zero_to_one_range():
    d = spec(query_bars(weights(h=6)[:, 0], TOKENS, "0:the"))
    ranges = [v["range"] for k, v in d["layout"].items() if k.startswith("yaxis")]
    assert len(ranges) == 6 and all(r == [0, 1] for r in ranges)


def test_bars_hover_and_titles_are_translated_and_escaped():
    fig = query_bars(weights()[:, 2], TOKENS, "2:<script>", lang="zh")
    d = spec(fig)
    bar = d["data"][0]
    assert bar["customdata"][2] == ["头 1", "2:&lt;script&gt;", bar["customdata"][2][2]]
    assert bar["hovertemplate"].startswith("<b>%{customdata[0]}</b><br>键: ")
    assert "&lt;script&gt;" in d["layout"]["title"]["text"] and "查询" in d["layout"]["title"]["text"]
    assert [a["text"] for a in d["layout"]["annotations"]] == ["头 1", "头 2", "头 3"]
    assert "<script" not in fig.to_json()


def test_bar_values_written_only_for_few_keys():
    assert "text" in spec(query_bars(weights()[:, 0], TOKENS, "q"))["data"][0]
    many = softmax(np.random.default_rng(1).normal(size=(2, 30)))
    assert "text" not in spec(query_bars(many, [f"t{i}" for i in range(30)], "q"))["data"][0]


def test_more_than_sixteen_heads_fall_back_to_one_heatmap():
    w = softmax(np.random.default_rng(2).normal(size=(20, 5)))
    d = spec(query_bars(w, ["a", "b", "c", "d", "e"], "q"))
    assert len(d["data"]) == 1 and d["data"][0]["type"] == "heatmap"
    assert np.array_equal(np.array(d["data"][0]["z"]), round_sig(w))
    assert d["layout"]["yaxis"]["ticktext"][0] == "head 1"


# attention_lines


def lines_of(d: dict, head: int) -> list[dict]:
    return [tr for tr in d["data"] if tr.get("legendgroup") == f"head{head}" and tr["mode"] == "lines"]


def segments(trace: dict) -> int:
    return sum(1 for x in trace["x"] if x is None) if trace["x"] != [None] else 0


def test_one_line_per_weight_above_the_threshold_grouped_per_head():
    w = weights()
    d = spec(attention_lines(w, TOKENS, TOKENS, heads=[0, 2], min_weight=0.02))
    for k in (0, 2):
        drawn = sum(segments(tr) for tr in lines_of(d, k))
        assert drawn == int((w[k] >= 0.02).sum())
        assert all(tr["line"]["color"] == head_color(k) for tr in lines_of(d, k))
    assert not lines_of(d, 1)
    assert len(d["data"]) <= 2 * (len(LINE_LEVELS) + 1) + 2  # few traces: levels + hover per head


def test_stronger_weights_get_more_opaque_and_wider_lines():
    w = np.zeros((1, 1, 3))
    w[0, 0] = [0.1, 0.3, 0.6]
    d = spec(attention_lines(w, ["q"], ["a", "b", "c"], heads=[0]))
    traces = lines_of(d, 0)
    assert [segments(tr) for tr in traces] == [1, 1, 1]
    assert traces[0]["opacity"] < traces[1]["opacity"] < traces[2]["opacity"]
    assert traces[0]["line"]["width"] < traces[1]["line"]["width"] < traces[2]["line"]["width"]
    # each line goes from the query (x=0) to its key (x=1)
    assert traces[2]["x"] == [0.0, 1.0, None]
    assert traces[2]["y"][1] == 2.0  # key 2, centred: 3 keys vs 1 query


def test_legend_lists_each_chosen_head_once():
    d = spec(attention_lines(weights(), TOKENS, TOKENS, heads=[0, 1, 2], lang="zh"))
    legend = [tr["name"] for tr in d["data"] if tr.get("showlegend")]
    assert legend == ["头 1", "头 2", "头 3"]


def test_query_mode_draws_only_that_query():
    w = weights()
    d = spec(attention_lines(w, TOKENS, TOKENS, heads=[0, 1, 2], query=2))
    starts = {tr["y"][i] for tr in d["data"] if tr["mode"] == "lines" for i in range(0, len(tr["y"]), 3)
              if tr["y"][i] is not None}
    assert all(abs(y - 2) < 0.25 for y in starts)  # query 2 (heads are shifted by at most 0.2)
    hover = [c for tr in d["data"] if "customdata" in tr for c in tr["customdata"]]
    assert hover and all(c[1] == "2:&lt;script&gt;" for c in hover)
    assert d["layout"]["yaxis"]["ticktext"][2] == "<b>2:&lt;script&gt;</b>"


def test_lines_hover_weight_and_labels_escaped():
    fig = attention_lines(weights(), TOKENS, TOKENS, heads=[1], query=2)
    d = spec(fig)
    hover = next(tr for tr in d["data"] if "customdata" in tr)
    assert hover["customdata"][0][0] == "head 2"
    assert "&lt;script&gt;" in d["layout"]["title"]["text"]
    assert d["layout"]["yaxis2"]["ticktext"] == ["0:the", "1:cat", "2:&lt;script&gt;", "3:the"]
    assert "<script" not in fig.to_json()


def test_bad_heads_or_query_are_refused():
    with pytest.raises(ValueError, match="head"):
        attention_lines(weights(), TOKENS, TOKENS, heads=[3])
    with pytest.raises(ValueError, match="query"):
        attention_lines(weights(), TOKENS, TOKENS, heads=[0], query=9)
