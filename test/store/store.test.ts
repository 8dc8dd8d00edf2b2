import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { packageRoot } from "../../src/package-root.js";
import { readOneShot } from "../../src/queries/one-shot-cells.js";
import type { MatchRecord } from "../../src/store/records.js";
import { Store } from "../../src/store/store.js";
import { oneShotMatch } from "../support/match-record.js";
import { describeEachEngine, freshRecord, type TestRecord } from "../support/postgres.js";
import { memorySession } from "../support/session-record.js";

const at = "2026-11-30T00:00:00.000Z";

const matchOf = (id: string, player: string, framing: string, sessionId: string) =>
  oneShotMatch(id, { player, framing, session_id: sessionId, created_at: at });

const migrationFiles = (dir: string) =>
  readdirSync(dir)
    .filter((f) => /^\d{3}_.*\.sql$/.test(f))
    .sort();

it("numbers the PostgreSQL migrations exactly as the SQLite ones (same schema version on both)", () => {
  const sqlite = migrationFiles(join(packageRoot(), "db"));
  expect(migrationFiles(join(packageRoot(), "db", "postgres"))).toEqual(sqlite);
  expect(sqlite).toContain("006_provenance.sql");
});

describeEachEngine("Store", (engine) => {
  let record: TestRecord;
  let store: Store;
  beforeEach(() => {
    record = freshRecord(engine);
    store = new Store(record.location);
  });
  afterEach(() => {
    store.close();
    record.dispose();
  });

  it("applies the migrations once (and keeps WAL and foreign keys on in SQLite)", () => {
    expect(store.engine.kind).toBe(engine);
    if (engine === "sqlite") {
      expect(store.db.pragma("journal_mode", { simple: true })).toBe("wal");
      expect(store.db.pragma("foreign_keys", { simple: true })).toBe(1);
    }
    const read = (sql: string) => store.engine.prepare(sql).all();
    const versions = read("SELECT version FROM schema_migrations ORDER BY version");
    // One row per numbered file in db/ (001_init.sql, …, 006_provenance.sql, …).
    const files = migrationFiles(join(packageRoot(), "db"));
    expect(versions).toEqual(files.map((f) => ({ version: Number(f.slice(0, 3)) })));
    expect(versions).toContainEqual({ version: 6 });
    store.close();
    store = new Store(record.location); // reopening applies nothing twice
    expect(read("SELECT count(*) AS n FROM schema_migrations")).toEqual([{ n: files.length }]);
  });

  it("enforces the foreign keys", () => {
    // An attempt for a match that does not exist is refused by the database, on both engines.
    expect(() =>
      store.insertAttempt({
        match_id: "nope",
        round: 1,
        session_id: null,
        raw_text: "x",
        action: null,
        invalid_reason: "r",
        tokens: null,
        created_at: at,
      }),
    ).toThrow(/FOREIGN KEY|foreign key/);
  });

  it("round-trips a match with its JSON columns and a player name holding SQL quotes", () => {
    const player = `Robert'); DROP TABLE matches;--`;
    store.saveSession(memorySession("s1", { player, client_name: "c", client_version: "1" }));
    store.insertMatch(matchOf("m1", player, "business", "s1"));
    const match = store.getMatch("m1");
    expect(match?.player).toBe(player);
    expect(match?.action_order).toEqual(["cooperate", "defect"]);
    expect(match?.reveal_horizon).toBe(false);
  });

  it("aggregates one-shot counts per cell and session with GROUP BY, beside imported counts", () => {
    for (const session of ["s1", "s2"]) {
      store.saveSession(memorySession(session));
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
      store.insertMatch(matchOf(id, "p", "business", session));
      store.saveDecision(
        {
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
        },
        store.getMatch(id) as MatchRecord,
      );
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

  it("returns the same values and types on both engines: ids, sums, JSON lists, NULLs, byte-order sorting", () => {
    store.saveSession(session("s1", "p"));
    // Code-point order (SQLite's BINARY): "B" (66) < "_" (95) < "a" (97) < "b" (98) < "é" (233).
    for (const player of ["b", "é", "a", "B", "_x"])
      store.insertMatch(matchOf(`m-${player}`, player, "f", "s1"));
    const attempt = (match_id: string, action: string | null, tokens: number | null) =>
      store.insertAttempt({
        match_id,
        round: 1,
        session_id: "s1",
        raw_text: action ?? "??",
        action,
        invalid_reason: action ? null : "unreadable",
        tokens,
        created_at: at,
      });
    const ids = [attempt("m-a", null, 3), attempt("m-a", null, null), attempt("m-a", "defect", 4)];
    expect(ids[1] - ids[0]).toBe(1);
    expect(ids[2] - ids[1]).toBe(1);
    // 2 invalid of 3; tokens 3 + 4 (a NULL adds nothing): numbers, not the strings a driver may return.
    expect(store.attemptTotals("m-a", 1)).toEqual({ invalid: 2, tokens: 7 });
    expect(store.attemptTotals("m-b", 1)).toEqual({ invalid: 0, tokens: null });
    for (const player of ["b", "é", "a", "B", "_x"]) {
      store.saveDecision(
        decision(`m-${player}`, player === "a" ? "defect" : "cooperate"),
        store.getMatch(`m-${player}`) as MatchRecord,
      );
    }
    // Saving a round again replaces it whole (a pending agent-vs-agent round completed later).
    store.saveDecision({ ...decision("m-b", "defect"), payoff: 0.1 }, store.getMatch("m-b") as MatchRecord);
    expect(store.getDecision("m-b", 1)).toMatchObject({ action: "defect", payoff: 0.1, tokens: 9 });
    expect(store.listMatches({}).map((m) => m.player)).toEqual(["B", "_x", "a", "b", "é"]);
    expect(store.cellActionCounts({ players: ["a", "b", "é"] })).toEqual([
      { player: "a", game: "prisoners-dilemma", variant: "base", framing: "f", action: "defect", count: 1 },
      { player: "b", game: "prisoners-dilemma", variant: "base", framing: "f", action: "defect", count: 1 },
      {
        player: "é",
        game: "prisoners-dilemma",
        variant: "base",
        framing: "f",
        action: "cooperate",
        count: 1,
      },
    ]);
    // action_order is ["cooperate", "defect"]: the first-listed share per player.
    expect(readOneShot(store, { players: ["a", "é"] }).firstListed(["prisoners-dilemma"], ["f"])).toEqual([
      { player: "a", decisions: 1, first_listed: 0 },
      { player: "é", decisions: 1, first_listed: 1 },
    ]);
    expect(store.listPrincipalMatches("local", 2, "m-").map((m) => m.id)).toEqual(["m-B", "m-_x"]);
    expect(store.listPrincipalMatches("local", 9, "m-é").map((m) => m.id)).toEqual(["m-é"]);
    const hash = store.savePrompt("Choose.");
    expect(store.savePrompt("Choose.")).toBe(hash);
    expect(store.getPrompt(hash)).toBe("Choose.");
    store.importCounts(
      "paper",
      [
        { ...countRow("z"), count: 2 },
        { ...countRow("y"), count: 3 },
      ],
      at,
    );
    expect(store.importedCountSources()).toEqual([
      { source: "paper", rows: 2, decisions: 5, sessions: 0, imported_at: at, players: ["y", "z"] },
    ]);
    // Matches imported under a source, with their decisions: none here but the live ones (source NULL).
    expect(store.importedMatchSources()).toEqual([]);
  });

  it("counts a study's trials per cell, open and finished, as numbers", () => {
    store.saveSession(session("s1", "p"));
    store.insertStudy({
      id: "st",
      name: "n",
      design_json: "{}",
      design_hash: "h",
      seed: "1",
      created_at: at,
      principal: "local",
    });
    for (const [id, status] of [
      ["t1", "finished"],
      ["t2", "open"],
      ["t3", "finished"],
    ] as const) {
      store.insertMatch({
        ...matchOf(id, "p", "f", "s1"),
        study_id: "st",
        trial_index: Number(id[1]),
        status,
      });
    }
    expect(store.studyTrialCounts("st")).toEqual([
      {
        player: "p",
        game: "prisoners-dilemma",
        variant: "base",
        framing: "f",
        style: "zero-shot",
        opponent: "random",
        opponent_params: "{}",
        finished: 2,
        open: 1,
      },
    ]);
    expect(store.countStudyTrials("st", "p", "local")).toBe(3);
    expect(store.openStudyMatch("st", "p", "local")?.id).toBe("t2");
    expect(store.openStudyMatch("st", "p", "local", ["t2"])).toBeUndefined();
  });

  it("rolls a failed transaction back whole, and keeps what committed before it", () => {
    store.saveSession(session("s1", "p"));
    expect(() =>
      store.transaction(() => {
        store.insertMatch(matchOf("m1", "p", "f", "s1"));
        throw new Error("the tool call failed after writing");
      }),
    ).toThrow(/failed after writing/);
    expect(store.getMatch("m1")).toBeUndefined();
    // A nested transaction that fails undoes only itself when the outer one catches it.
    store.transaction(() => {
      store.insertMatch(matchOf("m2", "p", "f", "s1"));
      expect(() =>
        store.transaction(() => {
          store.insertMatch(matchOf("m3", "p", "f", "s1"));
          store.insertMatch(matchOf("m3", "p", "f", "s1")); // duplicate key
        }),
      ).toThrow(/UNIQUE|unique/);
    });
    expect(store.listMatches({}).map((m) => m.id)).toEqual(["m2"]);
    expect(store.getSession("s1")?.player).toBe("p");
  });
});

function session(id: string, player: string) {
  return {
    id,
    player,
    client_name: null,
    client_version: null,
    transport: "memory",
    principal: "local",
    started_at: at,
  };
}

function decision(match_id: string, action: string) {
  return {
    match_id,
    round: 1,
    session_id: "s1",
    raw_text: action,
    action,
    rationale: null,
    tokens: 9,
    opponent_action: "defect",
    payoff: 1.5,
    opponent_payoff: 2.25,
    invalid_attempts: 0,
    status: "decided" as const,
    decided_at: at,
  };
}

function countRow(player: string) {
  return { player, game: "prisoners-dilemma", variant: "base", framing: "f", action: "cooperate", count: 0 };
}
