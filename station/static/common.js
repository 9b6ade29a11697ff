// Shared by the station's pages: who is signed in, and calls that change state.
let me = null;

export async function whoami(fresh = false) {
  if (me === null || fresh) {
    const response = await fetch("/api/me", { credentials: "same-origin" });
    if (response.status === 401) { location.href = "/signin"; throw new Error("not signed in"); }
    me = await response.json();
  }
  return me;
}

async function send(url, body, csrf) {
  const response = await fetch(url, {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-Station-CSRF": csrf },
    body: JSON.stringify(body || {}),
  });
  return [response, await response.json().catch(() => ({}))];
}

// A state-changing call; its error carries the HTTP status (error.status).
export async function post(url, body) {
  let [response, data] = await send(url, body, (await whoami()).csrf);
  if (response.status === 403 && /csrf/i.test(data.error || "")) {
    // A restarted station derives CSRF values from a new secret: ask for this one, once.
    [response, data] = await send(url, body, (await whoami(true)).csrf);
  }
  if (!response.ok) throw Object.assign(new Error(data.error || `HTTP ${response.status}`), { status: response.status });
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
