// Shared by the event's pages: the API with a secret in the Authorization header (never
// in a URL), the stream of versions with a poll behind it, and the round clock.
"use strict";

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.error && body.error.message) || `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

let serverOffset = 0; // server time minus this device's, ms (from the Date header)

export async function api(path, { method = "GET", body, secret, etag } = {}) {
  const headers = {};
  if (secret) headers.Authorization = `Bearer ${secret}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (etag) headers["If-None-Match"] = etag;
  const response = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: "no-store",
  });
  const date = response.headers.get("Date");
  if (date) serverOffset = Date.parse(date) - Date.now();
  if (response.status === 304) return { notModified: true };
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
  if (!response.ok) throw new ApiError(response.status, data);
  return { data, etag: response.headers.get("ETag"), status: response.status };
}

// The secret of /me#CODE or /to#TOKEN: from the fragment, kept for this tab only.
export function secretOf(kind) {
  const fromHash = decodeURIComponent(location.hash.slice(1)).trim();
  if (fromHash) sessionStorage.setItem(kind, fromHash);
  return fromHash || sessionStorage.getItem(kind) || "";
}

// Calls onChange() at every new version (the stream), and every 2 s when nothing else
// called it, so a change is seen within 2 s even where the stream is cut; one call at a
// time (a change during a call calls it once more); says when the server is lost.
export function follow(onChange, statusElement) {
  let lastOk = Date.now();
  let lastCall = 0;
  let running = false;
  let again = false;
  const say = (lost) => {
    if (!statusElement) return;
    statusElement.textContent = lost ? "lost the server: retrying…" : "live";
    statusElement.classList.toggle("lost", lost);
    statusElement.dataset.state = lost ? "lost" : "live";
  };
  const run = async () => {
    if (running) { again = true; return; }
    running = true;
    lastCall = Date.now();
    try { await onChange(); lastOk = Date.now(); say(false); }
    catch (e) { if (Date.now() - lastOk > 3000) say(true); }
    finally {
      running = false;
      if (again) { again = false; run(); }
    }
  };
  const source = new EventSource("/api/stream");
  source.onmessage = () => { run(); };
  source.onerror = () => { if (Date.now() - lastOk > 3000) say(true); };
  setInterval(() => {
    if (Date.now() - lastCall >= 1900) run();
    else if (Date.now() - lastOk > 3000) say(true);
  }, 1000);
}

export function clockText(clock) {
  if (!clock) return { text: "", state: "none" };
  let seconds;
  if (clock.paused) seconds = clock.remaining;
  else seconds = Math.max(0, Math.round((Date.parse(clock.ends_at) - (Date.now() + serverOffset)) / 1000));
  const minutes = Math.floor(seconds / 60);
  const rest = String(seconds % 60).padStart(2, "0");
  if (clock.paused) return { text: `paused ${minutes}:${rest}`, state: "paused" };
  if (seconds <= 0) return { text: "time!", state: "time" };
  return { text: `${minutes}:${rest} left`, state: "running" };
}

export function showClock(element, clock) {
  const { text, state } = clockText(clock);
  element.textContent = text;
  element.className = `clock ${state}`;
  element.dataset.state = state;
}

export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === null || value === undefined) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("data-")) node.setAttribute(key, String(value));
    else node[key] = value;
  }
  for (const child of children) node.append(child instanceof Node ? child : String(child ?? ""));
  return node;
}

export function resultText(result, names) {
  if (!result) return "playing";
  const winner = names[result.winner] || result.winner;
  if (result.score_a !== null && result.score_a !== undefined) {
    return `${winner} wins ${Math.max(result.score_a, result.score_b)}–${Math.min(result.score_a, result.score_b)} (${result.tp_a} / ${result.tp_b})`;
  }
  return `${winner} wins`;
}

export function standingsTable(rows, game) {
  const head = ["#", "player", "TP", game === "armada" ? "MoV" : "SoS", "W–L"];
  const table = el("table", { id: "standings-table" },
    el("thead", {}, el("tr", {}, ...head.map((h) => el("th", {}, h)))));
  const body = el("tbody");
  for (const r of rows) {
    const tie = game === "armada" ? (r.mov ?? "") : (r.sos && r.sos.value !== undefined ? r.sos.value.toFixed(3) : r.sos ?? "");
    body.append(el("tr", { "data-player": r.id },
      el("td", { class: "num" }, r.rank), el("td", {}, r.name + (r.dropped ? " (dropped)" : "")),
      el("td", { class: "num" }, r.tp), el("td", { class: "num" }, tie),
      el("td", {}, `${r.wins}–${r.losses}`)));
  }
  table.append(body);
  return table;
}
