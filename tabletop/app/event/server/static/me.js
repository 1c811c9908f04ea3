// The player's page (/me#CODE): my table, the result form in the game's terms, confirm.
import { api, el, follow, secretOf, showClock } from "/static/common.js";

let code = secretOf("code");
let me = null;
let clock = null;
let disputing = false;
const $ = (id) => document.getElementById(id);
const input = (name) => document.querySelector(`[data-input="${name}"]`);

function say(text) { $("error").textContent = text || ""; }

function body() {
  const base = { round: me.round, table: me.table };
  if (me.game === "armada") {
    const mine = input("my-score").value, theirs = input("their-score").value;
    if (mine === "" || theirs === "") return null;
    const scores = { [me.id]: Number(mine), [me.opponent.id]: Number(theirs) };
    const result = { ...base, scores };
    if (Number(mine) === Number(theirs)) result.second = input("second").value;
    return result;
  }
  if (me.games_per_match === 3) {
    const games = [1, 2, 3].map((g) => input(`game-${g}`).value).filter((v) => v);
    return games.length ? { ...base, games } : null;
  }
  const winner = input("winner").value;
  return winner ? { ...base, winner } : null;
}

function buildForm() {
  const form = $("result-form");
  const armada = me.game === "armada";
  $("armada-fields").hidden = !armada;
  $("destiny-fields").hidden = armada;
  const options = [["", "—"], [me.id, `${me.name} (me)`], [me.opponent.id, me.opponent.name]];
  const select = (name) => el("select", { "data-input": name }, ...options.map(([v, t]) => el("option", { value: v }, t)));
  if (form.dataset.built) return;
  if (armada) {
    const second = input("second");
    second.replaceChildren(...options.slice(1).map(([v, t]) => el("option", { value: v }, t)));
  } else {
    const box = $("destiny-fields");
    if (me.games_per_match === 3) {
      for (const g of [1, 2, 3]) box.append(el("label", {}, `Game ${g} winner `, select(`game-${g}`)), el("br"));
    } else {
      box.append(el("label", {}, "Winner ", select("winner")));
    }
  }
  form.dataset.built = "yes";
}

let previewTimer = null;
async function preview() {
  if (me.game === "armada") {
    $("second-row").hidden = input("my-score").value === "" || input("my-score").value !== input("their-score").value;
  }
  const sent = body();
  if (!sent) { $("preview").textContent = ""; return; }
  try {
    const { data } = await api("/api/preview", { method: "POST", body: sent, secret: code });
    $("preview").textContent = data.text;
    $("preview").dataset.state = "ok";
    say("");
  } catch (e) { $("preview").textContent = ""; say(e.message); }
}

function render() {
  $("login").hidden = true;
  $("me").hidden = false;
  $("title").textContent = `${me.name}`;
  if (!me.table) {
    $("where").textContent = me.round ? (me.bye ? `Round ${me.round}: you have a bye.` : `Round ${me.round}: you are not seated.`) : "The first round is not paired yet.";
    $("opponent").textContent = "";
    $("result-form").hidden = true;
    $("report-box").hidden = true;
    return;
  }
  $("where").textContent = `Round ${me.round}, table ${me.table}`;
  const r = me.opponent.record || {};
  $("opponent").textContent = `Opponent: ${me.opponent.name} (${r.wins ?? 0}–${r.losses ?? 0}, ${r.tp ?? 0} TP)`;
  $("result-line").textContent = me.result ? `Recorded: ${me.result.winner === me.id ? "you win" : "you lose"} (${me.result.tp_a} / ${me.result.tp_b})` : "";
  $("result-line").dataset.state = me.result ? "recorded" : "none";
  buildForm();
  const report = me.report;
  const state = $("report-state");
  state.dataset.state = report ? report.state : (me.result ? "recorded" : "none");
  $("confirm-row").hidden = true;
  if (me.result) state.textContent = "The result is recorded.";
  else if (!report) state.textContent = "No report yet.";
  else if (report.state === "disputed") state.textContent = `Disputed: ${report.reports.map((x) => `${x.by}: ${x.text}`).join("; ")}. Report again to agree, or ask the TO.`;
  else if (report.by === me.id) state.textContent = `You reported: ${report.reports[0].text}. Waiting for ${me.opponent.name} to confirm.`;
  else {
    state.textContent = `${me.opponent.name} reported: ${report.reports[0].text.replace(/^you (win|lose)/, (m, w) => (w === "win" ? "they win" : "they lose"))}`;
    $("confirm-row").hidden = false;
  }
  const showForm = !me.result && (!report || report.by === me.id || report.state === "disputed" || disputing);
  $("result-form").hidden = !showForm;
  $("report-box").hidden = false;
}

async function load() {
  if (!code) { $("login").hidden = false; return; }
  try {
    const { data } = await api("/api/me", { secret: code });
    me = data;
    say("");
    render();
    const { data: event } = await api("/api/event");
    clock = event.clock;
  } catch (e) {
    if (e.status === 401 || e.status === 429) { $("login").hidden = false; $("me").hidden = true; }
    say(e.message);
    if (e.status === undefined) throw e;
  }
}

document.querySelector('[data-action="login"]').addEventListener("click", () => {
  code = input("code").value.trim().toUpperCase();
  sessionStorage.setItem("code", code);
  history.replaceState(null, "", "/me");
  load();
});
$("result-form").addEventListener("input", () => { clearTimeout(previewTimer); previewTimer = setTimeout(preview, 250); });
$("result-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const sent = body();
  if (!sent) { say("fill in the result first"); return; }
  try {
    await api("/api/report", { method: "POST", body: sent, secret: code });
    disputing = false;
    say("");
  } catch (err) { say(err.message); }
  load();
});
document.querySelector('[data-action="confirm"]').addEventListener("click", async () => {
  try { await api("/api/confirm", { method: "POST", body: { round: me.round, table: me.table }, secret: code }); say(""); }
  catch (err) { say(err.message); }
  load();
});
document.querySelector('[data-action="dispute"]').addEventListener("click", () => { disputing = true; render(); });
setInterval(() => showClock($("clock"), clock), 500);
load();
follow(load, $("status"));
