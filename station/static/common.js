// Shared by the station's pages: who is signed in, and calls that change state.
let me = null;

export async function whoami() {
  if (me === null) {
    const response = await fetch("/api/me", { credentials: "same-origin" });
    if (response.status === 401) { location.href = "/signin"; throw new Error("not signed in"); }
    me = await response.json();
  }
  return me;
}

export async function post(url, body) {
  const account = await whoami();
  const response = await fetch(url, {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-Station-CSRF": account.csrf },
    body: JSON.stringify(body || {}),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

export function text(value) {
  return value === true ? "success" : value === false ? "failure" : value == null ? "" : String(value);
}

export function cell(row, content) {
  const td = document.createElement("td");
  if (content instanceof Node) td.append(content); else td.textContent = content;
  row.append(td);
  return td;
}
