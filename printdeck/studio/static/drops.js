// Pictures and words coming in: dropped or chosen files sent in batches and followed through
// their checks, typed word lists, and how each drop went.
import { call, change, sayWithRedTiles, store } from "./api.js";
import { follow } from "./build.js";

const BATCH_FILES = 100;
const BATCH_BYTES = 120e6; // the studio takes at most 200 MB a request

/** Split files into batches of at most BATCH_FILES files and about BATCH_BYTES bytes. */
function batches(files) {
  const out = [[]];
  let bytes = 0;
  for (const file of files) {
    const last = out[out.length - 1];
    if (last.length && (last.length >= BATCH_FILES || bytes + file.size > BATCH_BYTES)) {
      out.push([]);
      bytes = 0;
    }
    out[out.length - 1].push(file);
    bytes += file.size;
  }
  return out;
}

/** A new name for one drop of files or list of words (earlier drops' refused tiles then go). */
function newDrop() {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

let following = false; // this page follows a drop's checks (set from the first batch sent)

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** Send pictures to the studio (in batches, each answered as soon as it is written), then
 *  follow their check file by file (server-sent events); refused ones become red tiles.
 *  ``faceOf``: the uid of the symbol one picture is dropped on, to become its face (never a
 *  symbol of its own first: "cat.png" dropped on the word "cat" was refused as a second cat). */
export async function sendFiles(fileList, faceOf = null) {
  const files = Array.from(fileList);
  if (!files.length) return;
  const note = document.getElementById("busy");
  const bar = document.getElementById("check-progress");
  const total = { added: 0, refused: 0 };
  const drop = newDrop(); // the batches of one drop keep each other's refused tiles
  const jobs = [];
  let sent = 0;
  let failed = "";
  following = true; // from the first batch sent: a state answer must not start a second follower
  bar.hidden = false;
  bar.value = 0;
  for (const batch of batches(files)) {
    note.textContent = `Sending ${sent + batch.length} of ${plural(files.length, "picture")}…`;
    const form = new FormData();
    form.append("drop", drop);
    for (const file of batch) form.append("files", file, file.name);
    const answer = await call("POST", faceOf === null ? "/api/files" : `/api/files?face_of=${faceOf}`, form);
    if (answer.status !== 202) {
      failed = `${batch.map((f) => f.name).join(", ")}: ${answer.data.words || answer.data.error || "not added"}`;
      break;
    }
    jobs.push(answer.data.check.id);
    sent += batch.length;
  }
  const checkFailed = await followChecks(jobs, files.length, total); // the batches sent are checked all the same
  await finishChecks(failed || checkFailed, total);
}

/** Follow check jobs (by id, in order) to their end, showing each file as it is checked
 *  (n of ``files``); counts the added and refused files into ``total``; "" or what failed. */
async function followChecks(ids, files, total) {
  const note = document.getElementById("busy");
  const bar = document.getElementById("check-progress");
  bar.hidden = false;
  document.getElementById("grid-empty").textContent = "Checking the pictures…";
  let before = 0; // files of the jobs already followed
  for (const id of ids) {
    let last = null;
    try {
      await follow(`/api/checks/${id}/events`, (event) => {
        last = event;
        const n = Math.min(files, before + event.checked + (event.file ? 1 : 0));
        bar.value = (before + event.checked) / files;
        if (!event.done) note.textContent = event.file ? `Checking ${event.file} (${n} of ${files})…` : `Checking ${n} of ${files}…`;
      });
    } catch (err) {
      return "Lost touch with the studio while checking the pictures; reload the page";
    }
    if (!last) return "Lost touch with the studio while checking the pictures; reload the page";
    if (last.error) return last.error;
    before += last.total;
    for (const result of last.results) total[result.ok ? "added" : "refused"] += 1;
  }
  return "";
}

/** The new tiles and the sheet once every batch is in (a sheet of half the drop would be
 *  drawn for nothing), then how the drop went. */
async function finishChecks(failed, total) {
  const note = document.getElementById("busy");
  const empty = document.getElementById("grid-empty");
  empty.textContent = empty.dataset.idle;
  following = false;
  const fresh = await call("GET", "/api/state");
  if (fresh.status === 200) store.set(fresh.data.state);
  document.getElementById("check-progress").hidden = true;
  if (failed) { note.textContent = failed; return; }
  if (total.added) {  // the pictures are in theme.yaml: the top line no longer tells of an earlier step
    const saved = document.getElementById("saved");
    saved.textContent = "Saved to theme.yaml ✓";
    saved.classList.remove("bad");
  }
  dropNote(note, `Added ${plural(total.added, "picture")}`, total.refused);
}

/** How a drop went: what was added and, while their red tiles show, where the refused
 *  ones are (see `forgetRedTiles`). */
function dropNote(note, added, refused) {
  if (refused) sayWithRedTiles(`${added}; ${refused} refused (see the red tiles)`, `${added}; ${refused} refused.`);
  else note.textContent = `${added}.`;
}

/** A page opened (or reloaded) while pictures are checked follows the check to its end. */
export async function resumeChecks(checking) {
  if (following || !checking) return;
  following = true;
  const total = { added: 0, refused: 0 };
  await finishChecks(await followChecks(checking.jobs, checking.total, total), total);
}

/** How a list of words went: added, joined to a symbol of that name as its face
 *  ("lion = शेर" beside the picture lion), refused. */
function report(answer, what) {
  const note = document.getElementById("busy");
  const results = (answer.data && answer.data.results) || [];
  const joined = results.filter((r) => r.ok && r.joined).length;
  const added = results.filter((r) => r.ok).length - joined;
  const refused = results.length - added - joined;
  const faces = joined ? `; ${plural(joined, "word")} given to ${joined === 1 ? "its symbol" : "their symbols"} as a face` : "";
  if (answer.status !== 200) note.textContent = answer.data.words || answer.data.error || "Nothing was added.";
  else dropNote(note, `Added ${added} ${what}${added === 1 ? "" : "s"}${faces}`, refused);
}

export function setUpDropzone() {
  const zone = document.getElementById("dropzone");
  const input = document.getElementById("file-input");
  zone.addEventListener("click", () => input.click());
  zone.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); input.click(); }
  });
  input.addEventListener("change", () => { sendFiles(input.files); input.value = ""; });
  for (const type of ["dragenter", "dragover"]) {
    zone.addEventListener(type, (e) => {
      if (!e.dataTransfer || !Array.from(e.dataTransfer.types).includes("Files")) return;
      e.preventDefault();
      zone.classList.add("over");
    });
  }
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (e) => {
    e.preventDefault();
    zone.classList.remove("over");
    if (e.dataTransfer && e.dataTransfer.files.length) sendFiles(e.dataTransfer.files);
  });
  // A picture dropped anywhere else must not make the browser leave the page.
  window.addEventListener("dragover", (e) => e.preventDefault());
  window.addEventListener("drop", (e) => e.preventDefault());
}

export function setUpWords() {
  const form = document.getElementById("words-form");
  const box = document.getElementById("words");
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (!box.value.trim()) return;
    const answer = await change("POST", "/api/words", { text: box.value, drop: newDrop() });
    report(answer, "word");
    if (answer.status === 200) box.value = "";
  });
  box.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) form.requestSubmit();
  });
}
