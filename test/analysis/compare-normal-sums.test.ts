import { describe, expect, it } from "vitest";
import { compareGroups } from "../../src/analysis/comparison/compare-groups.js";
import type { ComparisonRow } from "../../src/analysis/comparison/comparison-rows.js";
import { groupReplicates } from "../../src/analysis/comparison/group-replicates.js";
import { groupSample } from "../../src/analysis/comparison/group-samples.js";
import type { ClusterSumMethod } from "../../src/analysis/sampling/normal-cluster-sums.js";

// compare's bootstrap of a group whose sessions stay in one cell: a cell of at least 200 sessions draws
// its replicate counts from the normal approximation of the session sums (the robustness analysis's
// thresholds), a smaller one draws every session, exactly as before.
//
// The group: one game (actions c, d), framings f0 and f1. In f0, half its S sessions chose c twice and
// half chose d twice; in f1 every session chose c once and d once. The shift is p1(c) − p0(c), and p1(c)
// is ½ in every replicate, so the shift's spread is p0(c)'s alone: p0*(c) = 2·Binomial(S, ½)/(2S), whose
// standard deviation is √(S/4)/S = 1/(2√S) — for S = 200, 0.03536; replicates are then spread by
// √(S/(S − 1)) (Efron's small-sample correction), 0.03544.

const actionsOf = () => ["c", "d"];
const cooperative = () => "c";

function rows(sessions: number): ComparisonRow[] {
  const out: ComparisonRow[] = [];
  const row = (framing: string, action: string, count: number, unit: string): ComparisonRow => ({
    group: "G",
    game: "g",
    framing,
    action,
    count,
    unit,
    position: null,
  });
  for (let s = 0; s < sessions; s++) {
    out.push(row("f0", s % 2 === 0 ? "c" : "d", 2, `f0-${s}`));
    out.push(row("f1", "c", 1, `f1-${s}`), row("f1", "d", 1, `f1-${s}`));
  }
  return out;
}

function shiftReplicates(sessions: number, method: ClusterSumMethod, bootstrap = 4000) {
  const sample = groupSample("G", rows(sessions), actionsOf);
  const drawn = groupReplicates(
    sample,
    ["f0", "f1"],
    cooperative,
    actionsOf,
    bootstrap,
    7,
    undefined,
    method,
  );
  return { star: drawn.games.get("g")?.shiftStar as Float64Array, normalBlocks: drawn.normalBlocks };
}

const sd = (x: Float64Array) => {
  const m = x.reduce((s, v) => s + v, 0) / x.length;
  return Math.sqrt(x.reduce((s, v) => s + (v - m) ** 2, 0) / x.length);
};

describe("compare: session sums of a large block from their normal approximation", () => {
  it("draws every session below 200 sessions (auto gives exactly the exact path's replicates)", () => {
    const auto = shiftReplicates(199, "auto");
    const exact = shiftReplicates(199, "exact");
    expect(auto.normalBlocks).toBe(0);
    expect(Array.from(auto.star)).toEqual(Array.from(exact.star));
  });

  it("draws both cells from the normal approximation at 200 sessions (auto is the normal path)", () => {
    const auto = shiftReplicates(200, "auto");
    const normal = shiftReplicates(200, "normal");
    expect(auto.normalBlocks).toBe(2);
    expect(Array.from(auto.star)).toEqual(Array.from(normal.star));
    expect(Array.from(auto.star)).not.toEqual(Array.from(shiftReplicates(200, "exact").star));
  });

  it("has the exact bootstrap's spread: 1/(2√S)·√(S/(S − 1)) = 0.03544 at S = 200, either way", () => {
    const expected = (1 / (2 * Math.sqrt(200))) * Math.sqrt(200 / 199);
    expect(expected).toBeCloseTo(0.03544, 5);
    for (const method of ["exact", "normal"] as const) {
      const { star } = shiftReplicates(200, method);
      // 4,000 replicates estimate a standard deviation to about 1.1% (√(1/(2·4000))); 4% is over 3 of those.
      expect(Math.abs(sd(star) / expected - 1)).toBeLessThan(0.04);
      const mean = star.reduce((s, v) => s + v, 0) / star.length;
      expect(Math.abs(mean)).toBeLessThan(0.003);
    }
  });

  it("says in compare's notes which groups drew normal sums, and says nothing otherwise", () => {
    const both = (sessions: number) => [
      ...rows(sessions),
      ...rows(sessions).map((r) => ({ ...r, group: "H", unit: `H${r.unit}` })),
    ];
    const options = { framings: ["f0", "f1"], actionsOf, cooperativeAction: cooperative, bootstrap: 200 };
    const large = compareGroups(both(200), { ...options, clusterSums: "auto" });
    expect(large.notes.filter((n) => n.includes("normal approximation"))).toEqual([
      expect.stringMatching(
        /^G, H: each block of at least 200 sessions \(at least 50 in each of its cells\)/,
      ),
    ]);
    const small = compareGroups(both(20), { ...options, clusterSums: "auto" });
    expect(small.notes.some((n) => n.includes("normal approximation"))).toBe(false);
  });

  it("counts a session once in a cell where it chose both actions (each cell needs 50 sessions)", () => {
    // 200 sessions decide once in f0; 30 of them also choose c and d once each in f1: f1 has 30 sessions
    // (60 entries), below the 50 a cell needs, so the block of 200 spanning sessions draws every session.
    const spanning: ComparisonRow[] = [];
    const row = (framing: string, action: string, unit: string): ComparisonRow => ({
      group: "G",
      game: "g",
      framing,
      action,
      count: 1,
      unit,
      position: null,
    });
    for (let s = 0; s < 200; s++) {
      spanning.push(row("f0", s % 2 === 0 ? "c" : "d", `s${s}`));
      if (s < 30) spanning.push(row("f1", "c", `s${s}`), row("f1", "d", `s${s}`));
    }
    const sample = groupSample("G", spanning, actionsOf);
    const drawn = groupReplicates(sample, ["f0", "f1"], cooperative, actionsOf, 100, 7, undefined, "auto");
    expect(drawn.normalBlocks).toBe(0);
  });
});
