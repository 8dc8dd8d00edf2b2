import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tooFewReplicatesNote } from "../../src/analysis/comparison/too-few-replicates-note.js";
import { compareReport } from "../../src/queries/compare-query.js";
import { tempDeps } from "../support/harness.js";
import { importCounts } from "../support/imported-counts.js";

// A pair's p is at least 1/(1 + B); Holm over m pairs multiplies the smallest by m. At 95%, 3 pairs need
// 3/(1 + B) ≤ 0.05, B ≥ 59; 10 pairs (five models) B ≥ 199; one pair B ≥ 19.
describe("the note on too few bootstrap replicates for a pair to be significant", () => {
  const pairs = (m: number) => Array.from({ length: m }, () => ({ measure: "R" as const }));

  it("is given below the fewest replicates that can reach the level, and names them", () => {
    expect(tooFewReplicatesNote(pairs(3), 58, 0.95)).toMatch(
      /at least 1\/59 = 0\.0169, .* at least 0\.0508, .*Ask for 59 or more/,
    );
    expect(tooFewReplicatesNote(pairs(10), 198, 0.95)).toMatch(
      /the 10 pairs of a measure .*Ask for 199 or more/,
    );
    expect(tooFewReplicatesNote(pairs(1), 18, 0.95)).toMatch(
      /the only pair of a measure .*Ask for 19 or more/,
    );
  });

  it("is absent from there on, and with no pair at all", () => {
    expect(tooFewReplicatesNote(pairs(3), 59, 0.95)).toBeNull();
    expect(tooFewReplicatesNote(pairs(10), 199, 0.95)).toBeNull();
    expect(tooFewReplicatesNote(pairs(1), 19, 0.95)).toBeNull();
    expect(tooFewReplicatesNote([], 1, 0.95)).toBeNull();
  });

  it("counts the largest family: measures are adjusted apart", () => {
    const mixed = [...pairs(3), { measure: "shift" as const }];
    expect(tooFewReplicatesNote(mixed, 58, 0.95)).toMatch(/the 3 pairs of a measure/);
  });
});

describe("compare with too few replicates", () => {
  let deps: ReturnType<typeof tempDeps>;
  beforeEach(() => {
    deps = tempDeps();
  });
  afterEach(() => deps.dispose());

  it("says no pair can be significant, where every Holm p is indeed above the level", async () => {
    // Three players far apart: with enough replicates their pairs would all be significant.
    await importCounts(deps, {
      a: { business: 30, friend: 0 },
      b: { business: 15, friend: 15 },
      c: { business: 0, friend: 30 },
    });
    const few = compareReport(deps, { bootstrap: 5, seed: 1 });
    expect(few.pairs.filter((p) => p.measure === "R")).toHaveLength(3);
    expect(Math.min(...few.pairs.map((p) => p.p_adjusted))).toBeGreaterThan(0.05);
    expect(few.notes.join(" ")).toMatch(/With 5 bootstrap replicates .* 1\/6 = 0\.167, .* at least 0\.5,/);
    const enough = compareReport(deps, { bootstrap: 59, seed: 1 });
    expect(enough.notes.join(" ")).not.toMatch(/bootstrap replicates? a pair's p-value/);
  });
});
