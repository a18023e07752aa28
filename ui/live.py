"""The live class in the app: the teacher's panel (top of the sidebar), the students' bar (top of the page), the
join box of the home page. The rooms themselves live in `liveclass` (a SQLite file or Redis); this module only
draws and calls it.

How a follower learns of a change: a joined student's page runs a fragment every POLL_STUDENT seconds
(`st.fragment(run_every=...)`, Streamlit's own timer). It reads the room's version from the store (one read by
primary key) and, while the version is unchanged, redraws one caption and nothing else. When the teacher
changes page, settings or step, the version moves: the fragment reads the room once, stores the teacher's
state as pending and navigates (`st.switch_page`, or `st.rerun` on the same page); the next run puts the
pending settings into the sidebar widgets before they are drawn. A student who changes anything themselves
stops following until they press "Back to the teacher". A run that shows an older state than the one it was sent
to is not taken for exploring when every differing value is an echo of what the page showed or was sent moments
ago (the browser's older request folded into our navigation, frequent under load): the student goes again
(`liveclass.follow.decide`).
"""

from __future__ import annotations

import csv
import io
import os
import re
import time
import urllib.parse
from collections.abc import Callable
from typing import Any

import segno
import streamlit as st

import i18n
from explorer.live_questions import ATTEND, answer_types, attend_question, quiz_question
from explorer.settings_io import SettingsFileError, settings_from_json, settings_to_json
from liveclass import LiveError, Room, Rooms, StoreUnavailable, follow, open_rooms
from ui import handover, live_typed
from ui.context import Context, get_context
from ui.export import apply_to_widgets

handover.install()  # Streamlit 1.67 can lose the end of a page with a fragment timer (ui/handover.py)

POLL_STUDENT = 0.5  # seconds between a student's checks of the room's version
POLL_TEACHER = 2.0  # seconds between refreshes of the teacher's counts and answers
VERSION_AGE = 0.1  # seconds a version read by this process serves its other students (Rooms.version)
BEAT = 5.0  # seconds between a student's heartbeats (presence counts a student for 15 s)

ROLE, CODE, KEY, SID = "_live_role", "_live_code", "_live_key", "_live_sid"
FOLLOW, APPLIED, PENDING, SEEN, ROOM = "_live_follow", "_live_applied", "_live_pending", "_live_seen", "_live_room"
MSG, PUBLISHED, KEY_SHOWN, BEAT_AT, DOWN = "_live_msg", "_live_published", "_live_key_shown", "_live_beat", "_live_down"
SENT, URL_DONE, ECHOES, SHOWN = "_live_sent", "_live_url_done", "_live_echoes", "_live_shown"
OPEN, REDRAWS = "_live_open", "_live_redraws"
MAX_REDRAWS = 20  # full reruns asked for one teacher's state whose page was never drawn to the end


# ---------------------------------------------------------------- the store
@st.cache_resource(show_spinner=False)
def _open(redis_url: str, db_path: str) -> Rooms:
    """One store per server process and configuration (the arguments only key the cache)."""
    return open_rooms()


def rooms() -> Rooms:
    """The room store; StoreUnavailable when it cannot even be opened (a failed open is not cached)."""
    return _open(os.environ.get("MHA_REDIS_URL", ""), os.environ.get("MHA_LIVE_DB", ""))


# ---------------------------------------------------------------- small helpers
def md(text: object) -> str:
    """User and token text inside markdown: every markdown, LaTeX and HTML character literal."""
    return re.sub(r"([\\`*_{}\[\]()#+\-!|$<>~&])", r"\\\1", str(text))


MSG_SECONDS = 10.0  # a message stays through the reruns of a page's opening, then goes


def _say(kind: str, key: str, **params: Any) -> None:
    st.session_state[MSG] = (kind, key, params, time.monotonic())


def _error(err: LiveError) -> None:
    _say("warning", f"live.err.{err.code}", **err.params)


def state_of(ctx: Context, page: str) -> dict[str, Any]:
    """What a student follows: the page, the settings (language-neutral JSON), the step, presentation mode."""
    step = int(st.session_state.get("step_index", 0) or 0)
    return {"page": page, "settings": settings_to_json(ctx.settings, "en"), "step": step, "present": bool(ctx.present)}


def join_link(code: str) -> str:
    """`<app address>/?join=CODE`, the address as the browser sees it (behind a proxy too)."""
    base = ""
    try:
        base = st.context.url or ""
    except Exception:  # no browser context (AppTest)
        base = ""
    parts = urllib.parse.urlsplit(base or "http://localhost:8501/")
    from ui.frame import PAGES

    path = parts.path.rstrip("/")
    last = path.rsplit("/", 1)[-1]
    if last in {p[1] for p in PAGES}:
        path = path[: -len(last) - 1]
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, f"{path}/", f"join={code}", ""))


def qr_svg(text: str) -> str:
    """A QR code of `text` as SVG (drawn on the server, no network), scaled to fill its box."""
    return segno.make(text, error="m").svg_inline(scale=10, border=2, omitsize=True)


def _leave() -> None:
    for key in (ROLE, CODE, KEY, SID, FOLLOW, APPLIED, PENDING, SEEN, ROOM, PUBLISHED, KEY_SHOWN, BEAT_AT, DOWN,
                ECHOES, SHOWN, OPEN, REDRAWS):  # fmt: skip
        st.session_state.pop(key, None)
    for name in ("join", "me"):
        if name in st.query_params:
            del st.query_params[name]


# ---------------------------------------------------------------- joining and taking back
def join(raw_code: object, sid: object = None) -> bool:
    """Join a room as a student; a refusal becomes the one message of the next run."""
    try:
        code, sid = rooms().join(raw_code, sid)
    except LiveError as err:
        _error(err)
        return False
    _leave()
    st.session_state.update({ROLE: "student", CODE: code, SID: sid, FOLLOW: True, SENT: {}})
    st.query_params["join"], st.query_params["me"] = code, sid
    _say("success", "live.joined", room=code)
    return True


def _join_typed() -> None:
    join(st.session_state.get("live_join_code", ""))


def _start() -> None:
    try:
        ticket = rooms().create()
    except LiveError as err:
        _error(err)
        return
    _leave()
    st.session_state.update({ROLE: "teacher", CODE: ticket.code, KEY: ticket.key, KEY_SHOWN: False})


def _retake() -> None:
    raw_code, key = st.session_state.get("live_retake_code", ""), st.session_state.get("live_retake_key", "")
    try:
        code = rooms().check_teacher(raw_code, str(key).strip())
    except LiveError as err:
        _error(err)
        return
    _leave()
    st.session_state.update({ROLE: "teacher", CODE: code, KEY: str(key).strip(), KEY_SHOWN: True})
    st.session_state["live_retake_key"] = ""


def _end() -> None:
    try:
        rooms().end(st.session_state[CODE], st.session_state[KEY])
    except LiveError as err:
        if isinstance(err, StoreUnavailable):
            _error(err)
            return
    _leave()
    _say("info", "live.ended_by_you")


def _back() -> None:
    st.session_state[FOLLOW] = True
    st.session_state[APPLIED] = None
    st.session_state[BEAT_AT] = 0.0


# ---------------------------------------------------------------- the frame's hooks
def before_settings() -> None:
    """Start of every run, before the settings widgets: join from a link (first run), apply a pending state."""
    ss = st.session_state
    if not ss.get(URL_DONE):
        ss[URL_DONE] = True
        raw = st.query_params.get("join")
        if raw is not None and not join(raw, st.query_params.get("me")):
            for name in ("join", "me"):
                if name in st.query_params:
                    del st.query_params[name]
    pending = ss.get(PENDING)  # kept until a run has shown it (on_page): a run cut short applies it again
    if pending:
        try:
            settings, _ = settings_from_json(str(pending.get("settings", "")))
        except SettingsFileError:
            _say("warning", "live.err.bad_state")
            return
        apply_to_widgets(settings)
        ss["step_index"] = int(pending.get("step", 0)) if str(pending.get("step", 0)).isdecimal() else 0
        ss["present"] = bool(pending.get("present", False))


def on_page(ctx: Context, page: str, slot: Any) -> None:
    """After the navigation is known, before the page: the sidebar panel (into `slot`), the teacher's
    publication of their state, the student's bar (which may navigate to the teacher's page)."""
    ss, tr = st.session_state, ctx.t
    if ss.get(ROLE) == "teacher":
        _publish(ctx, page)  # first: a refusal (not this room's teacher) leaves the room before anything is drawn
    message = ss.get(MSG)
    if message and time.monotonic() - message[3] < MSG_SECONDS:
        kind, key, params, _ = message
        getattr(st, kind)(tr(key, **params), icon=":material/co_present:")
    elif message:
        del ss[MSG]
    role = ss.get(ROLE)
    with slot:
        if role == "teacher":
            _teacher_panel(ctx, page)
        elif role == "student":
            _student_panel(tr)
        else:
            _start_panel(tr)
    if role == "teacher":
        _teacher_main(ctx)
    elif role == "student":
        shown = state_of(ctx, page)
        if ss.get(FOLLOW) and ss.get(APPLIED) is not None:
            verdict = follow.decide(shown, ss[APPLIED], ss.get(ECHOES, []), time.monotonic())
            if verdict == follow.AGAIN:  # our own navigation did not land (the browser's older request won): go again
                ss[APPLIED] = None
                ss.pop(PENDING, None)
            elif verdict == follow.EXPLORE:  # the student changed something themselves: exploring
                ss[FOLLOW] = False
                ss[BEAT_AT] = 0.0
                ss.pop(PENDING, None)
            else:
                ss.pop(PENDING, None)
        elif ss.get(APPLIED) is not None:
            ss.pop(PENDING, None)
        ss[SHOWN] = shown
        ss[OPEN] = True  # until after_page: a run cut short after this point never drew the followed state
        if st.query_params.get("join") != ss[CODE] or st.query_params.get("me") != ss[SID]:
            st.query_params["join"], st.query_params["me"] = ss[CODE], ss[SID]
        _student_bar(tr, page)


def after_page() -> None:
    """End of a page run that was not cut short: the state a following student was sent is on their screen."""
    if st.session_state.get(ROLE) == "student":
        st.session_state[OPEN] = False
        st.session_state[REDRAWS] = 0


def _fragment_only() -> bool:
    """True in a run of the fragment alone (its timer), False when the fragment is drawn by a full run."""
    try:
        from streamlit.runtime.scriptrunner import get_script_run_ctx

        return bool(getattr(get_script_run_ctx(), "fragment_ids_this_run", None))
    except Exception:  # no script run context: not a fragment run
        return False


def join_box(tr: Callable[..., str]) -> None:
    """Home page: type the code the teacher shows."""
    if st.session_state.get(ROLE):
        return
    with st.container(border=True):
        left, right = st.columns([3, 1], vertical_alignment="bottom")
        left.text_input(tr("live.join_label"), key="live_join_code", max_chars=16, placeholder="ABC234",
                        help=tr("live.join_help"))  # fmt: skip
        right.button(tr("live.join"), key="live_join_btn", on_click=_join_typed, icon=":material/login:",
                     width="stretch")  # fmt: skip


# ---------------------------------------------------------------- no room yet
def _start_panel(tr: Callable[..., str]) -> None:
    with st.expander(tr("live.title"), icon=":material/co_present:"):
        st.caption(tr("live.start_help"))
        st.button(tr("live.start"), key="live_start", on_click=_start, icon=":material/podium:", type="primary")
        st.text_input(tr("live.retake_code"), key="live_retake_code", max_chars=16)
        st.text_input(tr("live.retake_key"), key="live_retake_key", type="password", max_chars=64)
        st.button(tr("live.retake"), key="live_retake", on_click=_retake, icon=":material/key:")


# ---------------------------------------------------------------- the student
def _student_panel(tr: Callable[..., str]) -> None:
    st.caption(tr("live.student_in", room=st.session_state[CODE]))
    st.button(tr("live.leave"), key="live_leave", on_click=_leave, icon=":material/logout:")


def _follow(state: dict[str, Any], page: str) -> None:
    """Go where the teacher is: the next run applies their settings before the widgets are drawn."""
    from ui.frame import PAGES

    files = {p[1]: p[0] for p in PAGES}
    target = state.get("page")
    ss = st.session_state
    ss[APPLIED] = state
    if target not in files:
        return
    ss[PENDING] = state
    ss[OPEN] = True  # drawn only once a full run reaches after_page (a run cut short earlier is asked again)
    echoes = ss.get(ECHOES, [])
    if not echoes or echoes[-1][1] != state:  # a new state of the teacher (a retry adds nothing, ages nothing)
        ss[ECHOES] = follow.remember(echoes, time.monotonic(), ss.get(SHOWN), state)
    if target != page:  # bound settings widgets write the URL themselves from the state applied next run
        st.switch_page(files[target], query_params={"join": ss[CODE], "me": ss[SID]})
    st.rerun(scope="app")


@st.fragment(run_every=POLL_STUDENT)
def _student_bar(tr: Callable[..., str], page: str) -> None:
    ss = st.session_state
    if ss.get(ROLE) != "student":
        return
    code, sid = ss[CODE], ss[SID]
    try:
        store = rooms()
        version = store.version(code, max_age=VERSION_AGE)
        if time.monotonic() - float(ss.get(BEAT_AT, 0.0)) > BEAT:
            store.heartbeat(code, sid, bool(ss.get(FOLLOW)))
            ss[BEAT_AT] = time.monotonic()
        if version != ss.get(SEEN) or ss.get(ROOM) is None:
            ss[ROOM], ss[SEEN] = store.room(code), version
        ss[DOWN] = False
    except StoreUnavailable:
        ss[DOWN] = True
    except LiveError as err:  # the room ended or expired: back to the normal app
        _leave()
        _error(err)
        st.rerun(scope="app")
    room: Room | None = ss.get(ROOM)
    if room is not None and ss.get(FOLLOW) and room.state and room.state != ss.get(APPLIED):
        _follow(room.state, page)
    if ss.get(FOLLOW) and ss.get(OPEN) and _fragment_only() and ss.get(REDRAWS, 0) < MAX_REDRAWS:
        # the last full run reached the follow decision but was cut short before the page was drawn (the
        # browser's next request, under load): nothing else would ever draw it, so run the page again
        ss[REDRAWS] = ss.get(REDRAWS, 0) + 1
        st.rerun(scope="app")
    if ss.get(DOWN):
        st.warning(tr("live.err.store_down"), icon=":material/cloud_off:")
    elif ss.get(FOLLOW):
        st.caption(f":material/sync: {tr('live.following', room=code)}")
    else:
        left, right = st.columns([3, 1], vertical_alignment="center")
        left.info(tr("live.exploring"), icon=":material/explore:")
        right.button(tr("live.back"), key="live_back", on_click=_back, icon=":material/undo:", type="primary",
                     width="stretch")  # fmt: skip
    if room is not None and room.question:
        _student_question(tr, room)


def _text(tr: Callable[..., str], part: object, markdown: bool = True) -> str:
    """A question's text in this student's language: a plain string (token labels: user text), or a message
    {"key", "params"} (an empty key: a literal in params["text"]). With `markdown`, user text is escaped."""
    esc = md if markdown else str
    if not isinstance(part, dict):
        return esc(part)
    params = part.get("params") or {}
    if not part.get("key"):
        return esc(params.get("text", ""))
    return tr(part["key"], **{k: f"{v:,}" if isinstance(v, int) and not isinstance(v, bool)
                              else esc(v) if isinstance(v, str) else v for k, v in params.items()})  # fmt: skip


def _prompt(tr: Callable[..., str], part: object) -> str:
    return _text(tr, part)


def _student_question(tr: Callable[..., str], room: Room) -> None:
    ss, q = st.session_state, room.question or {}
    if live_typed.is_typed(q):  # a number or a shape to type
        live_typed.student(tr, room)
        return
    options = [_text(tr, o) for o in q.get("options", [])]
    sent = ss.setdefault(SENT, {})
    with st.container(border=True):
        st.markdown(f"**{tr('live.q_title')}** · {_prompt(tr, q['prompt'])}")
        if room.revealed and room.answer is not None:
            _revealed(tr, room, options, sent.get(room.qid))
            return
        pick = st.radio(tr("live.q_title"), range(len(options)), index=None, key=f"live_pick_{room.qid}",
                        format_func=lambda i: options[i], label_visibility="collapsed")  # fmt: skip
        nick = st.text_input(tr("live.nickname"), key="live_nick", max_chars=24, help=tr("live.nickname_help"))
        if st.button(tr("live.send"), key=f"live_send_{room.qid}", disabled=pick is None, icon=":material/send:",
                     type="primary"):  # fmt: skip
            try:
                rooms().submit(ss[CODE], ss[SID], room.qid, int(pick), nick)
                sent[room.qid] = int(pick)
            except LiveError as err:
                st.warning(tr(f"live.err.{err.code}", **err.params), icon=":material/warning:")
        if room.qid in sent:
            st.success(tr("live.sent", answer=options[sent[room.qid]]), icon=":material/check:")
        else:
            st.caption(tr("live.hidden_until_reveal"))


def _revealed(tr: Callable[..., str], room: Room, options: list[str], mine: int | None) -> None:
    q = room.question or {}
    right = options[room.answer] if room.answer is not None else ""
    if mine is None:
        st.info(tr("live.answer_is", answer=right), icon=":material/lightbulb:")
    elif mine == room.answer:
        st.success(tr("live.you_right", answer=right), icon=":material/check_circle:")
    else:
        st.error(tr("live.you_wrong", answer=right), icon=":material/cancel:")
    st.markdown(_prompt(tr, q["explain"]))
    try:
        counts = rooms().tally(st.session_state[CODE])
    except LiveError:
        counts = None
    if counts:
        _bars(tr, options, counts, room.answer)


def _bars(tr: Callable[..., str], options: list[str], counts: list[int], correct: int | None) -> None:
    """The class's answers as a histogram of bars (text, so it reads on a phone and a projector alike)."""
    total = max(sum(counts), 1)
    for i, (label, n) in enumerate(zip(options, counts, strict=False)):
        mark = " ✓" if i == correct else ""
        st.progress(n / total, text=f"{label}{mark} — {n}")


# ---------------------------------------------------------------- the teacher
def _teacher_panel(ctx: Context, page: str) -> None:
    ss, tr = st.session_state, ctx.t
    code = ss[CODE]
    with st.container(border=True):
        st.markdown(f"**:material/co_present: {tr('live.title')}** · {tr('live.code')}")
        st.markdown(f"<div class='mha-live-code'>{code}</div>", unsafe_allow_html=True)
        link = join_link(code)
        st.code(link, language=None, wrap_lines=True)
        st.image(qr_svg(link), width="stretch")
        st.toggle(tr("live.big"), key="live_big", help=tr("live.big_help"))
        if not ss.get(KEY_SHOWN):
            st.info(tr("live.key_once", secret=ss[KEY]), icon=":material/key:")
            st.button(tr("live.key_noted"), key="live_key_noted", on_click=lambda: ss.update({KEY_SHOWN: True}))
        _teacher_live(tr)
        _ask(ctx)
        st.button(tr("live.end"), key="live_end", on_click=_end, icon=":material/stop_circle:")
    st.html("<style>.mha-live-code { font-size: 2.4rem; font-weight: 700; letter-spacing: .15em;"
            " font-family: monospace; line-height: 1.1; }</style>")  # fmt: skip


def _publish(ctx: Context, page: str) -> None:
    """The teacher's page, settings and step go to the room whenever they change."""
    ss = st.session_state
    state = state_of(ctx, page)
    if state == ss.get(PUBLISHED):
        return
    try:
        rooms().lead(ss[CODE], ss[KEY], state)
        ss[PUBLISHED] = state
        ss[DOWN] = False
    except StoreUnavailable:
        ss[DOWN] = True
    except LiveError as err:  # not (or no longer) this room's teacher: the room has ended or expired
        _leave()
        _error(err)


@st.fragment(run_every=POLL_TEACHER)
def _teacher_live(tr: Callable[..., str]) -> None:
    ss = st.session_state
    if ss.get(ROLE) != "teacher":
        return
    code, key = ss[CODE], ss[KEY]
    try:
        store = rooms()
        presence = store.presence(code, key)
        room = store.room(code)
        counts = store.tally(code, key) if room.question else None
    except StoreUnavailable:
        st.warning(tr("live.err.store_down"), icon=":material/cloud_off:")
        return
    except LiveError as err:
        st.warning(tr(f"live.err.{err.code}", **err.params))
        return
    if ss.get(DOWN) and ss.get(PUBLISHED) is not None:  # the store is back: publish what was missed
        ss[PUBLISHED] = None
        ss[DOWN] = False
        st.rerun(scope="app")
    st.markdown(tr("live.presence", connected=presence.connected, following=presence.following,
                   joined=presence.joined))  # fmt: skip
    if room.question and counts is not None:
        options = [_text(tr, o) for o in room.question.get("options", [])]
        plain = [_text(tr, o, markdown=False) for o in room.question.get("options", [])]
        if live_typed.is_typed(room.question):
            live_typed.teacher_bars(tr, store, code, key, room, presence.connected)
        else:
            st.caption(tr("live.answers_in", n=sum(counts), connected=presence.connected))
            _bars(tr, options, counts, room.answer if room.revealed else None)
        names = [a.nickname for a in store.answers(code, key) if a.nickname][-30:]
        if names:
            st.text(", ".join(names))  # as typed, never as markup
        left, right = st.columns(2)
        if not room.revealed and left.button(tr("live.reveal"), key="live_reveal", icon=":material/visibility:",
                                             type="primary"):  # fmt: skip
            try:
                store.reveal(code, key)
            except LiveError as err:
                _error(err)
            st.rerun(scope="app")
        right.download_button(tr("live.csv"), data=lambda: answers_csv(store, code, key, plain, room),
                              file_name=f"live-{code}.csv", mime="text/csv", key="live_csv",
                              icon=":material/download:")  # fmt: skip


def answers_csv(store: Rooms, code: str, key: str, options: list[str], room: Room) -> str:
    """The answers, anonymous: order, nickname (as typed, neutralised for spreadsheets), answer, right or not."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["n", "nickname", "answer", "correct", "seconds"])
    answer = store.room(code).answer
    rows = store.answers(code, key)
    t0 = rows[0].at if rows else 0.0
    for n, a in enumerate(rows, start=1):
        nick = "'" + a.nickname if a.nickname[:1] in ("=", "+", "-", "@", "\t", "\r") else a.nickname
        if a.value is not None:  # a typed answer, graded by the store (the quiz's check)
            given, correct = live_typed.answer_cell(a.value), "" if answer is None else ("yes" if a.right else "no")
        else:
            given = options[a.choice] if 0 <= a.choice < len(options) else a.choice
            correct = "" if answer is None else ("yes" if a.choice == answer else "no")
        writer.writerow([n, nick, given, correct, f"{a.at - t0:.1f}"])
    return out.getvalue()


def _ask(ctx: Context) -> None:
    """Send a question to the class: any quiz question on this setting, or the quick 'attend most' one."""
    tr, sc = ctx.t, ctx.scene
    types = {ATTEND: "choice", **answer_types(sc)}  # how students answer each kind, said under the list
    kinds = list(types)
    with st.expander(tr("live.ask"), icon=":material/quiz:"):
        kind = st.selectbox(tr("live.ask_kind"), kinds, key="live_ask_kind",
                            format_func=lambda k: tr(f"live.kind.{k}") if f"live.kind.{k}" in i18n.STRINGS else k)
        st.caption(tr(f"live.answered_by.{types.get(kind, 'choice')}"))
        if kind == ATTEND:
            c1, c2 = st.columns(2)
            c1.selectbox(tr("live.ask_head"), range(sc.n_heads), key="live_ask_head", format_func=lambda h: str(h + 1))
            c2.selectbox(tr("live.ask_query"), range(sc.len_q), key="live_ask_query",
                         format_func=lambda i: sc.labels[i])  # fmt: skip
        st.button(tr("live.ask_send"), key="live_ask_send", on_click=_send_question, icon=":material/send:",
                  type="primary")  # fmt: skip


def _send_question() -> None:
    ss, ctx = st.session_state, get_context()
    kind = ss.get("live_ask_kind", ATTEND)
    seed = int(time.time())
    if kind == ATTEND:
        made = attend_question(ctx.scene, int(ss.get("live_ask_head", 0) or 0), int(ss.get("live_ask_query", 0) or 0),
                               seed)  # fmt: skip
    else:
        made = quiz_question(str(kind), ctx.scene, seed)
    if made is None:
        _say("warning", "live.err.no_margin" if kind == ATTEND else "live.err.no_such_question")
        return
    question, answer = made
    try:
        rooms().ask(ss[CODE], ss[KEY], question, answer)
    except LiveError as err:
        _error(err)


def _teacher_main(ctx: Context) -> None:
    """On the projector: the join screen when asked for; the current question, and its answer once revealed."""
    ss, tr = st.session_state, ctx.t
    code = ss[CODE]
    if ss.get("live_big"):
        link = join_link(code)
        with st.container(border=True):
            left, right = st.columns([3, 2], vertical_alignment="center")
            left.markdown(tr("live.join_here"))
            left.markdown(f"<div class='mha-live-big'>{code}</div>", unsafe_allow_html=True)
            left.markdown(f"`{link}`")
            right.image(qr_svg(link), width="stretch")
        st.html("<style>.mha-live-big { font-size: clamp(2.5rem, 6vw, 6.5rem); font-weight: 800; white-space: nowrap;"
                " letter-spacing: .12em; font-family: monospace; line-height: 1; }</style>")  # fmt: skip
    _teacher_question(tr)


@st.fragment(run_every=POLL_TEACHER)
def _teacher_question(tr: Callable[..., str]) -> None:
    """The current question on the projector, live: the number of answers while they come in (no histogram: the
    class sees this screen), then the right answer, why, and the class's histogram once revealed."""
    ss = st.session_state
    if ss.get(ROLE) != "teacher":
        return
    code, key = ss[CODE], ss[KEY]
    try:
        store = rooms()
        room = store.room(code)
        counts = store.tally(code, key) if room.question else None
    except LiveError:
        return
    if not room.question:
        return
    if live_typed.is_typed(room.question):
        live_typed.projector(tr, store, code, key, room)
        return
    with st.container(border=True):
        st.markdown(f"**{tr('live.q_title')}** · {_prompt(tr, room.question['prompt'])}")
        options = [_text(tr, o) for o in room.question.get("options", [])]
        st.markdown("  \n".join(f"{chr(65 + i)}. {o}" for i, o in enumerate(options)))
        n = sum(counts or [])
        if room.revealed and room.answer is not None:
            st.success(tr("live.answer_is", answer=options[room.answer]), icon=":material/lightbulb:")
            st.markdown(_prompt(tr, room.question["explain"]))
            if counts:
                _bars(tr, options, counts, room.answer)
        else:
            st.metric(tr("live.q_answers"), f"{n:,}", border=False)
