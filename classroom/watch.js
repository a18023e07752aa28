// A following phone's watch on its class, between page runs (classroom/watch.py). Every `poll` ms it asks the
// server's small route for the room's version (liveclass/http.py: one JSON answer, no Streamlit run; with the
// student's seat in the address it is also the student's heartbeat) and asks for a run of the student's bar (a
// trigger value, which reruns that fragment alone) only when there is something to do: the version moved from the
// one the page last read (`seen`), the seat was given back (the bar joins again), the room is gone or the store is
// down (the bar says so), the server asked for a run at once (`now`: a page just changed), or the page's run ended
// without the mark of what it should show (`want`, the element of class `mark` at the page's end): a run cut short,
// asked for again at most REDRAWS times.
// Without the route (the app started as plain `streamlit run app.py`) the answer is not JSON: then every tick asks
// for a run, as Streamlit's own fragment timer did (and the bar's runs are the heartbeat).
// A tab in the background (a phone asleep) asks one tick in HIDDEN: still there for the teacher's count.
// When the route names what the class's page shows (`view`) and the page shows something else (`want`), the watch asks
// for the whole page at once, through the page's own element outside the bar (data {page: true}, trigger "go"): one
// run, where a run of the bar would have asked for the page in a second one.
//
// data: {url, seen, poll, now, want, mark, run}; trigger sent back: "tick" (why, and when)

const STUCK = 10000; // ms after which a run asked for and never come is asked for again
const HIDDEN = 5; // a tab in the background polls at one tick in HIDDEN
const REDRAWS = 3; // a page cut short is asked for again at most this often (the server has its own bound)

function cutShort(data, watch) {
  if (!data.want) return false;
  const app = document.querySelector("[data-testid='stApp']");
  if (!app || app.dataset.testScriptState !== "notRunning") return false; // a run is still drawing
  if (document.querySelector(`.${data.mark}[data-drawn='${data.want}']`)) return false;
  const tries = watch.redraws.get(data.want) || 0;
  if (tries >= REDRAWS) return false;
  watch.redraws.set(data.want, tries + 1);
  if (watch.redraws.size > 50) watch.redraws.clear();
  return true;
}

// One watch per page, whatever the number of runs that drew the element: each run's data replaces the last.
function start(watch) {
  const ask = (why, page = null) => {
    const now = Date.now();
    if (watch.asked && now - watch.asked < STUCK) return;
    watch.asked = now;
    if (page) page("go", `${why} ${now}`);
    else watch.trigger("tick", `${why} ${now}`);
  };
  const check = async () => {
    const data = watch.data;
    if (watch.busy) return;
    if (document.hidden && ++watch.skipped % HIDDEN) return;
    if (data.now) return ask("now");
    if (cutShort(data, watch)) return ask("redraw");
    watch.busy = true;
    try {
      const answer = await fetch(data.url, { cache: "no-store", credentials: "same-origin" });
      const body = await answer.json().catch(() => null);
      if (watch.data !== data) return; // a run came meanwhile: its data decides
      if (body && typeof body.v === "number") {
        const page = window.__mhaWatchPage;
        if (page && data.want && typeof body.view === "string" && body.view !== data.want) ask("view", page);
        else if (body.v !== data.seen) ask("version");
        else if (body.seat === false) ask("seat");
      } else if (body && body.error) ask(body.error);
      else ask("timer");
    } catch (e) {
      // the server is not reachable: Streamlit's websocket reconnects, and its run draws the page again
    } finally {
      watch.busy = false;
    }
  };
  watch.timer = setInterval(check, watch.data.poll);
}

export default function ({ data, setTriggerValue }) {
  if (data.page) {
    window.__mhaWatchPage = setTriggerValue;
    return () => {
      if (window.__mhaWatchPage === setTriggerValue) window.__mhaWatchPage = null;
    };
  }
  let watch = window.__mhaWatch;
  if (!watch || watch.poll !== data.poll) {
    if (watch) clearInterval(watch.timer);
    watch = window.__mhaWatch = { poll: data.poll, asked: 0, busy: false, skipped: 0, redraws: new Map() };
    watch.data = data;
    start(watch);
  }
  watch.data = data; // this is a run's answer: whatever was asked has come
  watch.trigger = setTriggerValue;
  watch.asked = 0;
  return () => {
    // the element left the page (the student left the class, or a page without the bar): the watch stops
    if (window.__mhaWatch === watch && watch.data === data) {
      clearInterval(watch.timer);
      window.__mhaWatch = null;
    }
  };
}
