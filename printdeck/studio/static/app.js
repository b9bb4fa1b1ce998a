// printdeck studio: the page. Plain ES modules, no framework, nothing fetched from elsewhere.
import { STOPPED, call, change, el, store } from "./api.js";
import { setUpArt } from "./art.js";
import { setUpBuild } from "./build.js";
import { setUpHistory } from "./history.js";
import { setUpCardView } from "./cardview.js";
import { setUpPreview } from "./preview.js";
import { setUpSettings } from "./settings.js";
import { setUpSymbols } from "./symbols.js";

const WATCH_MS = 1500; // how often the page asks whether theme.yaml changed outside

let unanswered = 0; // the watch's questions in a row that got no answer at all

const TYPING = "Typing… it is saved when you press Enter or leave the box";

/** Typing a box has not taken in yet (a title typed and no Enter, a tile's name), or words
 *  in the word box not added: closing or reloading the page would lose it. */
function unsavedTyping() {
  const words = document.getElementById("words");
  return Boolean(document.querySelector("[data-typed]")) || Boolean(words && words.value.trim());
}

/** Say what "saved as you go" means while a box is typed in, and ask before the page goes
 *  with typing in it (a reload lost a typed title while the line said everything was saved). */
function watchTyping() {
  const saved = document.getElementById("saved");
  const typedBox = (box) => (box instanceof HTMLInputElement || box instanceof HTMLTextAreaElement)
    && !["file", "checkbox", "range", "color", "search"].includes(box.type)  // taken in at once, or never saved
    && box.id !== "words";  // added by its button: its own words say so
  document.addEventListener("focusin", (e) => {
    if (typedBox(e.target)) e.target.dataset.given = e.target.value;  // what it held: typing back to it is nothing
  });
  document.addEventListener("input", (e) => {
    const box = e.target;
    if (!typedBox(box)) return;
    if (box.value === (box.dataset.given ?? box.defaultValue)) {
      delete box.dataset.typed;
      if (saved.textContent === TYPING) saved.textContent = "";
      return;
    }
    box.dataset.typed = "";
    saved.textContent = TYPING;
    saved.classList.remove("bad");
  });
  document.addEventListener("change", (e) => {
    if (e.target instanceof HTMLElement) delete e.target.dataset.typed;
    if (saved.textContent === TYPING) saved.textContent = "";  // the save says "Saved" when its answer comes
  }, true);
  window.addEventListener("beforeunload", (e) => {
    if (!unsavedTyping()) return;
    e.preventDefault();
    e.returnValue = "";  // the browser's own "Leave page?" question
  });
}

/** Ask the studio whether theme.yaml changed outside the page; take the new state in; say so
 *  once it has not answered twice in a row (stopped), and unsay it when it answers again. */
async function watchFile() {
  const answer = await call("GET", "/api/watch");
  const state = store.state;
  const saved = document.getElementById("saved");
  unanswered = answer.status === 0 ? unanswered + 1 : 0;
  if (unanswered === 2) { // stopped (Ctrl-C in its window): the page said nothing until a click failed
    saved.textContent = STOPPED;
    saved.classList.add("bad");
  } else if (!unanswered && saved.textContent === STOPPED) { // it answers again: nothing was lost
    saved.textContent = "";
    saved.classList.remove("bad");
  }
  if (answer.status === 200 && state) {
    const seen = JSON.stringify(answer.data.outside) !== JSON.stringify(state.outside);
    if (answer.data.epoch !== state.epoch || answer.data.rev > state.rev || seen) {
      const fresh = await call("GET", "/api/state");
      if (fresh.status === 200) {
        store.set(fresh.data.state);
        const saved = document.getElementById("saved");
        if (fresh.data.state.outside.state === "reloaded" && fresh.data.state.rev > state.rev) {
          saved.textContent = fresh.data.state.outside.message;
          saved.classList.remove("bad");
        }
      }
    }
  }
  if (!document.body.dataset.expired) setTimeout(watchFile, WATCH_MS);  // a stale link: nothing more to ask
}

/** An outside edit of theme.yaml that does not load: say so, and offer the two choices. */
function drawOutside(state) {
  const box = document.getElementById("outside");
  const outside = state.outside || { state: "same" };
  box.hidden = outside.state !== "conflict";
  if (box.hidden) { box.replaceChildren(); return; }
  const keep = (which) => change("POST", "/api/outside", { keep: which });
  box.replaceChildren(
    el("p", { text: `theme.yaml was changed outside the studio and does not load. ${outside.words || outside.error}` }),
    el("p", { text: outside.chosen === "file"
      ? "Fix theme.yaml in your editor and save it: the page takes it in as soon as it loads. Nothing is written meanwhile."
      : "Nothing is written over it until you choose." }),
    el("div", { class: "inline" },
      el("button", { type: "button", class: "secondary", text: "Keep the file (I will fix it)", onclick: () => keep("file") }),
      el("button", { type: "button", class: "secondary", text: "Keep the page's settings", onclick: () => keep("page") })));
}

/** A skip link moves the focus to its part of the page (a heading, or the Build button)
 *  and shows it, without changing the address (its #fragment once held the token). */
function setUpSkipLinks() {
  for (const link of document.querySelectorAll(".skips a")) {
    link.addEventListener("click", (e) => {
      const target = document.querySelector(link.getAttribute("href"));
      if (!target) return;
      e.preventDefault();
      target.scrollIntoView({ block: "start" });
      target.focus({ preventScroll: true });
    });
  }
}

/** Keep what the keyboard or a link scrolls to clear of the sticky top bar: the page's
 *  scroll padding follows the bar's height (one line on a desktop, two on a phone, three at
 *  200 % zoom). A focused setting could sit wholly under the bar. */
function keepClearOfTopBar() {
  const bar = document.querySelector(".topbar");
  if (!bar) return;
  const pad = () => { document.documentElement.style.scrollPaddingTop = `${bar.offsetHeight + 8}px`; };
  pad();
  new ResizeObserver(pad).observe(bar);
}

async function start() {
  keepClearOfTopBar();
  setUpSkipLinks();
  setUpSymbols();
  setUpSettings();
  setUpPreview();
  setUpCardView();
  setUpBuild();
  setUpHistory();
  setUpArt();
  store.onChange(drawOutside);
  store.onChange((state) => {
    const folder = document.getElementById("folder");
    folder.textContent = state.folder_shown;
    folder.title = state.folder;
  });
  const answer = await call("GET", "/api/state");
  if (answer.status !== 200) {
    document.getElementById("saved").textContent = answer.data.error || "The studio did not answer.";
    return;
  }
  store.set(answer.data.state);
  document.getElementById("saved").textContent = "Everything is saved as you go";
  watchTyping();
  document.body.dataset.readyMs = String(Math.round(performance.now()));  // since the page was asked for
  document.body.dataset.ready = "true";
  setTimeout(watchFile, WATCH_MS);
}

start();
