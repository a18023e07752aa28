// One plotly figure that stays mounted: a new figure for the same chart (same key) is drawn with
// Plotly.react into the same element, instead of the remount and Plotly.newPlot that st.plotly_chart
// does in Streamlit 1.67 whenever a figure changes. plotly.js itself (ui/vendor) is served by the app's
// static folder (ui/charts.py puts it there) and loaded once per page.
//
// data: {preload: true, src} (see below), or {spec: figure JSON string, v: its version, config: plotly
// config, src: where plotly.js is, failed: a translated message}
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

function showFailure(el, message) {
  if (window.Plotly) window.Plotly.purge(el);
  el.textContent = message;
  el.dataset.drawn = el.dataset.pending;
  el.dataset.failed = "true";
}

export default function ({ data, parentElement }) {
  if (data.preload) {
    // The frame's first element: start fetching and compiling plotly.js while Streamlit draws the
    // sidebar, instead of when the first chart arrives. Draws nothing (its container is hidden).
    loadPlotly(data.src).catch(() => {});
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
      state.frame = requestAnimationFrame(() => window.Plotly.Plots.resize(el));
    });
    state.observer.observe(el);
  }
  if (el.dataset.drawn !== data.v) {
    loadPlotly(data.src)
      .then((Plotly) => {
        if (state.want !== data.v) return null; // a newer figure arrived meanwhile
        const fig = JSON.parse(data.spec);
        if (el.dataset.failed) {
          el.textContent = "";
          delete el.dataset.failed;
        }
        return Plotly.react(el, fig.data || [], fig.layout || {}, data.config || {}).then(() => {
          state.width = Math.round(el.getBoundingClientRect().width);
          if (state.want === data.v) el.dataset.drawn = data.v;
        });
      })
      .catch(() => showFailure(el, data.failed));
  }
  return () => {
    if (state.observer) state.observer.disconnect();
    state.observer = null;
    if (window.Plotly) window.Plotly.purge(el);
    el.remove();
  };
}
