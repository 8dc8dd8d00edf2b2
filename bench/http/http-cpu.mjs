// HTTP, 32 clients: the server process's CPU time per decision (start_match + submit_move, one-shot) of
// `same-game serve --http` beside a minimal SDK v2 server with no-op tools (minimal-http-server.mjs) under
// the same load from the same clients, one server after the other, a few rounds. CPU time is read from
// /proc/PID/stat around the load, so the clients' own work and the other tenants of the machine are not in it.
// Goal: ratio ≤ 1.3. Run: npm run bench:http [-- ROUNDS TRIALS_PER_CLIENT]
// With SAME_GAME_BENCH_PG=postgres://… each round also runs the same server as a replica on a fresh
// PostgreSQL database (the replica process's CPU: its worker thread included, the database's backend not),
// beside the SQLite server of the same round. Goal: ratio ≤ 1.5.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { freshPostgresDatabase } from "../fresh-postgres.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const CLI = join(here, "../../dist/cli/main.js");
const rounds = Number(process.argv[2] ?? 3);
const trials = Number(process.argv[3] ?? 20);
const CLIENTS = 32;
const dir = mkdtempSync(join(tmpdir(), "same-game-http-"));
const PG = process.env.SAME_GAME_BENCH_PG;

/** `same-game serve --http` on the record at `location`. */
function startOurs(location) {
  return start(
    [
      CLI,
      "serve",
      "--http",
      "--port",
      "0",
      "--db",
      location,
      "--rate-limit",
      "100000",
      "--max-sessions",
      "1024",
      // The operator's surface (as the stress test uses): start_match with any opponent.
      "--toolsets",
      "all",
    ],
    /serving MCP over HTTP at (\S+);/,
  );
}

function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** Starts a server process and resolves with it and its URL once it says where it listens. */
function start(args, pattern) {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"] });
  return new Promise((resolve, reject) => {
    let err = "";
    child.stderr.on("data", (chunk) => {
      err += chunk;
      const found = pattern.exec(err);
      if (found) resolve({ child, url: found[1], stderr: () => err });
    });
    child.once("exit", (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
}

async function load(url) {
  const clients = await Promise.all(
    Array.from({ length: CLIENTS }, async (_, i) => {
      const client = new Client({ name: `load-${i}`, version: "1" });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      // No tools/list: 32 sessions listing at once end in "other side closed" on this server (before this
      // change too; reported to the lead), so the load is the play calls alone, on both servers alike.
      return client;
    }),
  );
  await Promise.all(
    clients.map(async (client) => {
      for (let t = 0; t < trials; t++) {
        const started = await client.callTool({
          name: "start_match",
          arguments: { game: "prisoners-dilemma", opponent: "random" },
        });
        if (started.isError) throw new Error(JSON.stringify(started.content));
        const view = started.structuredContent;
        const moved = await client.callTool({
          name: "submit_move",
          arguments: { match_id: view.match_id, round: 1, choice: view.labels[0] },
        });
        if (moved.isError) throw new Error(JSON.stringify(moved.content));
      }
    }),
  );
  await Promise.all(clients.map((c) => c.close()));
}

/** Server CPU ms per decision over one full load (connect, list, play, close) after a warm-up load. */
async function measure(server) {
  try {
    await load(server.url); // warm-up: JIT, statement cache
  } catch (error) {
    server.child.kill("SIGTERM");
    throw new Error(`${error.message}; server said: ${server.stderr().slice(-800)}`);
  }
  const before = cpuMs(server.child.pid);
  await load(server.url);
  const used = cpuMs(server.child.pid) - before;
  server.child.kill("SIGTERM");
  return used / (CLIENTS * trials);
}

const ours = [];
const anchor = [];
const replica = [];
for (let r = 0; r < rounds; r++) {
  ours.push(await measure(await startOurs(join(dir, `http-${r}.db`))));
  anchor.push(await measure(await start([join(here, "minimal-http-server.mjs")], /listening on (\S+)\n/)));
  if (PG) {
    const record = freshPostgresDatabase(PG, `http_${r}`);
    try {
      replica.push(await measure(await startOurs(record.location)));
    } finally {
      record.dispose();
    }
  }
}
rmSync(dir, { recursive: true, force: true });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (xs) => xs.map((x) => x.toFixed(2)).join(" ");
const ratios = ours.map((x, i) => x / anchor[i]);
console.log(`server CPU ms per decision, ${CLIENTS} clients × ${trials} one-shot trials`);
console.log(`  same-game serve --http     : ${fmt(ours)}   median ${median(ours).toFixed(2)}`);
console.log(`  minimal SDK server, no-ops : ${fmt(anchor)}   median ${median(anchor).toFixed(2)}`);
console.log(`  ratio per round: ${fmt(ratios)}   median ${median(ratios).toFixed(2)} (goal ≤ 1.3)`);
if (PG) {
  const pgRatios = replica.map((x, i) => x / ours[i]);
  console.log(`  PostgreSQL replica         : ${fmt(replica)}   median ${median(replica).toFixed(2)}`);
  console.log(
    `  replica / SQLite server per round: ${fmt(pgRatios)}   median ${median(pgRatios).toFixed(2)} (goal ≤ 1.5)`,
  );
}
