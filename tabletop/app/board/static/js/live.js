// The verdict that follows a dragged piece. While a piece is dragged (mouse, touch, the
// rotate handle or held keys) every new position is asked of the server over one
// WebSocket (/api/live: `tabletop query` requests, one answer per message) as `check
// --margins` of the table with the piece where it is now, and each answer is drawn as it
// arrives. One request is out at a time: a position that comes while one is out waits,
// and a newer one replaces it; an answer a newer position has overtaken (a later answer
// drawn, or the piece dropped) is not drawn. Nothing here changes the board: the drop is
// the one change, stored and undoable, and its verdict is the one that stays.
//
// The socket lives in a worker (live-worker.js). The page shares memory with it when it
// can (a cross-origin isolated page, which the board's server makes it): then a move
// waits for its answer in its own frame, up to SAME_FRAME_MS, and the verdict is painted
// with the piece where the hand put it, not a frame behind. The browser hands a pointer
// move to the page at the start of a frame, so an answer that came back as an event
// could only be painted in the next one. An answer later than that, or a page that
// cannot share memory, is drawn when it arrives.
//
// While the piece moves, a position's verdict is asked without its fixes (`"fix": false`:
// legal or not, each rule's numbers, every measurement's margin), which is as quick on an
// illegal table as on a legal one; the fix search is not (several frames on the
// tournament table). Once the hand rests on an illegal position for REST_MS, the same
// position is asked again with its fixes, and their ghosts are drawn.
//
// A table whose check takes longer than LIVE_BUDGET_MS (the 60-token crammed table) is
// judged on drop only, and the page says so: known from the server's time on the page's
// last checks of it (the least: a first check is a cold one, so one alone decides only
// when ONE_CHECK_SLOW budgets slow), else while dragging, from live answers (without
// their fixes) whose median over the last three takes longer than FOLLOW_MS, or from one
// answer that takes FAR_TOO_SLOW budgets.

import { roundAngle, roundMm } from "./interact.js";

/** Longest a check may take for the verdict to follow the hand, ms (three frames at 60 Hz). */
export const LIVE_BUDGET_MS = 50;
/** Longest a move waits in its own frame for its answer, ms (leaving a 60 Hz frame 4 ms to paint). */
export const SAME_FRAME_MS = 12;
/** How many recent round trips decide whether a move waits in its frame (their median). */
const RECENT = 5;
/** How long the hand rests on an illegal position before its fixes are asked, ms. */
export const REST_MS = 120;
/** How soon a position held back by the pace is tried again, ms. */
const RETRY_MS = 5;
/** An answer that takes this many budgets (a busy machine aside) turns the following off. */
const FAR_TOO_SLOW = 8;
/** A table's first check (a cold one) this many budgets long turns the following off. */
const ONE_CHECK_SLOW = 2;
/** Longest the live answers may take (their median), ms: two frames at 60 Hz. */
export const FOLLOW_MS = 33;
/** Most live requests a second, under the server's 120 messages a second on one socket. */
const LIVE_PER_SECOND = 100;
/** Room for one answer in the memory shared with the worker, bytes (more: it is posted). */
const SHARED_BYTES = 1 << 20;
/** The shared memory's header: answers written, and the last one's length (live-worker.js). */
const ANSWERED = 0;
const LENGTH = 1;
const HEADER_BYTES = 8;

export class LiveVerdict {
  constructor(app) {
    this.app = app;
    this.worker = null;
    this.ready = false; // the worker's socket is open
    this.header = null; // the memory shared with the worker: Int32 header and the bytes
    this.bytes = null;
    this.sent = 0; // requests sent on the socket
    this.taken = 0; // answers taken from it (the shared memory or a message)
    this.sentAt = []; // when the requests of the last second went, for the pace
    this.roundTrips = []; // the last answers', ms: a move waits in its frame if their median is short
    this.seq = 0;
    this.shown = 0; // the newest position whose answer is drawn
    this.out = null; // the request on the wire: {seq, sent, at}
    this.retry = null; // a timer: the waiting position tried again
    this.waiting = null; // the newest position not yet sent
    this.position = null; // the newest position asked: {request, pose}, for its fixes
    this.resting = null; // a timer: the hand rests, ask the fixes
    this.active = null; // the piece followed: {id, slow}
    this.dropped = 0;
    this.list = document.getElementById("verdict");
    this.region = document.getElementById("verdict-live");
  }

  /** The worker and its socket, opened on first use and again after the socket closed. */
  open() {
    if (this.worker || typeof Worker === "undefined") return;
    const worker = new Worker("/static/js/live-worker.js");
    worker.addEventListener("message", (event) => this.fromWorker(worker, event.data));
    let shared = null;
    if (self.crossOriginIsolated && typeof SharedArrayBuffer === "function") {
      shared = new SharedArrayBuffer(HEADER_BYTES + SHARED_BYTES);
      this.header = new Int32Array(shared, 0, HEADER_BYTES / 4);
      this.bytes = new Uint8Array(shared, HEADER_BYTES);
    }
    this.worker = worker;
    this.sent = this.taken = 0;
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/live`;
    worker.postMessage({ kind: "open", url, shared });
  }

  fromWorker(worker, data) {
    if (worker !== this.worker) return;
    if (data.kind === "open") {
      this.ready = true;
      if (!this.waiting) this.warm();
      this.pump(false);
    } else if (data.kind === "close") {
      worker.terminate();
      this.worker = null;
      this.ready = false;
      this.out = null;
    } else if (data.kind === "answer" && data.number > this.taken) {
      this.taken = data.number;
      this.answer(data.text);
    }
  }

  /** A drag of `id` begins: follow it, unless the table's check is too slow for the hand. */
  begin(id) {
    if (this.active && this.active.id === id) return;
    this.end();
    const known = this.app.checkTimes.length;
    const ms = this.app.checkMs;
    const slow = (known >= 2 && ms > LIVE_BUDGET_MS) || (known === 1 && ms > ONE_CHECK_SLOW * LIVE_BUDGET_MS);
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
    const request = { op: "check", margins: true, scene: { ...scene, [found.kind]: list } };
    const angle = found.kind === "ships" ? (entry.heading ?? (entry.player === 2 ? 270 : 90)) : (entry.angle ?? 0);
    this.position = { request, pose: { id: active.id, x: entry.at[0], y: entry.at[1], angle } };
    this.ask(false, at);
    this.pump(true);
  }

  /**
   * The socket is open and no drag waits: ask the verdict of the board as it stands, drawn
   * nowhere, so that the server's first answer on the socket, the slow one (its first
   * sight of this table), comes before the hand moves a piece.
   */
  warm() {
    const scene = this.app.board.scene;
    if (!scene) return;
    const seq = (this.seq += 1);
    const text = JSON.stringify({ op: "check", margins: true, fix: false, id: seq, scene });
    this.waiting = { seq, at: performance.now(), text, pose: null, why: "warm" };
  }

  /** Make the newest position the one waiting: its verdict, with its fixes or without. */
  ask(fixes, at) {
    clearTimeout(this.resting);
    this.resting = null;
    const seq = (this.seq += 1);
    const { request, pose } = this.position;
    const text = JSON.stringify({ ...request, fix: fixes, id: seq });
    this.waiting = { seq, at, text, pose, why: fixes ? "live-fix" : "live" };
  }

  /** The hand rests on an illegal position: ask its fixes (unless a move came since). */
  rested() {
    this.resting = null;
    if (!this.active || this.active.slow || this.waiting || this.shown !== this.seq) return;
    this.ask(true, performance.now());
    this.pump(false);
  }

  /**
   * Send the waiting position when nothing is out, the socket is open and the pace allows;
   * `inFrame`: the move came now, so wait for its answer in this frame when that is quick.
   */
  pump(inFrame) {
    if (!this.waiting || this.out || !this.ready) return;
    if (!this.paced()) {
      // over the pace: try again soon, unless a move comes first
      this.retry ??= setTimeout(() => {
        this.retry = null;
        this.pump(false);
      }, RETRY_MS);
      return;
    }
    const next = this.waiting;
    this.waiting = null;
    this.out = { seq: next.seq, at: next.at, sent: performance.now(), pose: next.pose, why: next.why };
    this.sent += 1;
    this.worker.postMessage({ kind: "send", text: next.text });
    if (inFrame && this.header && this.quick()) this.waitInFrame(this.sent, next.at + SAME_FRAME_MS);
  }

  /** Whether the recent answers came within a frame's wait (one slow answer does not decide). */
  quick() {
    const recent = [...this.roundTrips].sort((a, b) => a - b);
    return !recent.length || recent[Math.floor(recent.length / 2)] < SAME_FRAME_MS;
  }

  /** Count a request now if fewer than LIVE_PER_SECOND went in the last second. */
  paced() {
    const now = performance.now();
    while (this.sentAt.length && now - this.sentAt[0] >= 1000) this.sentAt.shift();
    if (this.sentAt.length >= LIVE_PER_SECOND) return false;
    this.sentAt.push(now);
    return true;
  }

  /** Wait, until `deadline`, for answer `number` in the shared memory; take it if it came. */
  waitInFrame(number, deadline) {
    const header = this.header;
    while (Atomics.load(header, ANSWERED) < number) {
      if (performance.now() > deadline) return; // it will come as a message
    }
    const length = Atomics.load(header, LENGTH);
    if (length < 0 || Atomics.load(header, ANSWERED) !== number) return;
    const copy = new Uint8Array(length); // the decoder reads no shared memory
    copy.set(this.bytes.subarray(0, length));
    this.taken = number;
    this.answer(new TextDecoder().decode(copy));
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
    if (out.why === "warm") {
      // the socket's first answer, the slow one: neither drawn nor taken for the pace
    } else if (!active || active.slow || out.seq <= this.shown || report.error) {
      this.dropped += 1;
    } else {
      this.shown = out.seq;
      this.roundTrips = [...this.roundTrips.slice(1 - RECENT), roundTrip];
      this.draw(report, out, now);
      if (out.why === "live" && report.legal === false) this.resting = setTimeout(() => this.rested(), REST_MS);
      const last = [...this.roundTrips.slice(-3)].sort((a, b) => a - b);
      if (roundTrip > FAR_TOO_SLOW * LIVE_BUDGET_MS) this.fallBack(roundTrip);
      else if (last.length === 3 && last[1] > FOLLOW_MS) this.fallBack(last[1]);
    }
    this.pump(false);
  }

  draw(report, out, now) {
    this.app.livePose = out.pose;
    this.app.verdict.show(report);
    const timing = { why: out.why, ms: now - out.at, painted: null, seq: out.seq, legal: report.legal };
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
    clearTimeout(this.resting);
    this.resting = null;
    this.shown = this.seq;
    this.app.livePose = null;
    delete this.list.dataset.live;
    this.app.mat.svg.classList.remove("live");
    this.region.removeAttribute("aria-busy");
    if (restore && followed && this.app.storedReport) this.app.verdict.show(this.app.storedReport);
  }
}
