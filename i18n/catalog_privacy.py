"""Strings of the privacy page (app_pages/privacy.py): what a live class stores, where, for how long. docs/PRIVACY.md
says the same for a school's data-protection officer; the numbers come from the store's own settings."""

STRINGS: dict[str, dict[str, str]] = {
    "page.privacy": {"en": "Privacy", "zh": "隐私"},
    "privacy.title": {"en": "Privacy: what a live class keeps", "zh": "隐私：课堂直播保存什么"},
    "privacy.intro": {
        "en": ("The explorer needs no account, shows no advertising and counts nothing about the people who use it; "
               "nothing it serves asks anything of another server. Used on its own, it keeps nothing about you on "
               "the server: your settings live in the page's link. A **live class** keeps a little more, and only "
               "while the class lasts. Here is exactly what, where, and for how long."),
        "zh": ("本应用无需账号，不展示广告，也不统计使用者的任何信息；它提供的任何内容都不会向其他服务器发出请求。"
               "单独使用时，服务器上不保存任何关于你的信息：你的设置保存在页面链接里。**课堂直播**会多保存一点，"
               "而且只在课堂存续期间保存。下面逐条说明保存什么、保存在哪里、保存多久。"),
    },
    "privacy.table": {"en": "What a live class stores", "zh": "课堂直播保存的内容"},
    "privacy.col_what": {"en": "What", "zh": "内容"},
    "privacy.col_why": {"en": "What for", "zh": "用途"},
    "privacy.col_how_long": {"en": "How long", "zh": "保存多久"},
    "privacy.nickname": {"en": "Your nickname, if you type one (it is optional)",
                         "zh": "你的昵称（如果你填写了；昵称是可选的）"},
    "privacy.nickname_why": {"en": "Shown to the teacher beside your answers",
                             "zh": "在教师控制台上显示在你的答案旁边"},
    "privacy.with_answers": {"en": "With the answers", "zh": "与答案一同保存"},
    "privacy.answers": {"en": "Your answers: the option you chose or what you typed, and when",
                        "zh": "你的答案：你选的选项或你输入的内容，以及提交时间"},
    "privacy.answers_why": {"en": "The teacher's count, chart and answer table",
                            "zh": "教师看到的计数、图表和答案表"},
    "privacy.until_deleted": {"en": "Until the class is deleted: {hours} hours after it began at the latest",
                              "zh": "直到课堂被删除：最迟在课堂开始 {hours} 小时后"},
    "privacy.browser_id": {
        "en": "A browser id: a hash (SHA-256) of a random secret your browser made. The secret stays in your browser",
        "zh": "一个浏览器标识：你的浏览器生成的随机密钥的哈希值（SHA-256）。密钥本身只留在你的浏览器里",
    },
    "privacy.browser_id_why": {
        "en": "Keeps your seat yours: a link with someone else's seat opens a seat of its own",
        "zh": "让你的座位只属于你：用别人座位的链接打开时，会得到一个新的座位",
    },
    "privacy.with_seat": {"en": "With your seat", "zh": "与你的座位一同保存"},
    "privacy.address": {
        "en": ("Your network address: not stored. Only a digest of your network under a key of the server ({hex} "
               "characters): the same for everyone behind one school address, and no address in it"),
        "zh": "你的网络地址：不保存。只保存你所在网络在服务器密钥下的摘要（{hex} 个字符）：同一学校地址后面的所有人都相同，其中没有地址",
    },
    "privacy.address_why": {
        "en": ("Slows a script that fills a class or guesses codes; shows the teacher which seats share a network, "
               "so that they can remove them"),
        "zh": "减缓脚本占满课堂或猜测房间码的速度；让老师看到哪些座位来自同一网络，以便移除它们",
    },
    "privacy.address_how_long": {
        "en": "With your seat; for the rates, at most {minutes} minutes after your last request",
        "zh": "与你的座位一同保存；用于速率限制的，最迟在你最后一次请求 {minutes} 分钟后删除",
    },
    "privacy.presence": {"en": "When your page last checked in, and whether it follows the teacher",
                         "zh": "你的页面最近一次报到的时间，以及它是否在跟随老师"},
    "privacy.presence_why": {"en": "The teacher's count of who is here and following",
                             "zh": "教师看到的在线人数和跟随人数"},
    "privacy.presence_how_long": {
        "en": "With your seat; when the class is full, a seat not seen for {minutes} minutes is given back (its answers stay)",
        "zh": "与你的座位一同保存；课堂坐满时，{minutes} 分钟没有报到的座位会被收回（其答案保留）",
    },
    "privacy.room": {"en": "The class: its code, what the teacher shows, the questions asked, a hash of the teacher key",
                     "zh": "课堂本身：房间码、老师展示的内容、提过的问题、教师密钥的哈希值"},
    "privacy.room_why": {"en": "Everyone follows the same page", "zh": "让全班跟随同一个页面"},
    "privacy.where": {
        "en": ("**Where.** Only on the server this app runs on, in its room store: {store}. Nothing of a class goes "
               "anywhere else: no analytics, no other company. The app itself writes no access log; whoever runs "
               "the server may keep logs of their own (a proxy in front of it records addresses): ask them for how "
               "long."),
        "zh": ("**保存在哪里。** 只保存在运行本应用的服务器上，在它的房间存储中：{store}。课堂的任何内容都不会发往别处："
               "没有统计分析，没有其他公司。应用本身不写访问日志；运行服务器的人可能另有自己的日志（服务器前面的代理会记录"
               "地址）：保存多久请向他们了解。"),
    },
    "privacy.store_sqlite": {"en": "a file on this server (SQLite)", "zh": "本服务器上的一个文件（SQLite）"},
    "privacy.store_redis": {"en": "the school's Redis, beside the app's servers", "zh": "学校的 Redis，与应用的服务器放在一起"},
    "privacy.how_long": {
        "en": ("**How long.** A class is open for {ttl} hours at most. An hour later, {hours} hours after it began at "
               "the latest, the class and everything in it (answers, nicknames, seats, questions) is deleted "
               "automatically, from the store and from its files on disk. While your tab is open, the server also "
               "holds your page's state in memory, and for {seconds} seconds after you close it."),
        "zh": ("**保存多久。** 一个课堂最多开放 {ttl} 小时。再过一小时，即最迟在课堂开始 {hours} 小时后，课堂及其中的一切"
               "（答案、昵称、座位、问题）都会被自动删除，从房间存储和它在磁盘上的文件中一并删除。你的标签页打开期间，"
               "服务器还会在内存中保存页面的状态，关闭后再保存 {seconds} 秒。"),
    },
    "privacy.browser": {
        "en": ("**In your browser.** A random secret (in local storage, and in the cookie `mha_client`, kept for a "
               "year), so that a reload keeps your seat; the cookie `mha_route`, which a school's proxy may set so "
               "that your browser keeps reaching the same server; Streamlit's security cookie `_streamlit_xsrf`; "
               "and the light or dark theme you chose. Clearing this site's data in your browser removes them all."),
        "zh": ("**保存在你的浏览器里的。** 一个随机密钥（在本地存储和 cookie `mha_client` 中，保留一年），这样重新加载页面"
               "时你的座位不变；学校的代理可能设置的 cookie `mha_route`，让你的浏览器一直连到同一台服务器；Streamlit 的安全 "
               "cookie `_streamlit_xsrf`；以及你选择的浅色或深色主题。在浏览器中清除本网站的数据即可全部删除。"),
    },
    "privacy.csv": {
        "en": ("**The teacher's copy.** The teacher can download the answers, with their nicknames, as a CSV file: "
               "that copy is on the teacher's device, under the school's rules."),
        "zh": "**老师的副本。** 老师可以把答案连同昵称下载为 CSV 文件：这份副本在老师的设备上，按学校的规定处理。",
    },
}
