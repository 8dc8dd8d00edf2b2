// The issue-16 scaling bench: decisions/s and submit_move p50/p99 for 1, 2 and 3 stateless replicas on one
// PostgreSQL record, at 32 and 128 clients, beside the anchor run in the same session: the single SQLite
// server (one process, one file — what a single user runs). Clients spread round-robin across the replicas
// at every request (no stickiness). Each replica's process CPU time (and the PostgreSQL backends') is read
// from /proc over the measured window, so CPU per decision says what more cores would give.
//
// Run: npm run build && SAME_GAME_BENCH_PG=postgres://user@127.0.0.1:PORT/postgres node bench/replicas/replicas-bench.mjs
// Without SAME_GAME_BENCH_PG the replica rows share a SQLite WAL file instead (said in the output).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { freshPostgresDatabase } from "../fresh-postgres.mjs";
import { startServeHttp } from "../serve-http.mjs";

const PG = process.env.SAME_GAME_BENCH_PG;
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 6000);
const WARMUP_MS = 1000;
const CLIENT_COUNTS = (process.env.BENCH_CLIENTS ?? "32,128").split(",").map(Number);
const dir = mkdtempSync(join(tmpdir(), "same-game-bench-replicas-"));
const TICK = 100; // /proc/PID/stat counts CPU in clock ticks of 1/100 s on Linux

function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICK; // utime + stime
  } catch {
    return 0;
  }
}

/** The PostgreSQL backends (children of the postmaster) serving this bench, by their CPU time. */
function postgresCpuSeconds() {
  if (!PG) return 0;
  let total = 0;
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, "utf8");
      if (cmd.startsWith("postgres: ") && cmd.includes("sg_bench_")) total += cpuSeconds(name);
    } catch {}
  }
  return total;
}

function freshRecord(name, engine) {
  if (!PG || engine === "sqlite") return { location: join(dir, `${name}.db`), dispose() {} };
  return freshPostgresDatabase(PG, name);
}

async function startReplica(location) {
  const replica = await startServeHttp(location);
  children.add(replica.child);
  replica.child.once("exit", () => children.delete(replica.child));
  return replica;
}

const resent = { count: 0 };

/**
 * Each request to the next replica in turn: a load balancer without stickiness. A request that found its
 * kept-alive socket closed under it (undici's "other side closed", a race with the server's keep-alive
 * timeout on a loaded machine) goes to the next replica; the output counts these.
 */
function roundRobin(urls, start) {
  let next = start;
  return async (_url, init) => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await fetch(urls[next++ % urls.length], init);
      } catch (error) {
        if (!(error instanceof TypeError) || attempt >= 3) throw error;
        resent.count += 1;
      }
    }
  };
}

async function client(urls, i) {
  const transport = new StreamableHTTPClientTransport(new URL("http://127.0.0.1:1/mcp"), {
    fetch: roundRobin(urls, i),
  });
  const c = new Client({ name: `bench${i}`, version: "1" });
  await c.connect(transport);
  await c.listTools();
  return c;
}

async function play(c, state, latencies, warm) {
  let done = 0;
  while (!state.stopped) {
    const started = await c.callTool({ name: "start_match", arguments: { game: "prisoners-dilemma" } });
    if (started.isError) {
      state.errors.push(JSON.stringify(started.content));
      continue;
    }
    const view = started.structuredContent;
    const t0 = performance.now();
    const moved = await c.callTool({
      name: "submit_move",
      arguments: { match_id: view.match_id, round: 1, choice: view.labels[0] },
    });
    if (moved.isError) {
      state.errors.push(JSON.stringify(moved.content));
      continue;
    }
    if (state.measuring) {
      latencies.push(performance.now() - t0);
      state.decisions += 1;
    }
    // Two decisions = four requests: by then the client's session has an instance on every replica.
    done += 1;
    if (done === 2) warm();
  }
}

function quantile(sorted, q) {
  return sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

async function run(label, engine, replicaCount, clients) {
  const record = freshRecord(`${engine}${replicaCount}x${clients}`, engine);
  const replicas = [];
  for (let i = 0; i < replicaCount; i++) replicas.push(await startReplica(record.location));
  const urls = replicas.map((r) => r.url);
  const connected = [];
  for (let i = 0; i < clients; i++) connected.push(await client(urls, i));
  const state = { stopped: false, measuring: false, decisions: 0, errors: [] };
  const latencies = [];
  let warmed = 0;
  let allWarm;
  const warmedUp = new Promise((resolve) => {
    allWarm = resolve;
  });
  const loops = connected.map((c) =>
    play(c, state, latencies, () => {
      warmed += 1;
      if (warmed === clients) allWarm();
    }),
  );
  // Warm-up: until every client has two decisions in (its session rebuilt on each replica), plus a pause.
  await warmedUp;
  await new Promise((r) => setTimeout(r, WARMUP_MS));
  const cpu0 = replicas.map((r) => cpuSeconds(r.child.pid));
  const pg0 = postgresCpuSeconds();
  const self0 = process.cpuUsage();
  const t0 = performance.now();
  state.measuring = true;
  await new Promise((r) => setTimeout(r, WINDOW_MS));
  state.measuring = false;
  const seconds = (performance.now() - t0) / 1000;
  const replicaCpu = replicas.map((r, i) => cpuSeconds(r.child.pid) - cpu0[i]);
  const pgCpu = postgresCpuSeconds() - pg0;
  const self = process.cpuUsage(self0);
  state.stopped = true;
  await Promise.allSettled(loops);
  await Promise.all(connected.map((c) => c.close().catch(() => undefined)));
  for (const r of replicas) r.child.kill("SIGTERM");
  await Promise.all(replicas.map((r) => new Promise((res) => r.child.once("exit", res))));
  record.dispose();
  latencies.sort((a, b) => a - b);
  const decisions = state.decisions;
  return {
    label,
    replicas: replicaCount,
    clients,
    decisionsPerSecond: decisions / seconds,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    // CPU per decision: a decision is two tool calls here (start_match + submit_move).
    replicaCpuMsPerDecision: (replicaCpu.reduce((a, b) => a + b, 0) * 1000) / decisions,
    perReplicaCpuSeconds: replicaCpu,
    pgCpuMsPerDecision: (pgCpu * 1000) / decisions,
    clientCpuMsPerDecision: (self.user + self.system) / 1000 / decisions,
    seconds,
    errors: state.errors,
  };
}

const children = new Set();
process.on("exit", () => {
  for (const child of children) child.kill("SIGKILL");
});
for (const signal of ["SIGINT", "SIGTERM"]) process.once(signal, () => process.exit(130));
const rows = [];
const engineName = PG ? "postgres" : "sqlite-wal";
for (const clients of CLIENT_COUNTS) {
  rows.push(await run("SQLite, single server (anchor)", "sqlite", 1, clients));
  console.error(JSON.stringify(rows.at(-1)));
  for (const n of [1, 2, 3]) {
    rows.push(await run(`${engineName}, ${n} replica(s)`, PG ? "pg" : "sqlite", n, clients));
    console.error(JSON.stringify(rows.at(-1)));
  }
}
rmSync(dir, { recursive: true, force: true });

const f = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : "—");
console.log(
  `\nsame-game replicas bench — ${availableParallelism()} cores shared with the load generator (and other work on this machine); window ${WINDOW_MS / 1000} s after a warm-up of two decisions per client + ${WARMUP_MS / 1000} s; one decision = start_match + submit_move, clients round-robin per request`,
);
console.log(
  "| set-up | clients | decisions/s | × anchor | submit p50 ms | submit p99 ms | replica CPU ms/decision | PostgreSQL CPU ms/decision | client CPU ms/decision |",
);
console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const row of rows) {
  const anchor = rows.find((r) => r.clients === row.clients && r.label.startsWith("SQLite, single"));
  console.log(
    `| ${row.label} | ${row.clients} | ${f(row.decisionsPerSecond)} | ${f(row.decisionsPerSecond / anchor.decisionsPerSecond, 2)} | ${f(row.p50)} | ${f(row.p99)} | ${f(row.replicaCpuMsPerDecision, 2)} | ${row.label.startsWith("SQLite") ? "—" : f(row.pgCpuMsPerDecision, 2)} | ${f(row.clientCpuMsPerDecision, 2)} |`,
  );
}
const pgRows = rows.filter((r) => !r.label.startsWith("SQLite, single"));
const perDecision = pgRows.reduce((a, r) => a + r.replicaCpuMsPerDecision, 0) / pgRows.length;
const pgPer = pgRows.reduce((a, r) => a + r.pgCpuMsPerDecision, 0) / pgRows.length;
console.log(`\nRequests resent after a closed keep-alive socket: ${resent.count}.`);
for (const row of rows.filter((r) => r.errors.length > 0)) {
  console.log(
    `${row.label}, ${row.clients} clients: ${row.errors.length} tool errors, e.g. ${row.errors[0]}`,
  );
}
console.log(
  `\nProjection from CPU per decision (mean over the replica rows): one core of replica work serves ≈ ${f(1000 / perDecision, 0)} decisions/s` +
    (PG ? `, one core of PostgreSQL ≈ ${f(1000 / pgPer, 0)} decisions/s` : "") +
    `; with R replicas on R free cores (clients and database elsewhere) ≈ R × ${f(1000 / perDecision, 0)} decisions/s until the database's share binds.`,
);
