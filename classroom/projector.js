// The projector's view of a page: whenever what the class should see changes (a stop, a question, the join screen),
// the page scrolls once, to its top (a question or the join screen is shown there, and /steps fits one screen) or
// to its first chart (a page longer than one screen: its text stays on the teacher's console, the chart fills the
// projector). data: {key: what the class should see, target: "top" | "chart"}
// A chart is scrolled to once the page's run has ended (while it runs, the last stop's elements are still above it
// and leave one by one), and again twice over the next 0.6 s, in case an element above it grew late (a formula).

export default function ({ data }) {
  if (window.__mhaProjectorView === data.key) return;
  window.__mhaProjectorView = data.key;
  let tries = 0;
  let again = 2;
  const go = () => {
    if (window.__mhaProjectorView !== data.key) return; // a newer view asked meanwhile
    if (data.target === "chart") {
      const chart = document.querySelector(".mha-plot");
      const running = document.querySelector("[data-testid='stApp'][data-test-script-state='running']");
      if (chart && chart.getBoundingClientRect().height > 0 && !running) {
        chart.scrollIntoView({ block: "start" });
        if (again-- > 0) setTimeout(go, 300);
        return;
      }
      if (tries++ < 60) setTimeout(go, 150); // the page is still being drawn
      return;
    }
    const main = document.querySelector("[data-testid='stMain']");
    if (main) main.scrollTo({ top: 0 });
    window.scrollTo({ top: 0 });
  };
  go();
}
