// Small SVG helpers. The mat is drawn in table millimetres: the "world" group flips y so
// that scene coordinates (origin bottom-left, y up) draw as they lie on the table; text
// is drawn outside it, in display coordinates (y down), so that it reads upright.

const NS = "http://www.w3.org/2000/svg";

export function el(name, attributes = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attributes)) {
    if (value !== null && value !== undefined) node.setAttribute(key, String(value));
  }
  if (parent) parent.appendChild(node);
  return node;
}

export function text(parent, x, y, content, attributes = {}) {
  const node = el("text", { x, y, ...attributes }, parent);
  node.textContent = content;
  return node;
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
}

export function points(outline) {
  return outline.map(([x, y]) => `${x},${y}`).join(" ");
}

/** Rotate (degrees, counter-clockwise) and move a local outline onto the table. */
export function placed(outline, x, y, angle) {
  const r = (angle * Math.PI) / 180;
  const c = Math.cos(r);
  const s = Math.sin(r);
  return outline.map(([u, v]) => [x + c * u - s * v, y + s * u + c * v]);
}

export function poseTransform(x, y, angle) {
  return `translate(${x} ${y}) rotate(${angle})`;
}

/** Millimetres as the command line prints them: one decimal. */
export function mm(value) {
  return (Math.round(value * 10) / 10).toFixed(1);
}

export function signed(value) {
  const shown = mm(value);
  return value > 0 ? `+${shown}` : shown.replace("-", "−");
}
