"""Strings of a live class's seats and joining limits: the console's seat list (room size, lock, remove), the student's
wait in line, and the refusals of the limits (`live.err.<code>`, LiveError codes of liveclass/rooms.py)."""

STRINGS: dict[str, dict[str, str]] = {
    # ---- refusals of the limits (docs/deploy.md, "Limits that stop a script, never a class")
    "live.err.joining_fast": {
        "en": "Many students are joining this class from your network right now. Try again in {seconds} s.",
        "zh": "此刻有很多学生正从你所在的网络加入本课堂。请在 {seconds} 秒后重试。",
    },
    "live.err.starting_fast": {
        "en": "Many live classes were started from your network in a short time. Try again in {minutes} min.",
        "zh": "你所在的网络在短时间内开了很多课堂。请在 {minutes} 分钟后重试。",
    },
    "live.err.slow_down": {
        "en": "Too many codes that name no open class came from your network. Wait {seconds} s, then try again.",
        "zh": "你所在的网络输入了太多不存在的房间码。请等待 {seconds} 秒后再试。",
    },
    "live.err.locked": {
        "en": "Live class {room} is locked: it takes no new students. Ask your teacher to unlock it.",
        "zh": "课堂 {room} 已锁定，不再接收新学生。请让老师解除锁定。",
    },
    "live.err.removed": {"en": "The teacher removed you from live class {room}.", "zh": "老师已将你移出课堂 {room}。"},
    "live.err.bad_size": {"en": "A class holds 1 to {limit} students.", "zh": "课堂人数须在 1 到 {limit} 之间。"},
    "live.join_wait": {
        "en": "Many students are joining from your network: you are in line, about {seconds} s.",
        "zh": "很多学生正从你所在的网络加入：你正在排队，大约需要 {seconds} 秒。",
    },
    # ---- the console's seat list
    "seats.title": {"en": "Seats: who joined, class size, lock", "zh": "座位：谁已加入、人数上限、锁定"},
    "seats.table_alt": {"en": "The {n} seats of this class, in the order they joined",
                        "zh": "本课堂的 {n} 个座位，按加入顺序排列"},
    "seats.size": {"en": "Class size (seats)", "zh": "课堂人数上限（座位数）"},
    "seats.size_help": {
        "en": "Once this many seats are taken, no one else can join. At most {limit}.",
        "zh": "座位坐满后，其他人无法再加入。最多 {limit}。",
    },
    "seats.lock": {"en": "Lock the class: no new students", "zh": "锁定课堂：不再接收新学生"},
    "seats.lock_help": {
        "en": "Students who are in keep their seats, also after a reload. Lock once everyone is in.",
        "zh": "已加入的学生保留座位，重新加载页面也不受影响。请在所有人都加入后锁定。",
    },
    "seats.summary": {"en": "{n} of {size} seats taken, from {networks} networks.",
                      "zh": "已占 {n}/{size} 个座位，来自 {networks} 个网络。"},
    "seats.none": {"en": "No student has joined yet.", "zh": "还没有学生加入。"},
    "seats.col.n": {"en": "#", "zh": "序号"},
    "seats.col.name": {"en": "Nickname", "zh": "昵称"},
    "seats.col.status": {"en": "Now", "zh": "当前"},
    "seats.col.network": {"en": "Network", "zh": "网络"},
    "seats.following": {"en": "following", "zh": "跟随中"},
    "seats.exploring": {"en": "exploring", "zh": "自行探索"},
    "seats.away": {"en": "away", "zh": "已离开"},
    "seats.net_own": {"en": "yours", "zh": "与你相同"},
    "seats.net_other": {"en": "other {n}", "zh": "其他 {n}"},
    "seats.select_help": {
        "en": "Select rows to remove those seats (from the keyboard: the arrows, then Shift+Space). \"Network\" says "
        "which students share an internet address: a whole school behind one address is one network.",
        "zh": "选中行即可移除这些座位（用键盘：方向键，然后按 Shift+空格）。“网络”表示哪些学生共用同一个上网地址：同一所学校经由"
        "一个地址上网时，就是一个网络。",
    },
    "seats.with_network": {
        "en": "Also remove everyone on their networks, and let no one from those networks join (never yours)",
        "zh": "同时移除这些网络中的所有人，并禁止这些网络中的任何人加入（你所在的网络除外）",
    },
    "seats.remove": {"en": "Remove {n} selected", "zh": "移除所选的 {n} 个"},
    "seats.removed": {"en": "{n} seats removed: their browsers cannot join this class again.",
                      "zh": "已移除 {n} 个座位：这些浏览器无法再加入本课堂。"},
}
