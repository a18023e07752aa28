// The keys a presentation clicker sends (Right/Left, PageDown/PageUp, Space/Shift+Space) click the
// Next/Previous buttons of the step page; and, for a link that names a step, scroll to that step once.
// They never act while a control has the focus: Space on a focused Previous presses Previous, arrows move within
// a radio group or a slider, PageDown scrolls a list. After Next/Previous the focus is on the step's line (not a
// control, ui/present.py), so a clicker goes on working through the whole presentation.
//
// data: {next: widget key of the Next button, prev: widget key of the Previous button, scroll: anchor id or ""}
//
// A live class's console and projector count the presses instead (data: {count: true}): every press is numbered
// and the last PRESSES of them go to the server as one state value {last, list: [[n, +1 or -1], ...]}. A state
// value that changes again before the server has read it replaces the older one, so sending the list (not the
// one press) loses no press: the server applies, in order, every press numbered after the last it applied.

const NEXT = new Set(["ArrowRight", "PageDown", " "]);
const PREV = new Set(["ArrowLeft", "PageUp"]);

const CONTROL = [
  "a[href]", "button", "input", "select", "textarea", "summary", "[contenteditable='true']", "[role='button']",
  "[role='link']", "[role='checkbox']", "[role='radio']", "[role='switch']", "[role='tab']", "[role='option']",
  "[role='slider']", "[role='spinbutton']", "[role='combobox']", "[role='listbox']", "[role='menuitem']",
  "[role='textbox']", "[role='grid']",
].join(",");
// Streamlit makes its scrolling main column focusable: the page itself, not a control
const PAGE = "body, [data-testid='stMain'], [data-testid='stMainBlockContainer'], [data-testid='stAppViewContainer']";

function onControl(target) {
  if (!target || !target.closest) return false;
  if (target.closest(CONTROL)) return true;
  return target.matches("[tabindex]:not([tabindex='-1'])") && !target.matches(PAGE);
}

const PRESSES = 50;

function counting(setStateValue) {
  const onKey = (event) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || onControl(event.target)) return;
    let delta = 0;
    if (PREV.has(event.key) || (event.key === " " && event.shiftKey)) delta = -1;
    else if (NEXT.has(event.key)) delta = 1;
    if (!delta) return;
    event.preventDefault();
    const log = (window.__mhaPresses = window.__mhaPresses || { last: 0, list: [] });
    log.last += 1;
    log.list = [...log.list, [log.last, delta]].slice(-PRESSES);
    setStateValue("presses", { last: log.last, list: log.list });
  };
  if (window.__mhaCount) document.removeEventListener("keydown", window.__mhaCount);
  window.__mhaCount = onKey;
  document.addEventListener("keydown", onKey);
  return () => {
    if (window.__mhaCount === onKey) {
      document.removeEventListener("keydown", onKey);
      window.__mhaCount = null;
    }
  };
}

export default function ({ data, setStateValue }) {
  if (data.count) return counting(setStateValue);
  const onKey = (event) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || onControl(event.target)) return;
    let which = null;
    if (PREV.has(event.key) || (event.key === " " && event.shiftKey)) which = data.prev;
    else if (NEXT.has(event.key)) which = data.next;
    if (!which) return;
    const button = document.querySelector(`.st-key-${which} button`);
    event.preventDefault(); // Space would also scroll the page or press a focused button
    if (button && !button.disabled) button.click();
  };
  if (data.next || data.prev) {
    if (window.__mhaKeys) document.removeEventListener("keydown", window.__mhaKeys);
    window.__mhaKeys = onKey;
    document.addEventListener("keydown", onKey);
  }
  if (data.scroll && window.__mhaScrolled !== data.scroll) {
    // the headings above it may still be drawing: try a few times
    let tries = 0;
    const go = () => {
      const target = document.getElementById(data.scroll);
      if (target) {
        window.__mhaScrolled = data.scroll;
        target.scrollIntoView({ block: "start" });
      } else if (tries++ < 20) setTimeout(go, 150);
    };
    go();
  }
  return () => {
    if (window.__mhaKeys === onKey) {
      document.removeEventListener("keydown", onKey);
      window.__mhaKeys = null;
    }
  };
}
