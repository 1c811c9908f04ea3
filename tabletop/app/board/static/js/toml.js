// The scene as a TOML scene file (scene-format.md): top-level keys, [constants], then
// [[obstacles]] and [[ships]]. Lengths and angles are written as floats.

const FLOAT_KEYS = new Set(["at", "angle", "heading", "outline", "width", "height"]);

function key(name) {
  return /^[A-Za-z0-9_-]+$/.test(name) ? name : JSON.stringify(name);
}

function number(value, float) {
  if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
  const shown = String(value);
  if (float && Number.isInteger(value) && !/e/i.test(shown)) return `${shown}.0`;
  return shown;
}

function value(item, float) {
  if (typeof item === "string") return JSON.stringify(item);
  if (typeof item === "boolean") return String(item);
  if (typeof item === "number") return number(item, float);
  if (Array.isArray(item)) return `[${item.map((v) => value(v, float)).join(", ")}]`;
  if (item && typeof item === "object") {
    const parts = Object.entries(item).map(([k, v]) => `${key(k)} = ${value(v, float || FLOAT_KEYS.has(k))}`);
    return `{ ${parts.join(", ")} }`;
  }
  throw new Error(`cannot write ${JSON.stringify(item)} in TOML`);
}

function isTableArray(item) {
  return Array.isArray(item) && item.length > 0 && item.every((v) => v && typeof v === "object" && !Array.isArray(v));
}

export function sceneToml(scene) {
  const lines = ["# A scene drawn on the tabletop board (scene-format.md)."];
  const tables = [];
  for (const [name, item] of Object.entries(scene)) {
    if (name === "constants" && item && typeof item === "object" && !Array.isArray(item)) {
      tables.push(["table", name, item]);
    } else if (isTableArray(item)) {
      tables.push(["array", name, item]);
    } else if (!(Array.isArray(item) && item.length === 0)) {
      lines.push(`${key(name)} = ${value(item, FLOAT_KEYS.has(name))}`);
    }
  }
  for (const [form, name, item] of tables) {
    if (form === "table") {
      lines.push("", `[${key(name)}]`);
      for (const [k, v] of Object.entries(item)) lines.push(`${key(k)} = ${value(v, false)}`);
      continue;
    }
    for (const entry of item) {
      lines.push("", `[[${key(name)}]]`);
      for (const [k, v] of Object.entries(entry)) lines.push(`${key(k)} = ${value(v, FLOAT_KEYS.has(k))}`);
    }
  }
  return `${lines.join("\n")}\n`;
}
