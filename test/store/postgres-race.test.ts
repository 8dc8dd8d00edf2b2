import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { Caller } from "../../src/play/caller.js";
import type { PlayDeps } from "../../src/play/play-deps.js";
import { submitMove } from "../../src/play/submit-move.js";
import { Store } from "../../src/store/store.js";
import { CLI, requireBuiltCli } from "../support/built-cli.js";
import { call, connectClient, shippedCatalog } from "../support/harness.js";
import { describeOnPostgres, freshPostgresDatabase, type TestRecord } from "../support/postgres.js";

// The round is decided once even when two replicas race for it: on PostgreSQL by SERIALIZABLE transactions
// (the loser is aborted with 40001 and run again, and then sees the winner's decision), not by a lock in one
// process. Two Stores here are two connections, as two replicas are.

function caller(sessionId: string): Caller {
  return {
    sessionId,
    transport: "memory",
    principal: "local",
    configuredPlayer: "racer",
    clientInfo: () => null,
  };
}

const count = (store: Store, sql: string, ...params: unknown[]) =>
  (store.engine.prepare(sql).get(...params) as { n: number }).n;

describeOnPostgres("two replicas racing for one round on PostgreSQL", () => {
  let record: TestRecord;
  let a: Store;
  let b: Store;
  beforeEach(() => {
    record = freshPostgresDatabase();
    a = new Store(record.location);
    b = new Store(record.location);
  });
  afterEach(() => {
    a.close();
    b.close();
    record.dispose();
  });

  it("B decides the round while A's transaction is half-way: A is rerun and replays B's decision", async () => {
    const depsB: PlayDeps = { store: b, catalog: shippedCatalog() };
    const setup = await connectClient(depsB, { player: "racer" });
    const view = await call<{ match_id: string; labels: string[] }>(setup, "start_match", {
      game: "prisoners-dilemma",
      opponent: "always-defect",
      seed: 3,
    });
    await setup.close();
    const choice = view.labels[0] as string;
    // A reads "no decision yet" inside its transaction; right then B submits the same round and commits.
    let reads = 0;
    const interleaved = new Proxy(a, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (prop !== "moveState") return typeof value === "function" ? value.bind(target) : value;
        return (matchId: string, round: number) => {
          const seen = target.moveState(matchId, round);
          reads += 1;
          if (reads === 1) {
            expect(seen?.recorded).toBe(false);
            const won = submitMove(depsB, caller("sb"), { match_id: view.match_id, round: 1, choice });
            expect(won.kind === "recorded" && won.result.replayed).toBe(false);
          }
          return seen;
        };
      },
    });
    const depsA: PlayDeps = { store: interleaved, catalog: shippedCatalog() };
    const lost = submitMove(depsA, caller("sa"), { match_id: view.match_id, round: 1, choice });
    // A ran twice (its first run was aborted by PostgreSQL) and the second saw B's decision: a replay.
    expect(reads).toBe(2);
    expect(lost.kind === "recorded" && lost.result.replayed).toBe(true);
    expect(count(a, "SELECT count(*) AS n FROM decisions WHERE match_id = ?", view.match_id)).toBe(1);
    // A's first run wrote an attempt too, but it was rolled back with the rest: one attempt, B's.
    expect(count(a, "SELECT count(*) AS n FROM attempts WHERE match_id = ?", view.match_id)).toBe(1);
    expect(a.getDecision(view.match_id, 1)?.session_id).toBe("sb");
  });

  it("two server processes submitting different choices for the same rounds: each round decided once", async () => {
    requireBuiltCli();
    const connect = async (name: string) => {
      const client = new Client({ name, version: "1.0.0" });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [CLI, "serve", "--db", record.location, "--player", "racer"],
          stderr: "ignore",
        }),
      );
      return client;
    };
    const [first, second] = await Promise.all([connect("first"), connect("second")]);
    try {
      const rounds = 12;
      const outcomes: boolean[][] = [];
      for (let i = 0; i < rounds; i++) {
        const started = await first.callTool({
          name: "start_match",
          arguments: { game: "prisoners-dilemma", opponent: "computer", seed: i },
        });
        if (started.isError) throw new Error(JSON.stringify(started.content));
        const view = started.structuredContent as { match_id: string; labels: string[] };
        // Both at once, each with a different label: only one may be recorded; the other is told it lost.
        const results = await Promise.all(
          [first, second].map((client, k) =>
            client.callTool({
              name: "submit_move",
              arguments: { match_id: view.match_id, round: 1, choice: view.labels[k] },
            }),
          ),
        );
        outcomes.push(results.map((r) => r.isError !== true));
        for (const result of results.filter((r) => r.isError)) {
          expect(JSON.stringify(result.content)).toMatch(/already decided as/);
        }
      }
      expect(outcomes.every((pair) => pair.filter(Boolean).length === 1)).toBe(true);
      expect(count(a, "SELECT count(*) AS n FROM decisions")).toBe(rounds);
      expect(count(a, "SELECT count(*) AS n FROM attempts")).toBe(rounds);
      expect(count(a, "SELECT count(DISTINCT match_id) AS n FROM attempts")).toBe(rounds);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });
});
