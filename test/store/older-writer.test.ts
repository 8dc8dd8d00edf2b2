// A same-game of schema 3 to 5 did not refuse a record of a newer schema: a host still launching such an
// install writes its decisions into a record this same-game migrated, knowing nothing of the tallies the
// analyses read or of the record's version the result cache keys on. Its writes are replayed here with the
// statements that same-game sent (src/store/store.ts of the first release with model calls, schema 3), on a
// connection of its own, as that process would.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { generateRecord } from "../../bench/scale/generate-record.js";
import { CACHE_META_KEY } from "../../src/mcp/analysis-call/call-analysis.js";
import type { MatchRecord } from "../../src/store/records.js";
import { Store } from "../../src/store/store.js";
import { call, connectClient, tempDeps } from "../support/harness.js";
import { firstRoundDecision, oneShotMatch } from "../support/match-record.js";
import { memorySession } from "../support/session-record.js";

const at = "2026-12-01T00:00:00.000Z";

/** The older same-game's own writes: its session, match and decision statements, verbatim. */
function olderWriter(path: string) {
  const db = new Database(path);
  db.pragma("busy_timeout = 5000");
  return {
    session(id: string) {
      db.prepare(
        `INSERT INTO sessions (id, player, client_name, client_version, transport, principal, started_at)
         VALUES (?, 'old-host', 'old-client', '1.0', 'stdio', 'local', ?)`,
      ).run(id, at);
    },
    match(id: string, session: string, framing: string) {
      db.prepare(
        `INSERT INTO matches (id, study_id, trial_index, player, session_id, principal, game, variant, framing,
           style, action_order, opponent, opponent_params, history_mode, reveal_horizon, rounds,
           partner_match_id, seed, status, next_round, source, created_at, finished_at)
         VALUES (@id, NULL, NULL, 'analyst', @session, 'local', 'prisoners-dilemma', 'base', @framing,
           'zero-shot', '["cooperate","defect"]', 'random', '{}', 'none', 0, 1,
           NULL, '1', 'finished', 2, NULL, @at, @at)`,
      ).run({ id, session, framing, at });
    },
    decide(match: string, session: string, action: string) {
      db.prepare(
        `INSERT OR REPLACE INTO decisions (match_id, round, session_id, raw_text, action, rationale, tokens,
           opponent_action, payoff, opponent_payoff, invalid_attempts, status, decided_at)
         VALUES (@match_id, 1, @session_id, @action, @action, NULL, NULL,
           'defect', 0, 5, 0, 'decided', @at)`,
      ).run({ match_id: match, session_id: session, action, at });
    },
    close: () => db.close(),
  };
}

/** The record as a same-game of schema 20 left it: before 021 (its column, triggers and recount). */
function asBeforeOlderWriterGuard(path: string): void {
  const db = new Database(path);
  db.exec(`DROP TRIGGER decisions_by_older_writer_replace;
    DROP TRIGGER decisions_by_older_writer_count;
    DROP VIEW decided_round_tally_keys;
    ALTER TABLE decisions DROP COLUMN tallied;
    DELETE FROM schema_migrations WHERE version = 21;`);
  db.close();
}

async function robustness(client: Client) {
  const result = await client.callTool({ name: "robustness", arguments: { bootstrap: 200 } });
  if (result.isError) throw new Error(JSON.stringify(result.content));
  const structured = result.structuredContent as { decisions: number; pooled: { R: { estimate: number } } };
  const meta = result._meta?.[CACHE_META_KEY] as { outcome: string };
  return { outcome: meta.outcome, decisions: structured.decisions, R: structured.pooled.R.estimate };
}

describe("decisions an older same-game writes into a migrated record", () => {
  let deps: ReturnType<typeof tempDeps>;
  beforeEach(() => {
    deps = tempDeps();
  });
  afterEach(() => deps.dispose());

  it("are counted by the next analysis, which is recomputed, not answered from the cache", async () => {
    const client = await connectClient(deps, { player: "analyst" });
    for (const [framing, choice] of [
      ["business+familiar", "Cooperate"],
      ["team+familiar", "Defect"],
    ] as const) {
      for (let i = 0; i < 3; i++) {
        const view = await call<{ match_id: string }>(client, "start_match", {
          game: "prisoners-dilemma",
          framing,
          seed: i,
        });
        await call(client, "submit_move", { match_id: view.match_id, round: 1, choice });
      }
    }
    const before = await robustness(client);
    expect(before).toMatchObject({ outcome: "computed", decisions: 6 });
    expect(before.R).toBeCloseTo(0, 12); // 3 of 3 cooperate against 0 of 3: disjoint

    // The older same-game records two cooperations in team+familiar, the second of them first recorded as
    // a defection and then replaced (INSERT OR REPLACE of the same round).
    const old = olderWriter(deps.dbPath);
    old.session("old-s1");
    old.match("old-m1", "old-s1", "team+familiar");
    old.match("old-m2", "old-s1", "team+familiar");
    old.decide("old-m1", "old-s1", "cooperate");
    old.decide("old-m2", "old-s1", "defect");
    old.decide("old-m2", "old-s1", "cooperate");
    old.close();

    const after = await robustness(client);
    expect(after).toMatchObject({ outcome: "computed", decisions: 8 });
    // (1, 0) against (2/5, 3/5): M = (.7, .3), JSD = ½·ln(1/.7) + ½·(.4·ln(.4/.7) + .6·ln(.6/.3)) = 0.274358,
    // R = 1 − JSD / ln 2 = 0.604185.
    expect(after.R).toBeCloseTo(0.604185, 5);
    expect(
      deps.store
        .cellActionCounts({})
        .filter((r) => r.framing === "team+familiar")
        .map((r) => [r.action, r.count]),
    ).toEqual([
      ["cooperate", 2],
      ["defect", 3],
    ]);
    await client.close();
  });

  it("replacing a round this same-game recorded moves its count", () => {
    const { store } = deps;
    store.saveSession(memorySession("s1"));
    store.insertMatch(oneShotMatch("m1", { session_id: "s1" }));
    store.saveDecision(
      firstRoundDecision("m1", "cooperate", { session_id: "s1", decided_at: at }),
      store.getMatch("m1") as MatchRecord,
    );
    const old = olderWriter(deps.dbPath);
    old.decide("m1", "s1", "defect");
    old.close();
    expect(store.cellActionCounts({}).map((r) => [r.action, r.count])).toEqual([["defect", 1]]);
    // And this same-game replacing the older writer's row takes its count out again.
    store.saveDecision(
      firstRoundDecision("m1", "cooperate", { session_id: "s1", decided_at: at }),
      store.getMatch("m1") as MatchRecord,
    );
    expect(store.cellActionCounts({}).map((r) => [r.action, r.count])).toEqual([["cooperate", 1]]);
  });

  it("written before this same-game guarded against them, are counted once the record is opened", () => {
    const { store, dbPath } = deps;
    store.saveSession(memorySession("s1"));
    store.insertMatch(oneShotMatch("m1", { session_id: "s1" }));
    store.saveDecision(
      firstRoundDecision("m1", "cooperate", { session_id: "s1", decided_at: at }),
      store.getMatch("m1") as MatchRecord,
    );
    store.close(); // closing again in dispose() is harmless
    asBeforeOlderWriterGuard(dbPath);
    const old = olderWriter(dbPath);
    old.session("old-s1");
    old.match("old-m1", "old-s1", "business");
    old.decide("old-m1", "old-s1", "defect");
    old.close();
    const reopened = new Store(dbPath);
    try {
      const counts = reopened.cellActionCounts({}).map((r) => [r.player, r.action, r.count]);
      expect(counts.sort()).toEqual([
        ["analyst", "defect", 1],
        ["p", "cooperate", 1],
      ]);
    } finally {
      reopened.close();
    }
  });
});

describe("the recount of the tallies when the record is opened", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "same-game-recount-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("gives the tallies this same-game kept, row for row, on a generated 10k record with replaced and imported rounds", () => {
    const path = join(dir, "record.db");
    const store = new Store(path);
    generateRecord(store, 10_000, 3);
    // A replaced decided round (its old row stays at 0) and an imported match's session label.
    store.saveSession(memorySession("s1"));
    store.insertMatch(oneShotMatch("m1", { session_id: "s1" }));
    const decide = (action: string) =>
      store.saveDecision(
        firstRoundDecision("m1", action, { session_id: "s1", decided_at: at }),
        store.getMatch("m1") as MatchRecord,
      );
    decide("cooperate");
    decide("defect");
    store.insertMatch(
      oneShotMatch("i1", {
        source: "elsewhere",
        import_session: "conversation-7",
        action_order: ["defect", "cooperate"],
      }),
    );
    store.saveDecision(
      firstRoundDecision("i1", "cooperate", { session_id: null, decided_at: at }),
      store.getMatch("i1") as MatchRecord,
    );
    store.close();
    const tallies = () => {
      const db = new Database(path, { readonly: true });
      const rows = db.prepare("SELECT * FROM decision_tallies WHERE count <> 0").all();
      db.close();
      return rows;
    };
    const kept = tallies();
    expect(kept).toContainEqual(expect.objectContaining({ session_id: "conversation-7", order_position: 1 }));
    asBeforeOlderWriterGuard(path);
    new Store(path).close(); // applies 021 again: the recount
    expect(tallies()).toEqual(kept);
  });
});
