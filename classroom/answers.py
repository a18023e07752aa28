"""The class's answers as a CSV file for the teacher: every question the class was asked, one row per student's
answer, exactly as the student gave it (a typed answer as typed). The download is a button outside every panel that
redraws on a timer, and its file is made when it is clicked: it is always there and always current."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable

import streamlit as st

from classroom.session import screen_pass, text
from liveclass import LiveError, Rooms

COLUMNS = ("question", "kind", "n", "nickname", "answer", "correct", "seconds")
FORMULA = ("=", "+", "-", "@", "\t", "\r")  # a cell starting so is a formula to a spreadsheet


def cell(value: str) -> str:
    """A student's text as a spreadsheet cell: shown as typed, never run as a formula."""
    return "'" + value if value[:1] in FORMULA else value


def csv_text(store: Rooms, code: str, auth: object, tr: Callable[..., str]) -> str:
    """Every answer to every question of the class, oldest question first, each question's answers in the order they
    came; `correct` by the store's grade (the quiz's check), also before the reveal (this is the teacher's file)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(COLUMNS)
    for asked in store.asked(code, auth):
        options = [text(tr, o, markdown=False) for o in asked.question.get("options", [])]
        for n, a in enumerate(store.answers(code, auth, asked), start=1):
            if a.value is not None or a.choice < 0:  # typed: the text as the student typed it (checked to be a number)
                given, right = a.text, a.right
            else:
                given = options[a.choice] if 0 <= a.choice < len(options) else str(a.choice)
                right = a.choice == asked.answer
            writer.writerow([asked.n, asked.question.get("kind", ""), n, cell(a.nickname), cell(given),
                             "yes" if right else "no", f"{max(0.0, a.at - asked.at):.1f}"])  # fmt: skip
    return out.getvalue()


def download(tr: Callable[..., str], code: str, key: str = "console_csv") -> None:
    """The CSV button. Its data is made when clicked (a deferred file): it is drawn by the page, not by a timed panel,
    so the file it names stays valid (a panel that redraws every two seconds replaced it under the click)."""
    from classroom.session import rooms

    auth = screen_pass()

    def make() -> str:
        try:
            return csv_text(rooms(), code, auth, tr)
        except LiveError:
            return ",".join(COLUMNS) + "\n"

    st.download_button(tr("console.csv"), data=make, file_name=f"live-{code}.csv", mime="text/csv", key=key,
                       icon=":material/download:", on_click="ignore", help=tr("console.csv_help"))  # fmt: skip
