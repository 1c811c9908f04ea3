// The server's API (board.md, "The server's API"): every call returns parsed JSON, or
// throws an ApiError carrying the server's {"error": {"message", "where"}} and status.

export class ApiError extends Error {
  constructor(status, message, where) {
    super(where ? `${where}: ${message}` : message);
    this.status = status;
    this.where = where;
  }
}

async function fail(response) {
  let message = `${response.status} ${response.statusText}`;
  let where = null;
  try {
    const body = await response.json();
    if (body && body.error) {
      message = body.error.message;
      where = body.error.where;
    }
  } catch (_) {
    // not JSON: keep the status line
  }
  return new ApiError(response.status, message, where);
}

// The server answers at most 50 requests a second from one client (429 beyond): the page
// keeps under that itself, so that a quick run of changes waits instead of being refused.
// The page's own files count too: the pacing starts from the requests that loaded them.
const RATE_PER_SECOND = 40;
const sentAt = performance
  .getEntriesByType("resource")
  .map((entry) => entry.startTime)
  .sort((a, b) => a - b);

async function paced() {
  for (;;) {
    const now = performance.now();
    while (sentAt.length && now - sentAt[0] >= 1000) sentAt.shift();
    if (sentAt.length < RATE_PER_SECOND) {
      sentAt.push(now);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000 - (now - sentAt[0]) + 1));
  }
}

async function send(method, path, body, headers = {}) {
  const init = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = body;
    if (typeof body === "string") init.headers["Content-Type"] = "application/json";
  }
  let response;
  for (let attempt = 0; ; attempt += 1) {
    await paced();
    response = await fetch(path, init);
    // The server allows 50 requests a second from one client: wait and try again.
    if (response.status !== 429 || attempt >= 8) break;
    await new Promise((resolve) => setTimeout(resolve, 120 * (attempt + 1)));
  }
  if (!response.ok) throw await fail(response);
  return response;
}

async function sendJson(method, path, body, headers) {
  const response = await send(method, path, body, headers);
  return response.text();
}

/**
 * Return the text of the value of `key` in the top-level JSON object `text`, exactly as
 * written (so that numbers keep their form: 250.0 stays 250.0 when sent back).
 */
export function rawMember(text, key) {
  let i = 0;
  const n = text.length;
  const space = () => {
    while (i < n && " \t\r\n".includes(text[i])) i += 1;
  };
  const skipString = () => {
    i += 1;
    while (i < n && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    i += 1;
  };
  const skipValue = () => {
    space();
    const start = i;
    if (text[i] === '"') {
      skipString();
    } else if (text[i] === "{" || text[i] === "[") {
      let depth = 0;
      while (i < n) {
        const c = text[i];
        if (c === '"') {
          skipString();
          continue;
        }
        if (c === "{" || c === "[") depth += 1;
        if (c === "}" || c === "]") depth -= 1;
        i += 1;
        if (depth === 0) break;
      }
    } else {
      while (i < n && !",}] \t\r\n".includes(text[i])) i += 1;
    }
    return text.slice(start, i);
  };
  space();
  if (text[i] !== "{") throw new Error("not a JSON object");
  i += 1;
  for (;;) {
    space();
    if (text[i] === "}") break;
    const name = JSON.parse(skipValue());
    space();
    i += 1; // the colon
    const value = skipValue();
    if (name === key) return value;
    space();
    if (text[i] === ",") i += 1;
  }
  throw new Error(`no key ${key}`);
}

export async function getScene() {
  const text = await sendJson("GET", "/api/scene");
  return { version: JSON.parse(text).version, raw: rawMember(text, "scene") };
}

export async function putScene(version, rawScene) {
  const text = await sendJson("PUT", "/api/scene", `{"version": ${version}, "scene": ${rawScene}}`);
  return JSON.parse(text).version;
}

/** The processor time the server spent on the last query answered, ms (its Server-Timing). */
export let lastQueryCpuMs = null;

export async function query(request, rawScene) {
  // The scene goes in as the text the server holds, the request's other keys around it.
  const head = JSON.stringify(request).slice(0, -1);
  const body = `${head}${head.length > 1 ? ", " : ""}"scene": ${rawScene}}`;
  const response = await send("POST", "/api/query", body);
  const timing = /cpu;dur=([0-9.]+)/.exec(response.headers.get("server-timing") || "");
  lastQueryCpuMs = timing ? Number(timing[1]) : null;
  return JSON.parse(await response.text());
}

export async function layout(rawScene) {
  return JSON.parse(await sendJson("POST", "/api/layout", `{"scene": ${rawScene}}`));
}

export async function catalog(ruleset) {
  return JSON.parse(await sendJson("GET", `/api/catalog?ruleset=${encodeURIComponent(ruleset)}`));
}

export async function previewMove(rawScene, ship, maneuver) {
  const head = JSON.stringify({ ship, maneuver }).slice(0, -1);
  return JSON.parse(await sendJson("POST", "/api/preview-move", `${head}, "scene": ${rawScene}}`));
}

/** Every fix applied until the table is legal, as `tabletop fix` does: {legal, moves, remaining}. */
export async function nudgeAll(rawScene, shortest = false) {
  return JSON.parse(await sendJson("POST", "/api/nudge-all", `{"shortest": ${shortest}, "scene": ${rawScene}}`));
}

export async function render(rawScene, format) {
  const body = `{"format": ${JSON.stringify(format)}, "scene": ${rawScene}}`;
  return (await send("POST", "/api/render", body)).blob();
}

/** The close-up of the dispute between two objects, as `tabletop render --around A B` draws it. */
export async function renderAround(rawScene, from, to, format = "svg") {
  const body = `{"format": ${JSON.stringify(format)}, "around": ${JSON.stringify([from, to])}, "scene": ${rawScene}}`;
  return (await send("POST", "/api/render", body)).blob();
}

export async function loadFile(name, bytes) {
  const response = await send("POST", "/api/load", bytes, {
    "Content-Type": "application/octet-stream",
    "X-Filename": name,
  });
  return rawMember(await response.text(), "scene");
}

export async function save() {
  return JSON.parse(await sendJson("POST", "/api/save", "{}"));
}
