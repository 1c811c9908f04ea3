// Use tabletop as a test oracle from Node.js: one process, JSON lines both ways.
// Run after `make demo`:  node examples/oracle.mjs  (TABLETOP=PATH runs another tabletop)
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

const scene = {
  ruleset: "xwing2",
  phase: "play",
  obstacles: [{ id: "rock", token: "coreasteroid0", at: [300, 300] }],
  ships: [
    { id: "wedge", base: "small", at: [300, 150], heading: 90 },
    { id: "howl", base: "small", at: [300, 450], heading: 270 },
  ],
};
const requests = [
  { op: "measure", scene, from: "wedge", to: "howl", arc: "front" },
  { op: "check", scene },
  { op: "measure", scene, from: "wedge", to: "nobody" },
];

const oracle = spawn(process.env.TABLETOP || ".venv/bin/tabletop", ["query"], { stdio: ["pipe", "pipe", "inherit"] });
const answers = createInterface({ input: oracle.stdout });
let n = 0;
answers.on("line", (line) => {
  const answer = JSON.parse(line);
  const request = requests[n++];
  if (answer.error) {
    console.log(`${request.op}: error: ${answer.error.message}`);
  } else if (request.op === "measure") {
    console.log(`measure ${answer.from} -> ${answer.to}: ${answer.distance} mm, range ${answer.band}, ` +
      `obstructed ${answer.obstructed} by [${answer.obstructed_by}]`);
  } else {
    console.log(`check: legal ${answer.legal}, ${answer.violations.length} violation(s)`);
  }
});
for (const request of requests) oracle.stdin.write(JSON.stringify(request) + "\n");
oracle.stdin.end();
