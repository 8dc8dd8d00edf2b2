// What one decision costs the SQLite record is mostly the pages its transaction writes: each is a frame
// appended to the write-ahead log at COMMIT (and copied into the file at the next checkpoint). This reads
// the log after one start_match and one submit_move of an ad-hoc match and names the b-tree of every page
// written, so a new index or table on the hot path shows here first. An ad-hoc match (no study) is in no
// study index: those hold study matches only (db/019).
import { readFileSync } from "node:fs";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { Caller } from "../../src/play/caller.js";
import { startMatch } from "../../src/play/start-match.js";
import { submitMove } from "../../src/play/submit-move.js";
import { tempDeps } from "../support/harness.js";

let deps: ReturnType<typeof tempDeps>;
// A caller per test: its session row is written once per caller object, and each test has a fresh record.
let caller: Caller;
beforeEach(() => {
  deps = tempDeps();
  caller = {
    sessionId: "pages",
    transport: "memory",
    principal: "local",
    configuredPlayer: "pages",
    clientInfo: () => null,
  };
});
afterEach(() => deps.dispose());
const spec = (seed: string) => ({
  game: "prisoners-dilemma" as const,
  variant: "base" as const,
  framing: "business",
  style: "zero-shot" as const,
  opponent: { id: "always-defect", params: {} },
  seed,
  history_mode: "none" as const,
  reveal_horizon: false,
});

/** The b-trees (tables and indexes) whose pages `work` wrote, as the write-ahead log holds them. */
function btreesWritten(work: () => void): string[] {
  const db = deps.store.db;
  db.pragma("wal_autocheckpoint = 0");
  db.pragma("wal_checkpoint(TRUNCATE)");
  work();
  const wal = readFileSync(`${deps.store.path}-wal`);
  const pageSize = db.pragma("page_size", { simple: true }) as number;
  const pages = new Set<number>();
  // The log: a 32-byte header, then frames of a 24-byte header (the page number first) and the page.
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) pages.add(wal.readUInt32BE(at));
  const names = db.prepare("SELECT name, pageno FROM dbstat").all() as { name: string; pageno: number }[];
  const owner = new Map(names.map((r) => [r.pageno, r.name]));
  // Page 1 (sqlite_schema) carries the file's size in its header: any transaction that grows the file
  // writes it, whatever it changed, so it says nothing about the statements.
  pages.delete(1);
  return [...new Set([...pages].map((p) => owner.get(p) ?? `page ${p}`))].sort();
}

it("one ad-hoc start_match writes the match (row, id key, cell index) and the record version", () => {
  // A first match, so the session row and the first pages of every table exist before the one measured.
  startMatch(deps, caller, "pages", spec("1"));
  const written = btreesWritten(() => startMatch(deps, caller, "pages", spec("2")));
  expect(written).toEqual(["matches", "matches_by_cell", "record_version", "sqlite_autoindex_matches_1"]);
});

it("one ad-hoc submit_move writes the attempt, the decision, its tally, the match and the record version", () => {
  // Decisions before the one measured, in both orders the labels are listed in (the seed draws the order,
  // and each order is its own prompt text): the measured decision's prompt is then stored already.
  const orders = new Set<string>();
  for (let seed = 1; orders.size < 2; seed++) {
    const first = startMatch(deps, caller, "pages", spec(String(seed)));
    orders.add(first.labels.join());
    submitMove(deps, caller, { match_id: first.match_id, round: 1, choice: first.labels[0] as string });
  }
  const view = startMatch(deps, caller, "pages", spec("measured"));
  const written = btreesWritten(() => {
    const outcome = submitMove(deps, caller, {
      match_id: view.match_id,
      round: 1,
      choice: view.labels[0] as string,
    });
    expect(outcome.kind).toBe("recorded");
  });
  expect(written).toEqual([
    "attempts",
    "attempts_by_round",
    "decision_tallies",
    "decisions",
    "matches",
    "record_version",
  ]);
});

it("a study match is in both study indexes while open, and only in the trial index once finished", () => {
  const entries = (index: string) =>
    (
      deps.store.db
        .prepare("SELECT coalesce(sum(ncell), 0) AS n FROM dbstat WHERE name = ? AND pagetype = 'leaf'")
        .get(index) as { n: number }
    ).n;
  deps.store.insertStudy({
    id: "st",
    name: "study",
    design_json: "{}",
    design_hash: "h",
    seed: "1",
    created_at: "2026-12-01T00:00:00.000Z",
    principal: "local",
  });
  startMatch(deps, caller, "pages", spec("ad-hoc"));
  const trial = deps.store.transaction(() => {
    const view = startMatch(deps, caller, "pages", spec("trial"));
    deps.store.db
      .prepare("UPDATE matches SET study_id = 'st', trial_index = 0 WHERE id = ?")
      .run(view.match_id);
    return view;
  });
  // Two matches, one of them a study's: one entry in each study index, none for the ad-hoc match.
  expect([entries("matches_by_study_trial"), entries("matches_open_by_study_trial")]).toEqual([1, 1]);
  expect(deps.store.openStudyMatch("st", "pages", "local")?.id).toBe(trial.match_id);
  submitMove(deps, caller, { match_id: trial.match_id, round: 1, choice: trial.labels[0] as string });
  expect([entries("matches_by_study_trial"), entries("matches_open_by_study_trial")]).toEqual([1, 0]);
  expect(deps.store.openStudyMatch("st", "pages", "local")).toBeUndefined();
  expect(deps.store.countStudyTrials("st", "pages", "local")).toBe(1);
});
