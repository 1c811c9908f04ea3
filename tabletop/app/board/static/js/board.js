// The board as the page holds it: the scene text the server holds, its version, and the
// undo and redo stacks. Every change is one PUT of the whole scene; undo PUTs the earlier
// text unchanged, so the server holds the earlier scene byte for byte.

import * as api from "./api.js";

export class Board extends EventTarget {
  constructor() {
    super();
    this.version = 0;
    this.raw = "{}";
    this.scene = {};
    this.undoStack = [];
    this.redoStack = [];
    this.queue = Promise.resolve();
    this.pending = 0;
  }

  emit(type, detail = {}) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }

  setLocal(raw, why) {
    this.raw = raw;
    this.scene = JSON.parse(raw);
    this.emit("scene", { why });
  }

  async load() {
    const { version, raw } = await api.getScene();
    this.version = version;
    this.setLocal(raw, "load");
  }

  /** Poll: take the server's board when another tab changed it. */
  async sync() {
    if (this.pending > 0) return;
    const { version, raw } = await api.getScene();
    if (this.pending > 0 || version === this.version) return;
    this.version = version;
    this.setLocal(raw, "sync");
    this.emit("message", { text: `The board changed in another tab (version ${version}).` });
  }

  /** Apply `mutate` to a copy of the scene and send it; one undo step. */
  change(mutate, why = "change") {
    const next = structuredClone(this.scene);
    mutate(next);
    return this.replace(JSON.stringify(next), why);
  }

  /** Make `raw` (a scene's JSON text) the board; one undo step. */
  replace(raw, why = "change") {
    if (raw === this.raw) return Promise.resolve(true);
    const before = this.raw;
    this.undoStack.push(before);
    this.redoStack = [];
    return this.send(raw, before, why, () => {
      this.undoStack.pop();
    });
  }

  undo() {
    if (!this.undoStack.length) return Promise.resolve(false);
    const before = this.raw;
    const raw = this.undoStack.pop();
    this.redoStack.push(before);
    return this.send(raw, before, "undo", () => {
      this.redoStack.pop();
      this.undoStack.push(raw);
    });
  }

  redo() {
    if (!this.redoStack.length) return Promise.resolve(false);
    const before = this.raw;
    const raw = this.redoStack.pop();
    this.undoStack.push(before);
    return this.send(raw, before, "redo", () => {
      this.undoStack.pop();
      this.redoStack.push(raw);
    });
  }

  /** Show `raw` at once, then PUT it after every earlier PUT; undo it if refused. */
  send(raw, before, why, rollback) {
    this.setLocal(raw, why);
    this.pending += 1;
    const job = this.queue.then(async () => {
      try {
        this.version = await api.putScene(this.version, raw);
        this.emit("saved", { version: this.version });
        return true;
      } catch (error) {
        rollback();
        if (error.status === 409) {
          this.emit("message", { text: `${error.message} — the board was reloaded.`, error: true });
          await this.load();
        } else {
          this.emit("message", { text: `Not changed: ${error.message}`, error: true });
          if (this.raw === raw) this.setLocal(before, "refused");
        }
        return false;
      } finally {
        this.pending -= 1;
        this.emit("history");
      }
    });
    this.queue = job.catch(() => false);
    this.emit("history");
    return job;
  }

  /** Wait until every change sent has been answered. */
  settled() {
    return this.queue;
  }

  find(id) {
    for (const kind of ["obstacles", "ships"]) {
      const list = this.scene[kind] || [];
      const index = list.findIndex((entry) => entry.id === id);
      if (index >= 0) return { kind, index, entry: list[index] };
    }
    return null;
  }

  ids() {
    return [...(this.scene.obstacles || []), ...(this.scene.ships || [])].map((e) => e.id);
  }
}
