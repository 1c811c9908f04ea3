// The page: one App ties the board (the server's document), the mat, the verdict and the
// tools together. Every change goes to the server; the verdict is the server's `check`.

import * as api from "./api.js";
import { Board } from "./board.js";
import { Interaction, roundAngle } from "./interact.js";
import { LiveVerdict } from "./live.js";
import { Mat } from "./mat.js";
import { Tools } from "./tools.js";
import { mm } from "./svg.js";
import { VerdictView, fixMove } from "./verdict.js";

const SYNC_MS = 3000;

function mirrored(outline) {
  return outline.map(([x, y]) => [-x, y]).reverse();
}

class App {
  constructor() {
    this.board = new Board();
    this.mat = new Mat(document.getElementById("mat"));
    this.catalogs = new Map();
    this.catalog = null;
    this.kinds = new Map();
    this.layoutShapes = new Map();
    this.layoutKey = null;
    this.pieces = new Map();
    this.selected = null;
    this.hovered = null;
    this.checkSeq = 0;
    this.inFlight = 0;
    this.dropStarted = null;
    this.timings = [];
    this.checkTimes = []; // the server's time on the last checks, ms (the last three)
    this.storedReport = null; // the verdict of the board as stored
    this.livePose = null; // the followed piece where its shown verdict has it: {id, x, y}
    this.verdict = new VerdictView(this);
    this.live = new LiveVerdict(this);
    this.tools = new Tools(this);
    this.interaction = new Interaction(this);
    this.status = document.getElementById("status");
    this.board.addEventListener("scene", (e) => this.refresh(e.detail.why));
    this.board.addEventListener("history", () => this.history());
    this.board.addEventListener("message", (e) => this.say(e.detail.text, e.detail.error));
    document.addEventListener("click", (e) => this.click(e));
    window.addEventListener("resize", () => this.verdict.placeFloating());
  }

  async start() {
    this.busy();
    try {
      await this.board.load();
    } catch (error) {
      this.say(`Could not read the board: ${error.message}`, true);
    }
    this.live.open(); // now, so that a drag's first move does not wait for the socket
    setInterval(() => {
      if (!this.interaction.drag && !this.interaction.keyed && this.inFlight === 0) this.board.sync().catch(() => {});
    }, SYNC_MS);
  }

  // -- state shown ----------------------------------------------------------------------

  track(delta) {
    this.inFlight += delta;
    this.busy();
  }

  /** body[data-busy] is "false" once every change is stored and its verdict drawn. */
  busy() {
    const idle = this.inFlight === 0 && this.board.pending === 0 && !this.interaction?.keyed;
    document.body.dataset.busy = String(!idle);
  }

  /** Resolve once every change is stored and its verdict drawn (for scripts and tests). */
  idle() {
    return new Promise((resolve) => {
      const look = () => (document.body.dataset.busy === "false" ? resolve() : setTimeout(look, 4));
      setTimeout(look, 0);
    });
  }

  /** One line on the mat: what the last change did to the verdict, and the fix. */
  sayVerdict(report) {
    if (report.legal) {
      this.say("✓ Legal: no rule broken.");
      return;
    }
    const first = report.violations[0];
    const more = report.violations.length > 1 ? ` (and ${report.violations.length - 1} more)` : "";
    const fix = report.violations.find((v) => v.fix);
    const hint = fix ? ` Press “Nudge to legal” (key N) to move ${fix.fix.object} where it is legal (Shift+N: the shortest move).` : "";
    this.say(`✗ ${first.message}${more}.${hint}`, true);
  }

  say(words, error = false) {
    this.status.textContent = words;
    this.status.classList.toggle("error", Boolean(error));
  }

  history() {
    document.querySelector("[data-action=undo]").disabled = this.board.undoStack.length === 0;
    document.querySelector("[data-action=redo]").disabled = this.board.redoStack.length === 0;
    this.busy();
  }

  async ensureCatalog(ruleset) {
    if (!this.catalogs.has(ruleset)) this.catalogs.set(ruleset, await api.catalog(ruleset));
    const catalog = this.catalogs.get(ruleset);
    if (this.catalog !== catalog) {
      this.catalog = catalog;
      this.kinds = new Map(catalog.tokens.map((t) => [t.name, t.kind]));
      this.tokenShapes = new Map(catalog.tokens.map((t) => [t.name, t.outline]));
      this.baseShapes = new Map(catalog.bases.map((b) => [b.name, b.outline]));
    }
    return catalog;
  }

  signature(entry) {
    return JSON.stringify([entry.token, entry.base, entry.flipped, entry.outline]);
  }

  /** An object's outline in its own frame: the server's layout, else the catalog's. */
  shape(entry, kind) {
    const known = this.layoutShapes.get(entry.id);
    if (known && known.signature === this.signature(entry)) return known.outline;
    let outline = null;
    if (kind === "ship") outline = this.baseShapes?.get(entry.base);
    else if (entry.outline) outline = entry.outline;
    else outline = this.tokenShapes?.get(entry.token);
    if (outline && kind === "obstacle" && entry.flipped) outline = mirrored(outline);
    return outline || null;
  }

  shapeOf(id) {
    const found = this.board.find(id);
    return found ? this.shape(found.entry, found.kind === "ships" ? "ship" : "obstacle") : null;
  }

  layoutKeyOf(scene) {
    const entries = [...(scene.obstacles || []), ...(scene.ships || [])].map((e) => [e.id, this.signature(e)]);
    return JSON.stringify([scene.ruleset, scene.area, scene.constants, entries]);
  }

  /** After every change: redraw the pieces at once, then ask for the verdict (and layout). */
  async refresh(why) {
    const scene = this.board.scene;
    const raw = this.board.raw;
    const seq = (this.checkSeq += 1);
    const started = this.dropStarted;
    this.dropStarted = null;
    this.track(+1);
    try {
      const ruleset = scene.ruleset || "xwing2";
      const catalog = await this.ensureCatalog(ruleset);
      if (seq !== this.checkSeq) return;
      this.drawPieces();
      const key = this.layoutKeyOf(scene);
      const layoutWanted = key !== this.layoutKey;
      const verdict = api.query({ op: "check", margins: true }, raw);
      // asked at once, beside the verdict; a refusal is reported once, by the verdict
      const layout = layoutWanted ? api.layout(raw).catch((error) => error) : null;
      const report = await verdict;
      if (api.lastQueryCpuMs !== null) this.checkTimes = [...this.checkTimes.slice(-2), api.lastQueryCpuMs];
      if (seq !== this.checkSeq) return;
      this.storedReport = report;
      this.verdict.show(report);
      if (["drag", "keys", "turn", "nudge", "add", "flip"].includes(why)) this.sayVerdict(report);
      if (started !== null) {
        // from the drop (or the key's pause) to the verdict in the page, then on screen
        const timing = { why, ms: performance.now() - started, painted: null };
        await new Promise((resolve) => requestAnimationFrame(resolve));
        timing.painted = performance.now() - started;
        this.timings.push(timing);
        window.boardTimings = this.timings;
      }
      if (layout) {
        const answer = await layout;
        if (answer instanceof Error) throw answer;
        if (seq !== this.checkSeq) return;
        this.layoutKey = key;
        this.layoutShapes = new Map(
          answer.objects.map((o) => {
            const found = this.board.find(o.id);
            return [o.id, { outline: o.local_outline, signature: found ? this.signature(found.entry) : "" }];
          }),
        );
        this.mat.drawArea(answer, ruleset);
        this.drawPieces();
        this.verdict.show(report);
      }
      // the menus say what the scene says (a refused change leaves them as they were)
      this.tools.fillTable(scene, catalog);
      if (this.tools.measured) this.tools.remeasure();
      if (this.tools.preview && why !== "move") this.tools.discard();
    } catch (error) {
      if (seq === this.checkSeq) this.say(`Verdict: ${error.message}`, true);
    } finally {
      this.track(-1);
    }
  }

  drawPieces() {
    if (this.selected && !this.board.find(this.selected)) this.selected = null;
    this.pieces = this.mat.drawPieces(this.board.scene, (e, k) => this.shape(e, k), this.kinds, this.selected);
    this.showSelection();
  }

  /** Take the marks of the last verdict off every piece. */
  unmarkPieces() {
    for (const [id, piece] of this.pieces) {
      piece.classList.remove("in-broken", "in-contested");
      if (piece.label) piece.label.textContent = id;
    }
  }

  /** Where a piece is as the verdict shown has it: the followed piece's live place, else its own. */
  placeOf(entry) {
    const live = this.livePose;
    return live && live.id === entry.id ? [live.x, live.y] : entry.at;
  }

  /**
   * How long the table's check takes, ms: the server's processor time (little changed by a
   * busy machine), the least of the last three (a first check is a cold one).
   */
  get checkMs() {
    return this.checkTimes.length ? Math.min(...this.checkTimes) : null;
  }

  markPiece(id, cls) {
    const piece = this.pieces.get(id);
    if (piece) piece.classList.add(`in-${cls}`);
    if (piece && piece.label && !piece.label.textContent.startsWith("✗")) piece.label.textContent = `✗ ${id}`;
  }

  highlight(ids) {
    for (const [id, piece] of this.pieces) piece.classList.toggle("highlight", ids.includes(id));
  }

  setHovered(id) {
    this.hovered = id;
    this.verdict.hover(id);
  }

  // -- selection ---------------------------------------------------------------------------

  pick(id, { fromKeyboard = false } = {}) {
    this.selected = id;
    this.showSelection();
    const piece = this.pieces.get(id);
    if (fromKeyboard && piece) piece.focus();
    this.verdict.hover(id);
    this.tools.picked(id);
  }

  showSelection() {
    for (const [id, piece] of this.pieces) piece.classList.toggle("selected", id === this.selected);
    const panel = document.getElementById("selection");
    const found = this.selected && this.board.find(this.selected);
    if (!found) {
      panel.textContent = "Nothing selected: click a piece, or Tab to it and press Enter.";
      this.interaction.drawHandle(null);
      return;
    }
    const { entry } = found;
    const ship = found.kind === "ships";
    const angle = ship ? (entry.heading ?? (entry.player === 2 ? 270 : 90)) : (entry.angle ?? 0);
    const what = ship ? `${entry.base} ship` : entry.token || entry.kind || "obstacle";
    const short = (v) => String(Math.round(v * 100) / 100);
    panel.textContent = `${entry.id} (${what}${entry.flipped ? ", flipped" : ""}): x ${short(entry.at[0])} mm, y ${short(entry.at[1])} mm, ${ship ? "heading" : "angle"} ${short(angle)}°`;
    panel.title = `exactly: x ${entry.at[0]}, y ${entry.at[1]}, ${angle}°`;
    document.querySelector("[data-action=flip]").disabled = ship;
    this.interaction.drawHandle(this.selected, entry.at[0], entry.at[1], angle);
  }

  escape() {
    this.tools.measureFrom = null;
    delete document.body.dataset.mode;
    this.tools.discard();
    this.selected = null;
    this.showSelection();
    this.say("");
  }

  focusManeuver() {
    this.tools.maneuver.focus();
  }

  focusPalette() {
    this.tools.palette.focus();
  }

  // -- actions -----------------------------------------------------------------------------

  click(event) {
    const control = event.target.closest("[data-action]");
    if (!control || control.classList.contains("piece") || control.disabled) return;
    event.preventDefault();
    this.run(control.dataset.action, control, event);
  }

  run(action, control = null, event = null) {
    this.interaction.flushKeys();
    const step = event && event.shiftKey ? 1 : 15;
    const actions = {
      undo: () => this.board.undo(),
      redo: () => this.board.redo(),
      "rotate-left": () => this.turn(step),
      "rotate-right": () => this.turn(-step),
      flip: () => this.flip(),
      delete: () => this.remove(),
      nudge: () => this.nudge(control),
      "nudge-shortest": () => this.nudge(control, "shortest"),
      "nudge-all": () => this.nudgeAll(),
      measure: () => this.tools.measureAction(),
      "close-up": () => this.tools.closeUp(),
      move: () => this.tools.previewMove(),
      "apply-move": () => this.tools.applyMove(),
      "discard-move": () => this.tools.discard(),
      add: () => this.tools.add(),
      load: () => document.getElementById("file-input").click(),
      save: () => this.tools.save(),
      "download-scene": () => this.tools.downloadScene(),
      "download-picture": () => this.tools.downloadPicture(),
    };
    if (actions[action]) actions[action]();
  }

  setPose(id, pose, why) {
    return this.board.change((scene) => {
      const entry = [...(scene.obstacles || []), ...(scene.ships || [])].find((e) => e.id === id);
      if (!entry) return;
      if (pose.x !== undefined) entry.at = [pose.x, pose.y];
      if (pose.angle !== undefined) {
        if ((scene.ships || []).includes(entry)) entry.heading = pose.angle;
        else entry.angle = pose.angle;
      }
    }, why);
  }

  needSelection(what) {
    if (this.selected && this.board.find(this.selected)) return this.board.find(this.selected);
    this.say(`${what}: select a piece first (click it, or Tab to it and press Enter).`, true);
    return null;
  }

  turn(degrees) {
    const found = this.needSelection("Rotate");
    if (!found) return;
    const ship = found.kind === "ships";
    const { entry } = found;
    const now = ship ? (entry.heading ?? (entry.player === 2 ? 270 : 90)) : (entry.angle ?? 0);
    this.setPose(entry.id, { angle: roundAngle(now + degrees) }, "turn");
  }

  flip() {
    const found = this.needSelection("Flip");
    if (!found) return;
    if (found.kind === "ships") {
      this.say("Flip: only obstacle tokens turn over.", true);
      return;
    }
    const id = found.entry.id;
    this.board.change((scene) => {
      const entry = scene.obstacles.find((e) => e.id === id);
      entry.flipped = !entry.flipped;
    }, "flip");
  }

  remove() {
    const found = this.needSelection("Delete");
    if (!found) return;
    const id = found.entry.id;
    this.board.change((scene) => {
      scene[found.kind] = scene[found.kind].filter((e) => e.id !== id);
    }, "delete");
    this.selected = null;
    this.say(`Deleted ${id} (Ctrl+Z brings it back).`);
  }

  /**
   * Apply the fix of a violation (the button's, else the first one's): by default the
   * placeable move, clear of the contested zone; `which` "shortest" the shortest move.
   */
  nudge(control, which = "placeable") {
    const report = this.verdict.report;
    if (!report) return;
    const index = control && control.dataset.index !== undefined ? Number(control.dataset.index) : -1;
    const violation = index >= 0 ? report.violations[index] : report.violations.find((v) => v.fix);
    if (!violation || !violation.fix) {
      this.say(report.legal ? "The table is legal: nothing to nudge." : "No fix to apply: no legal position at this rotation.", true);
      return;
    }
    const { object } = violation.fix;
    const move = fixMove(violation.fix, which);
    const how = move === violation.fix.move ? "the shortest fix, just past the line" : `${mm(violation.fix.placeable.clearance)} mm past every line`;
    this.board.change((scene) => {
      const entry = [...(scene.obstacles || []), ...(scene.ships || [])].find((e) => e.id === object);
      // Not rounded: the fix lies just past the line, and rounding could put it back on it.
      entry.at = [entry.at[0] + move[0], entry.at[1] + move[1]];
    }, "nudge");
    this.say(`Nudged ${object} by ${Math.hypot(move[0], move[1]).toFixed(1)} mm (${how}).`);
  }

  /**
   * "Nudge all": every placeable fix, one after another until the table is legal or no fix
   * is left (the server's `tabletop fix`), made as one change that one undo takes back.
   */
  async nudgeAll() {
    if (!this.verdict.report || this.verdict.report.legal) {
      this.say("The table is legal: nothing to nudge.", true);
      return;
    }
    this.track(+1);
    try {
      const answer = await api.nudgeAll(this.board.raw);
      if (answer.moves.length === 0) {
        this.say("No fix to apply: no legal position at this rotation.", true);
        return;
      }
      const ends = new Map(answer.moves.map((m) => [m.object, m.to]));
      this.board.change((scene) => {
        for (const entry of scene.obstacles || []) if (ends.has(entry.id)) entry.at = [...ends.get(entry.id)];
      }, "nudge-all");
      const names = [...ends.keys()].join(", ");
      const left = answer.remaining.length;
      this.say(
        answer.legal
          ? `Nudged ${names} (${answer.moves.length} move${answer.moves.length === 1 ? "" : "s"}): legal.`
          : `Nudged ${names}; still illegal: ${left} rule${left === 1 ? "" : "s"} no nudge can settle.`,
        !answer.legal,
      );
    } catch (error) {
      this.say(`Nudge all: ${error.message}`, true);
    } finally {
      this.track(-1);
    }
  }
}

const app = new App();
window.boardApp = app;
app.start();
