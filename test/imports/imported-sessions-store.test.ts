import { copyFileSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { exportTable } from "../../src/exports/export-tables.js";
import { importMatches, parseMatchesJsonl } from "../../src/imports/matches-jsonl.js";
import { packageRoot } from "../../src/package-root.js";
import type { Engine, EngineKind } from "../../src/store/engines/engine.js";
import { PostgresEngine } from "../../src/store/engines/postgres-engine.js";
import { SqliteEngine } from "../../src/store/engines/sqlite-engine.js";
import { applyMigrations } from "../../src/store/migrations.js";
import { Store } from "../../src/store/store.js";
import { shippedCatalog, tempDeps } from "../support/harness.js";
import { describeEachEngine, freshRecord } from "../support/postgres.js";

// Where imported sessions are kept and how the analyses and exports read them back, on both engines: a
// label is scoped to its import and player, a row without one is decisions without a session, and the
// migration that added the column keeps every count imported before it.

const catalog = shippedCatalog();
const AT = "2026-12-02T00:00:00.000Z";
const count = (player: string, framing: string, session: string | undefined, action: string, n: number) => ({
  player,
  game: "prisoners-dilemma",
  variant: "base",
  framing,
  ...(session === undefined ? {} : { session }),
  action,
  count: n,
});
const oneShot = (framing: string, move: "cooperate" | "defect", session?: string | null) =>
  JSON.stringify({
    player: "harness",
    game: "prisoners-dilemma",
    variant: "base",
    framing,
    opponent: "always-defect",
    ...(session === undefined ? {} : { session }),
    rounds: [
      {
        move,
        opponent_move: "defect",
        payoff: move === "cooperate" ? 2 : 3,
        opponent_payoff: move === "cooperate" ? 10 : 3,
      },
    ],
  });

describe("parseMatchesJsonl: the optional session field", () => {
  it("keeps a session label, and reads null or an absent field as no session", () => {
    const text = [
      oneShot("business", "cooperate", "epoch 1"),
      oneShot("business", "defect", null),
      oneShot("business", "defect"),
    ].join("\n");
    expect(parseMatchesJsonl(text, "f.jsonl", catalog).map((m) => m.session)).toEqual([
      "epoch 1",
      null,
      undefined,
    ]);
  });

  it("refuses a label that is not text, too long, or holds a control character, naming line and field", () => {
    const cases: [unknown, RegExp][] = [
      [3, /^f\.jsonl: line 1: session: .*string/i],
      ["s".repeat(201), /^f\.jsonl: line 1: session: .*200/],
      ["a\nb", /^f\.jsonl: line 1: session: a session label holds no control characters\.$/],
      ["", /^f\.jsonl: line 1: session: /],
    ];
    for (const [session, message] of cases) {
      const line = JSON.stringify({ ...JSON.parse(oneShot("business", "cooperate")), session });
      expect(() => parseMatchesJsonl(line, "f.jsonl", catalog), String(session)).toThrow(message);
    }
  });
});

describeEachEngine("imported sessions in the record", (engine: EngineKind) => {
  let deps: ReturnType<typeof tempDeps>;
  beforeEach(() => {
    deps = tempDeps(engine);
  });
  afterEach(() => deps.dispose());

  it("scope a counts label to its import and player: one session across one player's cells, another elsewhere", () => {
    deps.store.importCounts(
      "run-a",
      [
        count("m", "business", "1", "cooperate", 2),
        count("m", "friend-sharing", "1", "defect", 3),
        count("m", "business", undefined, "defect", 4),
      ],
      AT,
    );
    deps.store.importCounts("run-b", [count("m", "team", "1", "cooperate", 5)], AT);
    const rows = deps.store
      .importedCellCounts({})
      .map((r) => [r.source, r.framing, r.session_id, r.action, r.count]);
    expect(rows).toEqual([
      ["run-a", "business", null, "defect", 4],
      ["run-a", "business", '["counts","run-a","1"]', "cooperate", 2],
      ["run-a", "friend-sharing", '["counts","run-a","1"]', "defect", 3],
      ["run-b", "team", '["counts","run-b","1"]', "cooperate", 5],
    ]);
    // Re-importing a source without the column replaces its sessions whole.
    deps.store.importCounts("run-a", [count("m", "business", undefined, "defect", 1)], AT);
    expect(deps.store.importedCellCounts({ framings: ["business"] }).map((r) => r.session_id)).toEqual([
      null,
    ]);
  });

  it("tally an imported match's decisions under its session label, and export it where a live match has its MCP session", () => {
    const text = [
      oneShot("business", "cooperate", "conv-7"),
      oneShot("friend-sharing", "defect", "conv-7"),
      oneShot("business", "defect"),
    ].join("\n");
    importMatches(deps, parseMatchesJsonl(text, "f.jsonl", catalog), "harness-run");
    const rows = deps.store.importedCellCounts({}).map((r) => [r.framing, r.session_id, r.action, r.count]);
    expect(rows).toEqual([
      ["business", null, "defect", 1],
      ["business", '["matches","harness-run","conv-7"]', "cooperate", 1],
      ["friend-sharing", '["matches","harness-run","conv-7"]', "defect", 1],
    ]);
    const decisions = exportTable(deps.store, "decisions", {}).rows.map((r) => r.session_id);
    expect(decisions).toEqual(["conv-7", "conv-7", null]);
    const matches = exportTable(deps.store, "matches", {});
    expect(matches.rows.map((r) => r.session)).toEqual(["conv-7", "conv-7", null]);
    // JSONL is the import format: the field where there is a session, none where there is not.
    expect((matches.jsonl ?? []).map((m) => (m as { session?: string }).session)).toEqual([
      "conv-7",
      "conv-7",
      undefined,
    ]);
  });

  it("export counts in the import format, a label two imports of one player share written with its source", () => {
    deps.store.importCounts(
      "run-a",
      [count("m", "business", "1", "cooperate", 2), count("m", "business", undefined, "defect", 4)],
      AT,
    );
    deps.store.importCounts(
      "run-b",
      [count("m", "friend-sharing", "1", "cooperate", 5), count("m", "business", undefined, "defect", 1)],
      AT,
    );
    deps.store.importCounts("run-c", [count("solo", "business", "1", "defect", 3)], AT);
    const table = exportTable(deps.store, "counts", {});
    expect(Object.keys(table.schema)).toEqual([
      "player",
      "game",
      "variant",
      "framing",
      "session",
      "action",
      "count",
    ]);
    expect(table.rows.map((r) => [r.player, r.framing, r.session, r.action, r.count])).toEqual([
      // Decisions without a session of one cell and action are one row, whichever import they came from.
      ["m", "business", null, "defect", 5],
      ["m", "business", "run-a / 1", "cooperate", 2],
      ["m", "friend-sharing", "run-b / 1", "cooperate", 5],
      ["solo", "business", "1", "defect", 3],
    ]);
  });
});

describeEachEngine("migration 016 (imported sessions) on a record of schema 15", (engine: EngineKind) => {
  let dir: string;
  let record: ReturnType<typeof freshRecord>;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "same-game-migrations-"));
    record = freshRecord(engine);
  });
  afterEach(() => {
    record.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps every count imported before, without a session, and the analyses read them as before", () => {
    const source = join(packageRoot(), "db", ...(engine === "postgres" ? ["postgres"] : []));
    for (const name of readdirSync(source).filter((n) => /^0(0\d|1[0-5])_.*\.sql$/.test(n)))
      copyFileSync(join(source, name), join(dir, name));
    const old: Engine =
      engine === "postgres"
        ? new PostgresEngine(record.location, { readonly: false })
        : new SqliteEngine(new Database(record.location));
    try {
      expect(applyMigrations(old, dir).at(-1)).toBe(15);
      old
        .prepare(
          `INSERT INTO imported_counts (source, player, game, variant, framing, action, count, imported_at)
           VALUES ('paper', 'gpt-4', 'prisoners-dilemma', 'base', 'business', 'defect', 296, ?)`,
        )
        .run(AT);
    } finally {
      old.close();
    }
    const store = new Store(record.location);
    try {
      // Opened by today's code, the record is brought up to the newest migration shipped.
      const newest = Math.max(
        ...readdirSync(source)
          .filter((n) => /^\d{3}_.*\.sql$/.test(n))
          .map((n) => Number(n.slice(0, 3))),
      );
      expect(newest).toBeGreaterThanOrEqual(16);
      expect(store.engine.prepare("SELECT max(version) AS v FROM schema_migrations").get()).toEqual({
        v: newest,
      });
      expect(store.importedCellCounts({})).toEqual([
        {
          player: "gpt-4",
          game: "prisoners-dilemma",
          variant: "base",
          framing: "business",
          action: "defect",
          count: 296,
          source: "paper",
          session_id: null,
        },
      ]);
    } finally {
      store.close();
    }
  });
});
