// Undo and Redo: the Undo and Redo buttons, Ctrl+Z / Ctrl+Shift+Z (Cmd on macOS; Ctrl+Y
// too), and a status line saying what was undone. The studio keeps the history (every
// saved change is a step: settings, symbols, pictures, crops, the seed, touch-ups, an edit
// of theme.yaml made outside), so the page only asks and draws the answer. In a text box
// the keys are left to the browser's own undo of what is being typed.
import { queueAction, store } from "./api.js";

const MAC = /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
const TEXT_TYPES = new Set(["text", "search", "url", "tel", "email", "password", "number", ""]);

/** Whether the browser's own text undo applies where ``node`` is (a box one types in). */
function typesText(node) {
  if (!node || !node.tagName) return false;
  if (node.isContentEditable || node.tagName === "TEXTAREA") return true;
  return node.tagName === "INPUT" && TEXT_TYPES.has((node.getAttribute("type") || "").toLowerCase());
}

/** A step as the page says it ("Diameter 90 mm → 85 mm": the studio names a setting by
 *  its control's label). */
export function stepWords(step) {
  return step ? step.label : "";
}

function draw(state) {
  const history = state.history || {};
  for (const [id, step, verb] of [["undo", history.undo, "Undo"], ["redo", history.redo, "Redo"]]) {
    const button = document.getElementById(id);
    const had = document.activeElement === button;
    button.disabled = !step;
    button.title = step ? `${verb}: ${stepWords(step)}` : `Nothing to ${verb.toLowerCase()}`;
    if (had && button.disabled) {  // keep the keyboard's place: on the other button, else the top
      const other = document.getElementById(id === "undo" ? "redo" : "undo");
      (other.disabled ? document.getElementById("symbols-h") : other).focus();
    }
  }
}

async function go(which) {
  const history = (store.state && store.state.history) || {};
  const saved = document.getElementById("saved");
  if (!history[which]) {
    saved.textContent = which === "undo" ? "Nothing to undo" : "Nothing to redo";
    saved.classList.remove("bad");
    return;
  }
  const answer = await queueAction("POST", `/api/${which}`);
  const step = answer.data && (answer.data.undone || answer.data.redone);
  if (answer.status === 200 && step) {
    saved.textContent = `${which === "undo" ? "Undid" : "Redid"}: ${stepWords(step)}`;
    saved.classList.remove("bad");
  } else if (answer.status === 409 && answer.data.error) {
    saved.textContent = `Not ${which === "undo" ? "undone" : "redone"}: ${answer.data.error}`;
  }
}

export const undo = () => go("undo");
export const redo = () => go("redo");

export function setUpHistory() {
  document.getElementById("undo").addEventListener("click", undo);
  document.getElementById("redo").addEventListener("click", redo);
  document.addEventListener("keydown", (event) => {
    if (event.altKey || !(event.ctrlKey || event.metaKey) || typesText(event.target)) return;
    const key = event.key.toLowerCase();
    if (key === "z") {
      event.preventDefault();
      if (event.shiftKey) redo(); else undo();
    } else if (key === "y" && !MAC) {
      event.preventDefault();
      redo();
    }
  });
  store.onChange(draw);
}
