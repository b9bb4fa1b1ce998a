// The deck settings form: the theme's keys, each saved on change and checked by the
// theme model; a refused value keeps its box red with the command line's words below it.
// Bounds, choices, defaults and deck sizes come from the theme's JSON Schema, served as
// state.form (printdeck/studio/deck_settings.py), and so do the controls' labels (the
// messages name a control by the same label): this file writes only order and choices' words.
import { change, el, patchChildren, queueChange, store } from "./api.js";

const ROTATION_PRESETS = [15, 30, 45, 90];  // degrees offered beside the spec's words, within its maximum

const GROUPS = [
  { title: "Deck", open: true, fields: [
    { key: "deck.symbols_per_card", type: "size" },
    { key: "deck.match", type: "select", labels: { 1: "1 symbol (classic)", 2: "2 symbols" } },
    { key: "deck.cards", type: "number", placeholder: "all" },
    { key: "deck.choose", type: "select", labels: { seeded: "a seeded random choice", first: "the first ones" } },
    { key: "deck.faces", type: "select", labels: { mixed: "one deck, the faces mixed", split: "two decks: A the first faces, B the second" } },
    { key: "seed", type: "number" },
    { key: "deck.copies", type: "number", placeholder: "1" },
    { key: "deck.allow_look_alike", type: "checkbox" },
  ] },
  { title: "Card", open: true, fields: [
    { key: "card.shape", type: "select", labels: { circle: "round", square: "square", rectangle: "rectangle", hexagon: "hexagon" } },
    { key: "card.size", type: "length" },
    { key: "card.diameter", type: "length" },
    { key: "card.corner_radius", type: "length" },
    { key: "card.orientation", type: "select", labels: { pointy: "a corner at the top", flat: "a side at the top" } },
    { key: "card.bleed", type: "length" },
    { key: "card.safe_margin", type: "length" },
    { key: "card.background", type: "color" },
    { key: "card.border_color", type: "optional-color" },
  ] },
  { title: "Layout", fields: [
    { key: "layout.gap", type: "length" },
    { key: "layout.size_ratio", type: "number", step: 0.05 },
    { key: "layout.rotation", type: "select", labels: { any: "any angle", none: "none (upright)" }, presets: ROTATION_PRESETS },
    { key: "layout.rotate_photos", type: "checkbox" },
    { key: "layout.nest", type: "checkbox" },
  ] },
  { title: "Paper", open: true, fields: [
    { key: "paper.size", type: "paper" },
    { key: "paper.layout", type: "select", labels: { sheet: "as many as fit", single: "one (trim + bleed), for print shops" } },
    { key: "paper.margin", type: "length" },
    { key: "paper.gap", type: "length" },
    { key: "paper.cut_marks", type: "checkbox" },
    { key: "paper.cuts", type: "select", labels: { separate: "each card its own bleed", shared: "shared by neighbours (straight edges)" } },
    { key: "paper.cut_guide", type: "select", labels: { auto: "on light cards", true: "always", false: "never" } },
    { key: "paper.registration_marks", type: "checkbox" },
    { key: "paper.punch_ring", type: "checkbox" },
    { key: "paper.centre_mark", type: "checkbox" },
    { key: "paper.cut_files", type: "checkbox" },
    { key: "paper.scale_note", type: "checkbox" },
    { key: "paper.pack", type: "checkbox" },
  ] },
  { title: "Backs", fields: [
    { key: "backs.enabled", type: "checkbox" },
    { key: "backs.color", type: "color" },
    { key: "backs.pattern", type: "select", labels: { title: "the title", rings: "rings", dots: "dots", none: "none" } },
    { key: "backs.image", type: "file", upload: "/api/backs-image", accept: "pictures" },
    { key: "backs.fit", type: "select", labels: { cover: "fill the back", contain: "whole, on the colour" } },
    { key: "backs.size", type: "number", step: 0.05 },
    { key: "backs.duplex", type: "select", labels: { "long-edge": "long edge", "short-edge": "short edge" } },
    { key: "backs.offset_x", type: "length" },
    { key: "backs.offset_y", type: "length" },
  ] },
  { title: "Words: fonts and colours", fields: [
    { key: "text.font", type: "file", upload: "/api/font", accept: "fonts", empty: "chosen for each word's script" },
    { key: "text.colors", type: "colors", wide: true },
    { key: "text.lang", type: "text" },
  ] },
  { title: "Extras", fields: [
    { key: "extras.legend", type: "checkbox" },
    { key: "extras.rules", type: "checkbox" },
    { key: "extras.tuck_box", type: "checkbox" },
    { key: "extras.attribution", type: "text", wide: true },
  ] },
  { title: "About the deck", fields: [
    { key: "title", type: "text" },
    { key: "author", type: "text" },
    { key: "name", type: "text" },
  ] },
];

const ids = (key) => `set-${key.replace(/\./g, "-")}`;

/** Queue a setting's new value; its box stays as typed until the answer comes (and, when
 *  the value is refused, until it is changed again: the error is shown beside it). */
function save(key, value) {
  queueChange("/api/settings", key, value, (answer) => {
    const wrap = document.querySelector(`#settings .field[data-key="${key}"]`);
    if (wrap && answer.status !== 422) delete wrap.dataset.dirty;
  });
}

function shown(value) {
  return value === undefined || value === null ? "" : String(value);
}

function lengthText(mm) {
  return mm === null || mm === undefined ? "" : `${Math.round(mm * 100) / 100}mm`;
}

/** The spec's facts about a key: type, choices, minimum/maximum (lengths in mm), default. */
const specOf = (state, key) => (state.form && state.form.fields[key]) || {};

/** A setting's label as the form description serves it (the key where it gives none). */
export const labelOf = (state, key) => specOf(state, key).label || key;

function textInput(f, state) {
  const given = state.settings[f.key];
  const eff = state.effective[f.key];
  const spec = specOf(state, f.key);
  const placeholder = f.type === "length" ? lengthText(eff) : f.placeholder || shown(eff);
  const input = el("input", {
    type: f.type === "number" ? "number" : "text", id: ids(f.key), value: shown(given), placeholder,
    min: spec.minimum ?? spec.exclusiveMinimum, max: spec.maximum ?? spec.exclusiveMaximum,
    step: f.step || (f.type === "number" ? (spec.type === "integer" ? 1 : "any") : undefined), inputmode: f.type === "length" ? "decimal" : undefined,
    spellcheck: "false",
  });
  input.addEventListener("change", () => {
    const raw = input.value.trim();
    let value = raw === "" ? null : raw;
    if (f.type === "number" && value !== null) value = Number(value);
    if (f.type === "length" && value !== null && /^[+-]?(\d+\.?\d*|\.\d+)$/.test(value)) value = `${value}mm`;
    save(f.key, value);
  });
  return input;
}

/** A select's options: the spec's choices (and presets within its maximum), each with its label. */
function optionsOf(f, state) {
  const spec = specOf(state, f.key);
  const presets = (f.presets || []).filter((v) => spec.maximum === undefined || v <= spec.maximum);
  const label = (v) => (f.labels && f.labels[v]) || (typeof v === "number" && f.presets ? `up to ${v}°` : String(v));
  return [...(spec.choices || []), ...presets].map((v) => [v, label(v)]);
}

function selectInput(f, state) {
  const given = state.settings[f.key];
  const current = shown(given ?? state.effective[f.key]);
  const select = el("select", { id: ids(f.key) }, ...optionsOf(f, state).map(([v, label]) => el("option", { value: String(v), text: label, selected: String(v) === current })));
  select.addEventListener("change", () => {
    const raw = select.value;
    const words = { true: true, false: false };
    save(f.key, /^\d+$/.test(raw) ? Number(raw) : raw in words ? words[raw] : raw);
  });
  return select;
}

function sizeInput(f, state) {
  const match = Number(state.settings["deck.match"] || 1);
  const sizes = state.form.deck_sizes[String(match)];
  const given = state.settings[f.key];
  const auto = state.symbols_per_card && given === undefined ? `: ${state.symbols_per_card} now` : "";
  const select = el("select", { id: ids(f.key) },
    el("option", { value: "", text: `auto${auto}`, selected: given === undefined }),
    ...sizes.map((d) => el("option", { value: String(d.symbols_per_card), selected: Number(given) === d.symbols_per_card, text: `${d.symbols_per_card} a card (${d.cards} cards${match === 1 ? `, order ${d.order}` : ""})` })));
  select.addEventListener("change", () => save(f.key, select.value === "" ? null : Number(select.value)));
  return select;
}

function checkInput(f, state) {
  const value = state.settings[f.key] ?? state.effective[f.key];
  const box = el("input", { type: "checkbox", id: ids(f.key), checked: Boolean(value) });
  box.addEventListener("change", () => save(f.key, box.checked));
  return el("label", { class: "check" }, box, f.label);
}

function colorInput(f, state, optional) {
  const given = state.settings[f.key];
  const value = given ?? state.effective[f.key];
  const picker = el("input", { type: "color", id: ids(f.key), value: value || "#1d3557", "aria-label": f.label });
  picker.addEventListener("change", () => save(f.key, picker.value));
  if (!optional) return el("div", { class: "inline" }, picker, el("code", { class: "hint", text: value || "" }));
  const on = el("input", { type: "checkbox", checked: Boolean(value), "aria-label": `${f.label}: on` });
  on.addEventListener("change", () => save(f.key, on.checked ? picker.value : null));
  return el("div", { class: "inline" }, el("label", { class: "check" }, on, "on"), picker);
}

function paperInput(f, state) {
  const spec = specOf(state, f.key);
  const given = state.settings[f.key] ?? state.effective[f.key] ?? spec.default;
  const custom = Array.isArray(given);
  const names = { a4: "A4", letter: "US Letter", a3: "A3" };
  const select = el("select", { id: ids(f.key) },
    ...[...(spec.choices || []).map((v) => [v, names[v] || v.toUpperCase()]), ["custom", "Custom size…"]].map(([v, t]) =>
      el("option", { value: v, text: t, selected: custom ? v === "custom" : v === String(given).toLowerCase() })));
  const w = el("input", { type: "text", value: custom ? shown(given[0]) : "", placeholder: "210mm", "aria-label": "Paper width" });
  const h = el("input", { type: "text", value: custom ? shown(given[1]) : "", placeholder: "297mm", "aria-label": "Paper height" });
  const sizes = el("div", { class: "inline" }, w, el("span", { text: "×" }), h);
  sizes.hidden = !custom;
  const send = () => {
    const unit = (v) => (/^\d+(\.\d*)?$/.test(v.trim()) ? `${v.trim()}mm` : v.trim());
    if (select.value !== "custom") save(f.key, select.value);
    else if (w.value.trim() && h.value.trim()) save(f.key, [unit(w.value), unit(h.value)]);
  };
  const typed = () => (!w.value.trim() && !h.value.trim() ? save(f.key, null) : send());  // both emptied: the default
  select.addEventListener("change", () => { sizes.hidden = select.value !== "custom"; send(); });
  w.addEventListener("change", typed);
  h.addEventListener("change", typed);
  return el("div", { class: "stack" }, select, sizes);
}

function fileInput(f, state) {
  const given = state.settings[f.key];
  const suffixes = { fonts: state.form.font_suffixes, pictures: state.form.picture_suffixes }[f.accept];
  const accept = suffixes ? suffixes.join(",") : f.accept;
  const input = el("input", { type: "file", accept, class: "visually-hidden", id: ids(f.key), tabindex: "-1" });
  const pick = el("button", { type: "button", class: "secondary", text: given ? "Replace…" : "Choose…", onclick: () => input.click() });
  input.addEventListener("change", async () => {
    if (!input.files.length) return;
    const form = new FormData();
    form.append("file", input.files[0], input.files[0].name);
    await change("POST", f.upload, form);
  });
  const clear = given ? el("button", { type: "button", class: "link", text: "Remove", onclick: () => save(f.key, null) }) : null;
  const what = given ? el("code", { class: "hint", text: given }) : el("span", { class: "hint", text: f.empty || "none" });
  return el("div", { class: "inline wrap file-pick" }, pick, input, what, clear);  // a long file name wraps, Remove below
}

function coloursInput(f, state) {
  const list = state.settings[f.key] ?? state.effective[f.key] ?? [];
  const row = el("div", { class: "inline wrap" });
  list.forEach((colour, i) => {
    const picker = el("input", { type: "color", value: colour, "aria-label": `Word colour ${i + 1}` });
    picker.addEventListener("change", () => { const next = [...list]; next[i] = picker.value; save(f.key, next); });
    row.append(picker);
  });
  row.append(el("button", { type: "button", class: "icon", "aria-label": "Add a word colour", text: "+", onclick: () => save(f.key, [...list, "#333333"]) }));
  if (list.length > 1) row.append(el("button", { type: "button", class: "icon", "aria-label": "Remove the last word colour", text: "−", onclick: () => save(f.key, list.slice(0, -1)) }));
  if (state.settings[f.key]) row.append(el("button", { type: "button", class: "link", text: "Default colours", onclick: () => save(f.key, null) }));
  return row;
}

const MAKERS = { length: textInput, number: textInput, text: textInput, select: selectInput, size: sizeInput, color: (f, s) => colorInput(f, s, false),
  "optional-color": (f, s) => colorInput(f, s, true), paper: paperInput, file: fileInput, colors: coloursInput };

/** Whether a field belongs to the card's shape (a key of another shape shows only when set);
 *  the shapes that have a key come from the library's table, served in state.form. The
 *  faces' setting shows where a symbol has faces (or it is set). */
function fits(f, state, errors) {
  if (f.key === "deck.faces") { // only a deck with a symbol of several faces (a word and its picture) has them
    return (state.symbols || []).some((s) => s.kind === "faces") || state.settings[f.key] !== undefined || Boolean(errors[f.key]);
  }
  const shapes = specOf(state, f.key).shapes;
  if (!shapes) return true;
  const named = state.settings["card.size"] !== undefined;  // a named size may set the shape: show all
  const shape = state.settings["card.shape"] ?? state.effective["card.shape"] ?? (named ? null : "circle");
  return shape === null || shapes.includes(shape) || state.settings[f.key] !== undefined || Boolean(errors[f.key]);
}

function fieldOf(f, state, errors) {
  const error = errors[f.key] || "";
  const errId = `err-${ids(f.key)}`;
  const wrap = el("div", { class: `field${f.wide ? " wide" : ""}${f.type === "checkbox" ? " check-field" : ""}`, "data-key": f.key });
  wrap.hidden = !fits(f, state, errors);
  if (f.type === "checkbox") wrap.append(checkInput(f, state));
  else wrap.append(el("label", { for: ids(f.key), text: f.label }), MAKERS[f.type](f, state));
  const hint = specOf(state, f.key).help;  // the theme spec's description: the page writes none
  if (hint) wrap.append(el("span", { class: "hint", id: `hint-${ids(f.key)}`, text: hint }));
  wrap.append(el("p", { class: "err", id: errId, role: "alert", text: error }));
  const control = wrap.querySelector(`#${ids(f.key)}`);
  if (control) {
    control.setAttribute("aria-describedby", hint ? `hint-${ids(f.key)} ${errId}` : errId);
    if (error) control.setAttribute("aria-invalid", "true");
  }
  return wrap;
}

/** A field kept as the person left it: show its new error (or none) all the same. A file
 *  field holds nothing typed: it shows what is chosen now (its button keeps the focus). */
function keepField(old, fresh) {
  if (fresh.querySelector('input[type="file"]')) {
    const focused = old.contains(document.activeElement);
    old.replaceChildren(...fresh.childNodes);
    delete old.dataset.dirty;
    if (focused) old.querySelector("button")?.focus();
    return;
  }
  const typed = 'input:not([type="checkbox"]):not([type="file"])';
  const inputs = old.querySelectorAll(typed);
  const given = fresh.querySelectorAll(typed);
  const alone = inputs.length === 1 && given.length === 1 && inputs[0] === document.activeElement;
  if (alone && !("dirty" in old.dataset) && inputs[0].value !== given[0].value) {
    inputs[0].value = given[0].value;  // focused, nothing typed: the state's value (a Diameter a Card size replaced)
  }
  const err = old.querySelector(".err");
  const text = fresh.querySelector(".err").textContent;
  if (err.textContent !== text) err.textContent = text;
  const control = old.querySelector("[aria-describedby]");
  if (control && text) control.setAttribute("aria-invalid", "true");
  else if (control) control.removeAttribute("aria-invalid");
  old.hidden = fresh.hidden;
}

/** Errors by setting key: refused values, and the deck's problem when it names a setting. */
function errorsOf(state) {
  const errors = { ...state.field_errors };
  const key = state.problem_key;
  if (key && !key.startsWith("symbols")) {
    const known = groupsOf(state).flatMap((g) => g.fields).find((f) => key === f.key || key.startsWith(`${f.key}.`) || f.key.startsWith(`${key}.`));
    if (known && !errors[known.key]) errors[known.key] = state.problem_words;
  }
  return errors;
}

/** A served setting no group lists (an option added to the spec): a control from its type. */
function generalField(key, spec) {
  const type = (spec.choices || []).length > 1 ? "select" : spec.type === "boolean" ? "checkbox"
    : spec.unit === "mm" ? "length" : spec.type === "integer" || spec.type === "number" ? "number" : "text";
  return { key, type };
}

/** The page's groups, then "More settings" for every served key the groups leave out;
 *  each field with its label as the form description gives it. */
function groupsOf(state) {
  const listed = new Set(GROUPS.flatMap((g) => g.fields.map((f) => f.key)));
  const more = Object.entries((state.form && state.form.fields) || {})
    .filter(([key]) => !listed.has(key)).map(([key, spec]) => generalField(key, spec));
  const labelled = (g) => ({ ...g, fields: g.fields.map((f) => ({ ...f, label: labelOf(state, f.key) })) });
  return (more.length ? [...GROUPS, { title: "More settings", fields: more }] : GROUPS).map(labelled);
}

function groupOf(g, state, errors, open) {
  const details = el("details", { class: "group", "data-title": g.title, open },
    el("summary", { text: g.title }));
  details.append(el("div", { class: "fields" }, ...g.fields.map((f) => fieldOf(f, state, errors))));
  return details;
}

/** Draw the settings. A field with the focus, or changed and not yet answered, is never
 *  redrawn (only its error is): typing goes on while answers come; the others show the
 *  state. The open groups stay open; a group with an error opens. */
export function drawSettings(state) {
  const form = document.getElementById("settings");
  const errors = errorsOf(state);
  const groups = groupsOf(state);
  const drawn = Array.from(form.children);
  const sameGroups = drawn.length === groups.length && drawn.every((d, i) => d.dataset.title === groups[i].title);
  if (sameGroups) {
    const patched = groups.every((g, i) => {
      const box = drawn[i].querySelector(".fields");
      return patchChildren(box, g.fields.map((f) => fieldOf(f, state, errors)), keepField);
    });
    if (patched) {
      groups.forEach((g, i) => { if (g.fields.some((f) => errors[f.key])) drawn[i].open = true; });
      return;
    }
  }
  const open = new Set(drawn.filter((d) => d.open).map((d) => d.dataset.title));
  const first = !drawn.length;
  const active = document.activeElement && form.contains(document.activeElement) ? document.activeElement.id : null;
  form.replaceChildren(...groups.map((g) => groupOf(g, state, errors,
    (first ? g.open : open.has(g.title)) || g.fields.some((f) => errors[f.key]))));
  if (active) { const again = document.getElementById(active); if (again) again.focus(); }
}

export function setUpSettings() {
  store.onChange((state) => drawSettings(state));
  const form = document.getElementById("settings");
  form.addEventListener("submit", (e) => e.preventDefault());
  form.addEventListener("input", (e) => {
    const wrap = e.target.closest && e.target.closest(".field[data-key]");
    if (wrap && e.target.type !== "file") wrap.dataset.dirty = "";  // a chosen file is saved, not typed
  });
}
