"""Strings of accessibility (issue 36): charts' text alternatives and numbers, page titles, focus, Streamlit's own
English labels replaced on Chinese pages."""

STRINGS: dict[str, dict[str, str]] = {
    # ---- a chart's text alternative (figures/describe.py); parts are joined with a11y.join
    "a11y.join": {"en": ". ", "zh": "。"},
    # ---- a Material icon's name where it means something (ui/a11y.ICON_NAMES: a revealed quiz question's marks)
    "a11y.icon.check_circle": {"en": "the answer", "zh": "正确答案"},
    "a11y.icon.cancel": {"en": "your answer, not right", "zh": "你的答案，不对"},
    "a11y.sep": {"en": "; ", "zh": "；"},
    "a11y.names": {"en": " ({names})", "zh": "（{names}）"},
    "a11y.untitled": {"en": "Chart", "zh": "图表"},
    "a11y.summary_empty": {"en": "{title}: no values drawn", "zh": "{title}：没有绘出数值"},
    "a11y.size.tiles": {"en": "Heatmap of {n} maps, each {rows} × {cols} cells",
                        "zh": "热力图，共 {n} 张，每张 {rows} × {cols} 个格子"},
    "a11y.size.line": {"en": "Line chart: {n} lines of up to {points} points",
                       "zh": "折线图：{n} 条线，每条最多 {points} 个点"},
    "a11y.size.bar": {"en": "Bar chart: {n} series of up to {points} bars", "zh": "柱状图：{n} 组，每组最多 {points} 根柱"},
    "a11y.size.scatter": {"en": "{n} series of up to {points} points", "zh": "{n} 组点，每组最多 {points} 个"},
    "a11y.size.heatmap_many": {"en": "{n} heatmaps of up to {points} cells", "zh": "{n} 张热力图，每张最多 {points} 个格子"},
    "a11y.size.line_one": {"en": "Line chart of {points} points", "zh": "折线图，{points} 个点"},
    "a11y.size.bar_one": {"en": "Bar chart of {points} bars", "zh": "柱状图，{points} 根柱"},
    "a11y.size.scatter_one": {"en": "{points} points", "zh": "{points} 个点"},
    "a11y.size.heatmap_one": {"en": "Heatmap of {points} cells", "zh": "热力图，{points} 个格子"},
    "a11y.size.heatmap": {"en": "Heatmap of {rows} rows × {cols} columns", "zh": "热力图，{rows} 行 × {cols} 列"},
    "a11y.range": {"en": "Values from {lo} to {hi}", "zh": "数值从 {lo} 到 {hi}"},
    "a11y.at": {"en": "{value} at {where}", "zh": "{where}：{value}"},
    "a11y.largest": {"en": "Largest: {items}", "zh": "最大：{items}"},
    "a11y.smallest": {"en": "Most negative: {item}", "zh": "最负：{item}"},
    "a11y.masked": {"en": "{n} cells masked", "zh": "{n} 个格子已掩蔽"},
    "a11y.table_hint": {"en": "Every number: the CSV under the chart", "zh": "全部数值：见图下方的 CSV"},
    "a11y.col.where": {"en": "where", "zh": "位置"},
    "a11y.col.value": {"en": "value", "zh": "数值"},
    "a11y.col.series": {"en": "series", "zh": "系列"},
    # ---- masked cells carry a hatch (figures.style.masked_hatch), not a shade of grey alone
    "a11y.masked_note": {"en": "hatched cells: masked (−∞)", "zh": "斜线格子：已掩蔽（−∞）"},
    # ---- the download under every chart, named by what it holds
    "a11y.csv": {"en": "Numbers of “{title}” (CSV)", "zh": "“{title}”的数值（CSV）"},
    "a11y.csv_help": {
        "en": "Every number this chart draws, one row each, with where it is (opens in a spreadsheet or a screen "
        "reader's table view).",
        "zh": "这张图画出的每个数值各占一行，并注明其位置（可用电子表格或读屏软件的表格视图打开）。",
    },
    # ---- the browser tab's title: the page, then the app
    "a11y.doc_title": {"en": "{page} · {app}", "zh": "{page} · {app}"},
    # ---- the language selector: its name without the icon's ligature text
    "a11y.language": {"en": "Language / 语言", "zh": "语言 / Language"},
    # ---- Streamlit's own English texts (ui/a11y.js rewrites them on Chinese pages)
    "a11y.st.help_for": {"en": "Help for {label}", "zh": "“{label}”的说明"},
    "a11y.st.skip": {"en": "Skip to main content", "zh": "跳到主要内容"},
    "a11y.st.open": {"en": "Open", "zh": "打开"},
    "a11y.st.close": {"en": "Close", "zh": "关闭"},
    "a11y.st.sidebar": {"en": "Sidebar", "zh": "侧边栏"},
    "a11y.st.pages": {"en": "App pages", "zh": "应用页面"},
    "a11y.st.collapse_sidebar": {"en": "Collapse sidebar", "zh": "收起侧边栏"},
    "a11y.st.expand_sidebar": {"en": "Expand sidebar", "zh": "展开侧边栏"},
    "a11y.st.main_menu": {"en": "Main menu", "zh": "主菜单"},
    "a11y.st.help": {"en": "Help", "zh": "说明"},
    "a11y.st.increment": {"en": "Increment", "zh": "增加"},
    "a11y.st.decrement": {"en": "Decrement", "zh": "减少"},
    "a11y.st.copy": {"en": "Copy to clipboard", "zh": "复制到剪贴板"},
    "a11y.st.anchor": {"en": "Link to heading", "zh": "指向此标题的链接"},
    "a11y.st.show_password": {"en": "Show password", "zh": "显示密码"},
    "a11y.st.hide_password": {"en": "Hide password", "zh": "隐藏密码"},
    "a11y.st.choose": {"en": "Choose an option", "zh": "请选择"},
    "a11y.st.file_upload": {"en": "file upload", "zh": "上传文件"},
    "a11y.st.png": {"en": "Download plot as a PNG", "zh": "将图表下载为 PNG"},
    "a11y.st.zoom": {"en": "Zoom", "zh": "框选放大"},
    "a11y.st.pan": {"en": "Pan", "zh": "平移"},
    "a11y.st.zoom_in": {"en": "Zoom in", "zh": "放大"},
    "a11y.st.zoom_out": {"en": "Zoom out", "zh": "缩小"},
    "a11y.st.autoscale": {"en": "Autoscale", "zh": "自动缩放"},
    "a11y.st.reset_axes": {"en": "Reset axes", "zh": "重置坐标轴"},
    "a11y.st.selected": {"en": "Selected values", "zh": "已选的值"},
    "a11y.st.clear_all": {"en": "Clear all", "zh": "全部清除"},
    # ---- the pipeline diagram's text alternative (pages/home.py)
    "a11y.pipeline": {
        "en": "Diagram of the pipeline: X ({L}×{d}) goes to {h} heads; each head projects Q_i, K_i, V_i "
        "({L}×{dk}), computes A_i = softmax(Q_i K_iᵀ / √{dk}) ({L}×{Lk}) and head_i = A_i V_i ({L}×{dk}); the heads "
        "are concatenated ({L}×{d}) and multiplied by W^O to give the output ({L}×{d}).",
        "zh": "流程图：X（{L}×{d}）进入 {h} 个头；每个头投影出 Q_i、K_i、V_i（{L}×{dk}），计算 "
        "A_i = softmax(Q_i K_iᵀ / √{dk})（{L}×{Lk}）和 head_i = A_i V_i（{L}×{dk}）；各头拼接（{L}×{d}）后乘以 W^O，"
        "得到输出（{L}×{d}）。",
    },
}
