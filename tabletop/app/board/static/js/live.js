// The verdict that follows a dragged piece. While a piece is dragged (mouse, touch, the
// rotate handle or held keys) every new position is asked of the server over one
// WebSocket (/api/live: `tabletop query` requests, one answer per message) as `check
// --margins` of the table with the piece where it is now, and each answer is drawn as it
// arrives. One request is out at a time: a position that comes while one is out waits,
// and a newer one replaces it; an answer a newer position has overtaken (a later answer
// drawn, or the piece dropped) is not drawn. Nothing here changes the board: the drop is
// the one change, stored and undoable, and its verdict is the one that stays.
//
// A table whose check takes longer than LIVE_BUDGET_MS (the 60-token crammed table) is
// judged on drop only, and the page says so: known from the server's time on the page's
// last checks of it (the least: a first check is a cold one, so one alone decides only
// when far too slow), else from an answer while dragging that takes FAR_TOO_SLOW budgets.

import { roundAngle, roundMm } from "./interact.js";
import { takeSlot } from "./api.js";

/** Longest a check may take for the verdict to follow the hand, ms (three frames at 60 Hz). */
export const LIVE_BUDGET_MS = 50;
/** How soon a position held back by the pace is tried again, ms. */
const RETRY_MS = 10;
/** An answer that takes this many budgets (a busy machine aside) turns the following off. */
const FAR_TOO_SLOW = 8;
/** Most live requests a second: the rest of the page's 40 stay free for the drop. */
const LIVE_PER_SECOND = 30;

export class LiveVerdict {
  constructor(app) {
    this.app = app;
    this.socket = null;
    this.opening = null;
    this.seq = 0;
    this.shown = 0; // the newest position whose answer is drawn
    this.out = null; // the request on the wire: {seq, sent, at}
    this.retry = null; // a timer: the waiting position tried again
    this.waiting = null; // the newest position not yet sent
    this.active = null; // the piece followed: {id, slow}
    this.dropped = 0;
    this.list = document.getElementById("verdict");
    this.region = document.getElementById("verdict-live");
  }

  /** The socket, opened on first use and again after it closed. */
  open() {
    if (this.socket || typeof WebSocket === "undefined") return;
    const socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/live`);
    socket.addEventListener("open", () => this.pump());
    socket.addEventListener("message", (event) => this.answer(event.data));
    socket.addEventListener("close", () => {
      if (this.socket === socket) this.socket = null;
      this.out = null;
    });
    this.socket = socket;
  }

  /** A drag of `id` begins: follow it, unless the table's check is too slow for the hand. */
  begin(id) {
    if (this.active && this.active.id === id) return;
    this.end();
    const known = this.app.checkTimes.length;
    const ms = this.app.checkMs;
    const slow = (known >= 2 && ms > LIVE_BUDGET_MS) || (known === 1 && ms > FAR_TOO_SLOW * LIVE_BUDGET_MS);
    this.active = { id, slow };
    this.region.setAttribute("aria-busy", "true");
    if (slow) this.fallBack(this.app.checkMs);
    else {
      this.list.dataset.live = "following";
      this.app.mat.svg.classList.add("live");
      this.open();
    }
  }

  fallBack(ms) {
    this.active.slow = true;
    this.waiting = null;
    this.list.dataset.live = "on-drop";
    this.app.mat.svg.classList.remove("live");
    this.app.say(`This table's check takes ${Math.round(ms)} ms, too long to follow the drag: the verdict comes when you drop the piece.`);
  }

  /** The followed piece is now at `pose` ({x, y} and/or {angle}): ask for its verdict. */
  moved(pose) {
    const active = this.active;
    if (!active || active.slow) return;
    const found = this.app.board.find(active.id);
    if (!found) return;
    const at = performance.now();
    const scene = this.app.board.scene;
    const entry = { ...found.entry };
    if (pose.x !== undefined) entry.at = [roundMm(pose.x), roundMm(pose.y)];
    if (pose.angle !== undefined) entry[found.kind === "ships" ? "heading" : "angle"] = roundAngle(pose.angle);
    const list = scene[found.kind].slice();
    list[found.index] = entry;
    const seq = (this.seq += 1);
    const request = { op: "check", margins: true, id: seq, scene: { ...scene, [found.kind]: list } };
    this.waiting = { seq, at, text: JSON.stringify(request), pose: { id: active.id, x: entry.at[0], y: entry.at[1], angle: found.kind === "ships" ? (entry.heading ?? (entry.player === 2 ? 270 : 90)) : (entry.angle ?? 0) } };
    this.pump();
  }

  /** Send the waiting position when nothing is out, the socket is open and the pace allows. */
  pump() {
    const socket = this.socket;
    if (!this.waiting || this.out || !socket || socket.readyState !== WebSocket.OPEN) return;
    if (!takeSlot(LIVE_PER_SECOND)) {
      // over the pace: try again soon, unless a move comes first
      this.retry ??= setTimeout(() => {
        this.retry = null;
        this.pump();
      }, RETRY_MS);
      return;
    }
    const next = this.waiting;
    this.waiting = null;
    this.out = { seq: next.seq, at: next.at, sent: performance.now(), pose: next.pose };
    socket.send(next.text);
  }

  answer(data) {
    const out = this.out;
    let report;
    try {
      report = JSON.parse(data);
    } catch (_) {
      report = { error: { message: "not JSON" } };
    }
    if (report.id === undefined || !out || report.id !== out.seq) {
      // refused before it was read (too many requests): free the line, try the next move
      if (out && report.id === undefined) this.out = null;
      return;
    }
    this.out = null;
    const now = performance.now();
    const roundTrip = now - out.sent;
    const active = this.active;
    if (!active || active.slow || out.seq <= this.shown || report.error) {
      this.dropped += 1;
    } else {
      this.shown = out.seq;
      this.draw(report, out, now);
      if (roundTrip > FAR_TOO_SLOW * LIVE_BUDGET_MS) this.fallBack(roundTrip);
    }
    this.pump();
  }

  draw(report, out, now) {
    this.app.livePose = out.pose;
    this.app.verdict.show(report);
    const timing = { why: "live", ms: now - out.at, painted: null, seq: out.seq, legal: report.legal };
    this.app.timings.push(timing);
    window.boardTimings = this.app.timings;
    requestAnimationFrame(() => {
      timing.painted = performance.now() - out.at;
    });
  }

  /** Resolve once no position waits and no request is out (for scripts and tests). */
  idle() {
    return new Promise((resolve) => {
      const look = () => (!this.out && !this.waiting ? resolve() : setTimeout(look, 4));
      look();
    });
  }

  /**
   * The drag ended: what is still out is overtaken by the drop. Cancelled (`restore`), the
   * piece goes back and so does the verdict of the board as stored.
   */
  end({ restore = false } = {}) {
    if (!this.active) return;
    const followed = this.shown > 0 && !this.active.slow;
    this.active = null;
    this.waiting = null;
    this.shown = this.seq;
    this.app.livePose = null;
    delete this.list.dataset.live;
    this.app.mat.svg.classList.remove("live");
    this.region.removeAttribute("aria-busy");
    if (restore && followed && this.app.storedReport) this.app.verdict.show(this.app.storedReport);
  }
}
