import RFB from "/novnc/core/rfb.js";
import { post, text } from "/static/common.js";

const itemId = decodeURIComponent(location.pathname.split("/").pop());
const api = `/api/items/${encodeURIComponent(itemId)}`;
const status = document.getElementById("status");
const buttons = Object.fromEntries(["take", "start", "pause", "finish", "giveup", "discard"].map((id) => [id, document.getElementById(id)]));
let rfb = null;

function show(state) {
  status.textContent = state;
  buttons.take.disabled = state !== "pending" && state !== "closed";
  buttons.start.disabled = state !== "ready";
  for (const id of ["pause", "finish", "giveup"]) buttons[id].disabled = state !== "recording";
  buttons.discard.disabled = state !== "recording" && state !== "ready";
  document.body.dataset.state = state;
}

function connect() {
  if (rfb) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  rfb = new RFB(document.getElementById("screen"), `${scheme}://${location.host}${api}/vnc`, { wsProtocols: ["binary"] });
  rfb.scaleViewport = false;
  // noVNC's own click-to-focus scrolls a tall canvas into view before the click is read,
  // so the click lands lower than aimed; focus it here without scrolling instead.
  rfb.focusOnClick = false;
  const screen = document.getElementById("screen");
  screen.addEventListener("mousedown", () => {
    const canvas = screen.querySelector("canvas");
    if (canvas) canvas.focus({ preventScroll: true });
  }, true);
  rfb.addEventListener("connect", () => { document.body.dataset.vnc = "connected"; });
  rfb.addEventListener("disconnect", () => { document.body.dataset.vnc = "disconnected"; rfb = null; });
}

function disconnect() { if (rfb) { rfb.disconnect(); rfb = null; } }

async function act(name, body, busy) {
  status.textContent = busy;
  try {
    return await post(`${api}/${name}`, body);
  } catch (error) {
    status.textContent = `error: ${error.message}`;
    throw error;
  }
}

function showPause(paused, reason) {
  buttons.pause.textContent = paused ? "Resume" : "Pause";
  document.body.dataset.paused = String(paused);
  if (document.body.dataset.state !== "recording") return;
  status.textContent = !paused ? "recording"
    : reason === "idle" ? "paused: no input for a while, nothing is recorded. Press Resume to go on."
    : "paused: nothing is recorded";
}

async function load() {
  const response = await fetch(api, { credentials: "same-origin" });
  if (!response.ok) { status.textContent = "no such task"; return; }
  const item = await response.json();
  document.getElementById("title").textContent = `${item.task_id} (repeat ${item.repeat + 1})`;
  document.getElementById("instruction").textContent = item.instruction;
  show(item.live || item.status);
  if (item.live === "ready" || item.live === "recording") connect();  // a view back resumes a recording its tab's closing paused
  if (item.paused && !item.paused_for_viewers) showPause(true, item.pause_reason);
}

// While recording, the station may pause by itself (no input for --idle-pause seconds): show it.
setInterval(async () => {
  if (document.body.dataset.state !== "recording") return;
  const response = await fetch(api, { credentials: "same-origin" });
  if (!response.ok) return;
  const item = await response.json();
  if (item.live === "recording" && item.paused !== (document.body.dataset.paused === "true")) showPause(item.paused, item.pause_reason);
}, 2000);

buttons.take.addEventListener("click", async () => {
  const data = await act("take", {}, "building the desktop…");
  if (data.instruction) document.getElementById("instruction").textContent = data.instruction;
  show("ready");
  connect();
});
buttons.start.addEventListener("click", async () => { await act("start", {}, "starting…"); show("recording"); });
buttons.pause.addEventListener("click", async () => {
  const data = await act("pause", {}, "…");
  showPause(data.paused, data.item.pause_reason);
});
function notes() { return document.getElementById("notes").value || null; }
function done(data) {
  disconnect();
  show(data.item.status);
  const outcome = data.outcome || {};
  const result = document.getElementById("result");
  result.replaceChildren();
  const p = document.createElement("p");
  p.id = "outcome";
  if (outcome.termination === "env_error") {
    p.className = "error";
    p.textContent = `The desktop broke: ${outcome.reason}. The attempt is kept; open the desktop again for a fresh one.`;
    result.append(p);
    return;
  }
  p.textContent = `Evaluator: ${text(outcome.success)}. You said: ${text(outcome.annotator_success)}.` +
    (outcome.disagreement ? " They disagree: a reviewer will look at it." : "");
  const link = document.createElement("a");
  link.href = `/review/${encodeURIComponent(itemId)}`;
  link.textContent = "Review the episode";
  result.append(p, link);
}
buttons.finish.addEventListener("click", async () => {
  done(await act("finish", { success: document.getElementById("done-ok").checked, notes: notes() }, "checking the result…"));
});
buttons.giveup.addEventListener("click", async () => done(await act("give-up", { notes: notes() }, "giving up…")));
buttons.discard.addEventListener("click", async () => { await act("discard", {}, "discarding…"); disconnect(); show("pending"); });
load();
