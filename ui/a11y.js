// What every page needs for assistive technology, applied from the frame on every run (ui/a11y.py):
// - <html lang> from the chosen language (a screen reader picks its voice and rules from it);
// - Streamlit's navigation list made a valid list (its <ul> holds a <div> per section: the <ul> is said to be a
//   list and the section <div>s to be no element of their own, so the <li>s are its items);
// - Streamlit's own English names (aria-label, title, placeholder) replaced on a Chinese page, and its skip link's
//   words;
// - after an action that asks for it (ui/a11y.move_focus_to), the focus on the new content once the run is done;
// - an in-page link's target focused (not only scrolled to);
// - a Material icon in Markdown text (Streamlit names it by its ligature: "check_circle icon") named by what it
//   means where it means something (a quiz's marks: the right answer, the reader's wrong one), else hidden;
// - the width the main column is drawn at, reported when it crosses NARROW, so figures choose their layout by it;
// - content that arrives by itself (a teacher's question on a student's phone: a container keyed
//   ui/a11y.ANNOUNCE + name) said once, in a polite live region that is on the page from its start (a region inserted
//   together with its text is not reliably read), without moving the focus (the student may be typing).
//
// data: {lang, labels: {exact: {en: zh}, prefix: {en: "...{}..."}}, skip: the skip link's words,
//        icons: {ligature: name}, focus: {target, n} | null, assumed}

const NARROW = 640; // CSS px of the main column below which figures take their phone layout
const ATTRS = ["aria-label", "title", "placeholder", "data-title"];
const SELECTOR = ATTRS.map((a) => `[${a}]`).join(",");
const FOCUSABLE = "a[href], button, input, select, textarea, summary, [tabindex]";

function fixNav(root) {
  root.querySelectorAll("[data-testid='stSidebarNavItems']").forEach((ul) => {
    if (ul.getAttribute("role") !== "list") ul.setAttribute("role", "list");
    for (const child of ul.children) {
      if (child.tagName !== "LI" && child.getAttribute("role") !== "none") child.setAttribute("role", "none");
    }
  });
}

// Streamlit draws a graphviz chart as a bare <svg>: it becomes one image named by the graph's title (figures/flow.py
// names the pipeline diagram by a sentence; a bare graph was "G"), its nodes' own titles no longer read one by one.
function nameGraphs(root) {
  root.querySelectorAll("[data-testid='stGraphVizChart'] svg").forEach((svg) => {
    const title = svg.querySelector("g.graph > title");
    if (title && svg.getAttribute("aria-label") !== title.textContent) {
      svg.setAttribute("role", "img");
      svg.setAttribute("aria-label", title.textContent);
    }
  });
}

// Streamlit 1.67 draws `:material/x:` in Markdown as <span role="img" aria-label="x icon">x</span>: a screen reader
// says "check_circle icon". An icon with a meaning gets its name; a decorative one (a bullet, the lesson's cap) is
// hidden, its text says the rest.
function nameIcons(root, icons) {
  root.querySelectorAll("[data-testid='stMarkdownContainer'] span[role='img'][translate='no']").forEach((span) => {
    const ligature = span.textContent.trim();
    const name = Object.prototype.hasOwnProperty.call(icons, ligature) ? icons[ligature] : null;
    if (name) {
      if (span.getAttribute("aria-label") !== name) span.setAttribute("aria-label", name);
    } else if (span.getAttribute("aria-hidden") !== "true") {
      span.removeAttribute("role");
      span.removeAttribute("aria-label");
      span.setAttribute("aria-hidden", "true");
    }
  });
}

const ANNOUNCE = "st-key-a11y_announce_"; // ui/a11y.ANNOUNCE as Streamlit writes a container's key in its class
const REGION = "mha-a11y-status";
const HIDDEN = "position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);"
  + "clip-path:inset(50%);white-space:nowrap;border:0;";

function liveRegion() {
  let region = document.getElementById(REGION);
  if (!region) {
    region = document.createElement("div");
    region.id = REGION;
    region.setAttribute("role", "status");
    region.setAttribute("aria-live", "polite");
    region.setAttribute("aria-atomic", "true");
    region.setAttribute("style", HIDDEN);
    document.body.appendChild(region);
  }
  return region;
}

// What a screen reader should hear of an element: its text without the hidden parts (KaTeX's drawn copy of a
// formula, its TeX source, decorative icons).
function spokenText(el) {
  const copy = el.cloneNode(true);
  copy.querySelectorAll("[aria-hidden='true'], annotation, .katex-html").forEach((n) => n.remove());
  return copy.textContent.replace(/\s+/g, " ").trim();
}

// Each container to announce is said once per page load (its key names it: a question's id), not at every redraw.
function announceNew(root, state) {
  const shown = root.querySelectorAll(`[class*='${ANNOUNCE}']`);
  if (!shown.length) {
    // what was said is gone from the page (the teacher closed the question): the region keeps nothing stale
    const region = document.getElementById(REGION);
    if (region && region.textContent) region.textContent = "";
    return;
  }
  shown.forEach((el) => {
    const name = Array.from(el.classList).find((c) => c.startsWith(ANNOUNCE));
    if (!name || state.announced.has(name)) return;
    const text = spokenText(el);
    if (!text) return; // its text is not drawn yet: the next change comes back
    state.announced.add(name);
    const region = liveRegion();
    region.textContent = "";
    setTimeout(() => {
      region.textContent = text;
    }, 150);
  });
}

// Streamlit 1.67's skip link (<a data-testid="stSkipToContent">, its first focusable element) says "Skip to main
// content" in English on every page: its words in the page's language (a constant child, so React leaves it be).
function fixSkipLink(root, text) {
  if (!text) return;
  const link = root.querySelector("a[data-testid='stSkipToContent']");
  if (link && link.textContent !== text) link.textContent = text;
}

function translated(value, labels) {
  if (!value) return null;
  if (Object.prototype.hasOwnProperty.call(labels.exact, value)) return labels.exact[value];
  for (const [prefix, template] of Object.entries(labels.prefix)) {
    if (value.startsWith(prefix)) return template.replace("{}", value.slice(prefix.length));
  }
  return null;
}

function relabel(el, labels) {
  for (const attr of ATTRS) {
    const now = translated(el.getAttribute(attr), labels);
    if (now !== null) el.setAttribute(attr, now);
  }
}

function relabelAll(root, labels) {
  if (root.matches && root.matches(SELECTOR)) relabel(root, labels);
  if (root.querySelectorAll) root.querySelectorAll(SELECTOR).forEach((el) => relabel(el, labels));
}

// An in-page link (a lesson's "go to it", a heading's own link) moves the focus to its target, not only the view:
// the browser leaves the focus on <body> for a target that is not focusable, and a screen reader stays where it was.
function focusLinkTarget(event) {
  const link = event.target instanceof Element ? event.target.closest("a[href^='#']") : null;
  if (!link || event.defaultPrevented) return;
  let id = "";
  try {
    id = decodeURIComponent(link.getAttribute("href").slice(1));
  } catch (e) {
    return;
  }
  const target = id ? document.getElementById(id) : null;
  if (!target) return;
  setTimeout(() => {
    if (!target.matches(FOCUSABLE)) target.setAttribute("tabindex", "-1");
    target.focus({ preventScroll: true });
  }, 0);
}

// One observer per page: it re-applies the fixes to what Streamlit and plotly add or rename later.
function observe() {
  if (window.__mhaA11y) return window.__mhaA11y;
  const state = { labels: { exact: {}, prefix: {} }, icons: {}, pending: new Set(), frame: 0, announced: new Set() };
  liveRegion(); // on the page before anything is said in it
  const flush = () => {
    state.frame = 0;
    const active = Object.keys(state.labels.exact).length > 0;
    for (const node of state.pending) if (active && node.isConnected) relabelAll(node, state.labels);
    state.pending.clear();
    fixNav(document);
    fixSkipLink(document, state.skip);
    nameGraphs(document);
    nameIcons(document, state.icons);
    announceNew(document, state);
  };
  state.observer = new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === "attributes") state.pending.add(r.target);
      else r.addedNodes.forEach((n) => n.nodeType === 1 && state.pending.add(n));
    }
    if (!state.frame) state.frame = requestAnimationFrame(flush);
  });
  state.observer.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ATTRS });
  document.addEventListener("click", focusLinkTarget);
  window.__mhaA11y = state;
  return state;
}

// The target may be on another page (a lesson's Next switches pages) drawn by a run that takes seconds on a busy
// server: wait while the app runs (up to a minute), and give up only after 2 s idle without the target.
function focusWhenDrawn(focus) {
  if (!focus || !focus.target || window.__mhaFocusN === focus.n) return;
  window.__mhaFocusN = focus.n;
  const started = Date.now();
  let idle = 0;
  const attempt = () => {
    if (window.__mhaFocusN !== focus.n) return; // a newer request took over
    const app = document.querySelector("[data-testid='stApp']");
    const el = document.querySelector(focus.target);
    const running = !app || app.dataset.testScriptState !== "notRunning";
    if (!running && el) {
      if (!el.matches(FOCUSABLE)) el.setAttribute("tabindex", "-1");
      el.focus({ preventScroll: true });
      el.scrollIntoView({ block: "nearest" });
    } else if ((running || idle++ < 40) && Date.now() - started < 60000) setTimeout(attempt, 50);
  };
  setTimeout(attempt, 50);
}

function watchWidth(assumed, setStateValue) {
  const main = document.querySelector("[data-testid='stMain']");
  if (!main) return null;
  const measure = () => {
    const width = main.clientWidth;
    if (!width) return;
    const bucket = width < NARROW ? "narrow" : "wide";
    if (bucket !== assumed && bucket !== window.__mhaWidthSent) {
      window.__mhaWidthSent = bucket;
      setStateValue("width", bucket);
    }
  };
  const observer = new ResizeObserver(() => requestAnimationFrame(measure));
  observer.observe(main);
  return observer;
}

export default function ({ data, setStateValue }) {
  document.documentElement.lang = data.lang;
  const state = observe();
  state.labels = data.labels;
  state.icons = data.icons || {};
  state.skip = data.skip;
  if (Object.keys(data.labels.exact).length) relabelAll(document.body, data.labels);
  fixNav(document);
  fixSkipLink(document, state.skip);
  nameGraphs(document);
  nameIcons(document, state.icons);
  announceNew(document, state);
  focusWhenDrawn(data.focus);
  if (window.__mhaWidthSent === data.assumed) window.__mhaWidthSent = null; // the server took it
  const widths = watchWidth(data.assumed, setStateValue);
  return () => {
    if (widths) widths.disconnect();
  };
}
