/**
 * `npm run stress`: the full load the HTTP transport promises, not a test — it prints figures.
 *   1. one server process, 32 concurrent clients × 200 one-shot trials;
 *   2. four server processes on one database file, 4 clients each × 200 trials.
 * Each phase checks, with better-sqlite3 directly, that every acknowledged decision is recorded exactly
 * once, and reports throughput and submit_move latency. Exit 1 when a guarantee fails.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { auditRecord } from "../../test/http/support/exactly-once.js";
import { connectHttp, playOneShotTrials } from "../../test/http/support/http-client.js";
import { type ServerProcess, startServerProcess } from "../../test/http/support/server-process.js";

const TRIALS_PER_CLIENT = 200;

interface PhaseResult {
  name: string;
  decisions: number;
  seconds: number;
  p50: number;
  p99: number;
  ok: boolean;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? Number.NaN;
}

async function phase(
  name: string,
  processes: number,
  clientsPerProcess: number,
  dir: string,
): Promise<PhaseResult> {
  const dbPath = join(dir, `${name}.db`);
  const servers: ServerProcess[] = [];
  for (let i = 0; i < processes; i++) {
    servers.push(await startServerProcess(dbPath, ["--rate-limit", "100000", "--max-sessions", "1024"]));
  }
  const clients = await Promise.all(
    servers.flatMap((server, s) =>
      Array.from(
        { length: clientsPerProcess },
        async (_, c) => (await connectHttp(server.url, { name: `${name}-${s}-${c}` })).client,
      ),
    ),
  );
  const started = performance.now();
  const runs = await Promise.all(clients.map((client) => playOneShotTrials(client, TRIALS_PER_CLIENT)));
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(clients.map((client) => client.close()));
  for (const server of servers) server.child.kill("SIGTERM");
  const exits = await Promise.all(servers.map((s) => s.exited));

  const acknowledged = runs.flatMap((r) => r.acknowledged);
  const latencies = runs.flatMap((r) => r.submitLatenciesMs).sort((a, b) => a - b);
  const audit = auditRecord(dbPath, acknowledged);
  const expected = processes * clientsPerProcess * TRIALS_PER_CLIENT;
  const failures = runs.map((r) => r.failure).filter((f) => f !== null);
  const ok =
    failures.length === 0 &&
    acknowledged.length === expected &&
    audit.integrity === "ok" &&
    audit.missing.length === 0 &&
    audit.duplicated.length === 0 &&
    audit.wrong.length === 0 &&
    audit.decisionRows === expected &&
    exits.every((code) => code === 0);
  if (!ok) {
    process.stderr.write(
      `${name}: FAILED — acknowledged ${acknowledged.length}/${expected}, rows ${audit.decisionRows}, missing ${audit.missing.length}, duplicated ${audit.duplicated.length}, wrong ${audit.wrong.length}, integrity ${audit.integrity}, exits ${exits.join(",")}, first failure: ${failures[0] ?? "none"}\n`,
    );
    for (const server of servers)
      process.stderr.write(
        server
          .stderr()
          .split("\n")
          .filter((l) => !/session .* (opened|closed)/.test(l))
          .join("\n"),
      );
  }
  return {
    name,
    decisions: acknowledged.length,
    seconds,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    ok,
  };
}

async function main(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), "same-game-stress-"));
  try {
    const results = [
      await phase("one-server-32-clients", 1, 32, dir),
      await phase("four-servers-4-clients-each", 4, 4, dir),
    ];
    process.stdout.write(
      "phase                          decisions  seconds  decisions/s  submit p50 ms  submit p99 ms  exactly-once\n",
    );
    for (const r of results) {
      process.stdout.write(
        `${r.name.padEnd(30)} ${String(r.decisions).padStart(9)}  ${r.seconds.toFixed(1).padStart(7)}  ${(r.decisions / r.seconds).toFixed(0).padStart(11)}  ${r.p50.toFixed(1).padStart(13)}  ${r.p99.toFixed(1).padStart(13)}  ${r.ok ? "yes" : "NO"}\n`,
      );
    }
    return results.every((r) => r.ok) ? 0 : 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

process.exitCode = await main();
