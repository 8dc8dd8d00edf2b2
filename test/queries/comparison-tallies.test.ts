import { afterEach, beforeEach, expect, it } from "vitest";
import { compareReport } from "../../src/queries/compare-query.js";
import { playerComparisonTallies } from "../../src/queries/comparison-tallies.js";
import type { MatchRecord } from "../../src/store/records.js";
import { tempDeps } from "../support/harness.js";
import { importCounts } from "../support/imported-counts.js";
import { firstRoundDecision, oneShotMatch } from "../support/match-record.js";
import { memorySession } from "../support/session-record.js";

// The player comparison folds the live one-shot tallies in one pass instead of reading a row per (cell,
// action, session): it must compare exactly as from those rows, on a record with every kind of player the
// rows tell apart: sessions spanning cells (one player with enough of them for the normal sums), sessions
// each in one cell, sessions of one decision each (resampled by decision), and decisions without a session.
let deps: ReturnType<typeof tempDeps>;
beforeEach(() => {
  deps = tempDeps();
});
afterEach(() => deps.dispose());

const CELLS = [
  ["prisoners-dilemma", "business"],
  ["prisoners-dilemma", "friend-sharing"],
  ["stag-hunt", "business"],
  ["stag-hunt", "friend-sharing"],
] as const;

/** A fixed pseudo-random stream (a linear congruential generator), so the record is the same every run. */
function stream(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function playRecord(): void {
  const random = stream(11);
  let n = 0;
  const play = (player: string, session: string | null, cell: number, cooperate: number) => {
    const [game, framing] = CELLS[cell] as (typeof CELLS)[number];
    const id = `m${++n}`;
    const action = random() < cooperate ? "cooperate" : "defect";
    store().insertMatch(oneShotMatch(id, { player, session_id: session, game, framing }));
    const decision = firstRoundDecision(id, action, { session_id: session });
    store().saveDecision(decision, store().getMatch(id) as MatchRecord);
  };
  const store = () => deps.store;
  // Session ids in an order unrelated to their content: the fold must not depend on it.
  const sessionId = (player: string, s: number) => `${player}-${((s * 7919) % 1009).toString(36)}-${s}`;
  const players: [string, number, "span" | "one-cell" | "single"][] = [
    ["a", 240, "span"],
    ["b", 30, "one-cell"],
    ["c", 40, "single"],
    ["d", 25, "span"],
  ];
  for (const [player, sessions, kind] of players) {
    for (let s = 0; s < sessions; s++) {
      const id = sessionId(player, s);
      store().saveSession(memorySession(id, { player }));
      const size = kind === "single" ? 1 : 1 + Math.floor(random() * 3);
      const home = Math.floor(random() * CELLS.length);
      for (let d = 0; d < size; d++) {
        const cell = kind === "span" ? Math.floor(random() * CELLS.length) : home;
        // Each cell its own rate; player d defects always under stag-hunt (a degenerate cell, smoothed).
        const rate = player === "d" && cell >= 2 ? 0 : 0.2 + 0.15 * cell;
        play(player, id, cell, rate);
      }
    }
    // A few decisions without a session: decisions of their own beside the player's sessions.
    if (player === "a" || player === "c")
      for (let d = 0; d < 5; d++) play(player, null, d % CELLS.length, 0.5);
  }
}

it("compares players from the tallies exactly as from the rows of every (cell, action, session)", () => {
  playRecord();
  const tallies = playerComparisonTallies(deps.store, { variants: ["base"] });
  expect(tallies?.map((t) => [t.group, t.cells.length, t.unitStarts.length - 1])).toEqual([
    ["a", 4, 240],
    ["b", 4, 30],
    // Every session of c made one decision: c is resampled by decision, with no units.
    ["c", 4, 0],
    ["d", 4, 25],
  ]);
  const query = { bootstrap: 400, seed: 5 };
  const fromTallies = compareReport(deps, query);
  // The same comparison from the store's rows: the fold turned off on this store.
  deps.store.comparesPlayersByTallies = () => false;
  const fromRows = compareReport(deps, query);
  expect(fromTallies).toEqual(fromRows);
  // Every measure and resampling unit was in play: sessions (normal sums for a), decisions for c.
  expect(fromTallies.group_details.map((g) => g.unit)).toEqual(["session", "session", "decision", "session"]);
  expect(fromTallies.ranks.map((r) => r.measure)).toEqual(
    expect.arrayContaining(["R", "lambda", "exploitability"]),
  );
  expect(fromTallies.notes.join(" ")).toMatch(/^a: each block of at least 200 sessions/);
});

it("reads the rows instead where the record holds imported counts", async () => {
  playRecord();
  expect(playerComparisonTallies(deps.store, { variants: ["base"] })).not.toBeNull();
  await importCounts(deps, { published: { business: 10, friend: 20 } });
  expect(playerComparisonTallies(deps.store, { variants: ["base"] })).toBeNull();
});

it("reads the rows instead for all variants or several at once (a session's cell then listed per variant)", () => {
  playRecord();
  expect(playerComparisonTallies(deps.store, {})).toBeNull();
  expect(playerComparisonTallies(deps.store, { variants: ["base", "payoff"] })).toBeNull();
});
