"""One vocabulary: every catalogue in i18n/ (found at run time, so catalogues added later are checked too) uses
the glossary's words (i18n/glossary.py); page titles begin with their navigation labels."""

from __future__ import annotations

import importlib
import pkgutil
import re

import pytest

import i18n
from i18n import t
from i18n.glossary import CELL_VALUE_EN, GLOSSARY
from tests.conftest import ROOT


def catalogues() -> dict[str, dict[str, dict[str, str]]]:
    found = {}
    for mod in pkgutil.iter_modules(i18n.__path__):
        if mod.name.startswith("catalog"):
            strings = getattr(importlib.import_module(f"i18n.{mod.name}"), "STRINGS", None)
            if isinstance(strings, dict):
                found[mod.name] = strings
    return found


def entries():
    for module, strings in catalogues().items():
        for key, entry in strings.items():
            yield module, key, entry.get("en", ""), entry.get("zh", "")


def plain(text: str) -> str:
    """Text without quoted names (“…”), code (`…`) and LaTeX ($…$), where other rules apply."""
    return re.sub(r"“[^”]*”|`[^`]*`|\$[^$]*\$|\{[^}]*\}", "", text)


CJK = r"[\u3400-\u9fff\uff08\uff09\u3001\u3002]"


def test_every_catalogue_module_is_registered():
    merged = i18n.STRINGS
    for module, strings in catalogues().items():
        missing = [k for k in strings if k not in merged]
        assert not missing, f"{module} is not merged in i18n/__init__.py: {missing[:3]}"
    assert len(catalogues()) >= 8


def test_no_catalogue_uses_a_forbidden_variant():
    problems = []
    for module, key, en, zh in entries():
        glossed = re.sub(r"（[A-Za-z -]+）", "", zh)  # 重塑（reshape）: the English word as a gloss is fine
        for term in GLOSSARY:
            for pattern in term.forbidden_zh:
                if re.search(pattern, glossed):
                    problems.append(f"{module}:{key}: zh uses {pattern!r}, say {term.zh!r} ({term.en})")
            for pattern in term.forbidden_en:
                if re.search(pattern, en):
                    problems.append(f"{module}:{key}: en uses {pattern!r} ({term.en})")
    assert not problems, "\n".join(problems)


def test_a_glossary_term_in_english_has_its_chinese_word():
    problems = []
    for module, key, en, zh in entries():
        for term in GLOSSARY:
            if term.en_trigger and re.search(term.en_trigger, plain(en)):
                words = (term.zh, *term.zh_any)
                if not any(w in zh for w in words):
                    problems.append(f"{module}:{key}: en has {term.en!r} but zh has none of {words}: {zh[:60]!r}")
    assert not problems, "\n".join(problems)


def test_a_cells_value_is_shuzhi():
    bad = [(m, k) for m, k, en, zh in entries() if en in CELL_VALUE_EN and zh.strip() == "值"]
    assert not bad, f"a cell's value is 数值 in Chinese: {bad}"


def test_chinese_text_has_no_ascii_colon():
    bad = [(m, k, zh[:50]) for m, k, en, zh in entries() if re.search(CJK + r"\s*:(?!//)", plain(zh))]
    assert not bad, f"use the full-width colon ： in Chinese text: {bad}"


def test_glossary_words_are_not_forbidden_by_another_term():
    for term in GLOSSARY:
        for other in GLOSSARY:
            for pattern in other.forbidden_zh:
                assert not re.search(pattern, term.zh), (term.zh, pattern)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_page_titles_begin_with_their_navigation_labels(lang):
    from ui.nav import PAGES

    problems = []
    for path, _url, nav_key, *_ in PAGES:
        m = re.search(r'st\.title\(tr\("([^"]+)"', (ROOT / path).read_text(encoding="utf-8"))
        assert m, f"{path} has no st.title(tr(...))"
        title, nav = t(m.group(1), lang), t(nav_key, lang)
        if not (title == nav or title.startswith(nav + ": ") or title.startswith(nav + "：")):
            problems.append(f"{path}: title {title!r} vs navigation {nav!r}")
    assert not problems, "\n".join(problems)


def test_the_glossary_test_would_catch_a_forbidden_word(monkeypatch):
    """The checks above are not vacuous: a catalogue with 屏蔽 fails them."""
    term = next(x for x in GLOSSARY if x.zh == "掩蔽")
    assert any(re.search(p, "被屏蔽的键") for p in term.forbidden_zh)
    assert re.search(CJK + r"\s*:", plain("位置: 词元")) and not re.search(CJK + r"\s*:", plain("“位置:词元”"))


@pytest.mark.parametrize(("variant", "word"), [
    ("掩码后的分数", "掩蔽"), ("使用因果掩蔽时", "掩蔽"), ("不加掩蔽的自注意力", "掩蔽"), ("融合视角", "融合视图"),
    ("分头视角", "分头视图"), ("最小主角的余弦", "主角度"), ("编码器–解码器", "交叉注意力（编码器-解码器注意力）"),
])  # fmt: skip
def test_the_split_terms_of_issue_35_are_forbidden(variant, word):
    """One term per idea: 掩码 is the mask, 掩蔽 the act of masking; 融合视图 / 分头视图; 主角度 (principal angle)."""
    term = next(x for x in GLOSSARY if x.zh == word)
    assert any(re.search(p, variant) for p in term.forbidden_zh), variant
    assert not any(re.search(p, "因果掩码掩蔽了之后的键；被掩蔽的键；最小主角度；融合视图") for p in term.forbidden_zh)


@pytest.mark.parametrize(("variant", "word"), [
    ("一个批次", "批量 / 批量大小"), ("从概览开始", "总览"), ("笔记中的错误", "勘误"), ("见错误页面", "勘误"),
    ("每个头宽 $d_k$", "维度"), ("宽度为 8 的头", "维度"), ("窄头的代价", "维度"), ("和单头一样宽", "维度"),
])  # fmt: skip
def test_one_chinese_term_for_batch_overview_errata_and_a_heads_dimension(variant, word):
    """批量 (not 批次), 总览 (not 概览), 勘误 and the page 笔记勘误, a head's 维度 (not 宽度): one term per idea."""
    term = next(x for x in GLOSSARY if x.zh == word)
    assert any(re.search(p, variant) for p in term.forbidden_zh), variant
    fine = "一个批量；批量大小；总览；笔记勘误；头维度；维度为 8 的头；卷积核宽度为 k"
    assert not any(re.search(p, fine) for p in term.forbidden_zh)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_glossary_page_lists_every_term_and_symbol(make_app, lang):
    from i18n.glossary import NOTATION
    from tests.test_app import run_page

    at = run_page(make_app, "glossary", lang=lang)
    assert not at.exception and not at.error
    terms, variants, symbols = (table.value for table in at.table)
    assert len(terms) == len(GLOSSARY) and len(symbols) == len(NOTATION)
    assert list(terms.index) == [term.en for term in GLOSSARY]
    assert list(terms.iloc[:, 0]) == [term.zh for term in GLOSSARY]
    assert list(variants.index) == [term.zh for term in GLOSSARY if term.avoid or term.note]
