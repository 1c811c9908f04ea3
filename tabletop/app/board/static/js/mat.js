// The mat: the play area to scale, its edges named, the regions the renderer draws, the
// range ruler, and the pieces from the server's outlines with their ids as labels.

import { clear, el, points, poseTransform, text } from "./svg.js";

const MARGIN = 70; // mm of page around the play area, for edge names and the ruler

const FALLBACK_RULER = {
  armada: { kind: "distance", lines: [76.5, 124.5, 185.0, 245.0, 304.8] },
  other: { kind: "range", lines: [100.0, 200.0, 300.0] },
};

export class Mat {
  constructor(svg) {
    this.svg = svg;
    this.width = 914.4;
    this.height = 914.4;
    this.u = 1;
    this.display = el("g", { id: "display" }, svg);
    this.world = el("g", { id: "world" }, this.display);
    this.areaGroup = el("g", { id: "area" }, this.world);
    this.regionGroup = el("g", { id: "regions" }, this.world);
    this.marginGroup = el("g", { id: "margins", class: "overlay" }, this.world);
    this.pieceGroup = el("g", { id: "pieces" }, this.world);
    this.overlay = el("g", { id: "overlay", class: "overlay" }, this.world);
    this.toolLayer = el("g", { id: "tools" }, this.world);
    this.labels = el("g", { id: "labels", class: "labels" }, this.display);
    this.overlayLabels = el("g", { id: "overlay-labels", class: "labels" }, this.display);
    this.frame = el("g", { id: "frame", class: "labels" }, this.display);
    this.toolLabels = el("g", { id: "tool-labels", class: "labels" }, this.display);
    this.defs();
  }

  defs() {
    const defs = el("defs", {}, this.svg);
    const hatch = el(
      "pattern",
      { id: "hatch", width: 14, height: 14, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      defs,
    );
    el("rect", { width: 14, height: 14, class: "hatch-ground" }, hatch);
    el("line", { x1: 0, y1: 0, x2: 0, y2: 14, class: "hatch-line" }, hatch);
    const arrow = el(
      "marker",
      { id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" },
      defs,
    );
    el("path", { d: "M0,0 L10,5 L0,10 z", class: "arrow-head" }, arrow);
  }

  /** Table millimetres (y up) to display millimetres (y down). */
  toDisplay(x, y) {
    return [x, this.height - y];
  }

  /** The table point under a pointer event. */
  worldPoint(event) {
    const point = this.svg.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    const local = point.matrixTransform(this.world.getScreenCTM().inverse());
    return [local.x, local.y];
  }

  /** The page (client) position of a table point. */
  clientPoint(x, y) {
    const point = this.svg.createSVGPoint();
    point.x = x;
    point.y = y;
    const screen = point.matrixTransform(this.world.getScreenCTM());
    return [screen.x, screen.y];
  }

  drawArea(layout, ruleset) {
    this.width = layout.area.width;
    this.height = layout.area.height;
    const { width: w, height: h } = this;
    this.u = Math.max(w, h) / 914.4; // page millimetres per 3' table millimetre
    const margin = MARGIN * this.u;
    this.svg.setAttribute("viewBox", `${-margin} ${-margin} ${w + 2 * margin} ${h + 2 * margin}`);
    this.world.setAttribute("transform", `translate(0 ${h}) scale(1 -1)`);
    // text and marks keep their size on the page whatever the table's size
    this.svg.style.setProperty("--u", String(Math.max(w, h) / 914.4));
    clear(this.areaGroup);
    el("rect", { x: 0, y: 0, width: w, height: h, class: "play-area" }, this.areaGroup);
    clear(this.regionGroup);
    for (const region of layout.regions) {
      const shape = el(
        "polygon",
        { points: points(region.outline), class: `region region-${region.kind}`, "data-region": region.kind },
        this.regionGroup,
      );
      el("title", {}, shape).textContent = region.label;
    }
    this.drawFrame(layout, ruleset);
  }

  drawFrame(layout, ruleset) {
    const { width: w, height: h, u } = this;
    clear(this.frame);
    text(this.frame, w / 2, -12 * u, "top edge · player 2", { class: "edge-name", "text-anchor": "middle" });
    text(this.frame, w / 2, h + 22 * u, "bottom edge · player 1", { class: "edge-name", "text-anchor": "middle" });
    text(this.frame, -12 * u, h / 2, "left edge", {
      class: "edge-name",
      "text-anchor": "middle",
      transform: `rotate(-90 ${-12 * u} ${h / 2})`,
    });
    text(this.frame, w + 12 * u, h / 2, "right edge", {
      class: "edge-name",
      "text-anchor": "middle",
      transform: `rotate(90 ${w + 12 * u} ${h / 2})`,
    });
    for (const region of layout.regions) {
      if (region.kind === "no-obstacle" || region.kind === "deployment") this.regionLabel(region);
    }
    const ruler = layout.ruler || (ruleset === "armada" ? FALLBACK_RULER.armada : FALLBACK_RULER.other);
    this.drawRuler(ruler);
  }

  regionLabel(region) {
    const xs = region.outline.map((p) => p[0]);
    const ys = region.outline.map((p) => p[1]);
    const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    if (x1 - x0 < 2 * (y1 - y0) || y1 - y0 < 20 * this.u) return; // label the wide strips only
    // a deployment zone is named along its own edge, the no-obstacle strip at its middle
    const edgeY = y1 >= this.height - 1 ? y1 - 22 * this.u : y0 + 14 * this.u;
    const [dx, dy] = this.toDisplay((x0 + x1) / 2, region.kind === "deployment" ? edgeY : (y0 + y1) / 2);
    const words = region.kind === "deployment" ? region.label : `${region.label} (hatched)`;
    text(this.frame, dx, dy, words, { class: `region-name region-name-${region.kind}`, "text-anchor": "middle" });
  }

  drawRuler({ kind, lines }) {
    const u = this.u;
    const y = this.height + 36 * u;
    const group = el("g", { class: "ruler", "data-ruler": kind }, this.frame);
    let start = 0;
    lines.forEach((end, index) => {
      el("rect", { x: start, y, width: end - start, height: 12 * u, class: `ruler-band band-${index % 2}` }, group);
      text(group, (start + end) / 2, y + 10 * u, String(index + 1), { class: "ruler-number", "text-anchor": "middle" });
      text(group, end, y + (index % 2 ? 34 : 24) * u, `${end} mm`, { class: "ruler-tick", "text-anchor": "middle" });
      start = end;
    });
    text(group, lines[lines.length - 1] + 14 * u, y + 10 * u, `${kind} ruler`, { class: "ruler-name" });
  }

  /**
   * Draw every piece of `scene`; `shape(entry, kind)` gives its local outline.
   * Returns the map id -> piece element.
   */
  drawPieces(scene, shape, kinds, selected) {
    clear(this.pieceGroup);
    clear(this.labels);
    const pieces = new Map();
    const entries = [
      ...(scene.obstacles || []).map((e) => ["obstacle", e]),
      ...(scene.ships || []).map((e) => ["ship", e]),
    ];
    for (const [kind, entry] of entries) {
      const outline = shape(entry, kind);
      if (!outline) continue;
      const piece = this.piece(kind, entry, outline, kinds);
      if (entry.id === selected) piece.classList.add("selected");
      pieces.set(entry.id, piece);
    }
    return pieces;
  }

  piece(kind, entry, outline, kinds) {
    const [x, y] = entry.at;
    const angle = kind === "ship" ? (entry.heading ?? (entry.player === 2 ? 270 : 90)) : (entry.angle ?? 0);
    const sub = kind === "ship" ? `player-${entry.player ?? 1}` : `kind-${entry.kind || kinds.get(entry.token) || "other"}`;
    const what = kind === "ship" ? `${entry.base} ship, player ${entry.player ?? 1}` : entry.token || entry.kind || "obstacle";
    const piece = el(
      "g",
      {
        class: `piece ${kind} ${sub}`,
        "data-id": entry.id,
        "data-kind": kind,
        "data-x": x,
        "data-y": y,
        "data-angle": angle,
        "data-action": "select",
        tabindex: 0,
        role: "button",
        "aria-label": `${entry.id}: ${what} at ${x}, ${y} mm, ${kind === "ship" ? "heading" : "angle"} ${angle}°`,
        transform: poseTransform(x, y, angle),
      },
      this.pieceGroup,
    );
    el("polygon", { points: points(outline), class: "outline" }, piece);
    if (kind === "ship") this.front(piece, outline);
    const [dx, dy] = this.toDisplay(x, y);
    const label = text(this.labels, dx, dy, entry.id, {
      class: "piece-label",
      "data-label-for": entry.id,
      "text-anchor": "middle",
      "dominant-baseline": "central",
    });
    piece.label = label;
    return piece;
  }

  /** A ship's front: the arc lines from the centre to the front corners and a chevron. */
  front(piece, outline) {
    const xs = outline.map((p) => p[0]);
    const ys = outline.map((p) => p[1]);
    const fx = Math.max(...xs);
    const half = (Math.max(...ys) - Math.min(...ys)) / 2;
    el("path", { d: `M${fx},${half} L0,0 L${fx},${-half}`, class: "front-arc" }, piece);
    el("path", { d: `M${fx - 9},${6} L${fx - 2},0 L${fx - 9},${-6} z`, class: "front-chevron" }, piece);
  }

  /** Show a piece at a pose without touching the scene (while it is dragged or turned). */
  pose(piece, x, y, angle) {
    piece.setAttribute("transform", poseTransform(x, y, angle));
    if (piece.label) {
      const [dx, dy] = this.toDisplay(x, y);
      piece.label.setAttribute("x", dx);
      piece.label.setAttribute("y", dy);
    }
  }
}
