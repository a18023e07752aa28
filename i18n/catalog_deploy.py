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
}
