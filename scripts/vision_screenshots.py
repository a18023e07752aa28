"""Screenshots as students with a colour vision deficiency see the app: `python scripts/vision_screenshots.py [outdir]`.

Chromium simulates deuteranopia and protanopia itself (DevTools' Emulation.setEmulatedVisionDeficiency, Machado et
al.'s matrices, the same as tests/test_a11y_colours.py computes with): for /heads and /steps the whole page, for every
other page with charts one chart, each as typical colour vision, deuteranopia and protanopia, light and dark.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.a11y import wait_ready
from tests.browser import CHROMIUM, CHROMIUM_ARGS, streamlit_server

VISIONS = ("none", "deuteranopia", "protanopia")
MASKED = "mask=causal&d_model=32&n_heads=4&seed=7"  # masked cells, four heads: hatch and head colours in one view
# (page, query, element to photograph or None for the whole page, a radio option to choose first or None)
SHOTS = [
    ("heads", MASKED, None, "masked scores"),
    ("heads", MASKED, ".st-key-heads_lines", None),
    ("steps", MASKED, None, None),
    ("home", "", ".stGraphVizChart", None),
    ("inputs", "", ".st-key-inputs_x", None),
    ("positional", "", ".st-key-pe_curves", None),
    ("why", "", ".st-key-why_scaling", None),
    ("subspaces", MASKED, ".st-key-sub_dot", None),
    ("minilm", "", ".st-key-minilm_types", None),
    ("note004", "", ".st-key-n4_basis", None),
]
PAGE_HEIGHT = 2600  # a whole page: Streamlit scrolls inside its own column, so the window is made this tall


def main(outdir: str = "screenshots/vision", schemes: tuple[str, ...] = ("light", "dark")) -> list[Path]:
    from playwright.sync_api import sync_playwright

    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    with streamlit_server() as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for scheme in schemes:
            ctx = browser.new_context(viewport={"width": 1440, "height": 900}, color_scheme=scheme)
            page = ctx.new_page()
            cdp = ctx.new_cdp_session(page)
            for name, query, selector, option in SHOTS:
                page.set_viewport_size({"width": 1440, "height": 900 if selector else PAGE_HEIGHT})
                page.goto(f"{url}/{name}?{query}")
                wait_ready(page)
                if option:
                    page.get_by_text(option, exact=True).first.click()
                    wait_ready(page)
                page.wait_for_timeout(800)
                target = page.locator(selector).first if selector else None
                for vision in VISIONS:
                    cdp.send("Emulation.setEmulatedVisionDeficiency", {"type": vision})
                    page.wait_for_timeout(200)
                    part = selector.split("-")[-1].strip("]'.") if selector else "page"
                    path = out / f"{name}-{part}-{scheme}-{vision}.png"
                    if target is not None:
                        target.scroll_into_view_if_needed()
                        target.screenshot(path=str(path))
                    else:
                        page.screenshot(path=str(path), full_page=True)
                    written.append(path)
                cdp.send("Emulation.setEmulatedVisionDeficiency", {"type": "none"})
            ctx.close()
        browser.close()
    return written


if __name__ == "__main__":
    for p in main(*(sys.argv[1:2] or [])):
        print(p)
