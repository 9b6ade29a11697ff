// The task page: the live desktop (noVNC through the station's websocket) and the annotator's buttons.
// Anyone else who opens it (a reviewer) watches: view only, no buttons; the station drops her input too.
import RFB from "/novnc/core/rfb.js";
import { post, text, whoami } from "/static/common.js";

const itemId = decodeURIComponent(location.pathname.split("/").pop());
const api = `/api/items/${encodeURIComponent(itemId)}`;
const $ = (id) => document.getElementById(id);
const status = $("status");
const screen = $("screen");
const buttons = Object.fromEntries(["take", "start", "pause", "finish", "giveup", "discard"].map((id) => [id, $(id)]));
const LIVE = ["ready", "recording"];
const RETRY_MS = [500, 1000, 2000, 4000];

let state = "";          // the item's live state, or its status when it has no desktop
let busy = null;         // what an action under way is doing: no button works meanwhile
let note = "";           // the last error, shown until the next action
let paused = false;
let pauseReason = null;
let watching = false;    // not the annotator's page: view only
let rfb = null;          // the live view, while it is open or opening
let wantView = false;    // the desktop should be on screen: a dropped view is reconnected
let retry = null;
let retries = 0;
let epoch = 0;           // bumped by every action and ending: a poll answered before one is stale

function viewState(value) {
  document.body.dataset.vnc = value;
  const lost = $("view-lost");
  lost.hidden = value !== "lost";
  lost.textContent = value !== "lost" ? "" : "The live view was lost: reconnecting…" +
    (state === "recording" ? " Nothing is recorded until it is back." : "");
  show();
}

function stateText() {
  if (state !== "recording") return state;
  if (document.body.dataset.vnc !== "connected") return "recording paused: the live view is not open";
  if (!paused) return "recording";
  return pauseReason === "idle" ? "paused: no input for a while, nothing is recorded. Press Resume to go on."
    : "paused: nothing is recorded";
}

function show(next) {
  if (next !== undefined) state = next;
  const seen = document.body.dataset.vnc === "connected";
  document.body.dataset.state = state;
  document.body.dataset.paused = String(paused);
  buttons.take.disabled = Boolean(busy) || !(state === "pending" || state === "closed");
  buttons.start.disabled = Boolean(busy) || state !== "ready" || !seen;
  // Pause and Resume only on a desktop the annotator sees (the view back resumes what its loss paused).
  buttons.pause.disabled = Boolean(busy) || state !== "recording" || !seen;
  buttons.pause.textContent = paused && seen ? "Resume" : "Pause";
  buttons.finish.disabled = buttons.giveup.disabled = Boolean(busy) || state !== "recording";
  buttons.discard.disabled = Boolean(busy) || !LIVE.includes(state);
  screen.hidden = !LIVE.includes(state);
  status.textContent = busy || note || stateText();
}

// noVNC's own click-to-focus scrolls a tall canvas into view before the click is read,
// so the click lands lower than aimed; the canvas is focused here without scrolling instead.
screen.addEventListener("mousedown", () => {
  const canvas = screen.querySelector("canvas");
  if (canvas) canvas.focus({ preventScroll: true });
}, true);

function connect() {
  wantView = true;
  clearTimeout(retry);
  retry = null;
  if (rfb) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const view = new RFB(screen, `${scheme}://${location.host}${api}/vnc`, { wsProtocols: ["binary"] });
  rfb = view;
  view.viewOnly = watching;
  view.scaleViewport = false;
  view.focusOnClick = false;
  view.addEventListener("connect", () => { if (rfb === view) { retries = 0; viewState("connected"); } });
  view.addEventListener("disconnect", () => {
    if (rfb !== view) return;
    rfb = null;
    if (!wantView) { viewState("disconnected"); return; }
    viewState("lost");
    retry = setTimeout(reconnect, RETRY_MS[Math.min(retries++, RETRY_MS.length - 1)]);
  });
}

function disconnect() {
  wantView = false;
  clearTimeout(retry);
  retry = null;
  const view = rfb;
  rfb = null;
  if (view) view.disconnect();
  viewState("disconnected");
}

async function fetchItem() {
  const response = await fetch(api, { credentials: "same-origin" });
  if (response.status === 401) { location.href = "/signin"; throw new Error("not signed in"); }
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.json();
}

// The view dropped: open it again while the desktop is there; say so when it is gone.
async function reconnect() {
  retry = null;
  if (!wantView) return;
  let item;
  try {
    item = await fetchItem();
  } catch {
    retry = setTimeout(reconnect, RETRY_MS[Math.min(retries++, RETRY_MS.length - 1)]);
    return;  // the station is not answering (restarting, network down): keep trying
  }
  if (!wantView) return;
  if (LIVE.includes(item.live)) { show(item.live); connect(); } else ended(item);
}

function showResult(message, className) {
  const p = document.createElement("p");
  p.id = "outcome";
  if (className) p.className = className;
  p.textContent = message;
  $("result").replaceChildren(p);
  return p;
}

// The desktop went without this page's doing: a station restart, or another tab finished the task.
function ended(item) {
  epoch += 1;
  disconnect();
  paused = false;
  const last = (item.attempts || []).at(-1);
  if (item.status === "done" || item.status === "given_up") {
    showResult(`This task was ${item.status === "done" ? "finished" : "given up"} (in another tab).`);
  } else if (last && last.result === "interrupted") {
    showResult("The station restarted, so this attempt was interrupted. What it recorded is kept; " +
      "open the desktop again for a fresh attempt.", "error");
  } else {
    showResult("The desktop was closed (the station restarted). Open the desktop again to go on.", "error");
  }
  show(item.status);
}

async function act(name, body, doing) {
  epoch += 1;
  busy = doing;
  note = "";
  show();
  try {
    return await post(`${api}/${name}`, body);
  } catch (error) {
    note = `error: ${error.message}`;
    if (error.status === 409 && LIVE.includes(state)) {
      const item = await fetchItem().catch(() => null);
      if (item && !LIVE.includes(item.live)) { note = ""; ended(item); }
    }
    throw error;
  } finally {
    busy = null;
    show();
  }
}

async function load() {
  const [account, response] = await Promise.all([whoami(), fetch(api, { credentials: "same-origin" })]);
  if (!response.ok) { note = "no such task"; show(); return; }
  const item = await response.json();
  watching = item.annotator !== account.name;
  if (watching) {
    $("controls").hidden = $("notes-row").hidden = true;
    const watch = $("watching");
    watch.hidden = false;
    watch.textContent = `View only: this is ${item.annotator}'s task. You watch the desktop; nothing you do here reaches it.`;
  }
  $("title").textContent = `${item.task_id} (repeat ${item.repeat + 1})`;
  $("instruction").textContent = item.instruction;
  paused = Boolean(item.paused && !item.paused_for_viewers);
  pauseReason = item.pause_reason;
  show(item.live || item.status);
  if (LIVE.includes(item.live)) connect();  // a view back resumes a recording its tab's closing paused
}

// The station may pause by itself (no input for --idle-pause seconds), or lose the desktop
// (a restart): look every few seconds. A watcher's page also picks up a desktop opened later.
setInterval(async () => {
  if (busy || !(LIVE.includes(state) || watching)) return;
  const asked = epoch;
  const item = await fetchItem().catch(() => null);
  if (!item || busy || asked !== epoch) return;
  if (LIVE.includes(item.live)) {
    paused = Boolean(item.paused && !item.paused_for_viewers);
    pauseReason = item.pause_reason;
    show(item.live);
    if (!wantView) connect();
  } else if (LIVE.includes(state)) {
    if (!wantView || document.body.dataset.vnc === "connected") ended(item);  // reconnect() says it otherwise
  } else if (watching) {
    show(item.status);
  }
}, 2000);

buttons.take.addEventListener("click", async () => {
  $("result").replaceChildren();  // the last attempt's outcome (a broken desktop, say) is over
  $("done-ok").checked = false;
  const data = await act("take", {}, "building the desktop…");
  if (data.instruction) $("instruction").textContent = data.instruction;
  paused = false;
  show("ready");
  connect();
});
buttons.start.addEventListener("click", async () => { await act("start", {}, "starting…"); paused = false; show("recording"); });
buttons.pause.addEventListener("click", async () => {
  const data = await act("pause", {}, "…");
  paused = data.paused;
  pauseReason = data.item.pause_reason;
  show();
});
function notes() { return $("notes").value || null; }
function done(data) {
  disconnect();
  paused = false;
  show(data.item.status);
  const outcome = data.outcome || {};
  if (outcome.termination === "env_error") {
    showResult(`The desktop broke: ${outcome.reason}. The attempt is kept; open the desktop again for a fresh one.`, "error");
    return;
  }
  const p = showResult(`Evaluator: ${text(outcome.success)}. You said: ${text(outcome.annotator_success)}.` +
    (outcome.disagreement ? " They disagree: a reviewer will look at it." : ""));
  const link = document.createElement("a");
  link.href = `/review/${encodeURIComponent(itemId)}`;
  link.textContent = "Review the episode";
  p.after(link);
}
buttons.finish.addEventListener("click", async () => {
  done(await act("finish", { success: $("done-ok").checked, notes: notes() }, "checking the result…"));
});
buttons.giveup.addEventListener("click", async () => done(await act("give-up", { notes: notes() }, "giving up…")));
buttons.discard.addEventListener("click", async () => { await act("discard", {}, "discarding…"); disconnect(); show("pending"); });
load();
