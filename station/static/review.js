// The review page: Accept / Reject (reviewers) and the edits (POST /api/items/ID/edit, then a reload).
import { post } from "/static/common.js";

const itemId = document.getElementById("item").dataset.item;
const status = document.getElementById("edit-status");

async function decide(decision) {
  const notes = document.getElementById("review-notes").value || null;
  const data = await post(`/api/items/${encodeURIComponent(itemId)}/review`, { decision, notes });
  document.getElementById("decision").textContent = `${data.item.review.decision} by ${data.item.review.by}`;
}

async function edit(body) {
  status.textContent = "";
  try {
    await post(`/api/items/${encodeURIComponent(itemId)}/edit`, body);
  } catch (error) {
    status.textContent = `Not changed: ${error.message}`;
    return;
  }
  location.reload();
}

function field(root, name) {
  return root.querySelector(`[data-field="${name}"]`).value;
}

for (const button of document.querySelectorAll("#accept, #reject")) {
  button.addEventListener("click", () => decide(button.id));
}

for (const step of document.querySelectorAll("li.step[data-step]")) {
  const index = Number(step.dataset.step);
  for (const button of step.querySelectorAll("button[data-op]")) {
    const op = button.dataset.op;
    button.addEventListener("click", () => {
      if (op === "delete") edit({ op, steps: [index] });
      else if (op === "merge") edit({ op, step: index });
      else if (op === "mistake") edit({ op, step: index, value: button.dataset.value === "true" });
      else if (op === "set_text") edit({ op, step: index, text: field(step, "text") });
      else if (op === "note") edit({ op, step: index, text: field(step, "note") });
    });
  }
}

document.getElementById("trim").addEventListener("click", () => {
  // The page numbers steps from 1 and both ends are kept; the API keeps [start, end) from 0.
  const firstInput = document.getElementById("trim-first");
  const first = Number(firstInput.value);
  const last = Number(document.getElementById("trim-last").value);
  const steps = Number(firstInput.max);
  if (!Number.isInteger(first) || !Number.isInteger(last) || first < 1 || last < first || last > steps) {
    status.textContent = `Not changed: keep steps from a first to a last step, both between 1 and ${steps}, the first not after the last`;
    return;
  }
  edit({ op: "trim", start: first - 1, end: last });
});
document.getElementById("save-notes").addEventListener("click", () =>
  edit({ op: "notes", text: field(document, "episode-notes") }));
for (const id of ["undo", "reset"]) {
  const button = document.getElementById(id);
  if (button) button.addEventListener("click", () => edit({ op: id }));
}
