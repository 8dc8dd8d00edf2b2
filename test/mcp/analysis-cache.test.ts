import type { Client } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, expect, it } from "vitest";
import { CACHE_META_KEY } from "../../src/mcp/analysis-call/call-analysis.js";
import { CACHE_ENTRIES } from "../../src/mcp/analysis-call/result-cache.js";
import { createServer } from "../../src/mcp/create-server.js";
import { TOOLSET_NAMES } from "../../src/mcp/toolsets.js";
import type { EngineKind } from "../../src/store/engines/engine.js";
import { Store } from "../../src/store/store.js";
import { call, connectClient, shippedCatalog, tempDeps } from "../support/harness.js";
import { describeEachEngine } from "../support/postgres.js";

// The analysis result cache as a client sees it: the same call on an unchanged record is answered again
// (from this process's memory, or from the record's table written by another replica), and one more
// decision makes every replica recompute. Where the answer came from is in the result's _meta.

interface Answer {
  outcome: string;
  version: number | null;
  structured: Record<string, unknown>;
}

async function robustness(client: Client, args: Record<string, unknown> = {}): Promise<Answer> {
  const result = await client.callTool({ name: "robustness", arguments: { bootstrap: 300, ...args } });
  if (result.isError) throw new Error(`robustness failed: ${JSON.stringify(result.content)}`);
  const meta = result._meta?.[CACHE_META_KEY] as { outcome: string; record_version: number | null };
  return {
    outcome: meta.outcome,
    version: meta.record_version,
    structured: result.structuredContent as Record<string, unknown>,
  };
}

async function play(client: Client, framing: string, choice: string, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    const view = await call<{ match_id: string }>(client, "start_match", {
      game: "prisoners-dilemma",
      framing,
      seed: i,
    });
    await call(client, "submit_move", { match_id: view.match_id, round: 1, choice });
  }
}

describeEachEngine("the analysis result cache", (engine: EngineKind) => {
  let deps: ReturnType<typeof tempDeps>;
  let replicaStore: Store;
  let a: Client;
  let b: Client;

  beforeEach(async () => {
    deps = tempDeps(engine);
    // A second replica: its own connection to the same record, its own memory.
    replicaStore = new Store(deps.dbPath);
    a = await connectClient(deps, { player: "analyst" });
    b = await connectClient({ store: replicaStore, catalog: shippedCatalog() }, { player: "analyst-b" });
    for (const client of [a, b]) {
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toContain("robustness");
    }
    await play(a, "business+familiar", "Cooperate", 3);
    await play(a, "team+familiar", "Defect", 3);
  });
  afterEach(async () => {
    await a.close();
    await b.close();
    replicaStore.close();
    deps.dispose();
  });

  it("answers an unchanged record again, on this replica and the other, and recomputes after one more decision", async () => {
    const first = await robustness(a);
    expect(first.outcome).toBe("computed");
    expect(first.structured.decisions).toBe(6);
    // 3 of 3 cooperate against 0 of 3: the two distributions are disjoint, JSD = ln 2, R = 0.
    expect((first.structured.pooled as { R: { estimate: number } }).R.estimate).toBeCloseTo(0, 12);

    const again = await robustness(a);
    expect(again.outcome).toBe("memory");
    expect(again.version).toBe(first.version);
    expect(again.structured).toEqual(first.structured);

    const otherReplica = await robustness(b);
    expect(otherReplica.outcome).toBe("record");
    expect(otherReplica.structured).toEqual(first.structured);

    // Other arguments are another entry; the same arguments in another key order are the same entry.
    expect((await robustness(a, { seed: 2 })).outcome).toBe("computed");
    expect((await robustness(a, { seed: 2, bootstrap: 300 })).outcome).toBe("memory");

    // More decisions, through the other replica (another player, so one complete unit more): both recompute.
    await play(b, "business+familiar", "Cooperate", 1);
    expect((await robustness(a)).outcome).toBe("computed");
    await play(b, "team+familiar", "Cooperate", 1);
    const afterWrite = await robustness(a);
    expect(afterWrite.outcome).toBe("computed");
    expect(afterWrite.version).toBeGreaterThan(first.version as number);
    expect(afterWrite.structured.decisions).toBe(8);
    expect((afterWrite.structured.players as unknown[]).length).toBe(2);
    const otherAfterWrite = await robustness(b);
    expect(otherAfterWrite.outcome).toBe("record");
    expect(otherAfterWrite.structured.decisions).toBe(8);

    // The players and games filters are sets: the same members in another order are the same entry (the
    // same result, its rows in the record's order); the framings' order is not (the planned pair).
    const both = await robustness(a, { players: ["analyst", "analyst-b"], games: ["prisoners-dilemma"] });
    expect(both.outcome).toBe("computed");
    const reversed = await robustness(a, { games: ["prisoners-dilemma"], players: ["analyst-b", "analyst"] });
    expect(reversed.outcome).toBe("memory");
    expect(reversed.structured).toEqual(both.structured);
    const framings = ["business+familiar", "team+familiar"];
    expect((await robustness(a, { framings })).outcome).toBe("computed");
    expect((await robustness(a, { framings: [...framings].reverse() })).outcome).toBe("computed");
  });

  it("is off with --no-cache and with SAME_GAME_CACHE=off: every call computes", async () => {
    const [clientTransport, serverTransport] = await import("@modelcontextprotocol/client").then((m) =>
      m.InMemoryTransport.createLinkedPair(),
    );
    const server = createServer(deps, { transport: "memory", toolsets: TOOLSET_NAMES, cache: false });
    await server.connect(serverTransport);
    const { Client: SdkClient } = await import("@modelcontextprotocol/client");
    const noCache = new SdkClient({ name: "no-cache", version: "1.0.0" });
    await noCache.connect(clientTransport);
    await noCache.listTools();
    expect((await robustness(noCache)).outcome).toBe("off");
    expect((await robustness(noCache)).outcome).toBe("off");
    await noCache.close();

    process.env.SAME_GAME_CACHE = "off";
    let byEnvironment: Client;
    try {
      byEnvironment = await connectClient(deps, { player: "analyst" });
    } finally {
      delete process.env.SAME_GAME_CACHE;
    }
    await byEnvironment.listTools();
    expect((await robustness(byEnvironment)).outcome).toBe("off");
    expect((await robustness(byEnvironment)).outcome).toBe("off");
    await byEnvironment.close();
  });

  it("is bounded: the record keeps the newest entries only, and none of an older version", () => {
    const version = deps.store.recordVersion();
    for (let i = 0; i < CACHE_ENTRIES.record + 10; i++) {
      deps.store.storeAnalysis(`key-${i}`, version, `{"i":${i}}`, CACHE_ENTRIES.record);
    }
    const count = () =>
      Number(
        (deps.store.engine.prepare("SELECT count(*) AS n FROM analysis_cache").get() as { n: number }).n,
      );
    expect(count()).toBe(CACHE_ENTRIES.record);
    // Storing is no change of the record: the version stays.
    expect(deps.store.recordVersion()).toBe(version);
    expect(deps.store.cachedAnalysis(`key-${CACHE_ENTRIES.record + 9}`, version)).toBe(
      `{"i":${CACHE_ENTRIES.record + 9}}`,
    );
    expect(deps.store.cachedAnalysis(`key-${CACHE_ENTRIES.record + 9}`, version + 1)).toBeUndefined();
    // A result of a newer version drops every entry of the older ones.
    deps.store.storeAnalysis("newer", version + 1, "{}", CACHE_ENTRIES.record);
    expect(count()).toBe(1);
  });
});
