"""Accessibility helpers for the browser tests: axe-core in the page, the known violations of Streamlit's own markup
(docs/ACCESSIBILITY.md), and keyboard-only driving that other tests reuse (the live class and lesson flows):

    run_axe(page)                    -> axe's violations (serious and critical by default)
    unlisted(violations, KNOWN)      -> the ones docs/ACCESSIBILITY.md does not list
    wait_ready(page, lang)           -> the run is drawn and ui/a11y.js has applied its fixes
    tab_to(page, "Next")             -> press Tab until the focused element's accessible name contains "Next"
    press(page, "Enter")             -> press a key on what has the focus, wait for the run it starts
    focused(page)                    -> what has the focus: tag, role, accessible name, whether it is on screen
    assert_focus_visible(page)       -> the focused element draws a ring of at least 3:1 against its surroundings

The live class and the lesson (their own branches) reuse these for their keyboard-only tests: open the page,
`tab_to` the control, `press` it, then check `focused(page)["name"]` names the new content and
`assert_focus_visible(page)`.
"""

from __future__ import annotations

import contextlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
AXE_JS = ROOT / "node_modules" / "axe-core" / "axe.min.js"  # package.json pins it; .ci/run runs `npm ci`
ACCESSIBILITY_MD = ROOT / "docs" / "ACCESSIBILITY.md"
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
FAILING_IMPACTS = ("serious", "critical")


def run_axe(page, impacts: tuple[str, ...] | None = FAILING_IMPACTS) -> list[dict]:
    """axe-core's WCAG 2.2 AA violations on the page as it is now; each {id, impact, help, nodes: [{target, html,
    summary}]}. impacts=None keeps every impact (the before/after report)."""
    if not page.evaluate("() => !!window.axe"):
        page.add_script_tag(path=str(AXE_JS))
    raw = page.evaluate(
        """async (tags) => {
            const r = await axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
            return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map(n => ({
                target: n.target.map(String).join(' '), html: n.html.slice(0, 300),
                summary: (n.failureSummary || '').slice(0, 400)}))}));
        }""",
        WCAG_TAGS,
    )
    return [v for v in raw if impacts is None or v["impact"] in impacts]


@dataclass(frozen=True)
class Known:
    """One violation docs/ACCESSIBILITY.md lists: axe's rule id and a piece of the failing element's CSS target."""

    rule: str
    target: str


def known_violations(path: Path = ACCESSIBILITY_MD) -> list[Known]:
    """The rows of the table under "## Known violations" in docs/ACCESSIBILITY.md: `| rule | target | ...`."""
    rows: list[Known] = []
    inside = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            inside = line.strip().lower().startswith("## known violations")
            continue
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        is_row = inside and line.startswith("|") and len(cells) >= 2 and not set(cells[0]) <= set("-: ")
        if is_row and cells[0].lower() != "rule":
            rows.append(Known(cells[0], cells[1]))
    return rows


def unlisted(violations: list[dict], known: list[Known]) -> list[dict]:
    """The violations (with only their nodes) that no row of `known` covers."""
    out = []
    for v in violations:
        nodes = [n for n in v["nodes"] if not any(k.rule == v["id"] and k.target in n["target"] for k in known)]
        if nodes:
            out.append({**v, "nodes": nodes})
    return out


def describe(violations: list[dict]) -> str:
    """A readable list for an assertion message."""
    return "\n".join(
        f"- {v['id']} ({v['impact']}): {v['help']}\n"
        + "\n".join(f"    {n['target']}: {n['summary'][:200]}" for n in v["nodes"][:6])
        for v in violations
    )


LANG_TAGS = {"en": "en", "zh": "zh-CN"}


def wait_ready(page, lang: str = "en", timeout: float = 60_000) -> None:
    """The run is drawn (tests.browser.wait_idle) and the frame's accessibility fixes are in (ui/a11y.js has set
    <html lang>): what a screen reader meets once the page has settled."""
    from tests.browser import wait_idle

    page.wait_for_function("(tag) => window.__mhaA11y && document.documentElement.lang === tag", arg=LANG_TAGS[lang],
                           timeout=timeout)  # fmt: skip
    wait_idle(page, timeout)
    page.wait_for_timeout(100)  # one animation frame for the observer's fixes to what the run drew last


# ----- keyboard only -----------------------------------------------------------------------------------------------
FOCUSED = """() => {
    let el = document.activeElement;
    while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
    if (!el || el === document.body) return {tag: 'body', name: '', text: '', role: '', onScreen: false, testid: ''};
    const r = el.getBoundingClientRect();
    const labelled = el.getAttribute('aria-labelledby');
    const byId = labelled ? labelled.split(/\\s+/).map(i => document.getElementById(i)).filter(Boolean)
        .map(e => e.textContent).join(' ') : '';
    const label = el.labels && el.labels.length ? el.labels[0].textContent : '';
    // name from content only where ARIA allows it (a button, a link, ...), not a region's whole text
    const fromContent = el.matches('a, button, summary, option, [role=button], [role=link], [role=tab], '
        + '[role=option], [role=menuitem], [role=radio], [role=checkbox], [role=switch]');
    // a Material icon's ligature ("arrow_forward") is aria-hidden: not part of the name
    const visibleText = (e) => { const c = e.cloneNode(true);
        c.querySelectorAll('[aria-hidden=true]').forEach(x => x.remove()); return c.innerText || c.textContent || ''; };
    const text = visibleText(el).replace(/\\s+/g, ' ').trim();
    const name = (el.getAttribute('aria-label') || byId || label || (fromContent ? text : '') || '').trim();
    const box = el.closest('[data-testid]');
    return {tag: el.tagName.toLowerCase(), name: name.replace(/\\s+/g, ' ').slice(0, 200), text: text.slice(0, 300),
            role: el.getAttribute('role') || '', testid: box ? box.dataset.testid : '',
            onScreen: r.width > 0 && r.height > 0 && r.right > 0 && r.bottom > 0
                && r.left < innerWidth && r.top < innerHeight};
}"""


def focused(page) -> dict:
    """The focused element: tag, role, accessible name (roughly as a screen reader forms it), its text, the testid
    of its Streamlit element, and whether it is on screen."""
    return page.evaluate(FOCUSED)


def press(page, key: str, lang: str = "en") -> None:
    """Press `key` on what has the focus and wait until the run it starts is drawn (and the focus has moved, if the
    action asked for it: ui/a11y.move_focus_to)."""
    page.keyboard.press(key)
    with contextlib.suppress(Exception):  # the run it starts (a key that starts none: nothing to wait for)
        page.wait_for_selector("[data-testid='stApp'][data-test-script-state='running']", timeout=3000)
    wait_ready(page, lang)
    page.wait_for_timeout(300)  # ui/a11y.js moves the focus once the run is drawn


def tab_to(page, name: str | re.Pattern, limit: int = 80, backwards: bool = False) -> list[dict]:
    """Press Tab (Shift+Tab) until the focused element's name contains `name` (or matches the pattern); returns
    every element passed on the way, the last being the one found. Fails after `limit` presses."""
    passed = []
    for _ in range(limit):
        page.keyboard.press("Shift+Tab" if backwards else "Tab")
        now = focused(page)
        passed.append(now)
        hit = name.search(now["name"]) if isinstance(name, re.Pattern) else name in now["name"]
        if hit:
            return passed
    raise AssertionError(f"no element named {name!r} within {limit} Tab presses; passed: "
                         f"{json.dumps([p['name'] for p in passed], ensure_ascii=False)[:1500]}")


FOCUS_RING = """() => {
    let el = document.activeElement;
    while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
    if (!el || el === document.body) return null;
    // a visually hidden input (react-aria's switches and radios) shows its ring on what draws it
    const small = (e) => { const r = e.getBoundingClientRect(); return r.width <= 2 || r.height <= 2; };
    const hidden = (e) => small(e) || (e.parentElement && small(e.parentElement));
    let owner = el;
    for (let up = 0; owner && up < 6 && (hidden(owner) || getComputedStyle(owner).outlineStyle === 'none'); up++) {
        owner = owner.parentElement;
    }
    owner = owner || el;
    const cs = getComputedStyle(owner);
    const parse = (c) => { const m = c.match(/[\\d.]+/g); return m ? m.slice(0, 3).map(Number) : null; };
    const lum = ([r, g, b]) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92
        : Math.pow((v + 0.055) / 1.055, 2.4); }; return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
    const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
    let bg = null;
    for (let e = owner.parentElement; e && !bg; e = e.parentElement) {
        const c = getComputedStyle(e).backgroundColor;
        if (c && !c.startsWith('rgba(0, 0, 0, 0)') && c !== 'transparent') bg = parse(c);
    }
    bg = bg || parse(getComputedStyle(document.body).backgroundColor) || [255, 255, 255];
    const width = parseFloat(cs.outlineWidth) || 0;
    const r = owner.getBoundingClientRect();
    return {width, style: cs.outlineStyle, color: cs.outlineColor, owner: owner.tagName.toLowerCase(),
            visible: r.width > 2 && r.height > 2,
            contrast: width > 0 && cs.outlineStyle !== 'none' ? ratio(parse(cs.outlineColor), bg) : 0};
}"""


def focus_ring(page) -> dict | None:
    """The focused element's outline: width (px), style, colour and its contrast against the nearest background."""
    return page.evaluate(FOCUS_RING)


def assert_focus_visible(page, min_contrast: float = 3.0) -> None:
    """The focused element is on screen and draws an outline of at least 2 px at `min_contrast`:1 (WCAG 2.4.7, 1.4.11,
    2.4.13's 2 px)."""
    now = focused(page)
    assert now["tag"] != "body", "the focus fell to <body>"
    assert now["onScreen"], f"the focused element is off screen: {now}"
    ring = focus_ring(page)
    assert ring and ring["visible"] and ring["width"] >= 2 and ring["contrast"] >= min_contrast, (
        f"focus ring too faint on {now}: {ring}")
