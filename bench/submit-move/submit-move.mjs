// submit_move through the SDK client in process, beside a no-op tool on the same server and the floors under
// its recording (its statements through the Store, the same statements on a bare connection, one INSERT in
// its own write transaction), interleaved in blocks so the shared machine's load falls on all alike. Goal:
// submit_move ≤ 2× the no-op tool.
// Run: npm run bench:submit-move [-- BLOCKS CALLS_PER_BLOCK]   (uses the built code in dist/; WARM_UP=calls).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import Database from "better-sqlite3";
import { loadCatalog } from "../../dist/domain/catalog.js";
import { createServer } from "../../dist/mcp/create-server.js";
import { buildMatch } from "../../dist/play/start-match.js";
import { submitMove } from "../../dist/play/submit-move.js";
import { Store } from "../../dist/store/store.js";

const blocks = Number(process.argv[2] ?? 5);
const perBlock = Number(process.argv[3] ?? 400);
// Calls of each subject before the blocks: the SDK's paths take a few thousand calls to settle (JIT tiers);
// with 500 the no-op anchor still fell from ~450 to ~150 µs over the blocks, and the ratio with it.
const warmUp = Number(process.env.WARM_UP ?? 3000);
const dir = mkdtempSync(join(tmpdir(), "same-game-submit-"));
const store = new Store(join(dir, "bench.db"));
const deps = { store, catalog: loadCatalog() };
const server = createServer(deps, { transport: "memory", player: "bench" });
server.registerTool("noop", { description: "Does nothing: the SDK's own per-call cost." }, async () => ({
  content: [{ type: "text", text: "ok" }],
}));
// A tool with submit_move's own input and output schemas that answers a canned submit_move result and
// does nothing else: what the protocol costs for submit_move's shape (input parse, output validation, the
// bigger result), apart from recording.
const submitMoveTool = server._registeredTools.submit_move;
let canned;
server.registerTool(
  "shape",
  {
    description: "submit_move's schemas, a canned result.",
    inputSchema: submitMoveTool.inputSchema,
    outputSchema: submitMoveTool.outputSchema,
  },
  async () => canned,
);
const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
await server.connect(serverTransport);
const client = new Client({ name: "bench", version: "1" });
await client.connect(clientTransport);
// LIST=1: list the tools first, as a host does; the SDK client then validates every structuredContent
// against the tool's advertised outputSchema (a tool without one, as the no-op, is not checked).
if (process.env.LIST) await client.listTools();

// Open one-shot matches up front, so each timed call records exactly one new decision.
const caller = {
  sessionId: "bench-session",
  transport: "memory",
  principal: "local",
  configuredPlayer: "bench",
  clientInfo: () => null,
};
store.saveSession({
  id: "bench-session",
  player: "bench",
  client_name: null,
  client_version: null,
  transport: "memory",
  principal: "local",
  started_at: "",
});
const matchIds = [];
store.transaction(() => {
  for (let i = 0; i < 4 * (blocks * perBlock + warmUp) + 10; i++) {
    const match = buildMatch(deps, caller, "bench", {
      game: "prisoners-dilemma",
      variant: "base",
      framing: "business",
      style: "zero-shot",
      opponent: { id: "random", params: {} },
      seed: String(i),
      history_mode: "none",
      reveal_horizon: false,
    });
    store.insertMatch(match);
    matchIds.push(match.id);
  }
});
let next = 0;
const defect = deps.catalog.framing("business", "prisoners-dilemma").labels.defect;
// One decision recorded the ordinary way, as the template of the statements-alone floor below.
const first = submitMove(deps, caller, { match_id: matchIds[next++], round: 1, choice: defect });
if (first.kind !== "recorded") throw new Error(first.message);
const template = store.getDecision(first.result.match_id, 1);
const promptText = store.getPrompt(template.prompt_hash);

// The statements one submitMove runs, as better-sqlite3 executes them (SQL text, method, parameters), caught
// on the statement prototype while one real call runs: the bare floor below replays exactly those on a
// connection of its own, without the Store (no record-file guard, no wrappers), each match id swapped for a
// fresh one. What is left there is SQLite's own cost of writing one decision.
const statementPrototype = Object.getPrototypeOf(store.db.prepare("SELECT 1"));
const caught = [];
const originals = {};
for (const method of ["run", "get", "all"]) {
  originals[method] = statementPrototype[method];
  statementPrototype[method] = function (...args) {
    caught.push({ sql: this.source, method, args });
    return originals[method].apply(this, args);
  };
}
const caughtMatch = matchIds[next++];
const caughtOutcome = submitMove(deps, caller, { match_id: caughtMatch, round: 1, choice: defect });
for (const method of Object.keys(originals)) statementPrototype[method] = originals[method];
if (caughtOutcome.kind !== "recorded") throw new Error(caughtOutcome.message);
const bare = new Database(join(dir, "bench.db"));
bare.pragma("synchronous = NORMAL");
const replayed = caught
  .filter(({ sql }) => !/^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)/i.test(sql))
  .map(({ sql, method, args }) => ({ statement: bare.prepare(sql), method, args }));
const withMatch = (value, id) => {
  if (value === caughtMatch) return id;
  if (Array.isArray(value)) return value.map((v) => withMatch(v, id));
  if (value !== null && typeof value === "object" && !Buffer.isBuffer(value))
    return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, withMatch(v, id)]));
  return value;
};
const replayDecision = bare.transaction((id) => {
  for (const { statement, method, args } of replayed) statement[method](...withMatch(args, id));
});

canned = await client.callTool({
  name: "submit_move",
  arguments: { match_id: matchIds[next++], round: 1, choice: defect },
});
const subjects = {
  noop: async () => {
    await client.callTool({ name: "noop", arguments: {} });
  },
  "shape: submit_move's schemas, canned": async () => {
    await client.callTool({ name: "shape", arguments: { match_id: matchIds[0], round: 1, choice: defect } });
  },
  submit_move: async () => {
    const result = await client.callTool({
      name: "submit_move",
      arguments: { match_id: matchIds[next++], round: 1, choice: defect },
    });
    if (result.isError) throw new Error(JSON.stringify(result.content));
  },
  // The same work without the protocol: what recording costs on its own.
  "submitMove, play layer only": async () => {
    const outcome = submitMove(deps, caller, { match_id: matchIds[next++], round: 1, choice: defect });
    if (outcome.kind !== "recorded") throw new Error(outcome.message);
  },
  // The same statements submit_move runs, through the same store, with every value computed up front (no
  // parsing, rendering, opponent or reply): what recording one decision costs the record itself.
  "floor: submit_move's statements": async () => {
    const id = matchIds[next++];
    store.transaction(() => {
      const { match } = store.moveState(id, 1);
      store.recordAttempt({
        match_id: id,
        round: 1,
        session_id: "bench-session",
        raw_text: template.raw_text,
        action: template.action,
        invalid_reason: null,
        tokens: null,
        created_at: template.decided_at,
      });
      store.savePrompt(promptText);
      store.saveDecision({ ...template, match_id: id }, match, true);
      store.advanceMatch(id, 2, true, template.decided_at);
    });
  },
  "floor: those statements, bare SQLite": async () => {
    replayDecision.immediate(matchIds[next++]);
  },
  "floor: one-row write transaction": async () => {
    store.transaction(() =>
      store.insertAttempt({
        match_id: matchIds[0],
        round: 1,
        session_id: "bench-session",
        raw_text: "floor",
        action: null,
        invalid_reason: null,
        tokens: null,
        created_at: "",
      }),
    );
  },
};

// ONLY=name (a prefix) runs one subject, e.g. under --cpu-prof.
if (process.env.ONLY)
  for (const name of Object.keys(subjects)) if (!name.startsWith(process.env.ONLY)) delete subjects[name];
// The event loop turns after every call of every subject, as it does in a server between requests. Over
// the in-memory transport a call is all promise jobs: without a turn the loop would never run V8's own
// tasks (GC steps, compiled-code installs) during a block, and a subject that waits one turn itself (a
// group commit) would pay for all of them while the others paid for none.
const turn = () => new Promise((resolve) => setImmediate(resolve));
// Warm-up (JIT, statement cache), then blocks in turn; each block's figure is its CPU time per call.
for (const run of Object.values(subjects)) {
  for (let i = 0; i < warmUp; i++) {
    await run();
    await turn();
  }
}
const medians = Object.fromEntries(Object.keys(subjects).map((k) => [k, []]));
for (let b = 0; b < blocks; b++) {
  for (const [name, run] of Object.entries(subjects)) {
    // This process's CPU time (user + system) over the block: the shared machine's load is not in it.
    const before = process.cpuUsage();
    for (let i = 0; i < perBlock; i++) {
      await run();
      await turn();
    }
    const used = process.cpuUsage(before);
    medians[name].push((used.user + used.system) / perBlock);
  }
}
await client.close();
bare.close();
store.close();
rmSync(dir, { recursive: true, force: true });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [name, xs] of Object.entries(medians)) {
  console.log(`${name.padEnd(34)} CPU µs per call, by block: ${xs.map((x) => x.toFixed(0)).join(" ")}`);
}
if (!medians.submit_move || !medians.noop) process.exit(0);
const ratios = medians.submit_move.map((s, i) => s / medians.noop[i]);
console.log(
  `submit_move / noop per block: ${ratios.map((r) => r.toFixed(2)).join(" ")}   median ${median(ratios).toFixed(2)} (goal ≤ 2)`,
);
// The best submit_move could do with all of its own code gone but the record's statements: noop + those.
const statements = medians["floor: submit_move's statements"];
if (statements) {
  const floor = statements.map((s, i) => (medians.noop[i] + s) / medians.noop[i]);
  console.log(
    `floor, (noop + submit_move's statements) / noop: ${floor.map((r) => r.toFixed(2)).join(" ")}   median ${median(floor).toFixed(2)}`,
  );
}
// The same with the statements on a bare connection: what durable recording costs whatever the Store does.
const bareStatements = medians["floor: those statements, bare SQLite"];
if (bareStatements) {
  const floor = bareStatements.map((s, i) => (medians.noop[i] + s) / medians.noop[i]);
  console.log(
    `floor, (noop + those statements on bare SQLite) / noop: ${floor.map((r) => r.toFixed(2)).join(" ")}   median ${median(floor).toFixed(2)}`,
  );
}
