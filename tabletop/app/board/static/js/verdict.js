// The live verdict: `check --margins` of the whole table as a text list (read out by a
// screen reader) and on the mat: each violation's closest points joined by a line with
// its numbers, contested ones marked with their ruling, the placeable fix as a ghost with
// a nudge button (the shortest fix a dotted outline, one control away). Legal measurements
// near their limit show their margin when their piece is hovered.

import { clear, el, mm, placed, points, signed, text } from "./svg.js";

/** Measurements at most this far on the legal side of their line count as near it, mm. */
export const NEAR_LIMIT_MM = 25.4;

const MORE_THAN = new Set(["obstacle-edge", "obstacle-spacing", "obstacle-setup-area"]);
const WITHIN = new Set(["ship-deployment"]);

/** "12.3 mm, must be > 200 mm": what a violation's line is labelled with. */
export function ruleWords(item) {
  if (item.distance === null || item.distance === undefined) return "";
  if (MORE_THAN.has(item.rule)) return `${mm(item.distance)} mm, must be > ${mm(item.limit)} mm`;
  if (WITHIN.has(item.rule)) return `${mm(item.distance)} mm, must be ≤ ${mm(item.limit)} mm`;
  if (item.rule === "ship-overlap") {
    return item.margin < 0 ? `overlap ${mm(item.distance)} mm` : `${mm(item.distance)} mm apart`;
  }
  if (item.rule === "outside-play-area") {
    return item.margin < 0 ? `${mm(item.distance)} mm off the table` : `${mm(item.distance)} mm inside the edge`;
  }
  return `${mm(item.distance)} mm, limit ${mm(item.limit)} mm`;
}

/**
 * The move a nudge applies: by default `check`'s placeable fix (clear of the contested
 * zone, where a hand can put the piece); "shortest" (or no placeable move at this
 * rotation) the shortest, just past the line.
 */
export function fixMove(fix, which = "placeable") {
  return which !== "shortest" && fix.placeable ? fix.placeable.move : fix.move;
}

function moveLength(fix, which = "placeable") {
  const [dx, dy] = fixMove(fix, which);
  return Math.hypot(dx, dy);
}

export class VerdictView {
  constructor(app) {
    this.app = app;
    this.list = document.getElementById("verdict");
    this.banner = document.getElementById("verdict-banner");
    this.nearList = document.getElementById("near-limits");
    this.floating = document.getElementById("mat-nudge");
    this.report = null;
  }

  show(report) {
    this.report = report;
    this.renderList(report);
    this.drawOverlay(report);
    this.placeFloating();
  }

  renderList(report) {
    const { list, banner } = this;
    clear(list);
    list.dataset.legal = String(report.legal);
    banner.classList.toggle("legal", report.legal);
    banner.classList.toggle("illegal", !report.legal);
    const count = report.violations.length;
    banner.querySelector(".verdict-words").textContent = report.legal
      ? "✓ Legal: no rule broken"
      : `✗ Illegal: ${count} rule${count === 1 ? "" : "s"} broken`;
    const mainNudge = banner.querySelector("[data-action=nudge]");
    const firstFix = report.violations.find((v) => v.fix);
    mainNudge.hidden = !firstFix;
    if (firstFix) mainNudge.dataset.object = firstFix.fix.object;
    banner.querySelector("[data-action=nudge-all]").hidden = !firstFix;
    report.violations.forEach((violation, index) => list.appendChild(this.item(violation, index)));
    this.renderNear(report);
  }

  item(violation, index) {
    const li = document.createElement("li");
    li.className = `violation${violation.contested ? " contested" : ""}`;
    li.dataset.rule = violation.rule;
    li.dataset.objects = violation.objects.join(",");
    if (violation.margin !== null) li.dataset.margin = String(violation.margin);
    if (violation.distance !== null) li.dataset.distance = String(violation.distance);
    if (violation.limit !== null) li.dataset.limit = String(violation.limit);
    li.dataset.contested = String(violation.contested);
    li.dataset.index = String(index);
    const head = document.createElement("div");
    head.className = "violation-head";
    head.textContent = `✗ ${violation.rule}${violation.contested ? " · CONTESTED" : ""}`;
    const message = document.createElement("div");
    message.textContent = violation.message;
    li.append(head, message);
    if (violation.ruling) li.appendChild(this.rulingLine(violation.ruling));
    if (violation.margin !== null) {
      const numbers = document.createElement("div");
      numbers.className = "numbers";
      numbers.textContent = `${ruleWords(violation)} · margin ${signed(violation.margin)} mm`;
      li.appendChild(numbers);
    }
    if (violation.fix) {
      const button = document.createElement("button");
      button.dataset.action = "nudge";
      button.dataset.object = violation.fix.object;
      button.dataset.index = String(index);
      button.textContent = `Nudge ${violation.fix.object} to legal (${mm(moveLength(violation.fix))} mm)`;
      if (violation.fix.placeable) button.title = `${violation.fix.placeable.clearance} mm past every line: ${violation.fix.placeable.way}`;
      const shortest = document.createElement("button");
      shortest.dataset.action = "nudge-shortest";
      shortest.dataset.object = violation.fix.object;
      shortest.dataset.index = String(index);
      shortest.className = "nudge-shortest";
      shortest.textContent = `shortest (${mm(moveLength(violation.fix, "shortest"))} mm, just past the line)`;
      li.append(button, shortest);
    } else if (violation.fix === null) {
      const none = document.createElement("div");
      none.textContent = `No legal position for ${violation.objects[0]} at this rotation: turn it or move another piece.`;
      li.appendChild(none);
    }
    li.addEventListener("mouseenter", () => this.app.highlight(violation.objects));
    li.addEventListener("mouseleave", () => this.app.highlight([]));
    return li;
  }

  near(report) {
    return (report.margins || []).filter((m) => m.margin !== null && m.margin >= 0 && m.margin <= NEAR_LIMIT_MM);
  }

  renderNear(report) {
    clear(this.nearList);
    const near = this.near(report);
    this.nearList.parentElement.hidden = near.length === 0;
    if (!near.length) return;
    document.getElementById("near-count").textContent = String(near.length);
    for (const margin of near) {
      const li = document.createElement("li");
      li.className = `near${margin.contested ? " contested" : ""}`;
      li.dataset.nearRule = margin.rule;
      li.dataset.nearObjects = margin.objects.join(",");
      li.textContent = `✓ ${margin.rule} ${margin.objects.join(" – ")}: ${ruleWords(margin)}, margin ${signed(margin.margin)} mm${margin.contested ? " · CONTESTED" : ""}`;
      if (margin.ruling) li.appendChild(this.rulingLine(margin.ruling));
      this.nearList.appendChild(li);
    }
  }

  /** The ruling a judge applies at a contested call's line, as `check` prints it. */
  rulingLine(words) {
    const line = document.createElement("div");
    line.className = "ruling";
    line.textContent = `Ruling: ${words}`;
    return line;
  }

  drawOverlay(report) {
    const { mat } = this.app;
    clear(mat.overlay);
    clear(mat.overlayLabels);
    this.app.unmarkPieces();
    const ghosts = new Set();
    report.violations.forEach((violation, index) => {
      const cls = violation.contested ? "contested" : "broken";
      if (violation.points) this.measureLine(violation, index, cls, ruleWords(violation), mat.overlay, mat.overlayLabels);
      for (const id of violation.objects) this.app.markPiece(id, cls);
      if (violation.fix && !ghosts.has(violation.fix.object)) {
        ghosts.add(violation.fix.object);
        this.ghost(violation.fix);
      }
    });
    this.hover(this.app.hovered);
  }

  measureLine(item, index, cls, words, group, labels) {
    const [[x0, y0], [x1, y1]] = item.points;
    const line = el("g", { class: `verdict-line ${cls}`, "data-violation": index }, group);
    el("line", { x1: x0, y1: y0, x2: x1, y2: y1, class: "halo" }, line);
    el("line", { x1: x0, y1: y0, x2: x1, y2: y1, class: "stroke" }, line);
    el("circle", { cx: x0, cy: y0, r: 3.5, class: "end" }, line);
    el("circle", { cx: x1, cy: y1, r: 3.5, class: "end" }, line);
    const [dx, dy] = this.app.mat.toDisplay((x0 + x1) / 2, (y0 + y1) / 2);
    const prefix = cls === "near" ? "✓ " : cls === "contested" ? "⚠ " : "✗ ";
    const suffix = item.contested ? " · contested" : "";
    this.callout(labels, dx, dy, `${prefix}${words}${suffix}`, `line-label ${cls}`, index);
  }

  /** A label in a box above the point (dx, dy), joined to it by a leader line. */
  callout(labels, dx, dy, words, cls, index) {
    const u = this.app.mat.u;
    const rise = (34 + 24 * (index % 3)) * u;
    const group = el("g", { class: `callout ${cls.replace("line-label ", "")}` }, labels);
    el("line", { x1: dx, y1: dy, x2: dx, y2: dy - rise, class: "leader" }, group);
    const label = text(group, dx, dy - rise - 5 * u, words, { class: cls, "text-anchor": "middle" });
    const box = label.getBBox();
    const pad = 4 * u;
    const rect = el("rect", {
      x: box.x - pad,
      y: box.y - pad / 2,
      width: box.width + 2 * pad,
      height: box.height + pad,
      rx: 3 * u,
      class: "callout-box",
    });
    group.insertBefore(rect, label);
    // keep the box on the page
    const limit = this.app.mat.width;
    const shift = Math.min(0, limit + 60 * u - (box.x + box.width + pad)) + Math.max(0, -60 * u - (box.x - pad));
    if (shift) {
      label.setAttribute("x", dx + shift);
      rect.setAttribute("x", box.x - pad + shift);
    }
  }

  ghost(fix) {
    const { mat } = this.app;
    const found = this.app.board.find(fix.object);
    if (!found) return;
    const kind = found.kind === "ships" ? "ship" : "obstacle";
    const outline = this.app.shape(found.entry, kind);
    if (!outline) return;
    const [x, y] = this.app.placeOf(found.entry);
    const live = this.app.livePose && this.app.livePose.id === fix.object ? this.app.livePose : null;
    const angle = live ? live.angle : kind === "ship" ? (found.entry.heading ?? 90) : (found.entry.angle ?? 0);
    // the shortest fix, just past the line: a dotted outline, under the placeable ghost
    const [sx, sy] = [x + fix.move[0], y + fix.move[1]];
    if (fix.placeable) {
      const shortest = el("g", { class: "ghost shortest", "data-ghost-shortest-for": fix.object }, mat.overlay);
      el("polygon", { points: points(placed(outline, sx, sy, angle)) }, shortest);
    }
    const [mx, my] = fixMove(fix);
    const [gx, gy] = [x + mx, y + my];
    const ghost = el("g", { class: "ghost", "data-ghost-for": fix.object, "data-x": gx, "data-y": gy }, mat.overlay);
    el("polygon", { points: points(placed(outline, gx, gy, angle)) }, ghost);
    el("line", { x1: x, y1: y, x2: gx, y2: gy, class: "fix-arrow", "marker-end": "url(#arrow)" }, ghost);
    const reach = Math.max(...outline.map(([u, v]) => Math.hypot(u, v)));
    const [dx, dy] = mat.toDisplay(gx, gy - reach - 12 * mat.u);
    const clear = fix.placeable ? `, ${mm(fix.placeable.clearance)} mm past the line` : "";
    text(mat.overlayLabels, dx, dy, `legal here (${mm(moveLength(fix))} mm away${clear})`, {
      class: "ghost-label",
      "text-anchor": "middle",
    });
    this.ghostAt = [gx, gy, fix.object];
  }

  /** The floating "Nudge to legal" button beside the first ghost. */
  placeFloating() {
    const report = this.report;
    const fix = report && report.violations.find((v) => v.fix);
    this.floating.hidden = !fix;
    if (!fix) return;
    const found = this.app.board.find(fix.fix.object);
    if (!found) return;
    const [x, y] = this.app.placeOf(found.entry);
    const outline = this.app.shapeOf(fix.fix.object) || [[0, 0]];
    const reach = Math.max(...outline.map(([u, v]) => Math.hypot(u, v)));
    // beyond the ghost, on the side away from the piece: the lines of the violation lie
    // between the piece and what it is too near, behind the ghost
    const [mx, my] = fixMove(fix.fix);
    const length = Math.hypot(mx, my) || 1;
    const [ux, uy] = [mx / length, my / length];
    const gap = reach + 10 * this.app.mat.u;
    const [cx, cy] = this.app.mat.clientPoint(x + mx + ux * gap, y + my + uy * gap);
    const box = this.floating.parentElement.getBoundingClientRect();
    this.floating.dataset.object = fix.fix.object;
    const width = this.floating.offsetWidth || 140;
    const height = this.floating.offsetHeight || 32;
    const left = cx - box.left - width / 2 + (ux * width) / 2;
    const top = cy - box.top - height / 2 - (uy * height) / 2;
    this.floating.style.left = `${Math.max(4, Math.min(box.width - width - 4, left))}px`;
    this.floating.style.top = `${Math.max(4, Math.min(box.height - height - 4, top))}px`;
  }

  /** Draw the near-limit margins of the piece `id` (null: none). */
  hover(id) {
    const { mat } = this.app;
    clear(mat.marginGroup);
    const labels = mat.overlayLabels;
    for (const node of labels.querySelectorAll(".near")) node.remove();
    if (!id || !this.report) return;
    this.near(this.report)
      .filter((m) => m.objects.includes(id) && m.points)
      .forEach((margin, index) => this.measureLine(margin, index, "near", `${ruleWords(margin)} · margin ${signed(margin.margin)} mm`, mat.marginGroup, labels));
  }
}
