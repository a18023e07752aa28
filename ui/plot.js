// One plotly figure that stays mounted: a new figure for the same chart (same key) is drawn with
// Plotly.react into the same element, instead of the remount and Plotly.newPlot that st.plotly_chart
// does in Streamlit 1.67 whenever a figure changes. plotly.js itself (ui/vendor) is served by the app's
// static folder (ui/chart_element.py puts it there) and loaded once per page.
//
// data: bytes (ui/chart_element.payload): one line of JSON {v: the figure's version, config: plotly config,
// src: where plotly.js is, failed: a translated message, label: the chart's text alternative}, then the figure's
// JSON, read only when it is drawn.
// The element carries data-pending (the version asked for) and data-drawn (the version on screen),
// so tests and benchmarks can wait until every chart shows what the last run sent.

function loadPlotly(src) {
  if (window.Plotly) return Promise.resolve(window.Plotly);
  if (!window.__mhaPlotlyLoad) {
    window.__mhaPlotlyLoad = new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = new URL(src, document.baseURI).href;
      script.async = true;
      script.onload = () => (window.Plotly ? resolve(window.Plotly) : reject(new Error("no Plotly")));
      script.onerror = () => {
        window.__mhaPlotlyLoad = null; // a later run may try again
        script.remove();
        reject(new Error("plotly.js did not load"));
      };
      document.head.appendChild(script);
    });
  }
  return window.__mhaPlotlyLoad;
}

// While plotly.js loads, every chart of the page waits for it; when it arrives they are drawn one per
// animation frame, in page order, so that the first one is on screen at once instead of after all of them.
// Later redraws (plotly.js already there) happen at once.
function inTurn(draw) {
  const turn = (window.__mhaTurn || Promise.resolve())
    .then(() => new Promise((resolve) => requestAnimationFrame(() => resolve())))
    .then(draw);
  window.__mhaTurn = turn.catch(() => {});
  return turn;
}

function showFailure(el, message) {
  if (window.Plotly) window.Plotly.purge(el);
  el.textContent = message;
  el.dataset.drawn = el.dataset.pending;
  el.dataset.failed = "true";
}

// The server sends the figure's JSON as it has it (no escaping into a JSON string, no data-frame checks by
// Streamlit on every run): the header ends at the first newline, which JSON text never holds unescaped.
function unpack(raw) {
  const text = new TextDecoder().decode(raw);
  const cut = text.indexOf("\n");
  return { ...JSON.parse(text.slice(0, cut)), spec: text.slice(cut + 1) };
}

// Labels given one by one (tickvals/ticktext: tokens under a heatmap) are planned on the server for a desktop width.
// On a phone a tile is a third as wide and its labels, stacked on the same pixels, became unreadable; so when two
// neighbouring labels are closer than their font is tall, only every k-th of each tile is shown (k as small as fits),
// and all of them again when the chart is wide enough. The hover still names every cell.
const AXES = ["xaxis", "yaxis"];
function explicitTicks(layout) {
  const ticks = {};
  for (const name of AXES) {
    const ax = layout[name];
    if (ax && Array.isArray(ax.tickvals) && Array.isArray(ax.ticktext) && ax.tickvals.length > 2) {
      ticks[name] = { vals: ax.tickvals, text: ax.ticktext, shown: 1 };
    }
  }
  return ticks;
}
function thinTicks(el, ticks) {
  const full = el._fullLayout;
  if (!full || !window.Plotly) return Promise.resolve();
  const update = {};
  for (const [name, tk] of Object.entries(ticks)) {
    const ax = full[name];
    if (!ax || !ax._length || !ax.range) continue;
    const perUnit = ax._length / Math.abs(ax.range[1] - ax.range[0]);
    let gap = Infinity;
    for (let i = 1; i < tk.vals.length; i++) gap = Math.min(gap, Math.abs(tk.vals[i] - tk.vals[i - 1]) * perUnit);
    const font = (ax.tickfont && ax.tickfont.size) || 12;
    const every = Math.max(1, Math.ceil((1.15 * font) / gap));
    if (every === tk.shown) continue;
    tk.shown = every;
    // counted from the start of each tile (a wider gap starts one), so that every tile shows the same labels
    const keep = [];
    for (let i = 0, inTile = 0; i < tk.vals.length; i++, inTile++) {
      if (i > 0 && Math.abs(tk.vals[i] - tk.vals[i - 1]) * perUnit > 1.5 * gap) inTile = 0;
      if (inTile % every === 0) keep.push(i);
    }
    update[`${name}.tickvals`] = keep.map((i) => tk.vals[i]);
    update[`${name}.ticktext`] = keep.map((i) => tk.text[i]);
  }
  return Object.keys(update).length ? window.Plotly.relayout(el, update) : Promise.resolve();
}

// A first-screen run (ui/first_screen.py) has the server wait until the page's first chart is on screen (or, if none
// comes, a while after the run): it then runs the page in full. Once per page load.
const DRAWN = ".mha-plot[data-drawn], [data-testid='stPlotlyChart'] .main-svg, [data-testid='stGraphVizChart'] svg";
const NO_CHART_MS = 4000;
function whenFirstChartDrawn(tell) {
  if (window.__mhaFirstScreen) return;
  window.__mhaFirstScreen = true;
  let told = false;
  const once = () => {
    if (told) return;
    told = true;
    observer.disconnect();
    clearInterval(poll);
    requestAnimationFrame(() => setTimeout(tell, 0)); // after the chart's paint
  };
  const observer = new MutationObserver(() => document.querySelector(DRAWN) && once());
  observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-drawn"] });
  let idleSince = null;
  const poll = setInterval(() => {
    const idle = document.querySelector("[data-testid='stApp'][data-test-script-state='notRunning']");
    idleSince = idle ? (idleSince ?? Date.now()) : null;
    if (idleSince !== null && Date.now() - idleSince > NO_CHART_MS) once(); // no chart after all
  }, 250);
  if (document.querySelector(DRAWN)) once();
}

// A screen reader meets one image named by the server's summary of the chart (figures/describe.py), not plotly's
// run-together tick labels: the drawing's first svg is that image, the others (title, legend, hover) are hidden from
// it. The toolbar stays outside the image, so its buttons keep their names.
function name(el, label) {
  el.querySelectorAll(".main-svg").forEach((svg, i) => {
    if (i === 0) {
      svg.setAttribute("role", "img");
      svg.setAttribute("aria-label", label || "");
    } else svg.setAttribute("aria-hidden", "true");
  });
}

export default function ({ data: raw, parentElement, setTriggerValue }) {
  const data = unpack(raw);
  if (!data.spec) {
    // No figure: the hidden element a page starts with (ui/chart_element.early_element). plotly.js starts loading
    // now, while the rest of the page is still arriving, instead of when the first chart is mounted (on a slow CPU,
    // seconds later); the browser compiles it off the main thread meanwhile.
    if (data.src) loadPlotly(data.src).catch(() => {}); // a failure is reported by the charts, which ask again
    if (data.signal) whenFirstChartDrawn(() => setTriggerValue("drawn", true));
    return undefined;
  }
  let el = parentElement.querySelector(":scope > .mha-plot");
  if (!el) {
    el = document.createElement("div");
    el.className = "mha-plot";
    parentElement.appendChild(el);
  }
  const state = el.__mha || (el.__mha = { width: 0 });
  state.want = data.v;
  el.dataset.pending = data.v;
  if (!state.observer) {
    // Tabs, expanders and the sidebar change the width without a window resize.
    state.observer = new ResizeObserver(() => {
      const width = Math.round(el.getBoundingClientRect().width);
      if (!window.Plotly || !el.dataset.drawn || width === 0 || width === state.width) return;
      state.width = width;
      cancelAnimationFrame(state.frame);
      state.frame = requestAnimationFrame(() =>
        Promise.resolve(window.Plotly.Plots.resize(el)).then(() => thinTicks(el, state.ticks || {})),
      );
    });
    state.observer.observe(el);
  }
  if (el.dataset.drawn === data.v) name(el, data.label);
  else {
    const draw = () => {
      const Plotly = window.Plotly;
      if (state.want !== data.v) return null; // a newer figure arrived meanwhile
      const fig = JSON.parse(data.spec);
      if (el.dataset.failed) {
        el.textContent = "";
        delete el.dataset.failed;
      }
      state.ticks = explicitTicks(fig.layout || {});
      return Plotly.react(el, fig.data || [], fig.layout || {}, data.config || {})
        .then(() => thinTicks(el, state.ticks))
        .then(() => {
          name(el, data.label);
          state.width = Math.round(el.getBoundingClientRect().width);
          if (state.want === data.v) el.dataset.drawn = data.v;
        });
    };
    const drawn = window.Plotly ? Promise.resolve().then(draw) : loadPlotly(data.src).then(() => inTurn(draw));
    drawn.catch(() => showFailure(el, data.failed));
  }
  return () => {
    if (state.observer) state.observer.disconnect();
    state.observer = null;
    if (window.Plotly) window.Plotly.purge(el);
    el.remove();
  };
}
