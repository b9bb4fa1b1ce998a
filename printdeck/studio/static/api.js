// Talking to the studio's server, and the one shared state the panels draw from.

/** Send a request; resolve to {status, data} (data: the JSON answer, or {} if none). */
export async function call(method, url, body) {
  const options = { method, headers: {}, credentials: "same-origin" };
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
  return { status: response.status, data };
}

/** The page's copy of the deck (from GET /api/state) and who wants to know when it changes. */
export const store = {
  state: null,
  listeners: [],
  selected: null,       // uid of the symbol whose controls are open
  onChange(fn) { this.listeners.push(fn); },
  set(state) {
    if (!state) return;
    this.state = state;
    for (const fn of this.listeners) fn(state);
  },
};

/** Send a change; take the answer's state; return the answer. Shows "Saved" or the error. */
export async function change(method, url, body) {
  busy(true);
  const answer = await call(method, url, body);
  busy(false);
  if (answer.data && answer.data.state) store.set(answer.data.state);
  const saved = document.getElementById("saved");
  if (answer.status === 200) {
    saved.textContent = "Saved to theme.yaml ✓";
    saved.classList.remove("bad");
  } else if (answer.status === 422) {
    saved.textContent = "Not saved: see the message beside the field";
    saved.classList.add("bad");
  } else if (answer.status !== 202) {
    saved.textContent = answer.data.error || `Error ${answer.status}`;
    saved.classList.add("bad");
  }
  return answer;
}

let pending = 0;
/** Count requests in flight (the cursor shows it). */
export function busy(on) {
  pending += on ? 1 : -1;
  document.body.style.cursor = pending > 0 ? "progress" : "";
}

/** Make an element: el("div", {class: "x", text: "hi"}, child, ...). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}
