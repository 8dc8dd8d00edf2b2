// The within-session permutation's design in flat arrays: its sessions in the order the null has always
// drawn them in (the text of `${weight}:${table}` for spanning sessions, and of the counts joined by
// commas within a length and framing), which a seed's p-value depends on. Text, not numeric order: 10
// sorts before 2 and (10, 0) before (9, 1).
import { describe, expect, it } from "vitest";
import type { CountCell } from "../../src/analysis/count-cells.js";
import { withinSessionDesign } from "../../src/analysis/invariance/within-session-design.js";
import type { PlannedCell } from "../../src/analysis/robustness/robustness-plan.js";

const planned = (cell: CountCell): PlannedCell => ({
  cell,
  n: Object.values(cell.counts).reduce((s, x) => s + x, 0),
  offset: 0,
  actions: ["cooperate", "defect"],
  unit: "session",
  resampled: "session",
});

// Framing a: s1 (2 sessions alike) and s2 (10) span both framings; t1 and t2 decided 10 times in a only.
// Framing b: s1, s2, and t3 (3 sessions of one defection).
const cells = [
  planned({
    player: "m",
    game: "g",
    framing: "a",
    counts: { cooperate: 2 + 20 + 9 + 10, defect: 1 },
    clusters: [{ cooperate: 1 }, { cooperate: 2 }, { cooperate: 9, defect: 1 }, { cooperate: 10 }],
    cluster_ids: ["s1", "s2", "t1", "t2"],
    cluster_weights: [2, 10, 1, 1],
  }),
  planned({
    player: "m",
    game: "g",
    framing: "b",
    counts: { defect: 2 + 10 + 3 },
    clusters: [{ defect: 1 }, { defect: 1 }, { defect: 1 }],
    cluster_ids: ["s1", "s2", "t3"],
    cluster_weights: [2, 10, 3],
  }),
];

describe("within-session design", () => {
  it("lists spanning sessions by the text of weight then table: 10 before 2", () => {
    const { spanning } = withinSessionDesign(cells, new Set());
    expect([...spanning.weights]).toEqual([10, 2]);
    // Framing a's (cooperate, defect), then framing b's, per session.
    expect([...spanning.tables]).toEqual([2, 0, 0, 1, 1, 0, 0, 1]);
  });

  it("groups one-framing sessions by length, each listing written out once per session it stands for", () => {
    const { strata } = withinSessionDesign(cells, new Set());
    expect(strata.map((s) => [...s.framings])).toEqual([
      [1, 1, 1],
      [0, 0],
    ]);
    // Length 10: (10, 0) before (9, 1), their texts "10,0" < "9,1".
    expect(strata.map((s) => [...s.vectors])).toEqual([
      [0, 1, 0, 1, 0, 1],
      [10, 0, 9, 1],
    ]);
  });

  it("leaves out the sessions shuffled jointly across games", () => {
    const { strata } = withinSessionDesign(cells, new Set(["t1"]));
    expect(strata.map((s) => [...s.vectors])).toEqual([
      [0, 1, 0, 1, 0, 1],
      [10, 0],
    ]);
  });
});
