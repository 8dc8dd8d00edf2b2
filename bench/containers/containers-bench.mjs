// The scaling table in containers: the deployment of `npm run deploy:up` (PostgreSQL 15, N same-game replicas,
// nginx; host networking, everything on 127.0.0.1) with 1, 2 and 3 replicas behind nginx, beside the anchor
// run in the same session: the SQLite single server (the same image, one container, one record file, clients
// straight to it: what a single user runs). SDK clients on this machine each play one-shot decisions
// (start_match + submit_move) as fast as they are answered. Over the measured window it reads decisions/s,
// submit_move p50/p99 at the client, and each container's CPU time from its cgroup, so CPU per decision is
// given for the replicas, PostgreSQL and nginx apart.
//
// Run: npm run bench:containers   (Docker as for deploy:up; BENCH_CLIENTS=32,128 BENCH_WINDOW_MS=8000)
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

const ROOT = join(import.meta.dirname, "..", "..");
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 8000);
const WARMUP_MS = 2000;
const CLIENT_COUNTS = (process.env.BENCH_CLIENTS ?? "32,128").split(",").map(Number);
const SQLITE_PORT = 8790;
const env = {
  ...process.env,
  SAME_GAME_DEPLOY_RATE_LIMIT: "1000000",
  SAME_GAME_DEPLOY_KEEP_DAEMON: "1",
};

function sh(script, extra = {}) {
  const r = spawnSync("bash", [join(ROOT, "deploy", script)], {
    env: { ...env, ...extra },
    stdio: ["ignore", "inherit", "inherit"],
  });
  if (r.status !== 0) throw new Error(`deploy/${script} exited ${r.status}`);
}

const docker = (...args) => execFileSync("docker", args, { encoding: "utf8" }).trim();

/** The CPU seconds a container has used, from its cgroup (v1 cpuacct or v2 cpu.stat). */
function containerCpuSeconds(id) {
  const pid = docker("inspect", "-f", "{{.State.Pid}}", id);
  const lines = readFileSync(`/proc/${pid}/cgroup`, "utf8").split("\n");
  const v1 = lines.find((l) => /:(?:[^:]*,)?cpuacct(?:,[^:]*)?:/.test(l));
  if (v1 !== undefined) {
    const path = v1.split(":")[2];
    const dir = ["cpuacct", "cpu,cpuacct", "cpuacct,cpu"]
      .map((d) => `/sys/fs/cgroup/${d}${path}/cpuacct.usage`)
      .find((f) => {
        try {
          readFileSync(f);
          return true;
        } catch {
          return false;
        }
      });
    return Number(readFileSync(dir, "utf8")) / 1e9;
  }
  const path = lines.find((l) => l.startsWith("0::")).slice(3);
  const usage = /usage_usec (\d+)/.exec(readFileSync(`/sys/fs/cgroup${path}/cpu.stat`, "utf8"));
  return Number(usage[1]) / 1e6;
}

function composeIds(service) {
  const r = spawnSync("bash", ["-c", `. "${ROOT}/deploy/lib/settings.sh"; compose ps -q ${service}`], {
    env,
    encoding: "utf8",
  });
  return r.stdout.trim();
}

const token = () =>
  readFileSync(join(ROOT, "deploy", "tokens.txt"), "utf8")
    .split("\n")[0]
    .trim();

/**
 * One client, connected and its tools listed. A connect that fails is tried again (five times, a second
 * apart): right after a set-up comes up on a loaded machine a replica can still be starting behind nginx.
 */
async function connect(url, i) {
  for (let attempt = 1; ; attempt++) {
    const c = new Client({ name: `containers-bench-${i}`, version: "1" });
    try {
      await c.connect(
        new StreamableHTTPClientTransport(new URL(url), {
          requestInit: { headers: { Authorization: `Bearer ${token()}` } },
        }),
      );
      await c.listTools();
      return c;
    } catch (error) {
      await c.close().catch(() => undefined);
      if (attempt === 5) throw error;
      console.error(`client ${i}: connect failed (${error?.message ?? error}), again in 1 s`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

async function play(c, state, latencies) {
  while (!state.stopped) {
    try {
      await decide(c, state, latencies);
    } catch (error) {
      // A kept-alive socket closed under a request (a race with a keep-alive timeout on a loaded machine):
      // counted as an error, and the client goes on.
      state.errors.push(String(error?.message ?? error));
    }
  }
}

/** One decision: start_match, then submit_move (timed) with the first label. */
async function decide(c, state, latencies) {
  const started = await c.callTool({ name: "start_match", arguments: { game: "prisoners-dilemma" } });
  if (started.isError) {
    state.errors.push(JSON.stringify(started.content));
    return;
  }
  const view = started.structuredContent;
  const t0 = performance.now();
  const moved = await c.callTool({
    name: "submit_move",
    arguments: { match_id: view.match_id, round: 1, choice: view.labels[0] },
  });
  if (moved.isError) {
    state.errors.push(JSON.stringify(moved.content));
    return;
  }
  if (state.measuring) {
    latencies.push(performance.now() - t0);
    state.decisions += 1;
  }
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/** One measured window against `url`; `groups` names the containers whose CPU is read, by role. */
async function measure(label, url, clients, groups) {
  const connected = [];
  for (let i = 0; i < clients; i++) connected.push(await connect(url, i));
  const state = { stopped: false, measuring: false, decisions: 0, errors: [] };
  const latencies = [];
  const loops = connected.map((c) => play(c, state, latencies));
  await new Promise((r) => setTimeout(r, WARMUP_MS));
  const cpu0 = Object.fromEntries(
    Object.entries(groups).map(([k, ids]) => [k, ids.map(containerCpuSeconds)]),
  );
  const self0 = process.cpuUsage();
  const t0 = performance.now();
  state.measuring = true;
  await new Promise((r) => setTimeout(r, WINDOW_MS));
  state.measuring = false;
  const seconds = (performance.now() - t0) / 1000;
  const cpu = Object.fromEntries(
    Object.entries(groups).map(([k, ids]) => [
      k,
      ids.reduce((a, id, i) => a + containerCpuSeconds(id) - cpu0[k][i], 0),
    ]),
  );
  const self = process.cpuUsage(self0);
  state.stopped = true;
  await Promise.allSettled(loops);
  await Promise.all(connected.map((c) => c.close().catch(() => undefined)));
  latencies.sort((a, b) => a - b);
  const perDecision = (s) => (s === undefined ? Number.NaN : (s * 1000) / state.decisions);
  const row = {
    label,
    clients,
    decisionsPerSecond: state.decisions / seconds,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    serverCpuMs: perDecision(cpu.server),
    postgresCpuMs: perDecision(cpu.postgres),
    nginxCpuMs: perDecision(cpu.nginx),
    clientCpuMs: (self.user + self.system) / 1000 / state.decisions,
    errors: state.errors.length,
    firstError: state.errors[0],
  };
  console.error(JSON.stringify(row));
  return row;
}

const rows = [];
const loadAtStart = loadavg()[0];
// The anchor: the same image as one SQLite server, in a container on the host's network.
sh("up.sh", { SAME_GAME_DEPLOY_REPLICAS: "1" });
const sqliteId = docker(
  "run",
  "-d",
  "--rm",
  "--network",
  "host",
  "--entrypoint",
  "same-game",
  "same-game:local",
  "serve",
  "--http",
  "--host",
  "127.0.0.1",
  "--port",
  String(SQLITE_PORT),
  "--db",
  "/tmp/record.db",
  "--rate-limit",
  "1000000",
  "--max-sessions",
  "10000",
);
try {
  for (let i = 0; i < 100; i++) {
    const ok = await fetch(`http://127.0.0.1:${SQLITE_PORT}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  for (const clients of CLIENT_COUNTS) {
    rows.push(
      await measure("SQLite, single server (anchor)", `http://127.0.0.1:${SQLITE_PORT}/mcp`, clients, {
        server: [sqliteId],
      }),
    );
  }
} finally {
  docker("kill", sqliteId);
}
for (const n of [1, 2, 3]) {
  sh("down.sh");
  sh("up.sh", { SAME_GAME_DEPLOY_REPLICAS: String(n) });
  const replicas = Array.from({ length: n }, (_, i) => composeIds(`replica-${i + 1}`));
  for (const clients of CLIENT_COUNTS) {
    rows.push(
      await measure(`PostgreSQL, ${n} replica(s) behind nginx`, "http://127.0.0.1:8080/mcp", clients, {
        server: replicas,
        postgres: [composeIds("postgres")],
        nginx: [composeIds("loopback-proxy")],
      }),
    );
  }
}
sh("down.sh");

const f = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : "—");
console.log(
  `\nsame-game in containers — ${availableParallelism()} cores shared by the containers and the load generator; window ${WINDOW_MS / 1000} s after ${WARMUP_MS / 1000} s of warm-up; one decision = start_match + submit_move`,
);
console.log(
  `load average (1 min) ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end`,
);
console.log(
  "| set-up | clients | decisions/s | × anchor | submit p50 ms | submit p99 ms | server CPU ms/decision | PostgreSQL CPU ms/decision | nginx CPU ms/decision | client CPU ms/decision |",
);
console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const row of rows) {
  const anchor = rows.find((r) => r.clients === row.clients && r.label.startsWith("SQLite"));
  console.log(
    `| ${row.label} | ${row.clients} | ${f(row.decisionsPerSecond)} | ${f(row.decisionsPerSecond / anchor.decisionsPerSecond, 2)} | ${f(row.p50)} | ${f(row.p99)} | ${f(row.serverCpuMs, 2)} | ${f(row.postgresCpuMs, 2)} | ${f(row.nginxCpuMs, 2)} | ${f(row.clientCpuMs, 2)} |`,
  );
}
for (const row of rows.filter((r) => r.errors > 0)) {
  console.log(`${row.label}, ${row.clients} clients: ${row.errors} tool errors, e.g. ${row.firstError}`);
}
