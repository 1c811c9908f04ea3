// The tools beside the mat: measure, move (preview, apply, discard), the palette, the
// table's settings, and files in and out.

import * as api from "./api.js";
import { clear, el, mm, points, text } from "./svg.js";
import { sceneToml } from "./toml.js";

const ARCS = {
  armada: ["front", "left", "right", "rear"],
  xwing: ["front", "rear", "left", "right", "full-front", "full-rear", "bullseye"],
};

const XWING_MANEUVERS = [
  ...[1, 2, 3, 4, 5].map((n) => `straight ${n}`),
  ...[1, 2, 3].flatMap((n) => [`bank ${n} left`, `bank ${n} right`, `turn ${n} left`, `turn ${n} right`]),
  ...[1, 2, 3, 4, 5].map((n) => `koiogran ${n}`),
  ...[1, 2, 3].flatMap((n) => [`segnor ${n} left`, `segnor ${n} right`, `tallon ${n} left`, `tallon ${n} right`]),
  "reverse straight 1",
  "reverse bank 1 left",
  "reverse bank 1 right",
  "stationary",
  ...["left", "right"].flatMap((s) => [`roll ${s}`, `roll ${s} forward`, `roll ${s} back`]),
  "boost straight",
  "boost bank left",
  "boost bank right",
];

/** A data-* attribute value for a field of a JSON answer. */
export function attributeValue(value) {
  if (typeof value === "string") return value;
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value.join(",");
  return JSON.stringify(value);
}

function saveBlob(blob, name) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 5000);
}

export class Tools {
  constructor(app) {
    this.app = app;
    this.measureFrom = null;
    this.measured = null; // {from, to, arc}
    this.preview = null;
    this.measurement = document.getElementById("measurement");
    this.moveResult = document.getElementById("move-result");
    this.maneuver = document.querySelector("[data-input=maneuver]");
    this.arc = document.querySelector("[data-input=arc]");
    this.palette = document.querySelector("[data-input=piece]");
    this.defending = document.querySelector("[data-input=defending-zone]");
    this.measureTarget = document.querySelector("[data-input=measure-to]");
    this.arc.addEventListener("change", () => this.measured && this.remeasure());
    this.defending.addEventListener("change", () => this.measured && this.remeasure());
    this.maneuver.addEventListener("keydown", (e) => {
      if (e.key === "Enter") {
        e.preventDefault();
        this.previewMove();
      }
    });
    document.getElementById("file-input").addEventListener("change", (e) => this.loadChosen(e));
    for (const name of ["ruleset", "area", "phase", "format"]) {
      document.querySelector(`[data-input=${name}]`).addEventListener("change", (e) => this.setTable(name, e.target.value));
    }
    this.armadaTool = document.getElementById("armada-tool");
    this.armadaTool.addEventListener("input", () => this.armadaWords());
    this.armadaTool.addEventListener("click", (e) => this.armadaClick(e));
  }

  // -- the table ------------------------------------------------------------------------

  fillTable(scene, catalog) {
    const ruleset = scene.ruleset || "xwing2";
    const selects = {
      ruleset: catalog.rulesets,
      area: typeof scene.area === "object" ? [...catalog.areas, "custom"] : ["", ...catalog.areas],
      phase: ["setup", "play"],
      format: ["standard", "tournament"],
    };
    const current = {
      ruleset,
      area: typeof scene.area === "object" ? "custom" : scene.area || "",
      phase: scene.phase || "setup",
      format: scene.format || "standard",
    };
    for (const [name, options] of Object.entries(selects)) {
      const select = document.querySelector(`[data-input=${name}]`);
      clear(select);
      for (const option of options) {
        const node = document.createElement("option");
        node.value = option;
        node.textContent = option === "" ? "ruleset's own" : option === "custom" ? `${scene.area.width} × ${scene.area.height} mm` : option;
        select.appendChild(node);
      }
      select.value = current[name];
    }
    // the palette, arcs and maneuvers belong to the ruleset: kept (with the choices made
    // in them) until the ruleset changes
    if (this.paletteRuleset !== ruleset) {
      this.paletteRuleset = ruleset;
      this.fillPalette(catalog, ruleset);
    }
  }

  setTable(name, value) {
    if (name === "area" && value === "custom") return;
    this.app.board.change((scene) => {
      if (value === "" && name === "area") delete scene.area;
      else scene[name] = value;
    }, name);
  }

  fillPalette(catalog, ruleset) {
    clear(this.palette);
    const groups = new Map();
    for (const token of catalog.tokens) {
      if (!groups.has(token.kind)) groups.set(token.kind, []);
      groups.get(token.kind).push(token.name);
    }
    for (const [kind, names] of groups) {
      const group = document.createElement("optgroup");
      group.label = `${kind} tokens`;
      for (const name of names) {
        const option = document.createElement("option");
        option.value = `token:${name}`;
        option.textContent = name;
        group.appendChild(option);
      }
      this.palette.appendChild(group);
    }
    const ships = document.createElement("optgroup");
    ships.label = "ship bases";
    for (const base of catalog.bases) {
      const option = document.createElement("option");
      option.value = `base:${base.name}`;
      option.textContent = `${base.name} base`;
      ships.appendChild(option);
    }
    this.palette.appendChild(ships);
    const arcs = ruleset === "armada" ? ARCS.armada : ARCS.xwing;
    clear(this.arc);
    for (const name of ["", ...(catalog.arcs || arcs)]) {
      const option = document.createElement("option");
      option.value = name;
      option.textContent = name || "no arc (plain distance)";
      this.arc.appendChild(option);
    }
    // the second end: a piece picked on the mat, or a line of the table
    clear(this.measureTarget);
    const lines = ["bottom", "top", "left", "right"].map((edge) => [`edge:${edge}`, `the ${edge} edge`]);
    if (ruleset === "armada") {
      lines.push(...["left", "right", "bottom", "top"].map((side) => [`setup:${side}`, `the setup area's ${side} line`]));
    }
    for (const [value, words] of [["", "a second piece"], ...lines]) {
      const option = document.createElement("option");
      option.value = value;
      option.textContent = words;
      this.measureTarget.appendChild(option);
    }
    // Armada: the defender's hull zone too (an attack goes from zone to zone)
    clear(this.defending);
    for (const name of ["", ...(ruleset === "armada" ? catalog.arcs || ARCS.armada : [])]) {
      const option = document.createElement("option");
      option.value = name;
      option.textContent = name || "nearest";
      this.defending.appendChild(option);
    }
    document.getElementById("defending-box").hidden = ruleset !== "armada";
    const list = document.getElementById("maneuvers");
    clear(list);
    if (ruleset !== "armada") {
      for (const words of XWING_MANEUVERS) {
        const option = document.createElement("option");
        option.value = words;
        list.appendChild(option);
      }
    }
    this.armadaTool.hidden = ruleset !== "armada";
    this.maneuver.placeholder = ruleset === "armada" ? "speed 2 yaw 0 1" : "bank 2 left";
  }

  add() {
    const app = this.app;
    const choice = this.palette.value;
    if (!choice) return;
    const [what, name] = choice.split(/:(.*)/s);
    const player = Number(document.querySelector("[data-input=player]").value);
    const taken = new Set(app.board.ids());
    const stem = what === "token" ? app.kinds.get(name) || "obstacle" : `${name}-ship`;
    let n = 1;
    while (taken.has(`${stem}-${n}`)) n += 1;
    const id = `${stem}-${n}`;
    const { width, height } = app.mat;
    app.board.change((scene) => {
      if (what === "token") {
        scene.obstacles = scene.obstacles || [];
        scene.obstacles.push({ id, token: name, at: [width / 2, height / 2], angle: 0.0, player });
      } else {
        scene.ships = scene.ships || [];
        const y = player === 2 ? height - 60 : 60;
        scene.ships.push({ id, base: name, at: [width / 2, y], heading: player === 2 ? 270 : 90, player });
      }
    }, "add");
    app.pick(id);
    app.say(`Added ${id}. Drag it, or move it with the arrow keys.`);
  }

  // -- measure ----------------------------------------------------------------------------

  measureAction() {
    const app = this.app;
    const selected = app.selected;
    if (this.measureFrom && selected && selected !== this.measureFrom) {
      this.measureTo(selected);
      return;
    }
    if (!selected) {
      app.say("Measure: select the first piece (click it, or Tab to it and press Enter), then press M.");
      return;
    }
    if (this.measureTarget.value) {
      this.measureFrom = selected;
      this.measureTo(this.measureTarget.value);
      return;
    }
    this.measureFrom = selected;
    document.body.dataset.mode = "measure";
    app.say(`Measuring from ${selected}: pick the second piece (click it, or Tab to it and press Enter).`);
  }

  /** A piece picked while measuring is the second end. */
  picked(id) {
    if (this.measureFrom && id !== this.measureFrom) this.measureTo(id);
  }

  measureTo(id) {
    this.measured = { from: this.measureFrom, to: id };
    this.measureFrom = null;
    delete document.body.dataset.mode;
    this.remeasure();
  }

  async remeasure() {
    const app = this.app;
    const m = this.measured;
    const line = m && m.to.includes(":"); // edge:… or setup:…, not a piece
    if (!m || !app.board.find(m.from) || (!line && !app.board.find(m.to))) {
      this.clearMeasurement();
      return;
    }
    const request = { op: "measure", from: m.from, to: m.to };
    if (this.arc.value) request.arc = this.arc.value;
    if (this.defending.value) request.defending_zone = this.defending.value;
    const raw = app.board.raw;
    app.track(+1);
    try {
      const answer = await api.query(request, raw);
      if (raw !== app.board.raw) return;
      this.showMeasurement(answer);
      if (document.getElementById("status").textContent.startsWith("Measuring from")) {
        app.say(`Measured ${m.from} → ${m.to}${request.arc ? ` (${request.arc} arc)` : ""}.`);
      }
    } catch (error) {
      this.clearMeasurement();
      app.say(`Measure: ${error.message}`, true);
    } finally {
      app.track(-1);
    }
  }

  // -- the close-up of a dispute ----------------------------------------------------------

  /** The parts of the close-up, by the ids `render --around` gives them in its SVG. */
  static closeUpParts = ["dispute-view", "mm-grid", "limit-line", "contested-band", "dimension", "dimension-label"];

  async closeUp() {
    const app = this.app;
    const m = this.measured;
    if (!m) return;
    const raw = app.board.raw;
    app.track(+1);
    try {
      const blob = await api.renderAround(raw, m.from, m.to);
      if (raw !== app.board.raw) return;
      const svgText = await blob.text();
      const parsed = new DOMParser().parseFromString(svgText, "image/svg+xml");
      const parts = Tools.closeUpParts.filter((id) => parsed.getElementById(id));
      const figure = document.getElementById("close-up");
      const image = figure.querySelector("img");
      if (image.src.startsWith("blob:")) URL.revokeObjectURL(image.src);
      image.src = URL.createObjectURL(blob);
      image.alt = `Close-up of ${m.from} and ${m.to}: the line between them on a millimetre grid, the limit and the contested band.`;
      figure.dataset.around = `${m.from},${m.to}`;
      figure.dataset.parts = parts.join(",");
      const answer = this.measurement.dataset.answer ? JSON.parse(this.measurement.dataset.answer) : null;
      if (answer) figure.dataset.distance = String(answer.distance);
      figure.querySelector("figcaption").textContent =
        `${m.from} ↔ ${m.to}${answer ? `: ${mm(answer.distance)} mm` : ""} (millimetre grid; shaded: the contested band)`;
      figure.hidden = false;
      app.say(`Close-up of ${m.from} and ${m.to}.`);
    } catch (error) {
      app.say(`Close-up: ${error.message}`, true);
    } finally {
      app.track(-1);
    }
  }

  hideCloseUp() {
    const figure = document.getElementById("close-up");
    figure.hidden = true;
    for (const key of ["around", "parts", "distance"]) delete figure.dataset[key];
  }

  clearMeasurement() {
    for (const name of [...this.measurement.getAttributeNames()]) {
      if (name.startsWith("data-")) this.measurement.removeAttribute(name);
    }
    this.measurement.textContent = "Nothing measured yet: select a piece, press M (or the Measure button), then pick a second one.";
    this.drawMeasure(null);
    document.querySelector("[data-action=close-up]").disabled = true;
    this.hideCloseUp();
  }

  showMeasurement(answer) {
    const node = this.measurement;
    for (const name of [...node.getAttributeNames()]) if (name.startsWith("data-")) node.removeAttribute(name);
    for (const [key, value] of Object.entries(answer)) node.setAttribute(`data-${key}`, attributeValue(value));
    node.dataset.answer = JSON.stringify(answer);
    const band = answer.band !== undefined ? `range ${answer.band ?? "beyond 5"}` : `distance ${answer.distance_band ?? "beyond 5"}, range ${answer.range_band ?? "beyond long"}`;
    const parts = [`${answer.from} → ${answer.to}: ${mm(answer.distance)} mm, ${band}`];
    if (answer.contested) parts.push(answer.ruling ? `CONTESTED: ${answer.ruling}` : "CONTESTED (near a band's line)");
    if (answer.arc) parts.push(`${answer.in_arc ? "in" : "NOT in"} the ${answer.arc} arc`);
    if (answer.obstructed !== undefined) {
      const by = (answer.obstructed_by || []).join(", ");
      parts.push(answer.obstructed === true ? `obstructed by ${by}` : answer.obstructed === false ? "not obstructed" : `obstruction: the attacker chooses (${by})`);
    }
    node.textContent = parts.join(" · ");
    this.drawMeasure(answer);
    document.querySelector("[data-action=close-up]").disabled = false;
    // A close-up on show follows the board, as the measurement does.
    const figure = document.getElementById("close-up");
    if (!figure.hidden) {
      if (figure.dataset.around === `${answer.from},${answer.to}`) this.closeUp();
      else this.hideCloseUp();
    }
  }

  drawMeasure(answer) {
    const { mat } = this.app;
    for (const node of mat.svg.querySelectorAll(".measure-line, .measure-label")) node.remove();
    if (!answer || !answer.points) return;
    const [[x0, y0], [x1, y1]] = answer.points;
    const group = el("g", { class: "measure-line" }, mat.toolLayer);
    el("line", { x1: x0, y1: y0, x2: x1, y2: y1, class: "halo" }, group);
    el("line", { x1: x0, y1: y0, x2: x1, y2: y1, class: "stroke" }, group);
    el("circle", { cx: x0, cy: y0, r: 3.5 }, group);
    el("circle", { cx: x1, cy: y1, r: 3.5 }, group);
    const [dx, dy] = mat.toDisplay((x0 + x1) / 2, (y0 + y1) / 2);
    const band = answer.band !== undefined ? `range ${answer.band ?? "5+"}` : `distance ${answer.distance_band ?? "5+"}`;
    text(mat.toolLabels, dx + 6, dy + 14, `↔ ${mm(answer.distance)} mm · ${band}`, { class: "measure-label" });
  }

  // -- move -------------------------------------------------------------------------------

  async previewMove() {
    const app = this.app;
    const ship = app.selected;
    const found = ship && app.board.find(ship);
    if (!found || found.kind !== "ships") {
      app.say("Move: select a ship first (click it, or Tab to it and press Enter).", true);
      return;
    }
    const words = this.maneuver.value.trim();
    if (!words) {
      app.say("Move: type a maneuver, e.g. “bank 2 left”.", true);
      this.maneuver.focus();
      return;
    }
    app.track(+1);
    try {
      const preview = await api.previewMove(app.board.raw, ship, words);
      this.showPreview(preview);
      app.say(`Preview of ${ship} ${words}: Apply moves it there, Discard drops it.`);
    } catch (error) {
      this.discard();
      app.say(`Move: ${error.message}`, true);
    } finally {
      app.track(-1);
    }
  }

  showPreview(preview) {
    this.preview = preview;
    const answer = preview.answer;
    const node = this.moveResult;
    for (const name of [...node.getAttributeNames()]) if (name.startsWith("data-")) node.removeAttribute(name);
    for (const [key, value] of Object.entries(answer)) node.setAttribute(`data-${key}`, attributeValue(value));
    node.dataset.answer = JSON.stringify(answer);
    const parts = [`${answer.ship} ${answer.maneuver}`];
    if (answer.legal === false) {
      parts.push(`NOT possible: ${answer.reason || "illegal"}`);
    } else {
      const [x, y] = answer.final.at;
      parts.push(`ends at ${mm(x)}, ${mm(y)} mm, heading ${answer.final.heading}°`);
      if (answer.bumped) parts.push(`BUMPS ${answer.bumped}`);
      if (answer.fled) parts.push("FLEES the table");
      for (const o of answer.obstacles || []) parts.push(`${o.how} ${o.id}`);
    }
    node.textContent = parts.join(" · ");
    document.querySelector("[data-action=apply-move]").disabled = answer.legal === false || !answer.final;
    document.querySelector("[data-action=discard-move]").disabled = false;
    this.drawPreview(preview);
  }

  drawPreview(preview) {
    const { mat } = this.app;
    for (const node of mat.svg.querySelectorAll(".move-preview")) node.remove();
    if (!preview) return;
    const group = el("g", { class: "move-preview" }, mat.toolLayer);
    if (preview.template) el("polygon", { points: points(preview.template), class: "template" }, group);
    if (preview.path) el("polyline", { points: points(preview.path), class: "path", "marker-end": "url(#arrow)" }, group);
    if (preview.final_outline) el("polygon", { points: points(preview.final_outline), class: "final" }, group);
    const final = preview.answer.final;
    if (final && final.at) {
      // where the ship faces at the end
      const r = (final.heading * Math.PI) / 180;
      const [x, y] = final.at;
      el("line", { x1: x, y1: y, x2: x + 28 * Math.cos(r), y2: y + 28 * Math.sin(r), class: "facing", "marker-end": "url(#arrow)" }, group);
    }
  }

  applyMove() {
    const preview = this.preview;
    if (!preview || preview.answer.legal === false || !preview.answer.final) {
      this.app.say("Move: preview a maneuver first (type it, press Enter).", true);
      return;
    }
    const { ship, final } = preview.answer;
    this.app.board.change((scene) => {
      const entry = scene.ships.find((s) => s.id === ship);
      entry.at = [final.at[0], final.at[1]];
      entry.heading = final.heading;
    }, "move");
    this.app.say(`${ship} moved: ${preview.answer.maneuver}.`);
    this.discard();
  }

  discard() {
    this.preview = null;
    for (const name of [...this.moveResult.getAttributeNames()]) {
      if (name.startsWith("data-")) this.moveResult.removeAttribute(name);
    }
    this.moveResult.textContent = "";
    document.querySelector("[data-action=apply-move]").disabled = true;
    document.querySelector("[data-action=discard-move]").disabled = true;
    this.drawPreview(null);
  }

  armadaWords() {
    const speed = Number(this.armadaTool.querySelector("[name=speed]").value);
    const yaws = [...this.armadaTool.querySelectorAll("[data-joint]")];
    yaws.forEach((node, index) => {
      node.hidden = index >= speed;
    });
    const clicks = yaws.slice(0, speed).map((node) => node.querySelector("output").value);
    this.maneuver.value = `speed ${speed}${speed ? ` yaw ${clicks.join(" ")}` : ""}`;
  }

  armadaClick(event) {
    const button = event.target.closest("button[data-yaw]");
    if (!button) return;
    const output = button.parentElement.querySelector("output");
    const value = Math.max(-2, Math.min(2, Number(output.value) + Number(button.dataset.yaw)));
    output.value = String(value);
    this.armadaWords();
  }

  // -- files ------------------------------------------------------------------------------

  async loadChosen(event) {
    const file = event.target.files[0];
    event.target.value = "";
    if (!file) return;
    const app = this.app;
    app.track(+1);
    try {
      const raw = await api.loadFile(file.name, await file.arrayBuffer());
      await app.board.replace(raw, "load");
      app.say(`Loaded ${file.name}.`);
    } catch (error) {
      app.say(`Load ${file.name}: ${error.message}`, true);
    } finally {
      app.track(-1);
    }
  }

  async save() {
    try {
      await this.app.board.settled();
      const answer = await api.save();
      this.app.say(`Saved to ${answer.saved}.`);
    } catch (error) {
      this.app.say(`Save: ${error.message}`, true);
    }
  }

  downloadScene() {
    const format = document.querySelector("[data-input=scene-format]").value;
    const scene = this.app.board.scene;
    if (format === "json") {
      saveBlob(new Blob([`${JSON.stringify(scene, null, 2)}\n`], { type: "application/json" }), "board.json");
    } else {
      saveBlob(new Blob([sceneToml(scene)], { type: "application/toml" }), "board.toml");
    }
  }

  async downloadPicture() {
    const format = document.querySelector("[data-input=picture-format]").value;
    try {
      const blob = await api.render(this.app.board.raw, format);
      saveBlob(blob, `board.${format}`);
    } catch (error) {
      this.app.say(`Picture: ${error.message}`, true);
    }
  }
}
