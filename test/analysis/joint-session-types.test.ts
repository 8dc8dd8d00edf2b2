// The joint cluster bootstrap groups a player's sessions into types (sessions with the same counts in
// every cell) in an order fixed by their content, so a seed gives the same intervals whatever the ids:
// the order of each session's counts per cell written as JSON (null where it is not listed), compared as
// text. The types are found by comparing sessions listing by listing, without writing those texts.
import { describe, expect, it } from "vitest";
import type { CountCell } from "../../src/analysis/count-cells.js";
import { planRobustness } from "../../src/analysis/robustness/robustness-plan.js";
import { jointSessionPlayers } from "../../src/analysis/sampling/joint-session-resampling.js";

type Listing = { id: string; cooperate: number; defect: number };

function cell(framing: string, listings: Listing[]): CountCell {
  const sum = (key: "cooperate" | "defect"): number => listings.reduce((s, l) => s + l[key], 0);
  return {
    player: "p",
    game: "g",
    framing,
    counts: { cooperate: sum("cooperate"), defect: sum("defect") },
    clusters: listings.map((l) => ({ cooperate: l.cooperate, defect: l.defect })),
    cluster_ids: listings.map((l) => l.id),
  };
}

describe("the joint bootstrap's session types", () => {
  it("come in the text order of their JSON signatures: [12,1] before [3,0], a listing before null", () => {
    // Signatures over the cells (a, b), actions (cooperate, defect):
    //   A [[12,1],[1,0]]   B, D [[3,0],[1,0]]   E [[3,0],null]   C [null,[0,2]]
    // As text "[[1" < "[[3" (A first, though 12 > 3), "[1,0]" < "null" (B before E: "[" < "n"), and
    // "[[" < "[n" (C last). So the types are A, B + D, E, C with weights 1, 2, 1, 1.
    const cells = [
      cell("a", [
        { id: "E", cooperate: 3, defect: 0 },
        { id: "B", cooperate: 3, defect: 0 },
        { id: "A", cooperate: 12, defect: 1 },
        { id: "D", cooperate: 3, defect: 0 },
      ]),
      cell("b", [
        { id: "C", cooperate: 0, defect: 2 },
        { id: "D", cooperate: 1, defect: 0 },
        { id: "B", cooperate: 1, defect: 0 },
        { id: "A", cooperate: 1, defect: 0 },
      ]),
    ];
    const plan = planRobustness(cells, undefined, { g: "cooperate" });
    const [joint] = jointSessionPlayers(plan);
    if (joint === undefined) throw new Error("expected a joint player");
    expect(joint.weights).toEqual([1, 2, 1, 1]);
    expect(joint.sessions).toBe(5);
    // Cell a lists types A (0), B + D (1) and E (2); cell b types A, B + D and C (3).
    expect([...(joint.cells.get(0)?.types ?? [])]).toEqual([0, 1, 2]);
    expect([...(joint.cells.get(0)?.counts ?? [])]).toEqual([12, 1, 3, 0, 3, 0]);
    expect([...(joint.cells.get(1)?.types ?? [])]).toEqual([0, 1, 3]);
    expect([...(joint.cells.get(1)?.counts ?? [])]).toEqual([1, 0, 1, 0, 0, 2]);
  });

  it("keep two-digit counts in text order within an array: [1,12] before [1,30] before [1,3]", () => {
    // "[1,12]" < "[1,30]" < "[1,3]" as text ("1" < "3", then "0" < "]"), though 3 < 12 < 30.
    const cells = [
      cell("a", [
        { id: "x3", cooperate: 1, defect: 3 },
        { id: "x30", cooperate: 1, defect: 30 },
        { id: "x12", cooperate: 1, defect: 12 },
      ]),
      cell("b", [
        { id: "x3", cooperate: 1, defect: 0 },
        { id: "x30", cooperate: 1, defect: 0 },
        { id: "x12", cooperate: 1, defect: 0 },
      ]),
    ];
    const plan = planRobustness(cells, undefined, { g: "cooperate" });
    const [joint] = jointSessionPlayers(plan);
    if (joint === undefined) throw new Error("expected a joint player");
    expect([...(joint.cells.get(0)?.counts ?? [])]).toEqual([1, 12, 1, 30, 1, 3]);
  });
});
