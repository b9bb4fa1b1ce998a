// The picker of printdeck's bundled pictures (the Twemoji set): a search box and a grid of
// buttons, each named by its picture ("Add cat"). Arrow keys move in the grid, Enter or
// a click adds the picture: the studio copies it into the folder's images/ and checks it
// as it checks a dropped picture (a copy of a symbol already there is refused the same way).
import { call, change, el, imageUrl, sayWithRedTiles, store } from "./api.js";

let catalogue = null; // [{id, name, words}] from GET /api/art, once

function newDrop() {
  return `art-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** The pictures with, for every word of ``query``, a word holding it: from its start for
 *  one or two letters ("b": bee, not rabbit), anywhere from three ("fish": blowfish);
 *  "shoe" finds the trainer, an "athletic shoe"; case and accents ignored. An emoji
 *  typed or pasted ("🐢") finds the picture of that emoji. */
export function matching(entries, query) {
  const fold = (text) => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
  const bare = (text) => text.replace(/\ufe0f/gu, "");
  const emoji = [...query.matchAll(/\p{Extended_Pictographic}(?:\ufe0f|\p{Emoji_Modifier}|\u200d\p{Extended_Pictographic})*/gu)]
    .map((m) => bare(m[0]));
  const wanted = fold(query.replace(/\p{Extended_Pictographic}/gu, " ")).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return entries.filter((entry) => {
    const words = fold(entry.words.join(" ")).split(/[^\p{L}\p{N}]+/u);
    return emoji.every((e) => bare(entry.emoji || "") === e)
      && wanted.every((w) => words.some((word) => (w.length > 2 ? word.includes(w) : word.startsWith(w))));
  });
}

/** The ids of bundled pictures the deck already holds (as copies named by their id). */
function inDeck() {
  const files = new Set(((store.state && store.state.symbols) || []).map((s) => s.file));
  return new Set((catalogue || []).filter((e) => files.has(`images/${e.id}.svg`)).map((e) => e.id));
}

function button(entry, held, first) {
  const label = held.has(entry.id) ? `${entry.name} (in the deck)` : `Add ${entry.name}`;
  const picture = el("img", { alt: "", width: "48", height: "48", loading: "lazy" });
  imageUrl(`/api/art/${entry.id}.svg`, true).then((src) => { if (src) picture.src = src; });
  return el("li", {},
    el("button", {
      type: "button", class: `art-pick${held.has(entry.id) ? " held" : ""}`, "data-art": entry.id,
      "aria-label": label, title: entry.words.join(", "), tabindex: first ? "0" : "-1",
    }, picture, el("span", { class: "art-name", text: entry.name })));
}

function draw(dialog) {
  const query = dialog.querySelector("#art-search").value;
  const found = matching(catalogue || [], query);
  const held = inDeck();
  const grid = dialog.querySelector("#art-grid");
  grid.replaceChildren(...found.map((entry, i) => button(entry, held, i === 0)));
  const count = found.length === 1 ? "1 picture" : `${found.length} pictures`;
  dialog.querySelector("#art-count").textContent = query.trim()
    ? `${count} match “${query.trim()}”` : `${count}; type to search (e.g. “cat”, “shoe”, “fruit”)`;
}

/** Arrow keys, Home and End move between the grid's buttons (one Tab stop for the grid). */
function moveInGrid(event) {
  const buttons = Array.from(event.currentTarget.querySelectorAll("button"));
  const at = buttons.indexOf(document.activeElement);
  if (at < 0) return;
  const perRow = Math.max(1, buttons.filter((b) => b.offsetTop === buttons[0].offsetTop).length);
  const to = { ArrowRight: at + 1, ArrowLeft: at - 1, ArrowDown: at + perRow, ArrowUp: at - perRow,
    Home: 0, End: buttons.length - 1 }[event.key];
  if (to === undefined) return;
  event.preventDefault();
  if (to < 0 || to >= buttons.length) return;
  buttons[at].tabIndex = -1;
  buttons[to].tabIndex = 0;
  buttons[to].focus();
}

async function pick(dialog, target) {
  const id = target.dataset.art;
  const note = dialog.querySelector("#art-note");
  const name = (catalogue.find((e) => e.id === id) || {}).name || id;
  note.textContent = `Adding ${name}…`;
  const answer = await change("POST", "/api/art", { names: [id], drop: newDrop() });
  const result = answer.data && answer.data.results ? answer.data.results[0] : null;
  if (answer.status === 200 && result && result.ok) note.textContent = `Added ${name} to the deck`;
  else {  // the page's own words (as a dropped file's tile says them), not the command line's
    const why = (result && (result.words || result.error)) || answer.data.words || answer.data.error || "try again";
    note.textContent = `${name} was not added: ${why.charAt(0).toLowerCase()}${why.slice(1)}`;
  }
  const busy = document.getElementById("busy");
  if (store.state && store.state.rejected.length && !(result && result.ok)) sayWithRedTiles(note.textContent, "");  // goes with its red tile
  else busy.textContent = note.textContent;
  const keep = dialog.querySelector(`[data-art="${id}"]`);
  if (keep) {
    const held = inDeck().has(id);
    keep.classList.toggle("held", held);
    keep.setAttribute("aria-label", held ? `${name} (in the deck)` : `Add ${name}`);
  }
}

/** Enter in the search box: add the picture when one matches, or when one is named exactly as
 * typed ("cat" among "cat" and "cat face"); else go to the first of the matches. */
function enterInSearch(dialog) {
  const query = dialog.querySelector("#art-search").value.trim().toLocaleLowerCase();
  const buttons = Array.from(dialog.querySelectorAll("#art-grid button[data-art]"));
  const named = (b) => (catalogue.find((e) => e.id === b.dataset.art) || {}).name || "";
  const exact = buttons.filter((b) => named(b).toLocaleLowerCase() === query);
  const chosen = buttons.length === 1 ? buttons[0] : exact.length === 1 ? exact[0] : null;
  if (chosen) pick(dialog, chosen);
  else if (buttons.length) {
    buttons[0].focus();
    dialog.querySelector("#art-note").textContent =
      `${buttons.length} pictures match: choose one with the arrow keys, then Enter`;
  }
}

function makeDialog() {
  const dialog = el("dialog", { id: "art-picker", class: "art-picker", "aria-labelledby": "art-h" },
    el("div", { class: "art-head" },
      el("h2", { id: "art-h", text: "printdeck’s pictures" }),
      el("button", { type: "button", class: "secondary", text: "Done", onclick: () => dialog.close() })),
    el("label", { for: "art-search", text: "Search by name" }),
    el("input", { type: "search", id: "art-search", autocomplete: "off", spellcheck: "false",
      "aria-describedby": "art-count", "aria-controls": "art-grid" }),
    el("p", { id: "art-count", class: "muted small", "aria-live": "polite" }),
    el("ul", { id: "art-grid", class: "art-grid", "aria-label": "Pictures: Enter adds one to the deck" }),
    el("p", { id: "art-note", class: "art-note", role: "status" }),
    el("p", { class: "muted small", text: "Twemoji by Twitter, Inc and contributors (CC BY 4.0): the deck’s credit line says so." }));
  const search = dialog.querySelector("#art-search");
  search.addEventListener("input", () => draw(dialog));
  search.addEventListener("keydown", (event) => {
    if (event.key === "ArrowDown") {
      const first = dialog.querySelector("#art-grid button");
      if (first) { event.preventDefault(); first.focus(); }
    }
    if (event.key === "Enter") {  // the one picture found, or the one of that very name, is added
      event.preventDefault();
      enterInSearch(dialog);
    }
  });
  const grid = dialog.querySelector("#art-grid");
  grid.addEventListener("keydown", moveInGrid);
  grid.addEventListener("click", (event) => {
    const target = event.target.closest("button[data-art]");
    if (target) pick(dialog, target);
  });
  document.body.append(dialog);
  return dialog;
}

async function open() {
  const dialog = document.getElementById("art-picker") || makeDialog();
  if (!catalogue) {
    const answer = await call("GET", "/api/art");
    if (answer.status !== 200) {
      document.getElementById("busy").textContent = answer.data.error || "The pictures could not be listed.";
      return;
    }
    catalogue = answer.data.art;
  }
  draw(dialog);
  dialog.showModal();
  dialog.querySelector("#art-search").focus();
}

export function setUpArt() {
  const intake = document.querySelector(".intake");
  const opener = el("button", { type: "button", id: "art-open", class: "secondary", onclick: open,
    text: "Pick from printdeck’s pictures…" });
  intake.after(el("p", { class: "art-open" }, opener));
}
