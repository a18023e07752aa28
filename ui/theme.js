// Puts the sidebar's theme choice where Streamlit looks for it (the browser's local storage, one entry per
// page path the app was opened on) and reloads once, when the stored choice differs.
// data: {theme: "System" | "Light" | "Dark", paths: ["/", "/home", ...]}

const VERSION = 2; // Streamlit 1.67's CACHED_THEME_VERSION

function keyFor(path) {
  return `stActiveTheme-${path}-v${VERSION}`;
}

export default function ({ data }) {
  let stored = null;
  try {
    stored = JSON.parse(window.localStorage.getItem(keyFor(window.location.pathname)) || "null");
  } catch (e) {
    return;
  }
  const wanted = data.theme;
  if ((stored || "System") === wanted) return;
  if (!stored && wanted === "System") return;
  const base = window.location.pathname.replace(/\/[^/]*$/, "");
  for (const path of new Set([window.location.pathname, ...data.paths.map((p) => base + p)])) {
    window.localStorage.setItem(keyFor(path), JSON.stringify(wanted));
  }
  // let the URL take the new choice first (it is sent in the same run), then reload into the theme
  setTimeout(() => window.location.reload(), 300);
}
