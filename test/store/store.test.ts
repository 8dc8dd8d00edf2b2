import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/package-root.js";
import type { MatchRecord } from "../../src/store/records.js";
import { Store } from "../../src/store/store.js";

let dir: string;
let store: Store;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "same-game-store-"));
  store = new Store(join(dir, "record.db"));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const at = "2026-11-30T00:00:00.000Z";

function oneShotMatch(id: string, player: string, framing: string, sessionId: string): MatchRecord {
  return {
    id,
    study_id: null,
    trial_index: null,
    player,
    session_id: sessionId,
    principal: "local",
    game: "prisoners-dilemma",
    variant: "base",
    framing,
    style: "zero-shot",
    action_order: ["cooperate", "defect"],
    opponent: "random",
    opponent_params: {},
    history_mode: "none",
    reveal_horizon: false,
    rounds: 1,
    partner_match_id: null,
    seed: "1",
    status: "open",
    next_round: 1,
    source: null,
    created_at: at,
    finished_at: null,
  };
}

describe("Store", () => {
  it("applies the migrations once and keeps WAL and foreign keys on", () => {
    expect(store.db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(store.db.pragma("foreign_keys", { simple: true })).toBe(1);
    const versions = store.db.prepare("SELECT version FROM schema_migrations").all();
    // Every numbered file of db/, once, in order.
    const files = readdirSync(join(packageRoot(), "db"))
      .filter((f) => /^\d{3}_/.test(f))
      .sort();
    expect(versions).toEqual(files.map((f) => ({ version: Number(f.slice(0, 3)) })));
    store.close();
    store = new Store(join(dir, "record.db")); // reopening applies nothing twice
    expect(store.db.prepare("SELECT count(*) AS n FROM schema_migrations").get()).toEqual({
      n: files.length,
    });
  });

  it("round-trips a match with its JSON columns and a player name holding SQL quotes", () => {
    const player = `Robert'); DROP TABLE matches;--`;
    store.saveSession({
      id: "s1",
      player,
      client_name: "c",
      client_version: "1",
      transport: "memory",
      principal: "local",
      started_at: at,
    });
    store.insertMatch(oneShotMatch("m1", player, "business", "s1"));
    const match = store.getMatch("m1");
    expect(match?.player).toBe(player);
    expect(match?.action_order).toEqual(["cooperate", "defect"]);
    expect(match?.reveal_horizon).toBe(false);
  });

  it("aggregates one-shot counts per cell and session with GROUP BY, beside imported counts", () => {
    for (const session of ["s1", "s2"]) {
      store.saveSession({
        id: session,
        player: "p",
        client_name: null,
        client_version: null,
        transport: "memory",
        principal: "local",
        started_at: at,
      });
    }
    // s1: cooperate, cooperate, defect in business; s2: defect in business; one void round ignored.
    const plays: [string, string, string | null][] = [
      ["m1", "s1", "cooperate"],
      ["m2", "s1", "cooperate"],
      ["m3", "s1", "defect"],
      ["m4", "s2", "defect"],
      ["m5", "s2", null],
    ];
    for (const [id, session, action] of plays) {
      store.insertMatch(oneShotMatch(id, "p", "business", session));
      store.saveDecision({
        match_id: id,
        round: 1,
        session_id: session,
        raw_text: action ?? "??",
        action,
        rationale: null,
        tokens: null,
        opponent_action: "defect",
        payoff: 0,
        opponent_payoff: 0,
        invalid_attempts: action ? 0 : 5,
        status: action ? "decided" : "void",
        decided_at: at,
      });
    }
    store.importCounts(
      "paper",
      [
        {
          player: "q",
          game: "prisoners-dilemma",
          variant: "base",
          framing: "business",
          action: "cooperate",
          count: 7,
        },
        {
          player: "q",
          game: "prisoners-dilemma",
          variant: "base",
          framing: "business",
          action: "defect",
          count: 0,
        },
      ],
      at,
    );
    const rows = store.oneShotCellCounts({});
    const key = (r: { player: string; action: string; session_id: string | null }) =>
      `${r.player}/${r.action}/${r.session_id}`;
    const counts = Object.fromEntries(rows.map((r) => [key(r), r.count]));
    expect(counts).toEqual({
      "p/cooperate/s1": 2,
      "p/defect/s1": 1,
      "p/defect/s2": 1,
      "q/cooperate/null": 7,
    });
    // A filter on players narrows both sources; a study filter leaves imported counts out.
    expect(store.oneShotCellCounts({ players: ["q"] }).map((r) => r.count)).toEqual([7]);
    expect(store.oneShotCellCounts({ study_id: "none" })).toEqual([]);
  });
});
