// The projector's view of a page: whenever what the class should see changes (a stop, a question, the join screen),
// the page scrolls once, to its top (a question or the join screen is shown there, and /steps fits one screen) or
// to its first chart (a page longer than one screen: its text stays on the teacher's console, the chart fills the
// projector). data: {key: what the class should see, target: "top" | "chart"}

export default function ({ data }) {
  if (window.__mhaProjectorView === data.key) return;
  window.__mhaProjectorView = data.key;
  let tries = 0;
  const go = () => {
    if (window.__mhaProjectorView !== data.key) return; // a newer view asked meanwhile
    if (data.target === "chart") {
      const chart = document.querySelector(".mha-plot");
      if (chart && chart.getBoundingClientRect().height > 0) {
        chart.scrollIntoView({ block: "start" });
        return;
      }
      if (tries++ < 40) setTimeout(go, 150); // the page is still being drawn
      return;
    }
    const main = document.querySelector("[data-testid='stMain']");
    if (main) main.scrollTo({ top: 0 });
    window.scrollTo({ top: 0 });
  };
  go();
}
