// The load of deploy/smoke.sh: 8 SDK clients (Streamable HTTP, a bearer token from deploy/tokens.txt) play
// one registered study through nginx on 127.0.0.1:8080, each as a player of its own. Once a quarter of the
// decisions are in, one replica container is killed (docker kill: SIGKILL, nothing drained); at half, the
// PostgreSQL container is restarted. A call that failed meanwhile (an answer cut off with its replica, the
// database gone for a few seconds) is made again after a pause: safe, as next_trial resumes the player's
// open trial and submit_move is idempotent per (match, round). Then the record is audited: every
// acknowledged decision has exactly one decision row and one attempt row, and the study has nothing else.
// Prints one line `acknowledged N, rows N, lost 0, duplicated 0`; exit 0 only when that holds.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import pg from "pg";

const { PROXY_URL, TOKENS_FILE, KILL_CONTAINER, RESTART_CONTAINER, RECORD_URL } = process.env;
const CLIENTS = 8;
const TRIALS_PER_CELL = 10;
const FRAMINGS = ["abstract-matrix", "business", "diplomatic"];
const TOTAL = CLIENTS * TRIALS_PER_CELL * FRAMINGS.length;
const RETRY_PAUSE_MS = 250;
const MAX_TRIES = 240; // a minute of pauses: longer than a PostgreSQL restart
const run = promisify(execFile);
const token = readFileSync(TOKENS_FILE, "utf8").split("\n")[0].trim();
const events = [];
const retried = { count: 0 };

function connect(name) {
  const client = new Client({ name, version: "1" });
  const transport = new StreamableHTTPClientTransport(new URL(`${PROXY_URL}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  return client.connect(transport).then(() => client);
}

/** One tool call, made again after a pause while it fails (by a thrown error or an isError answer). */
async function call(client, name, args) {
  let last;
  for (let attempt = 1; attempt <= MAX_TRIES; attempt++) {
    try {
      const result = await client.callTool({ name, arguments: args });
      if (!result.isError) return result.structuredContent;
      last = new Error(`${name}: ${result.content?.[0]?.text}`);
    } catch (error) {
      last = error;
    }
    retried.count += 1;
    await new Promise((r) => setTimeout(r, RETRY_PAUSE_MS));
  }
  throw last;
}

const acknowledged = [];
const faults = [];
function afterDecision() {
  const n = acknowledged.length;
  if (n === Math.floor(TOTAL / 4)) {
    events.push(`replica killed after ${n}`);
    faults.push(run("docker", ["kill", KILL_CONTAINER]));
  }
  if (n === Math.floor(TOTAL / 2)) {
    events.push(`PostgreSQL restarted after ${n}`);
    faults.push(run("docker", ["restart", RESTART_CONTAINER]));
  }
}

async function player(studyId, i) {
  const client = await connect(`deploy-smoke-${i}`);
  for (;;) {
    const next = await call(client, "next_trial", { study_id: studyId, player: `smoke-${i}` });
    if (next.complete) break;
    const { match_id, round, labels } = next.trial;
    await call(client, "submit_move", { match_id, round, choice: labels[i % labels.length] });
    acknowledged.push(`${match_id}:${round}`);
    afterDecision();
  }
  await client.close();
}

const operator = await connect("deploy-smoke-operator");
const study = await call(operator, "register_study", {
  name: `deploy-smoke-${Date.now()}`,
  games: ["prisoners-dilemma"],
  framings: FRAMINGS,
  trials_per_cell: TRIALS_PER_CELL,
});
await operator.close();
const started = performance.now();
const results = await Promise.allSettled(
  Array.from({ length: CLIENTS }, (_, i) => player(study.study_id, i)),
);
await Promise.all(faults);
const seconds = (performance.now() - started) / 1000;

const db = new pg.Client({ connectionString: RECORD_URL });
await db.connect();
const count = async (table) =>
  (
    await db.query(
      `SELECT t.match_id, t.round, count(*)::int AS n FROM ${table} t JOIN matches m ON m.id = t.match_id
       WHERE m.study_id = $1 GROUP BY t.match_id, t.round`,
      [study.study_id],
    )
  ).rows;
const decisionRows = await count("decisions");
const attemptRows = await count("attempts");
await db.end();

const failed = results.filter((r) => r.status === "rejected");
const key = (r) => `${r.match_id}:${r.round}`;
const decisions = new Map(decisionRows.map((r) => [key(r), r.n]));
const attempts = new Map(attemptRows.map((r) => [key(r), r.n]));
const lost = acknowledged.filter((k) => decisions.get(k) !== 1 || attempts.get(k) !== 1).length;
const duplicated = decisionRows.filter((r) => r.n > 1).length + attemptRows.filter((r) => r.n > 1).length;
const rows = decisionRows.reduce((a, r) => a + r.n, 0);
const unacknowledged = [...decisions.keys()].filter((k) => !acknowledged.includes(k)).length;
console.error(
  `${CLIENTS} clients, ${TOTAL} trials in ${seconds.toFixed(1)} s; ${events.join("; ")}; calls made again ${retried.count}; attempt rows ${attemptRows.reduce((a, r) => a + r.n, 0)}; decision rows nobody acknowledged ${unacknowledged}`,
);
for (const f of failed) console.error(`a client gave up: ${f.reason?.message ?? f.reason}`);
console.log(`acknowledged ${acknowledged.length}, rows ${rows}, lost ${lost}, duplicated ${duplicated}`);
const ok =
  failed.length === 0 &&
  acknowledged.length === TOTAL &&
  rows === acknowledged.length &&
  lost === 0 &&
  duplicated === 0 &&
  unacknowledged === 0;
process.exit(ok ? 0 : 1);
