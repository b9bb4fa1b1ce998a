// The selected symbol's controls: size, keep upright, and for photos the crop
// (click the photo where the crop should centre), zoom, shape and background removal.
import { change, el, store } from "./api.js";

function send(symbol, changes) {
  return change("PATCH", `/api/symbols/${symbol.uid}`, { changes });
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

function slider(symbol, key, value, min, max, step, label, hint) {
  const out = el("output", { text: `${Number(value).toFixed(2)}×` });
  const range = el("input", {
    type: "range", min, max, step, value, "aria-label": label,
    oninput: (e) => { out.textContent = `${Number(e.target.value).toFixed(2)}×`; },
    onchange: (e) => send(symbol, { [key]: Number(e.target.value) }),
  });
  return el("div", { class: "field" }, el("span", { class: "label", text: label }), el("div", { class: "inline" }, range, out),
    hint ? el("span", { class: "hint", text: hint }) : null);
}

function upright(symbol, state) {
  const photosTurn = state.effective["layout.rotate_photos"];
  const defaultTurns = symbol.kind === "photo" ? Boolean(photosTurn) : true;
  const turns = symbol.rotate === null || symbol.rotate === undefined ? defaultTurns : symbol.rotate;
  return checkbox("Keep upright (never turned on the card)", !turns, (e) => {
    const wanted = !e.target.checked;
    send(symbol, { rotate: wanted === defaultTurns ? null : wanted });
  });
}

/** The photo with its crop drawn over it; a click (or the arrow keys) moves the crop's centre. */
function cropper(symbol) {
  const img = el("img", { picture: symbol.thumb, alt: `Photo of ${symbol.name}: click where the crop should centre` });
  const ring = el("div", { class: "ring" });
  const dot = el("div", { class: "dot" });
  const box = el("div", {
    class: "crop", tabindex: "0", role: "button",
    "aria-label": `Crop of ${symbol.name}: click the photo, or use the arrow keys, to centre the crop`,
  }, img, ring, dot);
  const focus = symbol.focus || [0.5, 0.5];
  const place = () => {
    const w = img.naturalWidth || 1;
    const h = img.naturalHeight || 1;
    const side = Math.min(w, h) / (symbol.zoom || 1);
    const cx = Math.min(Math.max(focus[0] * w, side / 2), w - side / 2);
    const cy = Math.min(Math.max(focus[1] * h, side / 2), h - side / 2);
    Object.assign(ring.style, {
      left: `${((cx - side / 2) / w) * 100}%`, top: `${((cy - side / 2) / h) * 100}%`,
      width: `${(side / w) * 100}%`, height: `${(side / h) * 100}%`,
      borderRadius: symbol.shape === "rounded" ? `${store.state.form.photo_corner_fraction * 100}%` : "50%",
    });
    Object.assign(dot.style, { left: `${focus[0] * 100}%`, top: `${focus[1] * 100}%` });
    dot.hidden = !symbol.focus;
  };
  img.addEventListener("load", place);
  if (img.complete) place();
  box.addEventListener("click", (e) => {
    const rect = img.getBoundingClientRect();
    const fx = Math.min(Math.max((e.clientX - rect.left) / rect.width, 0), 1);
    const fy = Math.min(Math.max((e.clientY - rect.top) / rect.height, 0), 1);
    send(symbol, { focus: [round(fx), round(fy)] });
  });
  box.addEventListener("keydown", (e) => {
    const step = { ArrowLeft: [-0.03, 0], ArrowRight: [0.03, 0], ArrowUp: [0, -0.03], ArrowDown: [0, 0.03] }[e.key];
    if (!step) return;
    e.preventDefault();
    send(symbol, { focus: [round(clamp(focus[0] + step[0])), round(clamp(focus[1] + step[1]))] });
  });
  return box;
}

const clamp = (v) => Math.min(Math.max(v, 0), 1);
const round = (v) => Math.round(v * 1000) / 1000;

function photoControls(symbol) {
  const shapes = store.state.form.photo_shapes;  // the spec's crops; the first is the default
  const names = { circle: "Circle", rounded: "Rounded square" };
  const shape = el("select", { onchange: (e) => send(symbol, { shape: e.target.value === shapes[0] ? null : e.target.value }) },
    ...shapes.map((v) => el("option", { value: v, text: names[v] || v, selected: symbol.shape === v })));
  return [
    slider(symbol, "zoom", symbol.zoom, 1, 4, 0.05, "Zoom (crop closer)"),
    field("Crop shape", shape),
    checkbox("Remove a plain background", symbol.remove_background, (e) => send(symbol, { remove_background: e.target.checked || null })),
    el("div", { class: "inline" },
      el("span", { class: "hint", text: symbol.focus ? `Crop centred at ${Math.round(symbol.focus[0] * 100)}%, ${Math.round(symbol.focus[1] * 100)}%` : "Crop centred on the faces found (or the middle)" }),
      symbol.focus ? el("button", { type: "button", class: "link", text: "Reset", onclick: () => send(symbol, { focus: null }) }) : null),
  ];
}

function wordControls(symbol) {
  const text = el("input", { type: "text", value: symbol.text, maxlength: "40", onchange: (e) => send(symbol, { text: e.target.value }) });
  const colour = el("input", { type: "color", value: symbol.color || "#1a1a1a", onchange: (e) => send(symbol, { color: e.target.value }) });
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

/** Draw the selected symbol's controls (or hide them). */
export function drawDetail(state) {
  const panel = document.getElementById("detail");
  const symbol = state.symbols.find((s) => s.uid === store.selected);
  if (!symbol) { panel.hidden = true; panel.replaceChildren(); return; }
  const active = document.activeElement && panel.contains(document.activeElement) ? document.activeElement.getAttribute("aria-label") : null;
  panel.hidden = false;
  panel.className = `detail${symbol.kind === "text" ? " word" : ""}`;
  const kinds = { photo: "photo", image: "picture", text: "word", folder: "folder of pictures", faces: "one symbol, several faces" };
  const title = el("h3", { id: "detail-h" },
    el("span", {}, symbol.name, el("span", { class: "detail-kind", text: `${kinds[symbol.kind]}${symbol.file ? ` · ${symbol.file}` : ""}` })),
    el("button", { type: "button", class: "link", text: "Close", onclick: () => { store.selected = null; store.set(state); } }));
  const art = symbol.kind === "photo" ? cropper(symbol)
    : symbol.kind === "text" || !symbol.thumb ? null : el("div", { class: "preview-art" }, el("img", { picture: symbol.thumb, alt: symbol.name }));
  const faces = symbol.kind === "faces";
  const controls = el("div", { class: "controls" },
    ...(symbol.kind === "text" ? wordControls(symbol) : []),
    faces ? null : slider(symbol, "scale", symbol.scale, 0.5, 2, 0.05, "Size on the cards", "1× is the size the layout gives it"),
    faces ? null : upright(symbol, state),
    ...(symbol.kind === "photo" ? photoControls(symbol) : []),
    ...faceControls(symbol, state),
    symbol.warning ? el("p", { class: "notice", text: `${symbol.warning_detail}; printdeck refuses to build them (or warns, with allow_look_alike).`, role: "note" }) : null,
    symbol.error ? el("p", { class: "problem", text: symbol.error, role: "alert" }) : null);
  panel.replaceChildren(title, ...(art ? [art] : []), controls);
  if (active) {
    const again = Array.from(panel.querySelectorAll("[aria-label]")).find((n) => n.getAttribute("aria-label") === active);
    if (again) again.focus();
  }
}
