// compare and the sessions a group's decisions came in: a cell fewer than two sessions decided in is drawn
// by decision (as if its decisions were independent), and a note names the group and cells; a group drawn
// by session over a few sessions per cell gets a shift interval at least as wide as Welch's t over them.
import { describe, expect, it } from "vitest";
import { compareGroups } from "../../src/analysis/comparison/compare-groups.js";
import type { ComparisonRow } from "../../src/analysis/comparison/comparison-rows.js";
import { groupSample } from "../../src/analysis/comparison/group-samples.js";
import { shiftDegreesOfFreedom } from "../../src/analysis/comparison/shift-cluster-widening.js";

const ACTIONS = () => ["cooperate", "defect"];
const FRAMINGS = ["business", "friend-sharing"];
const options = {
  framings: FRAMINGS,
  actionsOf: ACTIONS,
  cooperativeAction: () => "cooperate",
  bootstrap: 2000,
  seed: 1,
};

/** `cooperate` of `n` decisions of group `group` in one cell of the prisoner's dilemma, in unit `unit`. */
function decided(group: string, framing: string, cooperate: number, n: number, unit: string | null) {
  const row = (action: string, count: number): ComparisonRow => ({
    group,
    game: "prisoners-dilemma",
    framing,
    action,
    count,
    unit,
    position: null,
  });
  return [row("cooperate", cooperate), row("defect", n - cooperate)].filter((r) => r.count > 0);
}

/** 20 single decisions per framing, 10 cooperating in each. */
const singles = FRAMINGS.flatMap((f) => decided("singles", f, 10, 20, null));

describe("compare: a group whose cells were each decided in by one session", () => {
  it("names the group and its cells drawn by decision in a note", () => {
    // One session of 20 decisions per framing: 14 then 6 cooperations.
    const host = [
      ...decided("host", "business", 14, 20, "S1"),
      ...decided("host", "friend-sharing", 6, 20, "S2"),
    ];
    const result = compareGroups([...host, ...singles], options);
    expect(result.group_details.map((g) => [g.group, g.unit])).toEqual([
      ["host", "decision"],
      ["singles", "decision"],
    ]);
    const note = result.notes.find((n) => n.startsWith("Drawn by decision, not by session"));
    expect(note).toContain("host: every cell (prisoners-dilemma/business, prisoners-dilemma/friend-sharing)");
    expect(note).toContain("too narrow");
    expect(note).not.toContain("singles");
  });

  it("names them too when one session spanned both framings", () => {
    const host = [
      ...decided("host", "business", 14, 20, "S"),
      ...decided("host", "friend-sharing", 6, 20, "S"),
    ];
    const note = compareGroups([...host, ...singles], options).notes.find((n) =>
      n.startsWith("Drawn by decision"),
    );
    expect(note).toContain("host: every cell (prisoners-dilemma/business, prisoners-dilemma/friend-sharing)");
  });

  it("names only the cell of one session where the others have two", () => {
    // Business: sessions A and B (5 decisions each); friend-sharing: session A's 10 alone.
    const mixed = [
      ...decided("mixed", "business", 4, 5, "A"),
      ...decided("mixed", "business", 1, 5, "B"),
      ...decided("mixed", "friend-sharing", 3, 10, "A"),
    ];
    const sample = groupSample("mixed", mixed, ACTIONS);
    expect(sample.unit).toBe("session");
    expect(sample.sessionCellsByDecision).toEqual([1]);
    const note = compareGroups([...mixed, ...singles], options).notes.find((n) =>
      n.startsWith("Drawn by decision"),
    );
    expect(note).toContain("mixed: cells prisoners-dilemma/friend-sharing");
  });

  it("gives no such note for imported counts or sessions of one decision each", () => {
    const oneEach = FRAMINGS.flatMap((f) =>
      Array.from({ length: 6 }, (_, d) => decided("ones", f, d % 2, 1, `${f}-${d}`)).flat(),
    );
    expect(groupSample("ones", oneEach, ACTIONS).sessionCellsByDecision).toEqual([]);
    const notes = compareGroups([...oneEach, ...singles], options).notes;
    expect(notes.some((n) => n.startsWith("Drawn by decision"))).toBe(false);
  });
});

describe("compare: the shift of a group drawn by session over few sessions", () => {
  // Two sessions of 10 decisions per framing: business 8 and 6 cooperations (.7), friend-sharing 3 and 1
  // (.2): shift −.5. Each cell's two session means differ by .2, so its rate's variance is
  // s²/m = .02/2 = .01 and the shift's .02 on 1 + 1 degrees of freedom.
  const few = [
    ...decided("few", "business", 8, 10, "A"),
    ...decided("few", "business", 6, 10, "B"),
    ...decided("few", "friend-sharing", 3, 10, "C"),
    ...decided("few", "friend-sharing", 1, 10, "D"),
  ];

  it("counts the degrees of freedom of its shift by Satterthwaite over its blocks", () => {
    const sample = groupSample("few", few, ACTIONS);
    // Per cell: units z = ±(8 − 7)/20 = ±.05, v = 2·(.05² + .05²) = .01, one degree of freedom; two
    // equal cells: ν = (.01 + .01)²/(.01² + .01²) = 2.
    expect(shiftDegreesOfFreedom(sample, [{ first: 0, second: 1, cooperative: 0 }])).toBeCloseTo(2, 12);
    // 20 single decisions per cell at .5: v = .25/20 each, 19 degrees of freedom each: ν = 38.
    const plain = groupSample("singles", singles, ACTIONS);
    expect(shiftDegreesOfFreedom(plain, [{ first: 0, second: 1, cooperative: 0 }])).toBeCloseTo(38, 12);
  });

  it("does not call −.5 against 0 significant on two sessions per cell", () => {
    // The bootstrap alone: se ≈ √(.02 + .025) = .21, z = 2.36, p ≈ .02 and an interval leaving 0 out.
    // Welch's ν = .045²/(.02²/2 + .025²/38) = 9.4, halfway to the fewer side's 2: 5.7, t tail p ≈ .06.
    const result = compareGroups([...few, ...singles], options);
    const shift = result.pairs.find((p) => p.measure === "shift");
    expect(shift?.difference.estimate).toBeCloseTo(-0.5, 12);
    expect(shift?.p_value).toBeGreaterThan(0.05);
    expect(shift?.difference.ci[1]).toBeGreaterThan(0);
  });
});
