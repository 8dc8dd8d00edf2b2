// The write-time tallies (migration 007) must always equal the decisions they summarise:
// checked against the decisions themselves (exportDecisions reads decisions joined to matches), through a
// replaced round, and on a generated 10k-decision record whose analysis must not change by reading them.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { generateRecord, SCALE_GAMES } from "../../bench/scale/generate-record.js";
import { robustnessAnalysis } from "../../src/analysis/robustness/robustness.js";
import { cellsFromRows, oneShotCells, readOneShot } from "../../src/queries/one-shot-cells.js";
import type { DecisionRecord, MatchRecord } from "../../src/store/records.js";
import { Store } from "../../src/store/store.js";
import { firstRoundDecision, oneShotMatch } from "../support/match-record.js";
import { memorySession } from "../support/session-record.js";

let dir: string;
let store: Store;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "same-game-tallies-"));
  store = new Store(join(dir, "record.db"));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const at = "2026-12-01T00:00:00.000Z";
const match = (id: string, session: string) =>
  oneShotMatch(id, {
    session_id: session,
    action_order: ["defect", "cooperate"],
    opponent: "agent",
    created_at: at,
  });
const decision = (matchId: string, status: DecisionRecord["status"], action: string | null): DecisionRecord =>
  firstRoundDecision(matchId, action, { session_id: "s1", status, decided_at: at });

describe("decision tallies", () => {
  it("count a round once it is decided, move with a replaced decision, and never count pending or void rounds", () => {
    store.saveSession(memorySession("s1"));
    store.insertMatch(match("m1", "s1"));
    store.insertMatch(match("m2", "s1"));
    store.saveDecision(decision("m1", "pending", "cooperate"), store.getMatch("m1") as MatchRecord);
    expect(store.cellActionCounts({})).toEqual([]);
    store.saveDecision(decision("m1", "decided", "cooperate"), store.getMatch("m1") as MatchRecord);
    store.saveDecision(decision("m2", "void", null), store.getMatch("m2") as MatchRecord);
    expect(store.cellActionCounts({}).map((r) => [r.action, r.count])).toEqual([["cooperate", 1]]);
    // A decided round replaced by another action: the old action is taken out.
    store.saveDecision(decision("m1", "decided", "defect"), store.getMatch("m1") as MatchRecord);
    expect(store.cellActionCounts({}).map((r) => [r.action, r.count])).toEqual([["defect", 1]]);
    expect(store.oneShotCellCounts({}).map((r) => [r.session_id, r.action, r.count])).toEqual([
      ["s1", "defect", 1],
    ]);
    // The match listed defect first.
    expect(readOneShot(store, {}).firstListed(["prisoners-dilemma"], ["business"])).toEqual([
      { player: "p", decisions: 1, first_listed: 1 },
    ]);
  });

  it("refuse a decision given with another match's record (its cell would be tallied wrongly), writing nothing", () => {
    store.saveSession(memorySession("s1"));
    store.insertMatch(match("m1", "s1"));
    store.insertMatch({ ...match("m2", "s1"), framing: "friend-sharing" });
    expect(() =>
      store.saveDecision(decision("m1", "decided", "cooperate"), store.getMatch("m2") as MatchRecord),
    ).toThrow('decision of "m1" given with match "m2"');
    expect(store.getDecision("m1", 1)).toBeUndefined();
    expect(store.cellActionCounts({})).toEqual([]);
  });

  it("equal the decisions of a generated 10k record, and the analysis from them equals the per-session one", () => {
    const generated = generateRecord(store, 10_000, 3);
    expect(generated.decisions).toBe(10_000);
    // By hand from the decisions themselves.
    const byCell = new Map<string, number>();
    for (const d of store.exportDecisions({})) {
      const key = [d.player, d.game, d.framing, d.action].join("|");
      byCell.set(key, (byCell.get(key) ?? 0) + 1);
    }
    const tallied = new Map(
      store.cellActionCounts({}).map((r) => [[r.player, r.game, r.framing, r.action].join("|"), r.count]),
    );
    expect(tallied).toEqual(byCell);

    // Weighted types (oneShotCells) against every session listed (cellsFromRows): the same analysis.
    const filter = { variants: ["base"] };
    const cooperativeAction = Object.fromEntries(SCALE_GAMES.map((g) => [g, "cooperate"]));
    const options = { cooperativeAction, bootstrap: 300, seed: 5 };
    const collapsed = oneShotCells(store, filter);
    const listed = cellsFromRows(store.oneShotCellCounts(filter));
    expect(collapsed.length).toBe(880);
    const listedSessions = listed.reduce((s, c) => s + (c.clusters?.length ?? 0), 0);
    const collapsedTypes = collapsed.reduce((s, c) => s + (c.clusters?.length ?? 0), 0);
    expect(collapsedTypes).toBeLessThan(listedSessions);
    const a = robustnessAnalysis(collapsed, options);
    const b = robustnessAnalysis(listed, options);
    expect(a.players.map((p) => [p.player, p.unit, p.cluster_scope])).toEqual(
      b.players.map((p) => [p.player, p.unit, p.cluster_scope]),
    );
    expect(new Set(a.players.map((p) => `${p.unit}/${p.cluster_scope}`))).toEqual(
      new Set(["decision/cell", "session/cell", "session/player"]),
    );
    expect(a).toEqual(b);
  }, 120_000);
});
