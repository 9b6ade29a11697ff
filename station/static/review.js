import { post } from "/static/common.js";

const section = document.querySelector("section[data-item]");
const itemId = section.dataset.item;

async function decide(decision) {
  const notes = document.getElementById("review-notes").value || null;
  const data = await post(`/api/items/${encodeURIComponent(itemId)}/review`, { decision, notes });
  document.getElementById("decision").textContent = `${data.item.review.decision} by ${data.item.review.by}`;
}
document.getElementById("accept").addEventListener("click", () => decide("accept"));
document.getElementById("reject").addEventListener("click", () => decide("reject"));
