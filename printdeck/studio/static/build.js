// Build: printdeck.build of the saved folder, its progress streamed (server-sent events),
// then the command line's summary and the downloads.
import { call } from "./api.js";

const STAGES = { theme: "Checking the theme", design: "Making the design", proof: "Proving every symbol prints",
  layout: "Laying out cards", render: "Drawing the PDF", png: "Drawing the card PNGs" };

function show(event) {
  document.getElementById("progress").value = event.fraction;
  const top = document.getElementById("top-progress");
  top.value = event.fraction;
  top.hidden = Boolean(event.done);
  const topPdf = document.getElementById("top-pdf");
  topPdf.hidden = !(event.done && event.pdf);
  if (event.done && event.pdf) topPdf.href = event.pdf;
  const stage = STAGES[event.stage] || event.stage;
  const steps = event.stage_total ? ` ${event.stage_done} of ${event.stage_total}` : "";
  document.getElementById("build-stage").textContent = event.done
    ? (event.error ? "Stopped" : `Done in ${event.seconds} s`) : `${stage}…${steps}`;
  if (!event.done) return;
  const summary = document.getElementById("summary");
  const lines = [...event.lines, ...(event.warnings || [])];
  summary.hidden = !lines.length;
  summary.textContent = lines.join("\n");
  const error = document.getElementById("build-error");
  error.hidden = !event.error;
  error.textContent = event.error || "";
  const downloads = document.getElementById("downloads");
  downloads.hidden = !event.pdf;
  if (event.pdf) document.getElementById("pdf-link").href = event.pdf;
  const zip = document.getElementById("zip-link");
  zip.hidden = !event.zip;
  if (event.zip) zip.href = event.zip;
  for (const id of ["build", "build-top"]) document.getElementById(id).disabled = false;
  if (event.pdf) document.getElementById("pdf-link").focus({ preventScroll: true });
}

async function build() {
  for (const id of ["build", "build-top"]) document.getElementById(id).disabled = true;
  document.getElementById("downloads").hidden = true;
  document.getElementById("summary").hidden = true;
  document.getElementById("build-error").hidden = true;
  const pngs = document.getElementById("pngs").checked;
  const answer = await call("POST", "/api/builds", { pngs });
  if (answer.status !== 202) {
    show({ done: true, fraction: 0, lines: [], error: answer.data.error || "The build did not start." });
    return;
  }
  show(answer.data);
  const events = new EventSource(`/api/builds/${answer.data.id}/events`);
  events.onmessage = (message) => {
    const event = JSON.parse(message.data);
    show(event);
    if (event.done) events.close();
  };
  events.onerror = () => {
    events.close();
    show({ done: true, fraction: 0, lines: [], error: "Lost touch with the studio during the build." });
  };
}

export function setUpBuild() {
  document.getElementById("build").addEventListener("click", build);
  document.getElementById("build-top").addEventListener("click", () => {
    document.getElementById("build-h").scrollIntoView({ behavior: "smooth", block: "nearest" });
    build();
  });
}
