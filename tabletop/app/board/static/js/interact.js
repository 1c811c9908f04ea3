// Moving pieces: drag (the piece follows the pointer one to one; the board changes when
// it is dropped), the rotate handle, and the keyboard (arrows 1 mm, Shift 0.1 mm; Q / E
// turn 1°, Shift 15°). Key presses in a quick run are one change, so one undo step. While
// a piece moves, its verdict follows it (live.js); the drop is the change.

import { el, mm } from "./svg.js";

const KEY_COMMIT_MS = 250;

export function roundMm(value) {
  return Math.round(value * 100) / 100 + 0;
}

export function roundAngle(value) {
  const turned = Math.round((((value % 360) + 360) % 360) * 10) / 10;
  return turned >= 360 ? 0 : turned + 0;
}

export class Interaction {
  constructor(app) {
    this.app = app;
    this.drag = null;
    this.keyed = null; // {id, x, y, angle, timer}
    this.handleGroup = el("g", { id: "handle" }, app.mat.world);
    app.mat.pieceGroup.addEventListener("pointerdown", (e) => this.down(e));
    app.mat.svg.addEventListener("pointermove", (e) => this.move(e));
    app.mat.svg.addEventListener("pointerup", (e) => this.up(e));
    app.mat.svg.addEventListener("pointercancel", () => this.cancel());
    app.mat.pieceGroup.addEventListener("pointerover", (e) => this.hover(e));
    app.mat.pieceGroup.addEventListener("pointerout", () => this.app.setHovered(null));
    document.addEventListener("keydown", (e) => this.key(e));
  }

  pieceOf(event) {
    return event.target.closest ? event.target.closest(".piece") : null;
  }

  hover(event) {
    const piece = this.pieceOf(event);
    if (piece && !this.drag) this.app.setHovered(piece.dataset.id);
  }

  pose(id) {
    const found = this.app.board.find(id);
    if (!found) return null;
    const { entry } = found;
    const ship = found.kind === "ships";
    const angle = ship ? (entry.heading ?? (entry.player === 2 ? 270 : 90)) : (entry.angle ?? 0);
    return { x: entry.at[0], y: entry.at[1], angle, ship };
  }

  down(event) {
    if (event.button !== 0) return;
    const piece = this.pieceOf(event);
    if (!piece) return;
    event.preventDefault();
    this.flushKeys();
    const id = piece.dataset.id;
    this.app.pick(id);
    const pose = this.pose(id);
    if (!pose) return;
    piece.setPointerCapture(event.pointerId);
    this.drag = { id, piece, start: this.app.mat.worldPoint(event), pose, moved: false, kind: "move" };
  }

  downHandle(event) {
    if (event.button !== 0 || !this.app.selected) return;
    event.preventDefault();
    event.stopPropagation();
    this.flushKeys();
    const id = this.app.selected;
    const piece = this.app.pieces.get(id);
    const pose = this.pose(id);
    if (!piece || !pose) return;
    event.target.setPointerCapture(event.pointerId);
    this.drag = { id, piece, pose, moved: false, kind: "turn" };
  }

  move(event) {
    const drag = this.drag;
    if (!drag) return;
    const [px, py] = this.app.mat.worldPoint(event);
    if (drag.kind === "move") {
      const dx = px - drag.start[0];
      const dy = py - drag.start[1];
      if (!drag.moved && Math.hypot(dx, dy) < 0.5) return;
      drag.moved = true;
      drag.x = drag.pose.x + dx;
      drag.y = drag.pose.y + dy;
      this.app.mat.pose(drag.piece, drag.x, drag.y, drag.pose.angle);
      this.drawHandle(drag.id, drag.x, drag.y, drag.pose.angle);
      this.app.live.begin(drag.id);
      this.app.live.moved({ x: drag.x, y: drag.y });
    } else {
      const raw = (Math.atan2(py - drag.pose.y, px - drag.pose.x) * 180) / Math.PI;
      drag.moved = true;
      drag.angle = event.shiftKey ? roundAngle(raw) : roundAngle(Math.round(raw));
      this.app.mat.pose(drag.piece, drag.pose.x, drag.pose.y, drag.angle);
      this.drawHandle(drag.id, drag.pose.x, drag.pose.y, drag.angle);
      this.app.live.begin(drag.id);
      this.app.live.moved({ angle: drag.angle });
    }
    this.app.mat.svg.classList.add("dragging");
  }

  up() {
    const drag = this.drag;
    this.drag = null;
    this.app.mat.svg.classList.remove("dragging");
    this.app.live.end();
    if (!drag || !drag.moved) return;
    this.app.dropStarted = performance.now();
    if (drag.kind === "move") {
      this.app.setPose(drag.id, { x: roundMm(drag.x), y: roundMm(drag.y) }, "drag");
    } else {
      this.app.setPose(drag.id, { angle: drag.angle }, "turn");
    }
  }

  cancel() {
    const drag = this.drag;
    this.drag = null;
    this.app.mat.svg.classList.remove("dragging");
    this.app.live.end({ restore: true });
    if (drag) this.app.mat.pose(drag.piece, drag.pose.x, drag.pose.y, drag.pose.angle);
  }

  /** The rotate handle of the selected piece: a knob beyond its outline, on its angle. */
  drawHandle(id, x, y, angle) {
    while (this.handleGroup.firstChild) this.handleGroup.firstChild.remove();
    if (!id) return;
    const outline = this.app.shapeOf(id);
    if (!outline) return;
    const reach = Math.max(...outline.map(([u, v]) => Math.hypot(u, v))) + 16;
    const r = (angle * Math.PI) / 180;
    const [hx, hy] = [x + reach * Math.cos(r), y + reach * Math.sin(r)];
    el("line", { x1: x, y1: y, x2: hx, y2: hy, class: "handle-line" }, this.handleGroup);
    const knob = el("circle", { cx: hx, cy: hy, r: 8, class: "handle-knob", "data-handle": "rotate" }, this.handleGroup);
    el("title", {}, knob).textContent = `Drag to turn ${id} (keys Q / E: 1°, with Shift 15°)`;
    knob.addEventListener("pointerdown", (e) => this.downHandle(e));
  }

  /** Move or turn the selected piece by a key: shown at once, sent after a pause. */
  nudgeBy(dx, dy, dAngle) {
    const id = this.app.selected;
    if (!id) {
      this.app.say("Select a piece first: click it, or Tab to it and press Enter.");
      return;
    }
    if (!this.keyed || this.keyed.id !== id) {
      this.flushKeys();
      const pose = this.pose(id);
      if (!pose) return;
      this.keyed = { id, ...pose, timer: null };
    }
    const k = this.keyed;
    k.x = roundMm(k.x + dx);
    k.y = roundMm(k.y + dy);
    k.angle = roundAngle(k.angle + dAngle);
    const piece = this.app.pieces.get(id);
    if (piece) this.app.mat.pose(piece, k.x, k.y, k.angle);
    this.drawHandle(id, k.x, k.y, k.angle);
    this.app.say(`${id} at ${mm(k.x)}, ${mm(k.y)} mm, ${k.ship ? "heading" : "angle"} ${k.angle}°`);
    this.app.live.begin(id);
    this.app.live.moved({ x: k.x, y: k.y, angle: k.angle });
    clearTimeout(k.timer);
    k.timer = setTimeout(() => this.flushKeys(), KEY_COMMIT_MS);
    this.app.busy();
  }

  /** Send the pose the keys made, as one change. */
  flushKeys() {
    const k = this.keyed;
    this.keyed = null;
    if (!k) return;
    clearTimeout(k.timer);
    this.app.live.end();
    this.app.dropStarted = performance.now();
    this.app.setPose(k.id, { x: k.x, y: k.y, angle: k.angle }, "keys");
  }

  key(event) {
    const target = event.target;
    const typing = target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA");
    if (event.key === "Escape") {
      this.app.escape();
      return;
    }
    if (typing) return;
    const ctrl = event.ctrlKey || event.metaKey;
    const lower = event.key.toLowerCase();
    if (ctrl && lower === "z") {
      event.preventDefault();
      this.flushKeys();
      if (event.shiftKey) this.app.run("redo");
      else this.app.run("undo");
      return;
    }
    if (ctrl && lower === "y") {
      event.preventDefault();
      this.flushKeys();
      this.app.run("redo");
      return;
    }
    if (ctrl || event.altKey) return;
    const onPiece = target && target.classList && target.classList.contains("piece");
    if ((event.key === "Enter" || event.key === " ") && onPiece) {
      event.preventDefault();
      this.flushKeys();
      this.app.pick(target.dataset.id, { fromKeyboard: true });
      return;
    }
    const step = event.shiftKey ? 0.1 : 1;
    const turn = event.shiftKey ? 15 : 1;
    const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
    if (moves[event.key] && this.app.selected) {
      event.preventDefault();
      this.nudgeBy(moves[event.key][0], moves[event.key][1], 0);
      return;
    }
    const actions = {
      q: () => this.nudgeBy(0, 0, turn),
      "[": () => this.nudgeBy(0, 0, turn),
      e: () => this.nudgeBy(0, 0, -turn),
      "]": () => this.nudgeBy(0, 0, -turn),
      f: () => this.app.run("flip"),
      delete: () => this.app.run("delete"),
      backspace: () => this.app.run("delete"),
      m: () => this.app.run("measure"),
      n: () => this.app.run(event.shiftKey ? "nudge-shortest" : "nudge"),
      v: () => this.app.focusManeuver(),
      a: () => this.app.focusPalette(),
      "?": () => document.getElementById("keys").focus(),
    };
    const code = event.code === "BracketLeft" ? "[" : event.code === "BracketRight" ? "]" : lower;
    const action = actions[code];
    if (!action) return;
    event.preventDefault();
    if (code !== "q" && code !== "e" && code !== "[" && code !== "]") this.flushKeys();
    action();
  }
}
