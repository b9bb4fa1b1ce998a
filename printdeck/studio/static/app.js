// printdeck studio: the page. Plain ES modules, no framework, nothing fetched from elsewhere.
import { call, store } from "./api.js";
import { setUpBuild } from "./build.js";
import { setUpPreview } from "./preview.js";
import { setUpSettings } from "./settings.js";
import { setUpSymbols } from "./symbols.js";

async function start() {
  setUpSymbols();
  setUpSettings();
  setUpPreview();
  setUpBuild();
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
  document.body.dataset.readyMs = String(Math.round(performance.now()));  // since the page was asked for
  document.body.dataset.ready = "true";
}

start();
