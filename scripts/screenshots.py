"""Screenshots of every page, small and large setting, both languages: `python scripts/screenshots.py [outdir]`.

Starts its own server, drives Debian's Chromium, writes PNGs to look at (default: screenshots/).
The Chinese pages need a CJK font on the machine that draws them (Debian: `apt-get install fonts-noto-cjk`);
without one Chromium draws every Chinese character as an empty box, which says nothing about the app.
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.browser import CHART, CHROMIUM, CHROMIUM_ARGS, streamlit_server, wait_idle

PAGES = ["home", "inputs", "steps", "heads", "positional"]
SETTINGS = {
    "small": "preset=worked",
    "default": "",
    "large": "preset=custom&d_model=256&n_heads=16&text=" + "+".join(f"w{i}" for i in range(64)),
}


def main(outdir: str = "screenshots", pages: list[str] | None = None, langs: tuple[str, ...] = ("en", "zh"),
         settings: dict[str, str] | None = None, full_page: bool = True, height: int = 3200) -> list[Path]:
    from playwright.sync_api import sync_playwright

    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    with streamlit_server() as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for lang in langs:
            for name, query in (settings or SETTINGS).items():
                for page_name in pages or PAGES:
                    ctx = browser.new_context(viewport={"width": 1500, "height": height})
                    page = ctx.new_page()
                    page.goto(f"{url}/{'' if page_name == 'home' else page_name}?lang={lang}&{query}")
                    wait_idle(page)
                    with contextlib.suppress(Exception):  # the home page has no plotly chart
                        page.locator(CHART).first.wait_for(timeout=10_000)
                    page.wait_for_timeout(1500)
                    path = out / f"{page_name}-{name}-{lang}.png"
                    page.screenshot(path=str(path), full_page=full_page)
                    written.append(path)
                    ctx.close()
        browser.close()
    return written


if __name__ == "__main__":
    for p in main(*(sys.argv[1:2] or [])):
        print(p)
