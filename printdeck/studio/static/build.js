// Build: printdeck.build of the saved folder, its progress streamed (server-sent events),
// then the command line's summary and the downloads (fetched with the token, as blobs).
import { authHeaders, call, download, store } from "./api.js";

const STAGES = { theme: "Checking the theme", design: "Making the design", proof: "Proving every symbol prints",
  layout: "Laying out cards", render: "Drawing the PDF", png: "Drawing the card PNGs",
  slides: "Drawing the slides" };
const BUTTONS = ["build", "build-top", "slides"];
let building = false;
let built = null; // the last build that wrote the cards' PDF: its event (``rev``: the deck it read)

/** Offer the last build's PDF as the deck's only while the deck is the one it read: after a
 *  change the top bar's Download (an older deck's PDF, round cards after poker ones were
 *  chosen) goes, Build PDF staying, and the build's own link says it is an older PDF. */
function drawOutdated() {
  const older = Boolean(built && store.state && built.rev != null && store.state.rev !== built.rev);
  document.getElementById("top-pdf").hidden = !built || older;
  document.getElementById("pdf-outdated").hidden = !older;
}
const LOST = "Lost touch with the studio during the build: if it stopped, start `printdeck studio` again and build.";

/** Mark the build buttons busy (``aria-disabled``, not ``disabled``: a disabled button drops
 *  the keyboard's focus to the page's top, and a teacher on the keyboard lost her place). */
function setBusy(busy) {
  building = busy;
  for (const id of BUTTONS) document.getElementById(id).setAttribute("aria-disabled", String(busy));
}

function show(event, { resumed = false } = {}) {
  document.getElementById("progress").value = event.fraction;
  const top = document.getElementById("top-progress");
  top.value = event.fraction;
  top.hidden = Boolean(event.done);
  if (!event.slides) built = event.done && event.pdf ? event : null;  // slides leave the cards' PDF offered
  if (built) document.getElementById("top-pdf").href = built.pdf;
  drawOutdated();
  const stage = STAGES[event.stage] || event.stage;
  const steps = event.stage_total ? ` ${event.stage_done} of ${event.stage_total}` : "";
  const finished = event.error ? "Stopped" : `Done in ${event.seconds} s`;
  document.getElementById("build-stage").textContent = event.done
    ? (resumed ? `Last build: ${finished.toLowerCase()}` : finished) : `${stage}…${steps}`;
  if (!event.done) return;
  const summary = document.getElementById("summary");
  const lines = [...event.lines, ...(event.warnings || [])];
  summary.hidden = !lines.length;
  summary.textContent = lines.join("\n");
  const error = document.getElementById("build-error");
  error.hidden = !event.error;
  error.textContent = event.error_words || event.error || "";
  showDownloads(event);
  setBusy(false);
  if (resumed) return; // a page opened after the build: nothing moves or takes the keyboard
  const onBuild = BUTTONS.includes(document.activeElement && document.activeElement.id);
  if (event.pdf && onBuild) { // the keyboard goes on to the download, in sight (it was off screen)
    const link = document.getElementById("pdf-link");
    link.focus({ preventScroll: true });
    const hint = document.getElementById("print-hint"); // how to print it, in sight with it
    bringIntoSight(hint.hidden ? link : hint);
  }
  if (event.error && onBuild) error.focus({ preventScroll: true }); // read where it is, scrolled to below
  // a refusal is read where it is: on a phone the Build heading sat at the screen's foot, the message below it
  if (event.error) bringIntoSight(error);
}

/** A finished build's downloads: its PDF, its card PNGs, and for a PDF with card backs the
 *  edge to flip the paper on (``print_hint``, the build's own words). */
function showDownloads(event) {
  document.getElementById("downloads").hidden = !event.pdf;
  const link = document.getElementById("pdf-link");
  if (event.pdf) link.href = event.pdf;
  link.textContent = event.slides ? "Download slides" : "Download PDF";  // a teacher printing cards must not get slides
  const zip = document.getElementById("zip-link");
  zip.hidden = !event.zip;
  if (event.zip) zip.href = event.zip;
  const hint = document.getElementById("print-hint");
  hint.hidden = !(event.pdf && event.print_hint);
  hint.textContent = event.print_hint || "";
}

/** Scroll ``node`` into sight, smoothly. The preview redrawn at the same time (a sheet
 *  failing, or drawn for the settings just changed) moves the page, which can stop a smooth
 *  scroll short: look again once it has had its time, and finish it at once. */
function bringIntoSight(node) {
  node.scrollIntoView({ behavior: "smooth", block: "nearest" });
  setTimeout(() => {
    const box = node.getBoundingClientRect();
    if (!node.hidden && (box.top < 0 || box.bottom > innerHeight)) node.scrollIntoView({ block: "nearest" });
  }, 1000);
}

async function build(slides = false) {
  if (building) return;
  setBusy(true);
  document.getElementById("downloads").hidden = true;
  document.getElementById("print-hint").hidden = true;
  if (!slides) built = null; // the last build's PDF, gone as this one starts (slides are another file)
  drawOutdated();
  document.getElementById("summary").hidden = true;
  document.getElementById("build-error").hidden = true;
  const pngs = document.getElementById("pngs").checked;
  const answer = await call("POST", "/api/builds", slides ? { slides: true } : { pngs });
  if (answer.status !== 202) {
    show({ done: true, fraction: 0, lines: [], error: answer.data.error || "The build did not start." });
    return;
  }
  show(answer.data);
  try {
    await follow(`/api/builds/${answer.data.id}/events`, show);
  } catch (err) {
    show({ done: true, fraction: 0, lines: [], error: LOST });
  }
}

/** Read a stream of server-sent events (an EventSource cannot send the token header),
 *  handing each event to `onEvent` until one says it is done. */
export async function follow(url, onEvent) {
  const response = await fetch(url, { headers: authHeaders(), credentials: "omit" });
  if (!response.ok || !response.body) throw new Error(`Error ${response.status}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the stream ended");
    buffer += value;
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const lines = buffer.slice(0, cut).split("\n");
      buffer = buffer.slice(cut + 2);
      const data = lines.filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).join("\n");
      if (!data) continue;
      const event = JSON.parse(data);
      onEvent(event);
      if (event.done) { reader.cancel().catch(() => {}); return; }
    }
  }
}

/** A link that downloads its href with the token instead of opening it. */
function downloadOnClick(id) {
  document.getElementById(id).addEventListener("click", (e) => {
    e.preventDefault();
    download(e.currentTarget.getAttribute("href"));
  });
}

/** A page opened, or reloaded, while a build runs follows it: its progress to the end, then
 *  its summary and downloads. One opened after a build ended shows that build's summary and
 *  downloads as the last build's, where they are, without moving the page. */
async function resumeBuild() {
  const answer = await call("GET", "/api/builds");
  const latest = answer.status === 200 ? answer.data.latest : null;
  if (!latest) return;
  if (latest.slides && answer.data.cards) {  // the cards' PDF built before the slides: still offered on top
    built = answer.data.cards;
    document.getElementById("top-pdf").href = built.pdf;
    drawOutdated();
  }
  if (latest.done) {
    show(latest, { resumed: true });
    return;
  }
  setBusy(true);
  show(latest);
  try {
    await follow(`/api/builds/${latest.id}/events`, show);
  } catch (err) {
    show({ done: true, fraction: 0, lines: [], error: LOST });
  }
}

export function setUpBuild() {
  store.onChange(drawOutdated);
  resumeBuild();
  for (const id of ["top-pdf", "pdf-link", "zip-link"]) downloadOnClick(id);
  document.getElementById("build").addEventListener("click", () => build());
  document.getElementById("slides").addEventListener("click", () => build(true));
  document.getElementById("build-top").addEventListener("click", () => {
    if (building) return;
    document.getElementById("build-h").scrollIntoView({ behavior: "smooth", block: "nearest" });
    build();
  });
}
