import { cell, post, text, whoami } from "/static/common.js";

async function load() {
  const account = await whoami();
  document.getElementById("who").textContent = `signed in as ${account.name} (${account.role})`;
  const data = await (await fetch("/api/items", { credentials: "same-origin" })).json();
  const body = document.querySelector("#items tbody");
  body.replaceChildren();
  for (const item of data.items) {
    const row = document.createElement("tr");
    row.dataset.item = item.item_id;
    cell(row, item.item_id);
    cell(row, item.task_id);
    cell(row, String(item.repeat + 1));
    cell(row, item.annotator);
    cell(row, item.live ? `${item.status} (${item.live})` : item.status);
    cell(row, item.outcome ? text(item.outcome.success) : "");
    const said = item.outcome ? text(item.outcome.annotator_success) + (item.outcome.disagreement ? " (disagrees!)" : "") : "";
    cell(row, said);
    cell(row, item.review ? item.review.decision : "");
    const link = document.createElement("a");
    if (item.episode_available) { link.href = `/review/${encodeURIComponent(item.item_id)}`; link.textContent = "Review"; }
    else if (item.annotator === account.name && !["done", "given_up"].includes(item.status)) {
      link.href = `/task/${encodeURIComponent(item.item_id)}`; link.textContent = "Open";
    } else if (account.role === "reviewer" && item.live) {  // the live desktop, view only
      link.href = `/task/${encodeURIComponent(item.item_id)}`; link.textContent = "Watch";
    }
    cell(row, link);
    body.append(row);
  }
}

document.getElementById("signout").addEventListener("click", async () => {
  await post("/signout");
  location.href = "/signin";
});
load();
