// HTTP, 32 clients: the server process's CPU time per decision (start_match + submit_move, one-shot) of
// `same-game serve --http` beside a minimal SDK v2 server with no-op tools (minimal-http-server.mjs) under
// the same load from the same clients, one server after the other, a few rounds. CPU time is read from
// /proc/PID/stat around the load, so the clients' own work and the other tenants of the machine are not in it.
// Goal: ratio ≤ 1.3. Run: npm run bench:http [-- ROUNDS TRIALS_PER_CLIENT]
// With SAME_GAME_BENCH_PG=postgres://… each round also runs the same server as a replica on a fresh
// PostgreSQL database (the replica process's CPU: its worker thread included, the database's backend not),
// beside the SQLite server of the same round. Goal: ratio ≤ 1.5.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { freshPostgresDatabase } from "../fresh-postgres.mjs";
import { cpuMs, startProcess, startServeHttp } from "../serve-http.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const rounds = Number(process.argv[2] ?? 3);
const trials = Number(process.argv[3] ?? 20);
const CLIENTS = 32;
const dir = mkdtempSync(join(tmpdir(), "same-game-http-"));
const PG = process.env.SAME_GAME_BENCH_PG;
// The SDK gives up on a request after 60 s; on a machine loaded by other work a round can take longer, and
// only CPU time is measured here, so the clients wait as long as it takes.
const PATIENT = { timeout: 30 * 60_000 };

/** `same-game serve --http` on the record at `location`, with the operator's surface (as the stress test
 * uses): start_match with any opponent. */
function startOurs(location) {
  return startServeHttp(location, { rateLimit: 100_000, maxSessions: 1024, toolsets: "all" });
}

async function load(url) {
  const clients = await Promise.all(
    Array.from({ length: CLIENTS }, async (_, i) => {
      const client = new Client({ name: `load-${i}`, version: "1" });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      // No tools/list: the figure is CPU per decision, so the load is the play calls alone, on both servers
      // alike (listing all of same-game's tools would charge it for a surface the no-op anchor lacks).
      return client;
    }),
  );
  await Promise.all(
    clients.map(async (client) => {
      for (let t = 0; t < trials; t++) {
        const started = await client.callTool(
          {
            name: "start_match",
            arguments: { game: "prisoners-dilemma", opponent: "random" },
          },
          PATIENT,
        );
        if (started.isError) throw new Error(JSON.stringify(started.content));
        const view = started.structuredContent;
        const moved = await client.callTool(
          {
            name: "submit_move",
            arguments: { match_id: view.match_id, round: 1, choice: view.labels[0] },
          },
          PATIENT,
        );
        if (moved.isError) throw new Error(JSON.stringify(moved.content));
      }
    }),
  );
  await Promise.all(clients.map((c) => c.close()));
}

/** Stops a server and waits for it to exit (a profile, when asked for, is written by then). */
function stop(server) {
  const exited = new Promise((resolve) => server.child.once("exit", resolve));
  server.child.kill("SIGTERM");
  return exited;
}

/** Server CPU ms per decision over one full load (connect, list, play, close) after a warm-up load. */
async function measure(server) {
  try {
    await load(server.url); // warm-up: JIT, statement cache
  } catch (error) {
    await stop(server);
    throw new Error(`${error.message}; server said: ${server.stderr().slice(-800)}`);
  }
  const before = cpuMs(server.child.pid);
  await load(server.url);
  const used = cpuMs(server.child.pid) - before;
  await stop(server);
  return used / (CLIENTS * trials);
}

const ours = [];
const anchor = [];
const replica = [];
for (let r = 0; r < rounds; r++) {
  ours.push(await measure(await startOurs(join(dir, `http-${r}.db`))));
  anchor.push(
    await measure(await startProcess([join(here, "minimal-http-server.mjs")], /listening on (\S+)\n/)),
  );
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
