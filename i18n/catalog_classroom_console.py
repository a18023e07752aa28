"""Strings of the live class's two teacher screens (classroom/console.py, leading.py, asking.py, projector.py): the
console, which only the teacher sees, and the projector, which the whole class sees."""

STRINGS: dict[str, dict[str, str]] = {
    "page.console": {"en": "Teacher console", "zh": "教师控制台"},
    # ---- starting
    "console.title": {"en": "Teacher console", "zh": "教师控制台"},
    "console.intro": {
        "en": "Open this page on your own device (a laptop window the class does not see, or your phone). From here "
        "you lead a live class: the projector shows the class only the lesson, students follow on their phones, "
        "and everything private (the teacher key, the answers as they come in) stays on this screen.",
        "zh": "请在你自己的设备上打开本页（全班看不到的笔记本窗口，或你的手机）。你在这里主持课堂直播：投影仪只向全班"
        "显示课程内容，学生在手机上跟随，所有私密内容（教师密钥、陆续收到的答案）都只留在这个屏幕上。",
    },
    "console.start_title": {"en": "Start a live class", "zh": "开始课堂直播"},
    "console.lesson": {"en": "Lesson", "zh": "课程"},
    "console.no_lesson": {"en": "No lesson: I choose the pages", "zh": "不用课程：我自己选页面"},
    "console.start_help": {
        "en": "Students join with a short code or a QR code and follow the class's page, settings and step. "
        "With a lesson, Next and Previous (or the clicker) walk its stops.",
        "zh": "学生用短码或二维码加入，跟随全班的页面、设置和步骤。选了课程时，“下一站”“上一站”（或翻页笔）按课程的站点前进。",
    },
    "console.start": {"en": "Start the class", "zh": "开始上课"},
    "console.take_back_title": {"en": "Take back a class", "zh": "收回课堂"},
    "console.take_back_help": {
        "en": "On another device, or after this browser forgot it: the class code and the teacher key. If a console "
        "of this class is open, it is asked to accept this one.",
        "zh": "在另一台设备上，或这个浏览器已不记得时：输入房间码和教师密钥。如果本课堂有一个控制台正开着，会请它同意这个。",
    },
    "console.take_back": {"en": "Open the console", "zh": "打开控制台"},
    "console.waiting": {
        "en": "Class {room}: this console waits until the console that is open accepts it.",
        "zh": "课堂 {room}：这个控制台正在等待已打开的控制台同意。",
    },
    "console.key_once": {
        "en": "**Teacher key.** Note it now: with it you open the console on another device. It is shown only here, "
        "never on the projector.",
        "zh": "**教师密钥。** 请现在记下：凭它可以在另一台设备上打开控制台。它只显示在这里，绝不会出现在投影仪上。",
    },
    "console.in_sidebar": {"en": "You lead live class **{room}**", "zh": "你正在主持课堂 **{room}**"},
    # ---- the header
    "console.join_screen": {"en": "Join code on the projector", "zh": "在投影仪上显示房间码"},
    "console.join_screen_help": {
        "en": "The code, the link and a large QR code at the top of the projector, to read from the back row.",
        "zh": "在投影仪顶部显示房间码、链接和大号二维码，后排也能看清。",
    },
    "console.open_projector": {"en": "Open the projector window", "zh": "打开投影仪窗口"},
    "console.open_projector_help": {
        "en": "A private link: it opens the projector's screen in a new window (drag it to the projector and press "
        "F11). It shows the class only the lesson, and your clicker works on it.",
        "zh": "这是私密链接：它在新窗口中打开投影仪画面（把窗口拖到投影仪上并按 F11）。这个画面只向全班显示课程内容，翻页笔在上面也能用。",
    },
    "console.screens": {"en": "consoles open: {consoles} · projectors: {projectors}",
                        "zh": "已打开的控制台：{consoles} · 投影仪：{projectors}"},
    "console.asks.console": {"en": "Another console asks to lead this class (opened at {at}). Is it yours?",
                             "zh": "另一个控制台请求主持本课堂（{at} 打开）。是你的吗？"},
    "console.asks.projector": {"en": "A projector asks to show this class (opened at {at}).",
                               "zh": "一台投影仪请求显示本课堂（{at} 打开）。"},
    "console.accept": {"en": "Accept", "zh": "同意"},
    "console.refuse": {"en": "Refuse", "zh": "拒绝"},
    "console.clock": {"en": "This stop: {spent} of {planned} planned · class: {total} of {total_planned}",
                      "zh": "本站：已用 {spent}，计划 {planned} · 全课：已用 {total}，计划 {total_planned}"},
    # ---- the route
    "console.qr_alt": {"en": "QR code of this console's private link, for your phone",
                       "zh": "二维码：本控制台的私人链接，供你的手机打开"},
    "console.prev_stop": {"en": "Previous stop", "zh": "上一站"},
    "console.next_stop": {"en": "Next stop", "zh": "下一站"},
    "console.stop_of": {"en": "Stop {n} of {total}", "zh": "第 {n} 站，共 {total} 站"},
    "console.task": {"en": "The class:", "zh": "全班："},
    "console.notes": {"en": "Your notes:", "zh": "你的备注："},
    "console.outline": {"en": "The lesson's stops", "zh": "课程的各站"},
    "console.minutes": {"en": "{n} min", "zh": "{n} 分钟"},
    "console.class_page": {"en": "The class sees", "zh": "全班看到的页面"},
    "console.one_step": {"en": "One step at a time (as on the projector)", "zh": "一次只显示一步（和投影仪一样）"},
    "console.free_help": {
        "en": "The settings in the sidebar are the class's: change one and the projector and the phones follow.",
        "zh": "侧边栏里的设置就是全班的设置：改动任何一项，投影仪和学生的手机都会跟着变。",
    },
    # ---- questions
    "console.ask_checkpoint": {"en": "Ask this stop's question: {kind}", "zh": "提出本站的问题：{kind}"},
    "console.no_checkpoint": {
        "en": "This stop's question does not fit the class's setting now (d_model = {d}, h = {h}). Go back to the "
        "stop's setting, or ask another question.",
        "zh": "本站的问题不适用于全班当前的设置（d_model = {d}，h = {h}）。请回到本站的设置，或换一道题。",
    },
    "console.close_question": {"en": "Close the question", "zh": "关闭问题"},
    "console.close_help": {
        "en": "The question leaves the projector and the phones; its answers stay in the CSV.",
        "zh": "问题从投影仪和手机上消失；答案仍保留在 CSV 文件中。",
    },
    "console.csv": {"en": "Answers (CSV)", "zh": "答案（CSV）"},
    "console.csv_help": {
        "en": "Every question of this class, one row per answer, exactly as the students gave it.",
        "zh": "本课堂的每一道题，每份答案一行，与学生提交的完全一致。",
    },
    # ---- devices
    "console.devices": {"en": "Projectors and consoles", "zh": "投影仪与控制台"},
    "console.projector_pairing": {
        "en": "A projector on another computer: open {link} there. It asks to show the class, and you accept it "
        "here.",
        "zh": "在另一台电脑上用投影仪：在那台电脑上打开 {link}。它会请求显示本课堂，你在这里同意即可。",
    },
    "console.phone_link": {"en": "This console on my phone", "zh": "在我的手机上打开控制台"},
    "console.phone_link_help": {
        "en": "A private link for one device, accepted at once: scan it with your phone. Do not show it to the "
        "class.",
        "zh": "只能用于一台设备的私密链接，打开即被同意：用你的手机扫描。不要给全班看。",
    },
    "console.show_key": {"en": "Show the teacher key", "zh": "显示教师密钥"},
    "console.close_screen.console": {"en": "Close the console opened at {at}", "zh": "关闭 {at} 打开的控制台"},
    "console.close_screen.projector": {"en": "Close the projector opened at {at}", "zh": "关闭 {at} 打开的投影仪"},
    # ---- ending
    "console.end_title": {"en": "End the live class for everyone?", "zh": "要为所有人结束课堂直播吗？"},
    "console.end_text": {
        "en": "The projector and the phones go back to the normal app, and nobody can join or answer any more. "
        "Download the answers first if you want them: after the end they are gone from this console.",
        "zh": "投影仪和手机会回到普通的应用，之后谁也不能再加入或作答。如需保留答案，请先下载：结束后控制台里就没有了。",
    },
    "console.end_confirm": {"en": "End the class", "zh": "结束课堂"},
    "console.end_cancel": {"en": "Keep the class going", "zh": "继续上课"},
    # ---- the projector (the whole class sees these)
    "projector.class": {"en": "Live class {room}", "zh": "课堂 {room}"},
    "projector.waiting": {
        "en": "Live class {room} · waiting for the teacher's console to accept this projector",
        "zh": "课堂 {room} · 正在等待教师控制台同意这台投影仪",
    },
    "projector.join_button": {"en": "Join code", "zh": "房间码"},
    "projector.console_button": {"en": "Teacher console", "zh": "教师控制台"},
    "projector.console_help": {
        "en": "The console shows the teacher key and the answers as they come in, so it opens on your own device, "
        "never here. On your laptop or phone, open the console page of this app, type the class code **{room}** "
        "and your teacher key.",
        "zh": "控制台会显示教师密钥和陆续收到的答案，所以它只在你自己的设备上打开，绝不在这里打开。请在你的笔记本或手机上"
        "打开本应用的控制台页面，输入房间码 **{room}** 和你的教师密钥。",
    },
    "projector.console_open": {"en": "Open the console in a new window", "zh": "在新窗口中打开控制台"},
}
