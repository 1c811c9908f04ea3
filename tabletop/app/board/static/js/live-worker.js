// The live verdict's socket, in a worker of its own (live.js is its page side). It holds
// the WebSocket /api/live: the page's requests are sent as they come, and every answer
// (one per request, in order: the server answers a refused message too) is handed back
// twice — posted as a message, and, when the page shared memory with the worker, written
// into that memory at once, so that the page, waiting in the same frame as the move that
// asked it, reads the answer without returning to its event loop.
//
// The shared memory (see live.js): a header of Int32 words — ANSWERED, how many answers
// are written; LENGTH, the byte length of the last — then the answer's UTF-8 bytes. An
// answer longer than the space is only posted (LENGTH is -1).

const ANSWERED = 0;
const LENGTH = 1;
const HEADER_BYTES = 8;

let socket = null;
let header = null;
let bytes = null;
let answered = 0;
const encoder = new TextEncoder();

function open(url) {
  socket = new WebSocket(url);
  socket.addEventListener("open", () => postMessage({ kind: "open" }));
  socket.addEventListener("close", () => {
    socket = null;
    postMessage({ kind: "close" });
  });
  socket.addEventListener("message", (event) => {
    answered += 1;
    const text = String(event.data);
    if (header) {
      const encoded = encoder.encode(text); // an encoder writes no shared memory itself
      if (encoded.length <= bytes.length) bytes.set(encoded);
      Atomics.store(header, LENGTH, encoded.length <= bytes.length ? encoded.length : -1);
      Atomics.store(header, ANSWERED, answered);
    }
    postMessage({ kind: "answer", number: answered, text });
  });
}

self.addEventListener("message", ({ data }) => {
  if (data.kind === "open") {
    if (data.shared) {
      header = new Int32Array(data.shared, 0, HEADER_BYTES / 4);
      bytes = new Uint8Array(data.shared, HEADER_BYTES);
    }
    answered = 0;
    if (header) Atomics.store(header, ANSWERED, 0);
    open(data.url);
  } else if (data.kind === "send" && socket && socket.readyState === WebSocket.OPEN) {
    socket.send(data.text);
  }
});
