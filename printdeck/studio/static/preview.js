// The live preview: the sheet as it will print (drawn by the PDF renderer), a page at a
// time; click a card to choose it, then re-roll its layout.
import { call, change, el, imageUrl, say, store } from "./api.js";

const view = { page: 1, pages: 0, rev: null, card: null, asked: 0, facts: null, side: "front", retries: 0 };
const SHEET_RETRIES = 3; // a sheet whose picture cannot be fetched is asked for again this many times

function note(text, isError) {
  const box = document.getElementById("preview-note");
  say(box, text || "");
  box.className = `preview-note${isError ? " error" : ""}`;
  box.setAttribute("role", isError ? "alert" : "none");  // a sheet that cannot be drawn is said; its timing is not
  document.getElementById("sheet-wrap").classList.remove("empty");
}

/** No sheet yet: the deck needs more symbols (the command line's words, small). */
function waiting(line) {
  const box = document.getElementById("preview-note");
  box.className = "preview-note waiting";
  box.replaceChildren(el("strong", { text: "Your cards appear here" }),
    el("span", { text: "as soon as there are enough symbols for a deck." }), el("span", { class: "small", text: line }));
  document.getElementById("sheet-wrap").classList.add("empty");
  say(document.getElementById("page-label"), "—");
  document.getElementById("left-out").textContent = "";
}

/** No sheet can be drawn: say why (too few symbols: what to add), with no sheet left up. */
function undrawable(key, words) {
  document.getElementById("deck-line").textContent = "";
  forgetSheet();
  if (key === "symbols") waiting(words);
  else note(words || "The preview failed.", true);
}

/** Ask for the current page of the latest revision; show it when it comes (if still the latest). */
export async function refresh() {
  const state = store.state;
  if (!state) return;
  const ask = ++view.asked;
  if (state.problem) {  // the saved deck does not load (a new folder: too few symbols), so no sheet
    undrawable(state.problem_key, state.problem_words || state.problem);  // can be drawn: not asked for
    return;
  }
  const started = performance.now();
  note("Laying out cards…");
  const answer = await call("GET", `/api/preview?rev=${state.rev}&page=${view.page}&side=${view.side}`);
  if (ask !== view.asked) return; // a newer question is on its way
  if (answer.status === 409) return;
  if (answer.status === 404 && view.side === "back") { view.side = "front"; refresh(); return; }  // backs turned off
  if (answer.status === 404 && view.page > 1) { view.page = 1; refresh(); return; }
  if (answer.status !== 200) {  // the deck loads but cannot be planned or laid out (a photo too small...)
    undrawable(answer.status === 422 ? answer.data.key : null, answer.data.words || answer.data.error);
    return;
  }
  const facts = answer.data;
  const src = await imageUrl(facts.image);
  if (!src) {  // the sheet went before it was fetched (a newer change came): ask again, a few times
    if (ask !== view.asked) return;
    view.retries += 1;
    if (view.retries <= SHEET_RETRIES) setTimeout(refresh, 250);
    else note("The sheet's picture could not be fetched: reload the page");
    return;
  }
  view.retries = 0;
  // the new sheet is loaded and decoded in an image of its own, then put in the old one's
  // place with its facts and card buttons at once: a sheet still decoding is not complete,
  // and no card button could be laid on it; a newer answer meanwhile replaces nothing
  const next = new Image();
  next.src = src;
  try { await next.decode(); } catch { /* a sheet that cannot be shown: its facts still are */ }
  if (ask !== view.asked) { URL.revokeObjectURL(src); return; }
  const img = document.getElementById("sheet");
  if (img.src.startsWith("blob:")) URL.revokeObjectURL(img.src);
  for (const { name, value } of img.attributes) if (name !== "src") next.setAttribute(name, value);
  next.alt = `${facts.side === "back" ? "The back of sheet" : "Sheet"} ${facts.page} of ${facts.pages}, as it will print`;
  img.replaceWith(next);
  view.facts = facts;
  view.pages = facts.pages;
  drawFacts(facts);
  placeHotspots();
  note(`drawn in ${((performance.now() - started) / 1000).toFixed(2)} s`);
  fetchCropBadges();
}

/** Drawing the sheet finds the photos' crops: fetch the state once more for their badges,
 *  then ask for the crops of photos on no sheet drawn yet, one at a time, so every photo
 *  tile says what its crop holds. */
async function fetchCropBadges() {
  const state = store.state;
  if (!state || !state.symbols.some((s) => s.kind === "photo" && !s.crop)) return;
  const answer = await call("GET", "/api/state");
  if (answer.status === 200 && store.state && answer.data.state.rev === store.state.rev) store.set(answer.data.state);
  const rev = store.state.rev;
  for (const symbol of store.state.symbols.filter((s) => s.kind === "photo" && !s.crop)) {
    const found = await call("GET", `/api/crops/${symbol.uid}`);
    if (!store.state || store.state.rev !== rev) return;  // the deck changed: its own answer comes
    if (found.status !== 200) continue;
    const shown = store.state.symbols.find((s) => s.uid === symbol.uid);
    if (shown && !shown.crop) { shown.crop = found.data.crop; store.set(store.state); }
  }
}

/** No sheet can be drawn for the deck as it is: take the old sheet away with its card
 *  buttons, and no card stays chosen for a re-roll or a zoom. */
function forgetSheet() {
  const img = document.getElementById("sheet");
  if (img.src.startsWith("blob:")) URL.revokeObjectURL(img.src);
  img.removeAttribute("src");
  view.facts = null;
  view.card = null;
  const button = document.getElementById("reroll");
  button.disabled = true;
  button.textContent = "Re-roll card";
  document.getElementById("hotspots").replaceChildren();
  document.getElementById("left-out").textContent = "";  // the facts of a sheet no longer shown go with it
  const warnings = document.getElementById("sheet-warnings");
  warnings.hidden = true;
  warnings.textContent = "";
  document.dispatchEvent(new CustomEvent("card-chosen", { detail: { card: null } }));
}

function drawFacts(facts) {
  const back = facts.side === "back";
  say(document.getElementById("page-label"), `${back ? "Back of sheet" : "Sheet"} ${facts.page} of ${facts.pages}`);
  const flip = document.getElementById("flip-side");
  flip.hidden = !facts.backs;
  flip.textContent = back ? "Show fronts" : "Show backs";
  flip.setAttribute("aria-pressed", String(back));
  sideActions();
  document.getElementById("sheet-wrap").classList.toggle("backs", back);
  document.getElementById("prev-page").disabled = facts.page <= 1;
  document.getElementById("next-page").disabled = facts.page >= facts.pages;
  document.getElementById("deck-line").textContent =
    `${facts.cards_text}, ${facts.symbols_per_card} symbols a card, ${facts.pages} sheet${facts.pages === 1 ? "" : "s"}`;
  const out = facts.unused;
  document.getElementById("left-out").textContent = out.length
    ? `Left out of this deck (${out.length}): ${out.slice(0, 24).join(", ")}${out.length > 24 ? "…" : ""}` : "";
  const warnings = document.getElementById("sheet-warnings");
  warnings.hidden = !facts.warnings.length;
  warnings.textContent = facts.warnings.map((w) => w.replace(/^printdeck: warning: /, "")).join("\n");
}

const SVG = "http://www.w3.org/2000/svg";

/** The ring a card's button shows on hover and when chosen: the card's own outline (a
 *  square's corners, a hexagon's sides), as fractions of its box; a circle without one. */
function cardRing(outline) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("preserveAspectRatio", "none");
  svg.setAttribute("aria-hidden", "true");
  svg.classList.add("ring");
  const shape = document.createElementNS(SVG, outline && outline.length ? "polygon" : "ellipse");
  if (outline && outline.length) shape.setAttribute("points", outline.map(([x, y]) => `${x * 100},${y * 100}`).join(" "));
  else for (const [k, v] of [["cx", 50], ["cy", 50], ["rx", 50], ["ry", 50]]) shape.setAttribute(k, String(v));
  svg.append(shape);
  return svg;
}

/** Lay the card buttons over the sheet image. */
function placeHotspots() {
  const facts = view.facts;
  const img = document.getElementById("sheet");
  const layer = document.getElementById("hotspots");
  if (!facts || !img.complete) return;
  Object.assign(layer.style, { left: `${img.offsetLeft}px`, top: `${img.offsetTop}px`, width: `${img.offsetWidth}px`, height: `${img.offsetHeight}px` });
  layer.replaceChildren(...facts.slots.map((slot) => {
    const button = el("button", {
      type: "button", "aria-label": `Card ${slot.card}: ${(slot.names || []).join(", ")}`, "data-card": String(slot.card),
      "aria-pressed": String(view.card === slot.card),
      onclick: () => choose(slot.card),
      ondblclick: () => document.dispatchEvent(new CustomEvent("card-open", { detail: { card: slot.card } })),
    }, cardRing(facts.outline), el("span", { text: `card ${slot.card}` }));
    // through the CSSOM: the page's Content-Security-Policy refuses style attributes
    Object.assign(button.style, { left: `${(slot.x - slot.rx) * 100}%`, top: `${(slot.y - slot.ry) * 100}%`,
      width: `${slot.rx * 200}%`, height: `${slot.ry * 200}%` });
    if (facts.outline && facts.outline.length) {  // a click takes the card it lands on, not its box's neighbour
      button.style.clipPath = `polygon(${facts.outline.map(([x, y]) => `${x * 100}% ${y * 100}%`).join(", ")})`;
    }
    return button;
  }));
}

/** Re-roll and New seed change the fronts' layout: on the backs, which do not show it,
 *  they wait (saying why) while the chosen card stays chosen for the fronts. */
function sideActions() {
  const back = view.side === "back";
  const reroll = document.getElementById("reroll");
  const reseed = document.getElementById("reseed");
  reroll.disabled = back || view.card === null;
  reroll.textContent = view.card === null ? "Re-roll card" : `Re-roll card ${view.card}`;
  reseed.disabled = back;
  const why = back ? "Show fronts first: the layout shows on the fronts, not on the backs" : "";
  for (const button of [reroll, reseed]) {
    if (why) button.title = why; else button.removeAttribute("title");
  }
}

function choose(card) {
  view.card = view.card === card ? null : card;
  sideActions();
  document.dispatchEvent(new CustomEvent("card-chosen", { detail: { card: view.card } }));
  placeHotspots();
  const again = document.querySelector(`#hotspots button[data-card="${card}"]`);
  if (again) again.focus();
}

function turnPage(step) {
  const next = view.page + step;
  if (next < 1 || (view.pages && next > view.pages)) return;
  view.page = next;
  choose(null);
  refresh();
}

export function setUpPreview() {
  store.onChange((state) => {
    if (state.rev !== view.rev) { view.rev = state.rev; refresh(); }
  });
  document.getElementById("flip-side").addEventListener("click", () => {
    view.side = view.side === "back" ? "front" : "back";  // the backs as the duplex PDF prints them
    sideActions();  // the chosen card stays chosen, to re-roll or zoom once the fronts are back
    refresh();
  });
  document.getElementById("prev-page").addEventListener("click", () => turnPage(-1));
  document.getElementById("next-page").addEventListener("click", () => turnPage(1));
  document.getElementById("reroll").addEventListener("click", () => {
    if (view.card !== null) change("POST", "/api/reroll", { card: view.card });
  });
  document.getElementById("reseed").addEventListener("click", () => change("POST", "/api/seed"));
  window.addEventListener("resize", placeHotspots);
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("input, textarea, select")) return;
    if (e.key === "PageDown") { e.preventDefault(); turnPage(1); }
    if (e.key === "PageUp") { e.preventDefault(); turnPage(-1); }
  });
}
