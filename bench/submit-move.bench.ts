// The issue-4 benchmark: a submit_move round trip through the SDK client (in-process) next to a no-op tool
// on the same server. Target: ratio ≤ 1.5 — recording a move must cost less than half of the SDK's own
// per-call overhead. Run: npx vitest bench --run bench/submit-move.bench.ts --outputJson out.json (medians).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { afterAll, bench, describe } from "vitest";
import { loadCatalog } from "../src/domain/catalog.js";
import { createServer } from "../src/mcp/create-server.js";
import type { Caller } from "../src/play/caller.js";
import { buildMatch } from "../src/play/start-match.js";
import { Store } from "../src/store/store.js";

const store = new Store(join(mkdtempSync(join(tmpdir(), "same-game-bench-")), "bench.db"));
const deps = { store, catalog: loadCatalog() };
const server = createServer(deps, { transport: "memory", player: "bench" });
server.registerTool("noop", { description: "Does nothing: the SDK's own per-call cost." }, async () => ({
  content: [{ type: "text", text: "ok" }],
}));
const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
await server.connect(serverTransport);
const client = new Client({ name: "bench", version: "1" });
await client.connect(clientTransport);

// Open one-shot matches up front, so each timed call records exactly one new decision.
const caller: Caller = {
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
const matchIds: string[] = [];
store.transaction(() => {
  for (let i = 0; i < 200_000; i++) {
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
// The reply in the framing's own words (its story-true label for defect), never a hard-coded word.
const defect = deps.catalog.framing("business", "prisoners-dilemma").labels.defect as string;

afterAll(async () => {
  await client.close();
  store.close();
});

describe("MCP call round trip, in-process", () => {
  bench("noop tool", async () => {
    await client.callTool({ name: "noop", arguments: {} });
  });
  // The floor under any durable recording: one INSERT in its own write transaction (WAL, synchronous=NORMAL).
  bench("floor: a one-row write transaction", () => {
    store.transaction(() =>
      store.insertAttempt({
        match_id: matchIds[0] as string,
        round: 1,
        session_id: "bench-session",
        raw_text: "floor",
        action: null,
        invalid_reason: null,
        tokens: null,
        created_at: "",
      }),
    );
  });
  bench("submit_move (records a decision)", async () => {
    const match_id = matchIds[next++] as string;
    const result = await client.callTool({
      name: "submit_move",
      arguments: { match_id, round: 1, choice: defect },
    });
    if (result.isError) throw new Error(JSON.stringify(result.content));
  });
});
