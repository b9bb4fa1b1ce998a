// Talking to the studio's server, and the one shared state the panels draw from.

// The run's token comes in the link's #fragment (never sent to a server, never in a
// Referer). It is kept in sessionStorage (this origin, so this port, and this tab only),
// taken out of the address bar, and sent in a request header: no cookie, which a browser
// would also send to every other server on 127.0.0.1.
const TOKEN_KEY = "printdeck-studio-token";
const TOKEN_HEADER = "x-printdeck-token";

function takeToken() {
  const match = /^#token=([A-Za-z0-9_-]{20,100})$/.exec(window.location.hash);
  if (match) {
    sessionStorage.setItem(TOKEN_KEY, match[1]);
    history.replaceState(null, "", window.location.pathname + window.location.search);
  }
  return sessionStorage.getItem(TOKEN_KEY) || "";
}

const token = takeToken();

/** The headers every request to the studio carries. */
export function authHeaders() {
  return { [TOKEN_HEADER]: token };
}

/** Send a request; resolve to {status, data} (data: the JSON answer, or {} if none). */
export async function call(method, url, body) {
  const options = { method, headers: authHeaders(), credentials: "omit" };
  if (body instanceof FormData) {
    options.body = body;
  } else if (body !== undefined) {
    options.headers["content-type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, options);
  } catch (err) {
    return { status: 0, data: { error: "The studio is not answering: is `printdeck studio` still running?" } };
  }
  let data = {};
  try { data = await response.json(); } catch (err) { data = {}; }
  if (response.status === 403 && data.code === "expired-link") showExpired();
  return { status: response.status, data };
}

/** The page's link is from an earlier run (every start makes a new token): say the deck is
 *  safe and which link to open, over a page that can no longer do anything. */
export function showExpired() {
  const notice = document.getElementById("expired");
  if (!notice || !notice.hidden) return;
  for (const part of document.querySelectorAll("body > :not(#expired)")) part.inert = true;
  notice.hidden = false;
  document.body.dataset.expired = "true";
  document.getElementById("expired-h").focus();  // a screen reader reads it; the keyboard is not left in an inert box
}

/** The page's copy of the deck (from GET /api/state) and who wants to know when it changes.
 *  Every state carries the server's revision (``rev``, bumped by each saved change, and
 *  ``epoch``, new each time the studio starts): an answer older than the state the page
 *  already shows is ignored, so a slow answer never undoes a newer change. */
export const store = {
  state: null,
  listeners: [],
  selected: null,       // uid of the symbol whose controls are open
  onChange(fn) { this.listeners.push(fn); },
  isStale(state) {
    return Boolean(this.state && state.epoch === this.state.epoch && state.rev < this.state.rev);
  },
  set(state) {
    if (!state || this.isStale(state)) return;
    this.state = state;
    for (const fn of this.listeners) fn(state);
  },
};

/** The CSS corner radius of a photo's crop ``shape`` as the card cuts it: a circle, or the
 *  rounded square's corner (the spec's fraction of its side). */
export function cropRadius(shape) {
  return shape === "rounded" ? `${store.state.form.photo_corner_fraction * 100}%` : "50%";
}

/** Send a change; take the answer's state (unless a newer one is shown); return the
 *  answer. Shows "Saved" or the error. ``before(answer)`` runs before the state is drawn. */
export async function change(method, url, body, before) {
  busy(true);
  const sent = body && !(body instanceof FormData) && store.state ? { ...body, rev: store.state.rev } : body;
  const answer = await call(method, url, sent);
  busy(false);
  if (before) before(answer);
  if (answer.data && answer.data.state) store.set(answer.data.state);
  const saved = document.getElementById("saved");
  if (answer.status === 200) {
    saved.textContent = "Saved to theme.yaml ✓";
    saved.classList.remove("bad");
  } else if (answer.status === 422) {
    saved.textContent = answer.data.words ? `Not saved: ${answer.data.words}` : "Not saved: see the message beside the field";
    saved.classList.add("bad");
  } else if (answer.status !== 202) {
    saved.textContent = answer.data.error || `Error ${answer.status}`;
    saved.classList.add("bad");
  }
  return answer;
}

const waiting = new Map(); // "url keys" -> the latest changes not sent yet
let sending = false;

/** Queue one key's new value for ``url`` (PATCH {changes: {key: value}}): changes go one
 *  request at a time in the order made, and a key changed again before its turn is sent
 *  once, with its latest value. ``done(answer, value)`` runs when its answer comes. */
export function queueChange(url, key, value, done) {
  queueChanges(url, { [key]: value }, done && ((answer) => done(answer, value)));
}

/** Queue keys that change together for ``url`` (a crop's centre and its zoom): sent in one
 *  request, so they are one step for Undo, in their turn as :func:`queueChange`'s. */
export function queueChanges(url, changes, done) {
  const id = `${url} ${Object.keys(changes).sort().join(" ")}`;
  waiting.delete(id); // keep the order of the latest change
  waiting.set(id, { url, changes, done });
  pump();
}

let actions = 0;
/** Queue a request of its own (Undo, Redo) behind the changes waiting: it is sent in its
 *  turn, with the revision the page shows by then. Resolves to its answer, once drawn. */
export function queueAction(method, url) {
  return new Promise((resolve) => {
    actions += 1;
    waiting.set(`action ${actions}`, { method, url, resolve });
    pump();
  });
}

async function pump() {
  if (sending) return;
  sending = true;
  try {
    while (waiting.size) {
      const [id, job] = waiting.entries().next().value;
      waiting.delete(id);
      if (job.resolve) job.resolve(await change(job.method, job.url, {}));
      else await change("PATCH", job.url, { changes: job.changes }, (answer) => job.done && job.done(answer));
    }
  } finally {
    sending = false;
  }
}

/** Whether a control (or a box holding controls) must not be redrawn: it has the focus,
 *  or the person changed it and its answer has not come yet (``data-dirty``). */
export function held(node) {
  return node.contains(document.activeElement) || node.matches("[data-dirty]") || Boolean(node.querySelector("[data-dirty]"));
}

/** Put ``fresh`` nodes in ``box`` in place of its children, matched by ``data-key``; a held
 *  child stays (``keep(old, fresh)`` may copy what it should show, e.g. its error).
 *  Returns false, changing nothing, when the keys differ (the caller redraws it all). */
export function patchChildren(box, fresh, keep) {
  const old = Array.from(box.children);
  const same = old.length === fresh.length && old.every((n, i) => n.dataset.key && n.dataset.key === fresh[i].dataset.key);
  if (!same) return false;
  old.forEach((node, i) => {
    if (!held(node)) node.replaceWith(fresh[i]);
    else if (keep) keep(node, fresh[i]);
  });
  return true;
}

/** Put ``text`` in ``node`` only if it says something new: a live region written again with
 *  the same words is read out again, and every save redrew the deck's line two or three times. */
export function say(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

let pending = 0;
/** Count requests in flight (the cursor shows it). */
export function busy(on) {
  pending += on ? 1 : -1;
  document.body.style.cursor = pending > 0 ? "progress" : "";
}

const thumbs = new Map(); // url -> Promise of an object URL (thumbnails do not change)

/** An object URL of a picture fetched with the token (cached for thumbnails); "" on failure. */
export async function imageUrl(url, keep = false) {
  if (keep && thumbs.has(url)) return thumbs.get(url);
  const made = fetch(url, { headers: authHeaders(), credentials: "omit" })
    .then((response) => (response.ok ? response.blob() : null))
    .then((blob) => (blob ? URL.createObjectURL(blob) : ""))
    .catch(() => "");
  if (keep) {
    thumbs.set(url, made);
    made.then((src) => { if (!src && thumbs.get(url) === made) thumbs.delete(url); });  // a failure is asked again
  }
  return made;
}

/** What the page says once the studio answers nothing (stopped), and what to do. */
export const STOPPED = "The studio has stopped: start `printdeck studio` again to go on (the deck and the files "
  + "it built are in its folder)";

/** Fetch a file with the token and hand it to the browser as a download. */
export async function download(url) {
  busy(true);
  try {
    const response = await fetch(url, { headers: authHeaders(), credentials: "omit" });
    if (!response.ok) throw new Error(`Error ${response.status}`);
    const disposition = response.headers.get("content-disposition") || "";
    const star = /filename\*=utf-8''([^;]+)/i.exec(disposition);
    const plain = /filename="([^"]+)"/i.exec(disposition);
    const name = star ? decodeURIComponent(star[1]) : plain ? plain[1] : url.split("/").pop();
    const link = el("a", { href: URL.createObjectURL(await response.blob()), download: name, hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
  } catch (err) {
    const saved = document.getElementById("saved");
    const stopped = err instanceof TypeError; // no answer at all ("Failed to fetch"): the studio stopped
    saved.textContent = stopped ? STOPPED : `The download failed (${err.message}); build again`;
    saved.classList.add("bad");
  } finally {
    busy(false);
  }
}

/** Say ``text`` in the status line (#busy); it points at red tiles, so once none is left
 *  (dismissed, or its symbol's other copy removed) it becomes ``withoutTiles``
 *  (:func:`forgetRedTiles`). A later text is left as it is. */
export function sayWithRedTiles(text, withoutTiles) {
  const note = document.getElementById("busy");
  note.textContent = text;
  note.dataset.withTiles = text;
  note.dataset.withoutTiles = withoutTiles;
}

/** The status line's text said by :func:`sayWithRedTiles`, once ``state`` has no red tile. */
export function forgetRedTiles(state) {
  const note = document.getElementById("busy");
  const { withTiles, withoutTiles } = note.dataset;
  if (withTiles === undefined || state.rejected.length) return;
  if (note.textContent === withTiles) note.textContent = withoutTiles;
  delete note.dataset.withTiles;
  delete note.dataset.withoutTiles;
}

/** Make an element: el("div", {class: "x", text: "hi"}, child, ...); "picture": an
 *  image address fetched with the token (an <img> cannot send the header itself). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key === "class") node.className = value;
    else if (key === "picture") imageUrl(value, true).then((src) => { if (src) node.src = src; });
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}
