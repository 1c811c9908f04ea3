// The TO's console (/to#TOKEN): pending tables, reports and disputes, results by name,
// players, pairing with a preview, the clock, printables and the export.
import { api, el, follow, resultText, secretOf, showClock } from "/static/common.js";

const token = secretOf("token");
let event = null;
let etag = null;
let previewVersion = null;
const $ = (id) => document.getElementById(id);
const input = (name) => document.querySelector(`[data-input="${name}"]`);
const action = (name) => document.querySelector(`[data-action="${name}"]`);

function say(text, error) {
  $("said").textContent = error ? "" : text;
  $("error").textContent = error ? text : "";
}

async function call(path, body) {
  try {
    const { data } = await api(path, { method: "POST", body, secret: token });
    say(data && data.text ? data.text : "done", false);
    await load();
    return data;
  } catch (e) { say(e.message, true); return null; }
}

function reportRow(p) {
  const row = el("tr", { "data-table": p.table, "data-state": p.report.state },
    el("td", { class: "num" }, p.table), el("td", {}, `${p.names[0]} v ${p.names[1]}`));
  const cell = el("td", { class: p.report.state === "disputed" ? "disputed" : "awaiting" });
  for (const r of p.report.reports) {
    const button = el("button", { class: "plain", "data-action": "accept", "data-by": r.by }, `Record ${r.by}'s: ${r.text.replace(/^you (win|lose)[^(]*\(|\)$/g, "")}`);
    button.addEventListener("click", () => {
      const body = { round: event.round, table: p.table };
      for (const key of ["scores", "second", "winner", "games"]) {
        if (r[key] === undefined) continue;
        body[key] = key === "scores" ? { [p.players[0]]: r.scores[0], [p.players[1]]: r.scores[1] } : r[key];
      }
      call("/api/to/result", body);
    });
    cell.append(el("div", {}, `${p.report.state}: `, button));
  }
  row.append(cell);
  return row;
}

function renderTables() {
  const reports = $("reports").tBodies[0];
  const pending = $("pending").tBodies[0];
  const all = $("pairings").tBodies[0];
  reports.replaceChildren();
  pending.replaceChildren();
  all.replaceChildren();
  const names = {};
  for (const s of event.standings) names[s.id] = s.name;
  for (const p of event.pairs) {
    if (!p.result && p.report) reports.append(reportRow(p));
    if (!p.result && !p.report) pending.append(el("tr", { "data-table": p.table }, el("td", { class: "num" }, p.table), el("td", {}, `${p.names[0]} v ${p.names[1]}`)));
    all.append(el("tr", { "data-table": p.table, "data-players": p.players.join(" "), "data-result": p.result ? p.result.winner : "playing" },
      el("td", { class: "num" }, p.table), el("td", {}, `${p.names[0]} v ${p.names[1]}`), el("td", {}, resultText(p.result, names))));
  }
}

function renderResultForm() {
  const select = input("result-table");
  const chosen = select.value;
  select.replaceChildren(...event.pairs.map((p) => el("option", { value: p.table }, `${p.table}: ${p.names[0]} v ${p.names[1]}`)));
  if (chosen && event.pairs.some((p) => String(p.table) === chosen)) select.value = chosen;
  const pair = event.pairs.find((p) => String(p.table) === select.value);
  const box = $("result-fields");
  if (!pair || box.dataset.table === `${event.round}-${pair.table}`) return;
  box.dataset.table = `${event.round}-${pair.table}`;
  box.replaceChildren();
  const options = pair.players.map((id, i) => el("option", { value: id }, pair.names[i]));
  if (event.game === "armada") {
    pair.names.forEach((name, i) => box.append(el("label", {}, `${name} `, el("input", { type: "number", min: 0, "data-input": `score-${i}` }))));
    box.append(el("label", {}, " second ", el("select", { "data-input": "second" }, el("option", { value: "" }, "—"), ...options.map((o) => o.cloneNode(true)))));
  } else {
    box.append(el("label", {}, "winner ", el("select", { "data-input": "winner" }, ...options)));
  }
}

function render() {
  $("title").textContent = `TO console: ${event.name || "event"}`;
  $("round").textContent = event.round ? `Round ${event.round} (${event.kind}) — ${event.pairs.filter((p) => !p.result).length} table(s) without a result` : "No round paired yet";
  renderTables();
  renderResultForm();
}

async function load() {
  const answer = await api("/api/event", { secret: token, etag });
  if (answer.notModified) return;
  etag = answer.etag;
  event = answer.data;
  render();
}

function resultBody() {
  const table = Number(input("result-table").value);
  const pair = event.pairs.find((p) => p.table === table);
  const body = { round: event.round, table };
  if (input("result-replace").checked) body.replace = true;
  if (event.game === "armada") {
    body.scores = { [pair.names[0]]: Number(input("score-0").value), [pair.names[1]]: Number(input("score-1").value) };
    if (input("second").value) body.second = input("second").value;
  } else body.winner = input("winner").value;
  return body;
}

async function printable(what) {
  try {
    const response = await fetch(`/api/to/print/${what}`, { headers: { Authorization: `Bearer ${token}` } });
    if (!response.ok) throw new Error((await response.json()).error.message);
    const url = URL.createObjectURL(new Blob([await response.text()], { type: "text/html" }));
    window.open(url, "_blank");
  } catch (e) { say(e.message, true); }
}

input("result-table").addEventListener("change", () => { $("result-fields").dataset.table = ""; renderResultForm(); });
action("result").addEventListener("click", () => call("/api/to/result", resultBody()));
action("clear").addEventListener("click", () => call("/api/to/result", { round: event.round, table: Number(input("result-table").value), clear: true }));
action("add").addEventListener("click", () => {
  const body = { id: input("add-id").value.trim() };
  if (input("add-name").value.trim()) body.name = input("add-name").value.trim();
  call("/api/to/add", body);
});
action("drop").addEventListener("click", () => call("/api/to/drop", { player: input("player").value }));
action("return").addEventListener("click", () => call("/api/to/return", { player: input("player").value }));
action("pair-preview").addEventListener("click", async () => {
  try {
    const { data, etag: made } = await api("/api/to/pair", { method: "POST", body: { commit: false }, secret: token });
    previewVersion = Number(String(made).replaceAll('"', ""));
    const lines = data.pairs.map((p) => `table ${p.table}: ${p.players.join(" v ")} — ${p.explanation}`);
    lines.push(...data.byes.map((b) => `bye: ${b.player} — ${b.reason}`), ...data.warnings.map((w) => `WARNING: ${w}`));
    $("preview").textContent = `Round ${data.round} (${data.kind})\n${lines.join("\n")}`;
    $("preview").hidden = false;
    action("pair-commit").disabled = false;
    say("", false);
  } catch (e) { say(e.message, true); }
});
action("pair-commit").addEventListener("click", async () => {
  const done = await call("/api/to/pair", { commit: true, preview_version: previewVersion });
  if (done) { action("pair-commit").disabled = true; $("preview").hidden = true; }
});
action("repair").addEventListener("click", () => call("/api/to/repair", {}));
for (const which of ["start", "pause", "resume", "add"]) {
  action(`clock-${which}`).addEventListener("click", () => {
    const body = { action: which };
    const minutes = input("clock-minutes").value;
    if (minutes !== "" && (which === "start" || which === "add")) body.minutes = Number(minutes);
    call("/api/to/clock", body);
  });
}
for (const what of ["pairings", "standings", "slips"]) action(`print-${what}`).addEventListener("click", () => printable(what));
action("export").addEventListener("click", async () => {
  try {
    const response = await fetch("/api/to/export", { headers: { Authorization: `Bearer ${token}` } });
    const url = URL.createObjectURL(new Blob([await response.text()], { type: "application/json" }));
    const link = el("a", { href: url, download: "export.json" });
    document.body.append(link); link.click(); link.remove();
  } catch (e) { say(e.message, true); }
});
setInterval(() => { if (event) showClock($("clock"), event.clock); }, 500);
load().catch((e) => say(e.message, true));
follow(load, $("status"));
