"""Strings of the school deployment (issue 33): a live class the room store lost, and hostile or odd input."""

STRINGS: dict[str, dict[str, str]] = {
    # liveclass.Rooms: a code this server found in the store before, which the store no longer has
    "live.err.lost": {
        "en": ("Live class {room} is no longer in the room store: the store was restarted or emptied without keeping "
               "it, so its questions and answers are gone. The app works on its own; the teacher can start a new "
               "live class and give its code."),
        "zh": ("课堂 {room} 已不在房间存储中：存储重启或被清空时没有保留它，其中的问题和作答都已丢失。"
               "应用照常单独使用；老师可以开始一个新的课堂并公布新的房间码。"),
    },
    # ui/editing.py: a cell of one of the four weight editors (they share one store) names its matrix
    "edit.cell_in": {
        "en": "{matrix}, row {row}, column {col}: {problem} The cell keeps its last good value.",
        "zh": "{matrix} 的行 {row}、列 {col}：{problem}该单元格保留上一个有效值。",
    },
    "edit.other_digits": {
        "en": "“{value}” is written with digits of another script; type the digits 0-9, e.g. {plain}.",
        "zh": "“{value}”使用了其他文字的数字；请输入阿拉伯数字 0-9，例如 {plain}。",
    },
    # ui/urlstate.py: Streamlit reads no parameter of a link with more than 1,000 of them
    "msg.url_too_many": {
        "en": ("This link has {n} parameters, more than the {limit} a link may have, so none of its settings were "
               "read: the app shows its defaults. Share the link again from the app."),
        "zh": "该链接含有 {n} 个参数，超过了链接允许的 {limit} 个，因此其中的设置一个也没有读取：应用显示的是默认设置。请在应用中重新复制链接。",
    },
}
