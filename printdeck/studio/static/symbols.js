// The symbols panel: the grid of tiles, naming, pairing and reordering them (what comes in
// is drops.js's).
import { call, change, cropRadius, el, forgetRedTiles, say, store } from "./api.js";
import { drawDetail } from "./detail.js";
import { resumeChecks, sendFiles, setUpDropzone, setUpWords } from "./drops.js";

let wordsLang = ""; // state.words_lang: the language the words print in (drawSymbols sets it)

// uid -> the name typed and sent, until its answer comes: the grid redrawn meanwhile (by a
// late answer of the sheet or the look-alikes, still of the state before it) shows it as typed.
const namesSent = new Map();
// uid -> {typed, words}: a name the studio refused (another symbol has it). Its box keeps what
// was typed, marked, with the reason under it, until the box is saved or set back.
const namesRefused = new Map();

/** Whether a tile's box is its word: a word whose name is the word itself, so what is
 *  typed there is what prints (a teacher fixing a typo fixes the card, not a name). */
const boxIsWord = (symbol) => symbol.kind === "text" && symbol.name === symbol.text;

/** Save a tile's box (``typed``): a word's text (:func:`boxIsWord`) or else the symbol's
 *  name; while it is on its way, a redraw keeps showing it. A word emptied is put back. */
async function rename(given, typed, box) {
  delete box.dataset.edited;  // handled: what the box holds now is sent, or put back
  delete box.dataset.unsent;
  // The tile may have been patched, not redrawn, since it was made: its symbol as it is now
  // (a word fixed and then emptied came back as the typo, from the tile's first drawing).
  const symbol = (store.state && store.state.symbols.find((s) => s.uid === given.uid)) || given;
  const word = boxIsWord(symbol);
  if (word && !typed.trim()) {  // a word cannot be blank: it stays, as last sent if its answer is still to come
    const pending = namesSent.get(symbol.uid);
    box.value = pending && pending.typed.trim() ? pending.typed.trim() : symbol.text;
    return;
  }
  if (namesRefused.has(symbol.uid) && typed.trim() === (word ? symbol.text : symbol.name)) {
    namesRefused.delete(symbol.uid);  // set back to the saved name: nothing to send, the mark goes
    store.set(store.state);
    return;
  }
  const sent = { typed };
  namesSent.set(symbol.uid, sent);
  const changes = word ? { text: typed.trim(), name: null } : { name: typed.trim() || null };
  await change("PATCH", `/api/symbols/${symbol.uid}`, { changes }, (answer) => {
    if (namesSent.get(symbol.uid) === sent) namesSent.delete(symbol.uid);  // the answer's name is shown
    if (answer.status === 422 && answer.data.words) namesRefused.set(symbol.uid, { typed, words: answer.data.words });
    else namesRefused.delete(symbol.uid);
  });
  const now = store.state && store.state.symbols.find((s) => s.uid === symbol.uid);
  const shown = document.querySelector(`#grid .tile[data-uid="${symbol.uid}"] .tile-name`);  // redrawn since
  if (!typed.trim() && now && shown) shown.value = now.name;  // emptied: back to its file's name, shown at once
}
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** The ``lang`` of a word's tile: the deck's, except that a Chinese, Japanese or Korean
 *  deck's language (it picks the Han letter forms) is not a word without those letters' (a
 *  screen reader read قطة and बिल्ली with a Chinese voice); null leaves the page's. */
function langOf(text) {
  return (/^(zh|ja|ko)\b/.test(wordsLang) && !CJK.test(text || "")) || !wordsLang ? null : wordsLang;
}

/** Move symbol uid to position `to` (0-based). */
async function moveTo(uid, to) {
  const order = store.state.symbols.map((s) => s.uid).filter((u) => u !== uid);
  order.splice(Math.max(0, Math.min(to, order.length)), 0, uid);
  const part = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.part : null;
  await change("PUT", "/api/symbols/order", { order });
  focusTile(uid, part || "face");
}

/** Put the focus on a control of symbol ``uid``'s tile (``part``: face, name, earlier,
 *  later, remove); a control that is disabled there now (the first tile's "earlier")
 *  gives way to the tile's face. Returns whether a control took the focus. */
function focusTile(uid, part) {
  const tile = document.querySelector(`#grid .tile[data-uid="${uid}"]`);
  if (!tile) return false;
  const wanted = tile.querySelector(`[data-part="${part}"]:not([disabled])`) || tile.querySelector('[data-part="face"]')
    || tile.querySelector("[data-part]:not([disabled])");
  if (wanted) wanted.focus();
  return Boolean(wanted);
}

/** After a tile went: the focus goes to the same control of the tile now in its place
 *  (the next), else of the one before it, else to the list's heading. */
function focusAfterRemoval(index, part) {
  const tiles = Array.from(document.querySelectorAll("#grid .tile[data-uid]"));
  const next = tiles[Math.min(index, tiles.length - 1)];
  if (next && focusTile(next.dataset.uid, part)) return;
  document.getElementById("symbols-h").focus();
}

/** Show in a photo's tile ``face`` only its crop square ``[left, top, right, bottom]``
 *  (fractions of the upright photo, the artwork code's crop) cut to its ``shape``, as the
 *  card prints it: the middle square would cut a face at the photo's edge that the card
 *  keeps, never show a crop centred by a click, and the square's corners show faces a
 *  round crop leaves out. */
function showCrop(face, [left, top, right, bottom], shape) {
  const [w, h] = [right - left, bottom - top];
  const img = face.querySelector("img");
  if (!img || !(w > 0 && h > 0)) return;
  face.style.borderRadius = cropRadius(shape);
  img.classList.add("cropped");
  Object.assign(img.style, {
    width: `${100 / w}%`, height: `${100 / h}%`, left: `${(-100 * left) / w}%`, top: `${(-100 * top) / h}%`,
  });
}

function tile(symbol, index, count) {
  const described = [symbol.crop ? `crop-of-${symbol.uid}` : null, symbol.warning ? `warning-of-${symbol.uid}` : null];
  const face = el("button", {
    type: "button", class: "tile-face", "data-part": "face", "aria-label": `${symbol.name}: show its settings`,
    "aria-describedby": described.filter(Boolean).join(" ") || null,  // its crop and warning, heard on the way
    "aria-pressed": String(store.selected === symbol.uid),
    onclick: () => { store.selected = store.selected === symbol.uid ? null : symbol.uid; store.set(store.state); },
  });
  if (symbol.kind === "faces") {
    // One symbol shown several ways: its picture (if any) beside its words.
    if (symbol.thumb) face.append(el("img", { picture: symbol.thumb, alt: "", class: "face-picture" }));
    for (const f of symbol.faces.filter((x) => x.text !== null)) face.append(el("span", { class: "word face-word", text: f.text, lang: langOf(f.text), dir: "auto" }));
    face.classList.add("faces");
  } else if (symbol.kind === "text") face.append(el("span", { class: "word", text: symbol.text, lang: langOf(symbol.text), dir: "auto" }));
  else if (symbol.kind === "folder") face.append(el("span", { class: "folder-mark", text: `folder ${symbol.file}` }));
  else face.append(el("img", { picture: symbol.thumb, alt: "", class: symbol.kind === "photo" ? "photo" : "" }));
  if (symbol.kind === "photo" && symbol.crop && symbol.crop.box) showCrop(face, symbol.crop.box, symbol.shape);
  const saved = boxIsWord(symbol) ? symbol.text : symbol.name;
  if (namesRefused.has(symbol.uid) && namesRefused.get(symbol.uid).typed.trim() === saved) namesRefused.delete(symbol.uid);  // saved since (Undo, an editor)
  const refused = namesRefused.get(symbol.uid);
  const typedName = namesSent.has(symbol.uid) ? namesSent.get(symbol.uid).typed : refused && refused.typed;
  const name = el("input", {
    type: "text", class: "tile-name", "data-part": "name", value: typedName ?? symbol.name,
    "aria-invalid": refused ? "true" : null, "aria-describedby": refused ? `name-refused-${symbol.uid}` : null,
    "aria-label": `${boxIsWord(symbol) ? "Word" : "Name"} of symbol ${index + 1}`, lang: langOf(symbol.name), dir: "auto",
    disabled: symbol.kind === "folder",
    oninput: (e) => { e.target.dataset.edited = "1"; },  // typed, not yet sent (see drawSymbols)
    onchange: (e) => rename(symbol, e.target.value, e.target),
    onkeydown: (e) => {  // Enter again on a refused name, unchanged (the other symbol renamed since),
      const still = namesRefused.get(symbol.uid);  // or on typing a redraw kept, which no change event sends
      const again = still && e.target.value === still.typed;
      if (e.key === "Enter" && !e.isComposing && (again || unsentKept(e.target))) rename(symbol, e.target.value, e.target);
    },
    onblur: (e) => { if (unsentKept(e.target)) rename(symbol, e.target.value, e.target); },
  });
  const tools = el("div", { class: "tile-tools" },
    el("button", { type: "button", "data-part": "earlier", "aria-label": `Move ${symbol.name} earlier`, title: "Earlier", disabled: index === 0, onclick: () => moveTo(symbol.uid, index - 1), text: "◀" }),
    el("button", { type: "button", "data-part": "later", "aria-label": `Move ${symbol.name} later`, title: "Later", disabled: index === count - 1, onclick: () => moveTo(symbol.uid, index + 1), text: "▶" }),
    el("button", { type: "button", class: "remove", "data-part": "remove", "aria-label": `Remove ${symbol.name}`, title: "Remove", onclick: () => remove(symbol, index), text: "✕" }));
  const item = el("li", { class: `tile${symbol.error ? " bad" : ""}${symbol.warning ? " alike" : ""}${store.selected === symbol.uid ? " selected" : ""}`, "data-uid": symbol.uid, draggable: "true" },
    el("span", { class: "tile-badge", text: String(index + 1), "aria-hidden": "true" }), face,
    symbol.crop ? el("span", { class: `crop-badge${symbol.crop.check ? " check" : ""}`, id: `crop-of-${symbol.uid}`, text: symbol.crop.badge, title: symbol.crop.title }) : null,
    name, tools,
    symbol.error ? el("p", { class: "tile-error", text: symbol.error }) : null,
    refused ? el("p", { class: "tile-error", id: `name-refused-${symbol.uid}`, text: `Not saved: ${refused.words}` }) : null,
    symbol.warning ? el("p", { class: "tile-warning", id: `warning-of-${symbol.uid}`, role: "note", title: symbol.warning_detail, text: `⚠ ${symbol.warning}` }) : null);
  dragToReorder(item, symbol.uid, index);
  dropToPair(face, symbol);
  item.addEventListener("keydown", (e) => {
    if (e.altKey && (e.key === "ArrowLeft" || e.key === "ArrowRight")) {
      e.preventDefault();
      moveTo(symbol.uid, index + (e.key === "ArrowLeft" ? -1 : 1));
    }
  });
  return item;
}

async function remove(symbol, index) {
  if (store.selected === symbol.uid) store.selected = null;
  const answer = await change("DELETE", `/api/symbols/${symbol.uid}`);
  if (answer.status !== 200) return;
  focusAfterRemoval(store.state.rejected.length + index, "remove");
  document.getElementById("saved").textContent = `Removed ${symbol.name}; Undo (Ctrl+Z) brings it back`;  // said, not only seen
}

let dragged = null;
function dragToReorder(item, uid, index) {
  item.addEventListener("dragstart", (e) => {
    dragged = uid;
    item.classList.add("dragging");
    e.dataTransfer.effectAllowed = "move";
    e.dataTransfer.setData("text/plain", String(uid));
  });
  item.addEventListener("dragend", () => { dragged = null; item.classList.remove("dragging"); });
  item.addEventListener("dragover", (e) => {
    if (dragged === null || dragged === uid) return;
    e.preventDefault();
    item.classList.add("drop-before");
  });
  item.addEventListener("dragleave", () => item.classList.remove("drop-before"));
  item.addEventListener("drop", (e) => {
    if (dragged === null) return;
    e.preventDefault();
    e.stopPropagation();
    item.classList.remove("drop-before");
    const from = store.state.symbols.findIndex((s) => s.uid === dragged);
    moveTo(dragged, from < index ? index - 1 : index);
  });
}

/** Make `other` a face of `symbol` (a picture dropped on a word, or a word on a picture). */
async function addFace(symbol, other) {
  const answer = await change("POST", `/api/symbols/${symbol.uid}/faces`, { add: other });
  const note = document.getElementById("busy");
  note.textContent = answer.status === 200 ? `${symbol.name} now has several faces: a match may show either.` : (answer.data.words || answer.data.error || "Not joined.");
}

/** Dropping a tile, or a picture file, on a symbol's face joins them as one symbol with two faces;
 * dropping elsewhere on the tile reorders. */
function dropToPair(face, symbol) {
  if (symbol.kind === "folder") return;
  face.addEventListener("dragover", (e) => {
    const files = e.dataTransfer && Array.from(e.dataTransfer.types).includes("Files");
    if ((dragged === null || dragged === symbol.uid) && !files) return;
    e.preventDefault();
    e.stopPropagation();
    face.classList.add("pair-target");
  });
  face.addEventListener("dragleave", () => face.classList.remove("pair-target"));
  face.addEventListener("drop", async (e) => {
    face.classList.remove("pair-target");
    const files = e.dataTransfer ? Array.from(e.dataTransfer.files) : [];
    if (dragged === null && !files.length) return;
    e.preventDefault();
    e.stopPropagation();
    if (dragged !== null && dragged !== symbol.uid) { const other = dragged; dragged = null; await addFace(symbol, other); return; }
    await sendFiles(files.slice(0, 1), symbol.uid);
    const now = store.state.symbols.find((s) => s.uid === symbol.uid);
    const faces = (s) => (s.kind === "faces" ? s.faces.length : 1);
    if (now && faces(now) > faces(symbol)) {  // taken in as its face (a refusal is on its red tile)
      document.getElementById("busy").textContent = `${now.name} now has several faces: a match may show either.`;
    }
  });
}

function rejectedTile(rejected, index) {
  const dismiss = async () => {
    const answer = await change("DELETE", `/api/rejected/${rejected.uid}`);
    if (answer.status === 200) focusAfterRemoval(index, "dismiss");
  };
  return el("li", { class: "tile rejected", "data-rejected": rejected.uid, "data-uid": `r${rejected.uid}` },
    el("div", { class: "tile-face", text: rejected.file }),
    el("p", { class: "tile-error", text: rejected.words || rejected.error }),
    el("div", { class: "tile-tools" },
      el("button", { type: "button", "data-part": "dismiss", "aria-label": `Dismiss ${rejected.file}`, onclick: dismiss, text: "Dismiss" })));
}

/** Whether a name box holds typing a redraw carried over and nothing has sent since: the
 *  page set its value, so the browser, which only reports a person's edits, sends no change
 *  event for it (:func:`drawSymbols`); Enter or leaving the box sends it instead. */
const unsentKept = (box) => box.dataset.unsent !== undefined && box.value === box.dataset.unsent;

let drawingGrid = false;  // drawSymbols runs (a box it takes away may send its change, and redraw)
let drawAgain = false;  // a redraw was asked meanwhile: drawn from the latest state once this one ends

/** Draw the grid, the "what the symbols allow" line and the deck's problem. A redraw asked
 *  while it draws (by the change a focused box sends as the grid takes it away) comes after
 *  it, from the state as it is then: inside, the older drawing would be put over it. */
export function drawSymbols(state) {
  if (drawingGrid) { drawAgain = true; return; }
  drawingGrid = true;
  try {
    drawGrid(state);
  } finally {
    drawingGrid = false;
  }
  if (drawAgain) { drawAgain = false; drawSymbols(store.state); }
}

function drawGrid(state) {
  say(document.getElementById("sizes"), state.sizes);
  wordsLang = state.words_lang || "";  // the letter forms the PDF prints the words in (门, not Japanese 门)
  if (state.form) {  // the formats the library reads, said and offered by the file picker
    document.getElementById("drop-help").textContent = `${state.form.picture_formats}; they are copied into the deck’s folder`;
    document.getElementById("file-input").accept = state.form.picture_suffixes.join(",");
  }
  const grid = document.getElementById("grid");
  const active = document.activeElement;
  const focused = active && active.closest && active.closest("#grid .tile");
  const focusUid = focused ? focused.dataset.uid : null;
  const part = focused ? active.dataset.part : null;
  const selection = part === "name" ? { from: active.selectionStart, to: active.selectionEnd } : null;
  grid.replaceChildren(...state.rejected.map(rejectedTile),
    ...state.symbols.map((s, i) => tile(s, i, state.symbols.length)));
  // Read once the old box is gone: a browser that sends its change as it goes (Chromium) has
  // saved it or put an emptied word back by now; one that does not leaves it to be sent.
  if (focusUid && part && focusTile(focusUid, part) && selection) {  // a name being typed stays as typed
    const box = document.activeElement;
    const unsent = active.dataset.edited !== undefined || active.dataset.unsent !== undefined;
    if (unsent && active.value !== box.value) box.dataset.unsent = active.value;  // not what is saved or on its way
    box.value = active.value;
    box.setSelectionRange(selection.from, selection.to);
  }
  document.getElementById("grid-empty").hidden = state.symbols.length + state.rejected.length > 0;
  forgetRedTiles(state);
  resumeChecks(state.checking);
  const problem = document.getElementById("deck-problem");
  const key = state.problem_key;
  const aboutSymbols = state.problem && (!key || key === "symbols" || key.startsWith("deck"));
  const tooFew = state.problem_code === "too-few-symbols";
  problem.hidden = !aboutSymbols || (tooFew && state.symbols.length === 0);
  problem.className = `problem${tooFew ? " notice" : ""}`;
  problem.textContent = aboutSymbols ? state.problem_words : "";
  if (store.selected !== null && !state.symbols.some((s) => s.uid === store.selected)) store.selected = null;
  drawDetail(state);
}

/** Ask which symbols look alike (it takes a while the first time) and mark their tiles. */
let lookAlikeRev = null;
async function markLookAlikes(state) {
  if (lookAlikeRev === state.rev) return;
  lookAlikeRev = state.rev;
  const answer = await call("GET", "/api/look-alikes");
  if (answer.status !== 200 || !store.state || answer.data.rev !== store.state.rev) return;
  for (const symbol of store.state.symbols) {
    const note = answer.data.symbols[String(symbol.uid)];
    symbol.warning = note ? note.warning : null;
    symbol.warning_detail = note ? note.warning_detail : null;
  }
  drawSymbols(store.state);
}

export function setUpSymbols() {
  setUpDropzone();
  setUpWords();
  store.onChange(drawSymbols);
  store.onChange(markLookAlikes);
}

export { call };
