// The selected symbol's controls: size, keep upright (a box a face for a symbol with faces),
// and for photos the crop (click the photo where the crop should centre), zoom, shape and
// background removal.
import { call, change, cropRadius, el, imageUrl, patchChildren, queueChange, queueChanges, store } from "./api.js";
import { labelOf } from "./settings.js";

const SLIDER_QUIET_MS = 300; // a slider sends its value once it has rested this long

/** Queue a symbol's changes (one request at a time; a key's latest value wins). The
 *  control that made them (``data-dirty``) is redrawn once its answer has come. */
function send(symbol, changes, control) {
  if (symbol.facePrefix) {  // a photo face's crop: its keys are the face's (faces.0.focus)
    changes = Object.fromEntries(Object.entries(changes).map(([k, v]) => [`${symbol.facePrefix}${k}`, v]));
  }
  if (!control && Object.keys(changes).length > 1) {  // keys that change together: one step
    queueChanges(`/api/symbols/${symbol.uid}`, changes);
    return;
  }
  for (const [key, value] of Object.entries(changes)) {
    queueChange(`/api/symbols/${symbol.uid}`, key, value, () => {
      if (control && control.dataset.sent === String(value)) delete control.dataset.dirty;
    });
  }
  if (control) control.dataset.sent = String(Object.values(changes)[0]);
}

function field(label, control, hint) {
  const id = control.id || `f-${Math.random().toString(36).slice(2)}`;
  control.id = id;
  return el("div", { class: "field" }, el("label", { for: id, text: label }), control, hint ? el("span", { class: "hint", text: hint }) : null);
}

function checkbox(label, checked, onchange) {
  const box = el("input", { type: "checkbox", checked, onchange });
  return el("label", { class: "check" }, box, label);
}

/** A range: its number shows as it moves; its final value is sent once it rests (every
 *  arrow press or drag step is not a save), and no answer redraws it meanwhile. */
/** A slider of a symbol's number ``key`` between the theme spec's bounds (an exclusive
 *  least one a step above it), so it reaches every value theme.yaml may hold. */
function slider(symbol, key, value, label, hint) {
  const spec = store.state.form.symbol_fields[key];
  const step = 0.05;
  const min = spec.minimum ?? Math.round((spec.exclusiveMinimum + step) * 100) / 100;
  const max = spec.maximum;
  const out = el("output", { text: `${Number(value).toFixed(2)}×` });
  let timer = null;
  const range = el("input", { type: "range", min, max, step, value, "aria-label": label });
  const moved = () => {
    range.dataset.dirty = "";
    out.textContent = `${Number(range.value).toFixed(2)}×`;
    clearTimeout(timer);
    if (key === "zoom") clickZooms.delete(symbol.uid);  // the person's own zoom now: Reset keeps it
    timer = setTimeout(() => send(symbol, { [key]: Number(range.value) }, range), SLIDER_QUIET_MS);
  };
  range.addEventListener("input", moved);
  range.addEventListener("change", moved);
  return el("div", { class: "field", "data-key": key }, el("span", { class: "label", text: label }), el("div", { class: "inline" }, range, out),
    hint ? el("span", { class: "hint", text: hint }) : null);
}

/** Whether a symbol, or one face of it, turns when its theme gives no ``rotate``: a photo as
 *  the deck's setting; a word with × or + stays upright unless told (the server says). */
function turnsByDefault(shown, state) {
  return shown.kind === "photo" ? Boolean(state.effective["layout.rotate_photos"]) : shown.default_turns !== false;
}

/** Whether it turns on the cards: its ``rotate``, else its default. */
function turns(shown, state) {
  return shown.rotate === null || shown.rotate === undefined ? turnsByDefault(shown, state) : shown.rotate;
}

function upright(symbol, state) {
  return checkbox("Keep upright (never turned on the card)", !turns(symbol, state), (e) => {
    const wanted = !e.target.checked;
    send(symbol, { rotate: wanted === turnsByDefault(symbol, state) ? null : wanted });
  });
}

/** A symbol with faces turns face by face (the theme gives ``rotate`` to each face, and a
 *  card shows one face): a box a face, ticked where that face prints upright ("3 × 4" is,
 *  "12" is not), each change saved as that face's ``rotate``. */
function facesUpright(symbol, state) {
  const kinds = { image: "picture", photo: "photo" };
  const boxes = symbol.faces.map((face, i) => {
    const label = kinds[face.kind] ? `${face.name} (${kinds[face.kind]})` : face.name;
    return checkbox(label, !turns(face, state), (e) => {
      const wanted = !e.target.checked;
      send(symbol, { [`faces.${i}.rotate`]: wanted === turnsByDefault(face, state) ? null : wanted });
    });
  });
  return el("fieldset", { class: "field faces-upright" },
    el("legend", { class: "label", text: "Keep upright (never turned on the card)" }), ...boxes);
}

/** "Remove a plain background" for a raster image (clip art on white), the symbol's own or
 *  its picture face's (``faces.0.remove_background``); null for other symbols and SVGs. */
function cutOutBox(symbol) {
  const face = symbol.kind === "faces" && symbol.picture_face != null ? symbol.faces[symbol.picture_face] : null;
  const image = face ? face.kind === "image" : symbol.kind === "image";
  if (!image || !symbol.file || /\.svg$/i.test(symbol.file)) return null;
  const target = face ? { ...symbol, facePrefix: `faces.${symbol.picture_face}.` } : symbol;
  const ticked = face ? face.remove_background : symbol.remove_background;
  return checkbox("Remove a plain background", ticked, (e) => send(target, { remove_background: e.target.checked || null }));
}

/** A raster picture shown whole or cropped as a photo, as the user sees it should be: a photo
 *  on a plain wall may be taken for clip art (and cut out), clip art for a photo (and
 *  cropped). The button turns one into the other (``kind``), the file kept; null for SVGs,
 *  words and symbols with faces. */
function kindButton(symbol) {
  if (!["image", "photo"].includes(symbol.kind) || !symbol.file || /\.svg$/i.test(symbol.file)) return null;
  const photo = symbol.kind === "photo";
  return el("div", { class: "inline" },
    el("span", { class: "hint", text: photo ? "Printed as a photo, cropped to its shape." : "Printed whole, as a picture." }),
    el("button", { type: "button", class: "link", text: photo ? "Show it whole instead" : "Crop it as a photo instead",
      onclick: () => send(symbol, { kind: photo ? "image" : "photo" }) }));
}

/** The photo a symbol's panel crops: the symbol itself, or for a symbol with faces its photo
 *  face whose picture the tile shows (``photo_face``), as a photo of its own whose keys are
 *  sent as the face's (``faces.0.focus``: see :func:`send`); null for other symbols. */
function photoOf(symbol) {
  if (symbol.kind === "photo") return symbol;
  if (symbol.photo_face === null || symbol.photo_face === undefined) return null;
  const face = symbol.faces[symbol.photo_face];
  return { ...symbol, ...face, kind: "photo", name: symbol.name, facePrefix: `faces.${symbol.photo_face}.` };
}

/** The photo with the crop the PDF cuts drawn over it (the ring, the zoom and the mask
 *  come from the server's crop, found by the artwork code: never guessed here); a click
 *  (or the arrow keys) moves the crop's centre. ``refresh(symbol)`` shows a new answer. */
function cropper(symbol) {
  const img = el("img", { picture: symbol.thumb, alt: `Photo of ${symbol.name}: click where the crop should centre` });
  const ring = el("div", { class: "ring", hidden: true });
  const dot = el("div", { class: "dot" });
  const found = el("p", { class: "hint crop-found", "aria-live": "polite" });
  const box = el("div", {
    class: "crop", tabindex: "0", role: "button",
    "aria-label": `Crop of ${symbol.name}: click the photo, or use the arrow keys, to centre the crop`,
  }, img, ring, dot);
  const printed = el("img", { class: "printed", alt: `${symbol.name} as it prints, its background removed` });
  const printedBox = el("figure", { class: "printed-box", hidden: true },
    printed, el("figcaption", { class: "hint", text: "As it prints: what is left once the background is removed" }));
  const wrap = el("div", { class: "crop-wrap" }, box, found, printedBox);
  let shownFor = "";
  const showPrinted = async () => {
    // the cut-out as the PDF prints it (its crop, shape and removed background), asked for
    // again whenever the deck changes while the box is ticked; hidden until it has come
    printed.alt = `${symbol.name} as it prints, its background removed`;
    const wanted = symbol.remove_background ? `${symbol.uid}@${store.state.rev}` : "";
    if (!wanted) { shownFor = ""; printedBox.hidden = true; return; }
    if (wanted === shownFor) return;
    shownFor = wanted;
    const src = await imageUrl(`/api/crops/${symbol.uid}/printed.png?rev=${store.state.rev}`);
    if (shownFor !== wanted) { if (src) URL.revokeObjectURL(src); return; }  // a newer one is on its way
    if (printed.src.startsWith("blob:")) URL.revokeObjectURL(printed.src);
    if (src) printed.src = src; else printed.removeAttribute("src");
    printedBox.hidden = !src;  // a photo that cannot be drawn shows no stale cut-out
  };
  let focus = symbol.focus || [0.5, 0.5];
  let crop = null;
  let asked = 0;
  const place = () => {
    Object.assign(dot.style, { left: `${focus[0] * 100}%`, top: `${focus[1] * 100}%` });
    dot.hidden = !symbol.focus;
    ring.hidden = !crop;
    if (!crop) { found.textContent = "Finding the crop the PDF will cut…"; return; }
    const [l, t, r, b] = crop.box;
    Object.assign(ring.style, {
      left: `${l * 100}%`, top: `${t * 100}%`, width: `${(r - l) * 100}%`, height: `${(b - t) * 100}%`,
      borderRadius: cropRadius(symbol.shape),
    });
    Object.assign(ring.dataset, { crop: "artwork", zoom: String(symbol.zoom ?? 1) });
    found.replaceChildren(el("span", { class: `crop-badge${crop.check ? " check" : ""}`, text: crop.badge }), `: ${crop.title}`);
  };
  const ask = async () => {
    const mine = ++asked;
    const answer = await call("GET", `/api/crops/${symbol.uid}`);
    if (mine !== asked) return;  // a newer question is on its way
    if (answer.status === 200 && answer.data.crop.box) crop = answer.data.crop;
    else found.textContent = answer.data.words || answer.data.error || "The crop cannot be shown.";
    place();
  };
  wrap.dataset.thumb = symbol.thumb;
  wrap.refresh = (next) => {
    // A new state of the same crop (another symbol changed, say) keeps the ring shown
    // while the state catches up, so it never blinks off; a moved, zoomed or reshaped
    // crop is asked for again.
    const same = crop && ["focus", "zoom", "shape"].every((k) => JSON.stringify(next[k]) === JSON.stringify(symbol[k]));
    symbol = next;
    focus = next.focus || focus;
    crop = next.crop && next.crop.box ? next.crop : same ? crop : null;
    img.alt = `Photo of ${next.name}: click where the crop should centre`;
    box.setAttribute("aria-label", `Crop of ${next.name}: click the photo, or use the arrow keys, to centre the crop`);
    place();
    if (!crop) ask();
    showPrinted();
  };
  box.addEventListener("click", (e) => {
    const rect = img.getBoundingClientRect();
    const fx = Math.min(Math.max((e.clientX - rect.left) / rect.width, 0), 1);
    const fy = Math.min(Math.max((e.clientY - rect.top) / rect.height, 0), 1);
    send(symbol, centred(symbol, crop, [round(fx), round(fy)]));
  });
  let moving = null;  // arrow presses not sent yet: one move, one step for Undo (five presses took five Undos)
  box.addEventListener("keydown", (e) => {
    const step = { ArrowLeft: [-0.03, 0], ArrowRight: [0.03, 0], ArrowUp: [0, -0.03], ArrowDown: [0, 0.03] }[e.key];
    if (!step) return;
    e.preventDefault();
    const from = !symbol.focus && crop ? middle(crop.box) : focus;  // the crop shown moves, not the photo's middle
    focus = [round(clamp(from[0] + step[0])), round(clamp(from[1] + step[1]))];
    const sent = { ...(moving ? moving.sent : {}), ...centred(symbol, crop, focus) };  // the first press's zoom kept
    crop = null;  // the new crop comes with the answer
    place();
    if (moving) clearTimeout(moving.timer);
    moving = { sent, timer: setTimeout(() => { moving = null; send(symbol, sent); }, KEYS_SETTLE_MS) };
  });
  wrap.refresh(symbol);
  return wrap;
}

const KEYS_SETTLE_MS = 400;  // arrow presses this close together move the crop once

/** The centre of a crop square ``[left, top, right, bottom]`` (fractions of the photo). */
const middle = ([l, t, r, b]) => [(l + r) / 2, (t + b) / 2];

/** The zoom a click set on a photo (by its symbol's uid): the zoom before it and the one it
 *  set, so Reset takes back the click's zoom with its focus (see :func:`centred`). */
const clickZooms = new Map();

/** What centring the crop at ``at`` sends: the focus, and while printdeck chose the crop
 *  (no focus yet) the zoom that keeps the crop the size shown: a focus alone centres the
 *  widest crop, which left a face the crop held close small at its edge, cut by the circle.
 *  A zoom sent is remembered in :data:`clickZooms` for Reset. */
function centred(symbol, crop, at) {
  const sent = { focus: at };
  if (symbol.focus || !crop) return sent;
  const [l, t, r, b] = crop.box;
  const zoom = Math.min(1 / (r - l), 1 / (b - t), store.state.form.symbol_fields.zoom.maximum);
  if (zoom > (symbol.zoom ?? 1) + 0.005) {
    sent.zoom = Math.round(zoom * 100) / 100;
    clickZooms.set(symbol.uid, { before: symbol.zoom ?? null, set: sent.zoom });
  } else {
    clickZooms.delete(symbol.uid);  // this click set no zoom: Reset leaves the zoom alone
  }
  return sent;
}

/** What Reset sends: no focus (printdeck chooses the crop again) and, when a click set the
 *  zoom and it is still that zoom, the zoom from before the click: a crop chosen afresh at
 *  the click's zoom was not the one shown before it. */
function reset(symbol) {
  const clicked = clickZooms.get(symbol.uid);  // kept: an Undo of this Reset brings the click back
  if (!clicked || symbol.zoom !== clicked.set) return { focus: null };
  const plain = clicked.before === null || clicked.before === store.state.form.symbol_fields.zoom.default;
  return { focus: null, zoom: plain ? null : clicked.before };  // the default zoom: left out of the theme again
}

const clamp = (v) => Math.min(Math.max(v, 0), 1);
const round = (v) => Math.round(v * 1000) / 1000;

function photoControls(symbol) {
  const shapes = store.state.form.photo_shapes;  // the spec's crops; the first is the default
  const names = { circle: "Circle", rounded: "Rounded square" };
  const shape = el("select", { onchange: (e) => send(symbol, { shape: e.target.value === shapes[0] ? null : e.target.value }) },
    ...shapes.map((v) => el("option", { value: v, text: names[v] || v, selected: symbol.shape === v })));
  return [
    slider(symbol, "zoom", symbol.zoom, "Zoom (crop closer)"),
    field("Crop shape", shape),
    checkbox("Remove a plain background", symbol.remove_background, (e) => send(symbol, { remove_background: e.target.checked || null })),
    el("div", { class: "inline" },
      el("span", { class: "hint", text: symbol.focus ? `Your click: ${Math.round(symbol.focus[0] * 100)}% across, ${Math.round(symbol.focus[1] * 100)}% down` : "Crop chosen from what the photo shows (see above): click the photo to centre it yourself" }),
      symbol.focus ? el("button", { type: "button", class: "link", text: "Reset", onclick: () => send(symbol, reset(symbol)) }) : null),
  ];
}

function wordControls(symbol) {
  const text = el("input", { type: "text", value: symbol.text, maxlength: "40", onchange: (e) => send(symbol, { text: e.target.value }) });
  const colour = el("input", { type: "color", value: symbol.color || "#1a1a1a", "aria-label": `Colour of ${symbol.name}`, onchange: (e) => send(symbol, { color: e.target.value }) });
  const own = checkbox("Always this colour", Boolean(symbol.color), (e) => send(symbol, { color: e.target.checked ? colour.value : null }));
  return [field("Word", text), el("div", { class: "field" }, el("span", { class: "label", text: "Colour" }), el("div", { class: "inline" }, colour, own))];
}

/** A keyboard way to join symbols: pick another symbol to become a face of this one. */
function faceControls(symbol, state) {
  const others = state.symbols.filter((s) => s.uid !== symbol.uid && s.kind !== "folder");
  if (symbol.kind === "folder" || !others.length) return [];
  const pick = el("select", { "aria-label": `Add a face to ${symbol.name}` },
    el("option", { value: "", text: "Choose a symbol…" }),
    ...others.map((s) => el("option", { value: String(s.uid), text: s.name })));
  const join = el("button", { type: "button", text: "Add as a face", onclick: () => {
    if (pick.value) change("POST", `/api/symbols/${symbol.uid}/faces`, { add: Number(pick.value) });
  } });
  const note = symbol.kind === "faces"
    ? el("p", { class: "hint", text: `Faces: ${symbol.faces.map((f) => f.text === null ? "picture" : f.text).join(" · ")}. Two cards sharing this symbol may show it in different faces.` })
    : el("p", { class: "hint", text: "Or drop a picture on a word (or a word on a picture)." });
  return [el("div", { class: "field" }, el("span", { class: "label", text: "Faces (a picture and its word…)" }), el("div", { class: "inline" }, pick, join), note)];
}

/** Draw the selected symbol's controls (or hide them). A control with the focus, or
 *  moved and not yet answered, is kept as it is while the others show the new state. */
export function drawDetail(state) {
  const panel = document.getElementById("detail");
  if (!panel.dataset.escapes) {  // Escape closes the panel as its Close button does (not mid-typing)
    panel.dataset.escapes = "1";
    panel.addEventListener("keydown", (e) => {
      if (e.key !== "Escape" || (e.target instanceof HTMLElement && "typed" in e.target.dataset)) return;
      const close = panel.querySelector('[data-key="title"] button.link');
      if (close) { e.preventDefault(); close.click(); }
    });
  }
  const symbol = state.symbols.find((s) => s.uid === store.selected);
  if (!symbol) { panel.hidden = true; panel.replaceChildren(); delete panel.dataset.uid; return; }
  panel.hidden = false;
  panel.className = `detail${symbol.kind === "text" ? " word" : ""}`;
  const kinds = { photo: "photo", image: "picture", text: "word", folder: "folder of pictures", faces: "one symbol, several faces" };
  const title = el("h3", { id: "detail-h", "data-key": "title" },
    el("span", {}, symbol.name, el("span", { class: "detail-kind", text: `${kinds[symbol.kind]}${symbol.file ? ` · ${symbol.file}` : ""}` })),
    el("button", { type: "button", class: "link", text: "Close", onclick: () => {
      store.selected = null;
      store.set(state);
      const face = document.querySelector(`#grid .tile[data-uid="${symbol.uid}"] [data-part="face"]`);
      if (face) face.focus();  // back where the panel was opened from
    } }));
  const old = panel.dataset.uid === String(symbol.uid) ? panel.querySelector('[data-key="art"]') : null;
  const photo = photoOf(symbol);  // the photo whose crop is shown: the symbol, or its photo face
  // The same photo keeps its cropper, so its ring stays up while the page's state changes.
  const kept = photo && old && old.refresh && old.dataset.thumb === symbol.thumb ? old : null;
  if (kept) kept.refresh(photo);
  const art = kept ? kept : photo ? cropper(photo)
    : symbol.kind === "text" || !symbol.thumb ? null : el("div", { class: "preview-art" }, el("img", { picture: symbol.thumb, alt: symbol.name }));
  if (art) art.dataset.key = "art";
  const faces = symbol.kind === "faces";
  const controls = [
    ...(symbol.kind === "text" ? wordControls(symbol) : []),
    faces ? null : slider(symbol, "scale", symbol.scale, "Size on the cards", "1× is the size the layout gives it"),
    faces ? facesUpright(symbol, state) : upright(symbol, state),
    ...(photo ? photoControls(photo) : []),
    cutOutBox(symbol),
    kindButton(symbol),
    ...faceControls(symbol, state),
    symbol.warning ? el("p", { class: "notice", text: `${symbol.warning_detail}.`, role: "note" }) : null,
    symbol.error ? el("p", { class: "problem", text: symbol.error, role: "alert" }) : null].filter(Boolean);
  controls.forEach((node, i) => { if (!node.dataset.key) node.dataset.key = `c${i}-${node.tagName}`; });
  const box = panel.querySelector(".controls");
  if (panel.dataset.uid === String(symbol.uid) && box && patchChildren(box, controls)) {
    panel.querySelector('[data-key="title"]').replaceWith(title);
    if (old && art && old !== art) {
      const focused = old.contains(document.activeElement);
      old.replaceWith(art);
      if (focused && art.querySelector(".crop")) art.querySelector(".crop").focus();  // a new photo, same place
    }
    return;
  }
  const active = document.activeElement && panel.contains(document.activeElement) ? document.activeElement.getAttribute("aria-label") : null;
  const opened = panel.dataset.uid !== String(symbol.uid);
  panel.dataset.uid = String(symbol.uid);
  panel.replaceChildren(title, ...(art ? [art] : []), el("div", { class: "controls" }, ...controls));
  if (active) {
    const again = Array.from(panel.querySelectorAll("[aria-label]")).find((n) => n.getAttribute("aria-label") === active);
    if (again) again.focus();
  } else if (opened && document.activeElement && document.activeElement.closest("#grid")) {
    // Opened from its tile: the panel may be below the window (a phone's, or after many
    // tiles), so it is brought into view and the focus moves to its heading; Close goes back.
    title.tabIndex = -1;
    title.focus({ preventScroll: true });
    panel.scrollIntoView({ block: "nearest" });
    const bar = document.querySelector(".topbar");  // sticky: the heading must not land under it
    const under = bar ? bar.getBoundingClientRect().bottom - title.getBoundingClientRect().top : 0;
    if (under > 0) window.scrollBy(0, -(under + 8));
  }
}
