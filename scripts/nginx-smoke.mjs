// The load of scripts/nginx-replicas.sh: SDK clients on the nginx address (no client-side routing: nginx
// picks the replica of every request), each playing one-shot trials; one replica is SIGKILLed once 30
// decisions are in. A tool call that failed (a replica killed after nginx had passed its answer's headers
// on, which nginx cannot resend) is called again: safe, as submit_move is idempotent per (match, round).
// Then the record is audited: every acknowledged decision exactly once.

import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import Database from "better-sqlite3";
import { PostgresEngine } from "../dist/store/engines/postgres-engine.js";

const { PROXY_URL, KILL_PID, RECORD } = process.env;
const CLIENTS = 8;
const TRIALS = 20;
let resent = 0;
let killedAt = null;

async function call(client, name, args) {
  for (let attempt = 0; ; attempt++) {
    try {
      const result = await client.callTool({ name, arguments: args });
      if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
      return result.structuredContent;
    } catch (error) {
      if (attempt >= 3 || /isError|: \[/.test(String(error.message))) throw error;
      resent += 1;
    }
  }
}

const acknowledged = [];
async function player(i) {
  const client = new Client({ name: `nginx-smoke-${i}`, version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(PROXY_URL)));
  for (let t = 0; t < TRIALS; t++) {
    const view = await call(client, "start_match", { game: "prisoners-dilemma" });
    await call(client, "submit_move", { match_id: view.match_id, round: 1, choice: view.labels[0] });
    acknowledged.push(`${view.match_id}:1`);
    if (killedAt === null && acknowledged.length >= 30) {
      killedAt = acknowledged.length;
      process.kill(Number(KILL_PID), "SIGKILL");
    }
  }
  await client.close();
}

const results = await Promise.allSettled(Array.from({ length: CLIENTS }, (_, i) => player(i)));
const failed = results.filter((r) => r.status === "rejected");
const rows = RECORD.startsWith("postgres")
  ? (() => {
      const engine = new PostgresEngine(RECORD, { readonly: true });
      const r = engine.prepare("SELECT match_id, round FROM decisions").all();
      engine.close();
      return r;
    })()
  : new Database(RECORD, { readonly: true }).prepare("SELECT match_id, round FROM decisions").all();
const recorded = new Map();
for (const row of rows)
  recorded.set(`${row.match_id}:${row.round}`, (recorded.get(`${row.match_id}:${row.round}`) ?? 0) + 1);
const missing = acknowledged.filter((k) => !recorded.has(k));
const doubled = [...recorded.values()].filter((n) => n > 1).length;
console.log(
  `clients ${CLIENTS} × trials ${TRIALS}: finished ${CLIENTS - failed.length}/${CLIENTS}; acknowledged ${acknowledged.length}; ` +
    `replica killed after ${killedAt} decisions; tool calls sent again by the client ${resent}; ` +
    `decision rows ${rows.length}; missing ${missing.length}; duplicated ${doubled}`,
);
for (const f of failed) console.log(`failed: ${f.reason?.message ?? f.reason}`);
process.exit(
  failed.length === 0 && missing.length === 0 && doubled === 0 && rows.length === acknowledged.length ? 0 : 1,
);
