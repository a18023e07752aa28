// One browser's identity for the live class: a random secret kept in this browser's local storage (every tab of
// the browser shares it, a reload keeps it), also set as a cookie so that the next page load sends it with its
// first request. The server keeps only a hash of it: a student's seat and a teacher's screen are bound to it, so a
// link with someone else's id (me=...) opened in another browser is not that person.
//
// data: {cookie: the cookie's name}; state sent back: {secret}

const KEY = "mha-client";
const VALID = /^[A-Za-z0-9_-]{22,64}$/;

function fresh() {
  const bytes = new Uint8Array(18);
  window.crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export default function ({ data, setStateValue }) {
  let secret = null;
  try {
    secret = window.localStorage.getItem(KEY);
    if (!secret || !VALID.test(secret)) {
      secret = fresh();
      window.localStorage.setItem(KEY, secret);
    }
  } catch (e) {
    secret = window.__mhaClient || fresh(); // storage refused (private mode): this tab's own secret
    window.__mhaClient = secret;
  }
  document.cookie = `${data.cookie}=${secret}; path=/; max-age=31536000; SameSite=Strict`;
  setStateValue("secret", secret);
}
