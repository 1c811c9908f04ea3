// The public page: the round's pairings (search by name), the clock, standings, bracket.
import { api, el, follow, resultText, showClock, standingsTable } from "/static/common.js";

let etag = null;
let event = null;

function matches(query, names) {
  const q = query.trim().toLowerCase();
  return q !== "" && names.some((n) => n.toLowerCase().includes(q));
}

function render() {
  if (!event) return;
  document.title = event.name || "Event";
  document.getElementById("title").textContent = event.name || "Event";
  const stage = event.kind === "playoff" && event.stage ? ` — ${event.stage}` : "";
  document.getElementById("round").textContent = event.round ? `Round ${event.round} (${event.kind})${stage}` : "Not paired yet";
  const query = document.getElementById("search").value;
  const body = document.querySelector("#pairings tbody");
  const names = {};
  for (const s of event.standings) names[s.id] = s.name;
  body.replaceChildren();
  for (const p of event.pairs) {
    let state = resultText(p.result, names);
    let cls = p.result ? "" : "playing";
    if (!p.result && p.report) {
      state = p.report.state === "disputed" ? "disputed" : "reported, awaiting confirmation";
      cls = p.report.state === "disputed" ? "disputed" : "awaiting";
    }
    const row = el("tr", {
      "data-table": p.table, "data-players": p.players.join(" "),
      "data-result": p.result ? p.result.winner : "playing",
      class: matches(query, p.names) ? "hit" : "",
    }, el("td", { class: "num" }, p.table), el("td", {}, `${p.names[0]} v ${p.names[1]}`),
    el("td", { class: cls }, state));
    body.append(row);
  }
  const byes = document.getElementById("byes");
  byes.textContent = event.byes.length ? `Bye: ${event.byes.map((b) => b.name).join(", ")}` : "";
  const hit = body.querySelector("tr.hit");
  if (hit && document.activeElement === document.getElementById("search")) hit.scrollIntoView({ block: "nearest" });
  document.getElementById("standings-title").textContent = `Standings after round ${event.standings_round}`;
  document.getElementById("standings").replaceChildren(standingsTable(event.standings, event.game));
  renderBracket();
}

function renderBracket() {
  const section = document.getElementById("bracket-section");
  section.hidden = event.bracket.length === 0;
  const box = document.getElementById("bracket");
  box.replaceChildren();
  for (const round of event.bracket) {
    const column = el("div", { "data-round": round.round }, el("h3", {}, round.stage));
    for (const p of round.pairs) {
      const line = el("div", { "data-table": p.table });
      p.names.forEach((name, i) => line.append(el("div", { class: p.winner === p.players[i] ? "winner" : "" }, name)));
      column.append(line, el("hr"));
    }
    for (const b of round.byes) column.append(el("div", {}, `${b.name} (bye)`));
    box.append(column);
  }
}

async function load() {
  const answer = await api("/api/event", { etag });
  if (answer.notModified) return;
  etag = answer.etag;
  event = answer.data;
  render();
}

document.getElementById("search").addEventListener("input", render);
setInterval(() => { if (event) showClock(document.getElementById("clock"), event.clock); }, 500);
load();
follow(load, document.getElementById("status"));
