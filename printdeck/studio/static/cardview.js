// The card view: one card zoomed to full size, as it prints (the studio's PDF renderer draws
// it), where one symbol at a time is moved, turned and resized, by mouse or keyboard. Each
// change goes to the studio, which checks it with the layout's own checks and saves it in
// theme.yaml as the card's pinned placement (layout.pinned), or refuses it and says why.
import { call, change, el, imageUrl, store } from "./api.js";

const SVG = "http://www.w3.org/2000/svg";
const STEP_MM = 0.5;       // an arrow key moves this far (Shift: BIG_STEP_MM)
const BIG_STEP_MM = 2;
const TURN_DEG = 5;        // [ and ] turn this much (Shift: BIG_TURN_DEG); R turns BIG_TURN_DEG
const BIG_TURN_DEG = 15;
const GROW = 1.05;         // + and - resize by this factor
const SETTLE_MS = 350;     // keys pressed in a row are sent once, this long after the last

const cv = {
  dialog: null, stage: null, img: null, svg: null, status: null, list: null, controls: null,
  card: null, view: null, selected: null, pose: null, drag: null, timer: null, sending: false, again: false,
  asked: 0,
};

function svgEl(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

/** Say how the last change went; ``data-state`` (checking, saved, released, refused) tells tests. */
function say(text, bad, state) {
  cv.status.textContent = text || "";
  cv.status.classList.toggle("bad", Boolean(bad));
  cv.status.dataset.state = state || (bad ? "refused" : "");
}

function round(value, step) { return Math.round(value / step) * step; }

/** The selected symbol as shown (the server's place, or the change not answered yet). */
function shown(symbol) {
  return cv.pose && cv.selected === symbol.name ? { ...symbol, ...cv.pose } : symbol;
}

/** Open card ``card`` (printed number) in the card view. */
export async function openCard(card) {
  if (!store.state) return;
  cv.card = card;
  cv.selected = null;
  cv.pose = null;
  say("");
  if (!cv.dialog.open) cv.dialog.showModal();
  document.getElementById("card-view-h").textContent = `Card ${card}`;
  await load();
  cv.stage.focus();
}

/** Fetch the card of the latest revision and its picture; draw them. */
async function load() {
  const ask = ++cv.asked;
  cv.dialog.dataset.loading = "1"; // set with the answer that asked for it: tests wait for both
  try {
    await loadCard(ask);
  } finally {
    if (ask === cv.asked) delete cv.dialog.dataset.loading;
  }
}

async function loadCard(ask) {
  const rev = store.state.rev;
  const answer = await call("GET", `/api/cards/${cv.card}?rev=${rev}`);
  if (ask !== cv.asked || !cv.dialog.open) return;
  if (answer.status === 409) return; // a newer revision: its own load follows
  if (answer.status !== 200) { say(answer.data.error || "This card cannot be shown.", true); return; }
  const src = await imageUrl(answer.data.image);
  await new Promise((done) => { const next = new Image(); next.onload = next.onerror = done; next.src = src; });
  if (ask !== cv.asked) { URL.revokeObjectURL(src); return; }
  if (cv.img.src.startsWith("blob:")) URL.revokeObjectURL(cv.img.src);
  cv.img.src = src;
  cv.img.alt = `Card ${cv.card} as it will print`;
  cv.view = answer.data;
  cv.stage.dataset.rev = String(rev);
  if (!cv.view.symbols.some((s) => s.name === cv.selected)) cv.selected = null;
  if (!cv.drag && !cv.sending && !cv.timer) cv.pose = null; // a change begun meanwhile keeps its pose, and is sent
  draw();
}

/** Width and height of the picture, mm (the card and its bleed). */
function extent() {
  const v = cv.view;
  return [v.trim_mm[0] + 2 * v.bleed_mm, v.trim_mm[1] + 2 * v.bleed_mm];
}

function draw() {
  const v = cv.view;
  if (!v) return;
  const [w, h] = extent();
  cv.svg.setAttribute("viewBox", `${-w / 2} ${-h / 2} ${w} ${h}`);
  cv.stage.style.aspectRatio = `${w} / ${h}`;
  const safe = v.safe_outline_mm.map(([x, y]) => `${x},${-y}`).join(" ");
  cv.svg.replaceChildren(svgEl("polygon", { points: safe, class: "cv-safe" }));
  for (const symbol of v.symbols) cv.svg.append(frame(shown(symbol)));
  drawControls();
}

/** A symbol's frame: its ink box, turned; with handles when it is the selected one. */
function frame(symbol) {
  const chosen = symbol.name === cv.selected;
  const k = cv.pose && chosen ? cv.pose.size_mm / cv.view.symbols.find((s) => s.name === symbol.name).size_mm : 1;
  const [x0, y0, x1, y1] = symbol.ink_mm.map((v) => v * k);
  const g = svgEl("g", {
    transform: `translate(${symbol.center_mm[0]} ${-symbol.center_mm[1]}) rotate(${-symbol.rotation_deg})`,
    class: `cv-symbol${chosen ? " chosen" : ""}${symbol.pinned ? " pinned" : ""}`,
    "data-name": symbol.name,
  });
  const box = svgEl("rect", { x: x0, y: -y1, width: x1 - x0, height: y1 - y0, class: "cv-box", "data-part": "move" });
  g.append(box);
  if (chosen) {
    const r = Math.max(1.6, (x1 - x0 + y1 - y0) / 40);
    if (symbol.rotate) { // a symbol kept upright (a photo) has no turning handle
      g.append(svgEl("line", { x1: (x0 + x1) / 2, y1: -y1, x2: (x0 + x1) / 2, y2: -y1 - 5, class: "cv-stem" }));
      g.append(svgEl("circle", { cx: (x0 + x1) / 2, cy: -y1 - 5, r, class: "cv-handle turn", "data-part": "turn" }));
    }
    g.append(svgEl("rect", { x: x1 - r, y: -y0 - r, width: 2 * r, height: 2 * r, class: "cv-handle size", "data-part": "size" }));
  }
  return g;
}

function drawControls() {
  const v = cv.view;
  const symbol = v.symbols.find((s) => s.name === cv.selected);
  cv.list.replaceChildren(...v.symbols.map((s) => el("li", {},
    el("button", {
      type: "button", class: `cv-pick${s.name === cv.selected ? " chosen" : ""}`, "aria-pressed": String(s.name === cv.selected),
      "data-name": s.name,
      text: `${s.name}${s.pinned ? " (pinned)" : ""}`, onclick: () => { select(s.name); cv.stage.focus(); },
    }))));
  const stale = v.stale_pins.length > 0;  // touch-ups made when the card showed other symbols
  const anyPinned = v.symbols.some((s) => s.pinned) || stale;
  for (const button of cv.controls.querySelectorAll("button[data-needs]")) {
    const needs = button.dataset.needs;
    button.disabled = needs === "symbol" ? !symbol : needs === "pinned" ? !(symbol && symbol.pinned)
      : needs === "turn" ? !(symbol && symbol.rotate) : !anyPinned;
  }
  cv.stale.hidden = !stale;
  cv.stale.textContent = stale ? `This card was touched up when it showed ${v.stale_pins.join(", ")}. The deck has `
    + "changed since, so those touch-ups are not used. Release card forgets them; a new touch-up replaces them." : "";
  document.getElementById("cv-chosen").textContent = symbol
    ? `${symbol.name}: ${fmt(shown(symbol))}` : "Choose a symbol: click it, or a name below";
}

function fmt(s) {
  const turned = ((Math.round(s.rotation_deg) % 360) + 360) % 360;  // 359.6° is upright: 0°, not 360°
  return `centre ${s.center_mm[0].toFixed(1)}, ${s.center_mm[1].toFixed(1)} mm · turned ${turned}° · ${s.size_mm.toFixed(1)} mm`;
}

function select(name) {
  if (cv.pose) send();
  cv.selected = name;
  cv.pose = null;
  draw();
}

/** The pose being changed (starting from the server's). */
function pose() {
  const symbol = cv.view.symbols.find((s) => s.name === cv.selected);
  if (!cv.pose) cv.pose = { center_mm: [...symbol.center_mm], rotation_deg: symbol.rotation_deg, size_mm: symbol.size_mm };
  return cv.pose;
}

/** Change the selected symbol's pose (``fn`` edits it); send once the changes settle. */
function nudge(fn) {
  if (!cv.selected || !cv.view) return;
  const symbol = cv.view.symbols.find((s) => s.name === cv.selected);
  const p = pose();
  fn(p, symbol);
  draw();
  clearTimeout(cv.timer);
  cv.timer = setTimeout(send, SETTLE_MS);
}

/** Send the selected symbol's new pose; one request at a time, the latest pose last. */
async function send() {
  clearTimeout(cv.timer);
  cv.timer = null;
  if (!cv.pose || !cv.selected) return;
  if (cv.sending) { cv.again = true; return; }
  cv.sending = true;
  const p = cv.pose;
  const before = cv.view.symbols.find((s) => s.name === cv.selected)?.size_mm;
  const body = {
    card: cv.card, symbol: cv.selected, center: [round(p.center_mm[0], 0.1), round(p.center_mm[1], 0.1)],
    rotation: round(p.rotation_deg, 0.5), size: Math.floor(p.size_mm * 10 + 1e-6) / 10,  // never up: a move asks no more room
  };
  say("Checking…", false, "checking");
  const answer = await change("POST", "/api/pins", body);
  cv.sending = false;
  const fitted = answer.status === 200 ? answer.data.fitted : null;
  if (fitted) {  // the size asked would touch a neighbour or the edge: pinned as large as it fits there
    say(fittedWords(fitted, before), false, "saved");
    if (cv.pose === p) cv.pose = null;
  } else if (answer.status === 200) {
    say(`Saved: ${cv.selected} stays where you put it on this card.`, false, "saved");
    if (cv.pose === p) cv.pose = null;
  } else {
    say(answer.data.words || answer.data.error || "Not saved.", true);
    cv.pose = null;
    draw(); // back where it is saved, at once
  }
  if (cv.again) { cv.again = false; if (cv.pose) { send(); return; } }
  await load();
  if (answer.status !== 200) say(answer.data.words || answer.data.error || "Not saved.", true);
}

/** What the page says of a symbol pinned smaller than asked, so that it fits: grown as far as
 *  there is room (asked larger than it was), or made smaller than it was. */
function fittedWords(fitted, before) {
  const touch = `at the size asked it would touch ${fitted.would_touch}`;
  if (before !== undefined && fitted.size_mm >= before * 0.999) {
    return `Saved: ${fitted.symbol} as large as it fits there (${fitted.size_mm.toFixed(1)} mm): ${touch}.`;
  }
  const than = before !== undefined ? before : fitted.asked_mm;  // smaller than it was
  const smaller = Math.max(1, Math.round(100 * (1 - fitted.size_mm / than)));
  return `Saved: ${fitted.symbol} made ${smaller}% smaller to fit there: ${touch}.`;
}

async function release(all) {
  const body = all ? { card: cv.card } : { card: cv.card, symbol: cv.selected };
  const answer = await change("POST", "/api/pins/release", body);
  if (answer.status === 200) {
    say(all ? (cv.view && cv.view.stale_pins.length ? "Forgotten: the old touch-ups are gone." : "Released: the card is laid out by printdeck again.") : `Released: ${cv.selected} is laid out around the pinned symbols.`,
      false, "released");
    cv.pose = null;
    await load();
  } else {
    say(answer.data.words || answer.data.error || "Not saved.", true);
  }
}

/** Card millimetres (y up) under a pointer event. */
function toMm(event) {
  const rect = cv.svg.getBoundingClientRect();
  const [w, h] = extent();
  return [(event.clientX - rect.left) / rect.width * w - w / 2, h / 2 - (event.clientY - rect.top) / rect.height * h];
}

function onPointerDown(event) {
  const part = event.target.closest("[data-part]");
  const group = event.target.closest("[data-name]");
  if (!group || !cv.view) return;
  event.preventDefault();
  if (group.dataset.name !== cv.selected) { select(group.dataset.name); }
  const at = toMm(event);
  const p = pose();
  cv.drag = { part: part ? part.dataset.part : "move", start: at, from: { ...p, center_mm: [...p.center_mm] } };
  cv.svg.setPointerCapture(event.pointerId);
  clearTimeout(cv.timer);
  cv.timer = null;
}

function onPointerMove(event) {
  if (!cv.drag) return;
  const at = toMm(event);
  const { part, start, from } = cv.drag;
  const c = from.center_mm;
  const p = pose();
  if (part === "move") {
    p.center_mm = [c[0] + at[0] - start[0], c[1] + at[1] - start[1]];
  } else if (part === "turn") {
    const angle = (a) => Math.atan2(a[1] - c[1], a[0] - c[0]) * 180 / Math.PI;
    p.rotation_deg = from.rotation_deg + angle(at) - angle(start);
  } else {
    const far = (a) => Math.hypot(a[0] - c[0], a[1] - c[1]);
    p.size_mm = Math.max(2, from.size_mm * far(at) / Math.max(far(start), 0.5));
  }
  draw();
}

function onPointerUp(event) {
  if (!cv.drag) return;
  const moved = toMm(event);
  const { start } = cv.drag;
  cv.drag = null;
  if (Math.hypot(moved[0] - start[0], moved[1] - start[1]) < 0.2) { cv.pose = null; draw(); return; } // a click
  send();
}

function onKey(event) {
  if (!cv.selected) return;
  const step = event.shiftKey ? BIG_STEP_MM : STEP_MM;
  const turn = event.shiftKey ? BIG_TURN_DEG : TURN_DEG;
  const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
  const symbol = cv.view.symbols.find((s) => s.name === cv.selected);
  let handled = true;
  if (moves[event.key]) {
    const [dx, dy] = moves[event.key];
    nudge((p) => { p.center_mm = [p.center_mm[0] + dx, p.center_mm[1] + dy]; });
  } else if ((event.key === "[" || event.key === "]" || event.key === "r" || event.key === "R") && symbol.rotate) {
    const by = event.key === "[" ? turn : event.key === "]" ? -turn : event.key === "R" ? -BIG_TURN_DEG : BIG_TURN_DEG;
    nudge((p) => { p.rotation_deg += by; });
  } else if (event.key === "+" || event.key === "=") {
    nudge((p) => { p.size_mm *= GROW; });
  } else if (event.key === "-" || event.key === "_") {
    nudge((p) => { p.size_mm /= GROW; });
  } else if (event.key === "Enter") {
    send();
  } else {
    handled = false;
  }
  if (handled) event.preventDefault();
}

function button(text, needs, onclick, title) {
  return el("button", { type: "button", class: "secondary", "data-needs": needs, text, onclick, title });
}

function build() {
  cv.img = el("img", { class: "cv-print", alt: "" });
  cv.svg = svgEl("svg", { class: "cv-overlay", "aria-hidden": "true" });
  cv.stage = el("div", {
    class: "cv-stage", tabindex: "0", role: "application", "aria-describedby": "cv-help",
    "aria-label": "The card: arrow keys move the chosen symbol, [ and ] or R turn it, + and - resize it",
  }, cv.img, cv.svg);
  cv.status = el("p", { id: "cv-status", class: "cv-status", role: "status", "aria-live": "polite" });
  cv.list = el("ul", { class: "cv-list", "aria-label": "Symbols on this card" });
  cv.stale = el("p", { id: "cv-stale", class: "warnings", role: "note", hidden: true });
  cv.controls = el("div", { class: "cv-controls" },
    button("Turn left [", "turn", () => nudge((p) => { p.rotation_deg += TURN_DEG; }), "Turn counter-clockwise ([)"),
    button("Turn right ]", "turn", () => nudge((p) => { p.rotation_deg -= TURN_DEG; }), "Turn clockwise (])"),
    button("Smaller −", "symbol", () => nudge((p) => { p.size_mm /= GROW; }), "Make it smaller (-)"),
    button("Bigger +", "symbol", () => nudge((p) => { p.size_mm *= GROW; }), "Make it bigger (+)"),
    button("Release pin", "pinned", () => release(false), "Let printdeck place this symbol again"),
    button("Release card", "card", () => release(true), "Let printdeck lay out the whole card again"));
  cv.dialog = el("dialog", { id: "card-view", class: "card-view", "aria-labelledby": "card-view-h" },
    el("div", { class: "cv-head" },
      el("h2", { id: "card-view-h", text: "Card" }),
      el("button", { type: "button", class: "secondary", text: "Back to the sheet", onclick: () => cv.dialog.close() })),
    el("p", { id: "cv-help", class: "muted small", text: "Drag a symbol to move it, its round handle to turn it, its square handle to resize it; or choose it and use the arrow keys, [ ] or R, + and -. The picture is the card as it prints; each change is saved as this card’s pinned placement." }),
    cv.stage, cv.stale,
    el("p", { id: "cv-chosen", class: "cv-chosen" }),
    cv.controls, cv.status, cv.list);
  document.body.append(cv.dialog);
  cv.svg.addEventListener("pointerdown", onPointerDown);
  cv.svg.addEventListener("pointermove", onPointerMove);
  cv.svg.addEventListener("pointerup", onPointerUp);
  cv.stage.addEventListener("keydown", onKey);
  cv.dialog.addEventListener("close", () => { if (cv.pose) send(); cv.card = null; document.getElementById("touch-up")?.focus(); });
}

export function setUpCardView() {
  build();
  const reroll = document.getElementById("reroll");
  const open = el("button", { type: "button", id: "touch-up", class: "secondary", disabled: true, text: "Zoom card" });
  reroll.after(open);
  let chosen = null;
  open.addEventListener("click", () => { if (chosen !== null) openCard(chosen); });
  document.addEventListener("card-chosen", (e) => {
    chosen = e.detail.card;
    open.disabled = chosen === null;
    open.textContent = chosen === null ? "Zoom card" : `Zoom card ${chosen}`;
  });
  document.addEventListener("card-open", (e) => openCard(e.detail.card));
  store.onChange((state) => {
    if (cv.dialog.open && cv.card !== null && !cv.drag && !cv.sending && String(state.rev) !== cv.stage.dataset.rev) load();
  });
}
