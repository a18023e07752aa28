"""The privacy page (app_pages/privacy.py) and docs/PRIVACY.md say what the room store does: the same numbers as the
store's own settings, in both languages, the store this server uses named (never its address)."""

from __future__ import annotations

import re

import pytest

from liveclass import Limits
from liveclass.privacy import DIGEST_HEX, GRACE
from tests.browser import ROOT
from tests.test_app import run_page

HOURS = round((Limits().ttl + GRACE) / 3600)


def page_text(at) -> str:
    parts = [m.value for m in at.markdown] + [t.value for t in at.title] + [s.value for s in at.subheader]
    for table in at.table:
        frame = table.value
        parts += [str(frame.index.name), *map(str, frame.index), *(str(v) for row in frame.values for v in row)]
    return "\n".join(parts)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_states_the_stores_own_numbers(make_app, lang, monkeypatch):
    monkeypatch.delenv("MHA_REDIS_URL", raising=False)
    at = run_page(make_app, "privacy", lang=lang)
    text = page_text(at)
    assert not at.error and len(at.table) == 1 and len(at.table[0].value) == 6
    assert f"{HOURS} " in text and f"{round(Limits().ttl / 3600)} " in text
    assert f"{round(Limits().seat_idle / 60)} " in text and f"{DIGEST_HEX} " in text
    assert f"{round(Limits().rate_kept / 60)} " in text
    assert "SQLite" in text and "Redis" not in text
    assert ("小时" in text) == (lang == "zh") and ("hours" in text) == (lang == "en")
    for word in ("mha_client", "mha_route", "_streamlit_xsrf", "SHA-256"):
        assert word in text


def test_the_page_names_redis_when_the_server_uses_it_and_never_its_address(make_app, monkeypatch):
    monkeypatch.setenv("MHA_REDIS_URL", "redis://:hunter2@redis.internal:6379/0")
    text = page_text(run_page(make_app, "privacy"))
    assert "Redis" in text and "hunter2" not in text and "redis.internal" not in text


def test_docs_privacy_says_what_the_page_and_the_store_say():
    doc = (ROOT / "docs" / "PRIVACY.md").read_text(encoding="utf-8")
    assert re.search(rf"\b{HOURS} hours after (it|the class) (was opened|began)", doc)
    assert f"{round(Limits().ttl / 3600)} hours" in doc and f"{round(GRACE / 60)} minutes" not in doc
    assert f"{DIGEST_HEX} hexadecimal characters ({4 * DIGEST_HEX} bits)" in doc
    assert f"{round(Limits().seat_idle / 60)} minutes" in doc
    assert Limits().rate_kept == 3600 and "at most **an hour**" in doc  # a network's rates, with the defaults
    for word in ("nickname", "SHA-256", "mha_client", "mha_route", "Rooms.delete", "tests/test_live_privacy.py"):
        assert word in doc, word
