"""The quiz's answers and reveals: kept in the session across page switches, and in the URL across reloads.

Why the URL and not a server-side store: a browser reload starts a new Streamlit session, so the answers must
come back from something the browser keeps. The link already carries the setting; it now also carries
`quiz=<seed>` (the question set, so a class opening the same link gets the same questions) and
`qa=<answers>` (this browser's answers). Nothing is kept on the server, so there is nothing to bound or expire
there, and thirty students opening the teacher's link cannot write into one shared entry (a token in a shared
link would do exactly that). `qa` is bounded: at most one short entry per question, MAX_QA_CHARS in all;
anything longer, malformed or made for other questions (its fingerprint differs) is ignored.

In the session the answers live under a plain key (not a widget key): Streamlit drops a widget's value when
its page is not shown, which is why answers used to vanish after a visit to another page.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlencode

import streamlit as st

from explorer.quiz_model import MAX_ANSWER_CHARS, Question

SEED_PARAM, ANSWERS_PARAM = "quiz", "qa"
URL_PARAMS = (SEED_PARAM, ANSWERS_PARAM)
MAX_SEED = 999_999
MAX_QA_CHARS = 600
_STORE = "_quiz_answers"  # {fingerprint: {question ident: {"a": answer, "r": revealed}}}
_SEED = "_quiz_seed"
_URL_READ = "_quiz_url_read"
_CARRY = "_quiz_url"  # {"quiz": ..., "qa": ...}: what the link carries on every page (carry())
_SAFE = re.compile(r"[0-9A-Za-z.,+\-×*/()\[\] ]*")  # what a typed number or shape is made of (no separators)


def seed() -> int:
    """The question set: the session's, else the link's `quiz=`, else 0."""
    if _SEED not in st.session_state:
        raw = str(st.query_params.get(SEED_PARAM, "0"))
        ok = raw.isascii() and raw.isdecimal() and len(raw) <= 6
        st.session_state[_SEED] = int(raw) if ok else 0
    return int(st.session_state[_SEED])


def new_set() -> None:
    """'New questions': the next set (the same on every device, so a class can move on together)."""
    st.session_state[_SEED] = (seed() + 1) % (MAX_SEED + 1)


def fingerprint(questions: Sequence[Question]) -> str:
    """4 hex digits naming this list of questions: answers in a link made for other questions are ignored."""
    text = ",".join(q.ident for q in questions)
    return hashlib.blake2b(text.encode("ascii"), digest_size=2).hexdigest()


def encode(questions: Sequence[Question], answers: dict[str, dict[str, Any]]) -> str:
    """`fp.n:answer[!].n:answer[!]…` ('!': revealed); empty when nothing is answered or revealed."""
    parts = []
    for n, q in enumerate(questions):
        entry = answers.get(q.ident)
        if not entry:
            continue
        a = "" if entry.get("a") is None else unicodedata.normalize("NFKC", str(entry["a"])).strip()
        if len(a) > 20 or not _SAFE.fullmatch(a):
            a = ""  # kept in the session only
        if a or entry.get("r"):
            parts.append(f"{n}:{a}{'!' if entry.get('r') else ''}")
    return f"{fingerprint(questions)}~{'~'.join(parts)}" if parts else ""


def decode(text: str, questions: Sequence[Question]) -> dict[str, dict[str, Any]]:
    """The answers of a `qa` value for these questions; {} if it is too long, malformed, or for others."""
    if not isinstance(text, str) or len(text) > MAX_QA_CHARS or "~" not in text:
        return {}
    fp, _, rest = text.partition("~")
    if fp != fingerprint(questions):
        return {}
    answers: dict[str, dict[str, Any]] = {}
    for part in rest.split("~"):
        m = re.fullmatch(r"(\d{1,2}):(.{0,20}?)(!?)", part)
        if not m or int(m.group(1)) >= len(questions) or not _SAFE.fullmatch(m.group(2)):
            return {}
        q = questions[int(m.group(1))]
        a: Any = m.group(2) or None
        if q.answer_type == "choice" and a is not None:
            if not (a.isdecimal() and int(a) < len(q.options)):
                return {}
            a = int(a)
        answers[q.ident] = {"a": a, "r": bool(m.group(3))}
    return answers


def answers(questions: Sequence[Question]) -> dict[str, dict[str, Any]]:
    """This session's answers to these questions (read from the link on the first visit of a session)."""
    store: dict[str, dict[str, dict[str, Any]]] = st.session_state.setdefault(_STORE, {})
    fp = fingerprint(questions)
    if fp not in store:
        from_url = {}
        if not st.session_state.get(_URL_READ):
            from_url = decode(str(st.query_params.get(ANSWERS_PARAM, "")), questions)
        if len(store) >= 8:  # a few sets of questions per session at most (each a few hundred bytes)
            store.pop(next(iter(store)))
        store[fp] = from_url
    st.session_state[_URL_READ] = True
    return store[fp]


def write_url(questions: Sequence[Question], current: dict[str, dict[str, Any]]) -> None:
    """Put the set and the answers into the link (a reload then brings them back)."""
    if st.query_params.get(SEED_PARAM) != str(seed()):
        st.query_params[SEED_PARAM] = str(seed())
    qa = encode(questions, current)
    if qa and st.query_params.get(ANSWERS_PARAM) != qa:
        st.query_params[ANSWERS_PARAM] = qa
    elif not qa and ANSWERS_PARAM in st.query_params:
        del st.query_params[ANSWERS_PARAM]
    st.session_state[_CARRY] = {k: str(st.query_params[k]) for k in URL_PARAMS if k in st.query_params}


def carry() -> None:
    """Every run of every page (the frame calls it): keep the quiz's set and answers in the link. A page switch
    drops parameters no widget is bound to, and a reload on that page would then lose the answers; the values the
    link brought (first run) or the quiz page last wrote are put back, so a reload anywhere keeps them."""
    kept = st.session_state.get(_CARRY)
    if kept is None:  # the session's first run: what the link brought (checked where it is read: answers(), seed())
        kept = {k: str(st.query_params[k]) for k in URL_PARAMS
                if k in st.query_params and len(str(st.query_params[k])) <= MAX_QA_CHARS}  # fmt: skip
        st.session_state[_CARRY] = kept
    for name, value in kept.items():
        if st.query_params.get(name) != value:
            st.query_params[name] = value


def class_link(lang: str) -> str:
    """This page's link for the class: the setting, the question set and the teacher's language, without this
    browser's answers (`qa`), the projector's display options (the address bar would hand out the answers) or a live
    class student's own id (`me`: whoever opened the link would answer as that student, and one of the two answers
    would be lost); the room's code stays, so the link still joins the class, as a student of its own."""
    private = (ANSWERS_PARAM, "present", "large", "me")
    params = {k: st.query_params.get(k) for k in st.query_params if k not in private}
    params[SEED_PARAM], params["lang"] = str(seed()), lang
    return f"{st.context.url or ''}?{urlencode(params)}"


def clip(text: Any) -> str:
    return str(text or "")[:MAX_ANSWER_CHARS]
