// Cold start, spawn → first tools/list reply, of `same-game serve` (stdio) beside the smallest SDK v2 server
// with one tool (minimal-server.mjs), spawned alternately in the same session. Goal: ratio ≤ 1.3.
// Run: npm run bench:cold-start [-- REPS]   (the CLI is the built one: dist/cli/main.js).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const CLI = join(here, "../../dist/cli/main.js");
const MINIMAL = join(here, "minimal-server.mjs");
const reps = Number(process.argv[2] ?? 5);
const dir = mkdtempSync(join(tmpdir(), "same-game-cold-"));

const lines = [
  {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} },
];

/** The CPU milliseconds (user + system) a process has used so far, from /proc (Linux); NaN elsewhere. */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks (USER_HZ = 100)
  } catch {
    return Number.NaN;
  }
}

/**
 * Wall milliseconds from spawn to the tools/list reply (the three messages are written at once, as a host
 * does), and the CPU milliseconds the server had used by then: on a shared machine the wall time carries
 * everyone's load, the CPU time only the server's own work.
 */
function coldStart(args) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "ignore"] });
    let buffer = "";
    child.stdout.on("data", (chunk) => {
      buffer += chunk;
      for (const line of buffer.split("\n").slice(0, -1)) {
        const message = JSON.parse(line);
        if (message.id === 2) {
          const wall = performance.now() - t0;
          const cpu = cpuMs(child.pid);
          if (!message.result?.tools?.length) reject(new Error(`no tools: ${line.slice(0, 200)}`));
          child.kill();
          resolve({ wall, cpu });
        }
      }
      buffer = buffer.slice(buffer.lastIndexOf("\n") + 1);
    });
    child.on("error", reject);
    child.stdin.write(lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sameGame = [];
const minimal = [];
// A record that exists already: a host starts a server per conversation on the user's one record.
await coldStart([CLI, "serve", "--db", join(dir, "record.db")]);
for (let i = 0; i < reps; i++) {
  sameGame.push(await coldStart([CLI, "serve", "--db", join(dir, "record.db")]));
  minimal.push(await coldStart([MINIMAL]));
}
rmSync(dir, { recursive: true, force: true });
for (const measure of ["wall", "cpu"]) {
  const ours = sameGame.map((r) => r[measure]);
  const anchor = minimal.map((r) => r[measure]);
  const fmt = (xs) => xs.map((x) => x.toFixed(0).padStart(5)).join(" ");
  const ratios = ours.map((s, i) => s / anchor[i]);
  console.log(`${measure} ms, spawn → tools/list reply`);
  console.log(`  same-game serve (stdio): ${fmt(ours)}   median ${median(ours).toFixed(0)}`);
  console.log(`  minimal SDK server     : ${fmt(anchor)}   median ${median(anchor).toFixed(0)}`);
  console.log(
    `  ratio per pair: ${ratios.map((r) => r.toFixed(2)).join(" ")}   median ${median(ratios).toFixed(2)} (goal ≤ 1.3)`,
  );
}
