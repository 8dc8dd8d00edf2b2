import { afterEach, beforeEach, expect, it } from "vitest";
import type { MatchRecord } from "../../src/store/records.js";
import { Store } from "../../src/store/store.js";
import { requireBuiltCli, runCli } from "../support/built-cli.js";
import { describeOnPostgres, freshRecord, type TestRecord } from "../support/postgres.js";
import { memorySession } from "../support/session-record.js";

const at = "2026-12-01T00:00:00.000Z";

function match(id: string, partner: string | null): MatchRecord {
  return {
    id,
    study_id: null,
    trial_index: null,
    player: `seat-${id}`,
    session_id: "s1",
    principal: "local",
    game: "prisoners-dilemma",
    variant: "base",
    framing: "business",
    style: "zero-shot",
    action_order: ["defect", "cooperate"],
    opponent: "agent",
    opponent_params: { forfeit_after_seconds: 60 },
    history_mode: "none",
    reveal_horizon: false,
    rounds: 1,
    partner_match_id: partner,
    seed: "9",
    status: "finished",
    next_round: 2,
    source: null,
    created_at: at,
    finished_at: at,
  };
}

/** A small record with what a copy gets wrong first: rows pointing at rows of their own table, ids. */
function writeSource(path: string): void {
  const store = new Store(path);
  store.saveSession(memorySession("s1", { client_name: "c", client_version: "1" }));
  // An agent-vs-agent pair: the first seat points at the second, inserted after it.
  store.insertMatch(match("a-first", null));
  store.insertMatch(match("b-second", "a-first"));
  store.setPartner("a-first", "b-second");
  for (const [id, action] of [
    ["a-first", "defect"],
    ["b-second", "cooperate"],
  ] as const) {
    for (const raw of ["hmm", action]) {
      store.insertAttempt({
        match_id: id,
        round: 1,
        session_id: "s1",
        raw_text: raw,
        action: raw === action ? action : null,
        invalid_reason: raw === action ? null : "no label",
        tokens: 12,
        created_at: at,
      });
    }
    store.saveDecision(
      {
        match_id: id,
        round: 1,
        session_id: "s1",
        raw_text: action,
        action,
        rationale: "why: 'quoted' — ünïcode",
        tokens: 24,
        opponent_action: action === "defect" ? "cooperate" : "defect",
        payoff: action === "defect" ? 5 : 0,
        opponent_payoff: action === "defect" ? 0 : 5,
        invalid_attempts: 1,
        status: "decided",
        decided_at: at,
        prompt_hash: store.savePrompt(`prompt for ${id}`),
        server_version: "0.1.0",
        catalog_fingerprint: "f",
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
        count: 3,
      },
    ],
    at,
  );
  store.close();
}

describeOnPostgres("migrate-record", () => {
  let file: TestRecord;
  let target: TestRecord;
  beforeEach(() => {
    requireBuiltCli();
    file = freshRecord("sqlite");
    target = freshRecord("postgres");
    writeSource(file.location);
  });
  afterEach(() => {
    file.dispose();
    target.dispose();
  });

  it("copies every table with its counts, keeps row ids going, and refuses a non-empty target unless --replace", () => {
    const run = runCli(["migrate-record", "--from", file.location, "--to", target.location, "--json"]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const result = JSON.parse(run.stdout) as {
      tables: { table: string; rows: number }[];
      analyses_identical: string[];
    };
    expect(Object.fromEntries(result.tables.map((t) => [t.table, t.rows]))).toEqual({
      sessions: 1,
      studies: 0,
      matches: 2,
      decisions: 2,
      attempts: 4,
      model_calls: 0,
      prompts: 2,
      imported_counts: 1,
      // One tally row per decided (cell, action) of the two decisions (migration 007), no HTTP session (009).
      decision_tallies: 2,
      http_sessions: 0,
      // The runner's provider batches (migration 017): none in a record played over MCP.
      runner_batches: 0,
      runner_batch_requests: 0,
      // The leases of runs in progress (migration 020): none once every run has ended.
      run_leases: 0,
    });
    expect(result.analyses_identical).toEqual(["robustness", "sensitivity", "repeated", "story-labels"]);

    const copy = new Store(target.location);
    const source = new Store(file.location, { readonly: true });
    try {
      expect(copy.getMatch("a-first")).toEqual(source.getMatch("a-first"));
      expect(copy.getMatch("a-first")?.partner_match_id).toBe("b-second");
      expect(copy.listDecisions("b-second")).toEqual(source.listDecisions("b-second"));
      expect(copy.listAttempts("a-first", 1)).toEqual(source.listAttempts("a-first", 1));
      expect(copy.exportDecisions({})).toEqual(source.exportDecisions({}));
      // The attempts' ids came along (1…4); a new attempt continues after them.
      const next = copy.insertAttempt({
        match_id: "a-first",
        round: 1,
        session_id: "s1",
        raw_text: "late",
        action: null,
        invalid_reason: "x",
        tokens: null,
        created_at: at,
      });
      expect(next).toBe(5);
    } finally {
      copy.close();
      source.close();
    }

    const again = runCli(["migrate-record", "--from", file.location, "--to", target.location]);
    expect(again.status).toBe(2);
    expect(again.stderr).toMatch(
      /The PostgreSQL record is not empty \(rows in .*sessions.*\): pass --replace/,
    );
    const replaced = runCli([
      "migrate-record",
      "--from",
      file.location,
      "--to",
      target.location,
      "--replace",
    ]);
    expect(replaced.status).toBe(0);
    expect(replaced.stdout).toMatch(/attempts\s+4\b/);
    expect(replaced.stdout).toMatch(
      /Verified: the row count of every table, and identical output of analyze/,
    );
  });

  it("refuses a record that holds a NUL (written before NUL was refused), naming table, row and column", () => {
    // An older same-game stored a NUL in an imported label; PostgreSQL text cannot hold it.
    const store = new Store(file.location);
    store.db
      .prepare("UPDATE imported_counts SET player = 'q' || char(0) || 'x' WHERE source = 'paper'")
      .run();
    store.close();
    const run = runCli(["migrate-record", "--from", file.location, "--to", target.location]);
    expect(run.status, run.stderr).toBe(2);
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(
      /^same-game: The imported_counts row with source = "paper", player = "q\\u0000x", .* holds a NUL character \(U\+0000\) in player, which PostgreSQL cannot store; nothing was written\. Replace it in the SQLite file/,
    );
    // Nothing was written: the target is still empty, and the file still holds its rows.
    const copy = new Store(target.location);
    try {
      expect(copy.engine.prepare("SELECT count(*) AS n FROM matches").get()).toEqual({ n: 0 });
    } finally {
      copy.close();
    }
    const source = new Store(file.location, { readonly: true });
    try {
      expect(source.importedCountSources()).toMatchObject([{ source: "paper", rows: 1, decisions: 3 }]);
    } finally {
      source.close();
    }
  });

  it("names the bad flag value: a URL as --from, a path as --to, a missing file", () => {
    const pgAsSource = runCli([
      "migrate-record",
      "--from",
      "postgres://u:pw@127.0.0.1/x",
      "--to",
      target.location,
    ]);
    expect(pgAsSource.status).toBe(2);
    expect(pgAsSource.stderr).toMatch(
      /--from must be an SQLite file, got postgres:\/\/u:\*\*\*@127\.0\.0\.1\/x/,
    );
    const pathAsTarget = runCli(["migrate-record", "--from", file.location, "--to", "/tmp/other.db"]);
    expect(pathAsTarget.stderr).toMatch(/--to must be a postgres:\/\/ URL, got "\/tmp\/other.db"/);
    const missing = runCli(["migrate-record", "--from", "/nonexistent/r.db", "--to", target.location]);
    expect(missing.stderr).toMatch(/No record at \/nonexistent\/r.db \(--from\)/);
  });
});
