import { describe, expect, it } from "vitest";
import { compareRepeated } from "../../src/analysis/comparison/compare-repeated.js";
import {
  type RepeatedMatchRow,
  smoothedMeanVariance,
} from "../../src/analysis/comparison/repeated-replicates.js";

// Repeated play compared match by match, on hand-made per-match metrics (the store → metrics path is
// tested through the tool in test/mcp/compare-repeated-tool.test.ts).

const TFT = { game: "repeated-pd", framing: "repeated-plain", opponent: "tit-for-tat" };

/** Matches of one group in one condition: points, cooperation and m per match; positions when scheduled. */
function matches(
  group: string,
  points: number[],
  options: {
    cooperation?: number[];
    m?: number[];
    scheduled?: boolean;
    condition?: { game: string; framing: string; opponent: string };
  } = {},
): RepeatedMatchRow[] {
  const condition = options.condition ?? TFT;
  return points.map((p, t) => ({
    group,
    ...condition,
    opponent_params: {},
    unit: `match:${group}:${condition.opponent}:${t}`,
    position: options.scheduled ? `study#zero-shot#${condition.opponent}#${t + 1}` : null,
    points: p,
    cooperation: condition.game === "repeated-pd" ? (options.cooperation?.[t] ?? 0) : null,
    comprehension_m: options.m?.[t] ?? 1,
    rounds: 16,
  }));
}

const settings = { bootstrap: 4000, seed: 11 };

describe("compare repeated play", () => {
  it("gives the difference of mean points per match, on the shared condition only, and lists the rest", () => {
    // a: 10, 12, 14 (mean 12); b: 8, 8, 11 (mean 9) ⇒ a − b = 3. a also played grim trigger, b did not.
    const rows = [
      ...matches("a", [10, 12, 14], { m: [1, 2, 3] }),
      ...matches("a", [50, 50], { condition: { ...TFT, opponent: "grim" } }),
      ...matches("b", [8, 8, 11], { m: [4, 4, 4] }),
    ];
    const result = compareRepeated(rows, settings);
    const points = result.pairs.find((p) => p.measure === "points");
    expect(points).toMatchObject({
      a: "a",
      b: "b",
      difference: { estimate: 3 },
      paired: false,
      cells_used: [TFT],
      cells_left_out: [{ ...TFT, opponent: "grim" }],
    });
    // Welch: s² = 4 and 3 over 3 matches each, SE = √(4/3 + 3/3) ≈ 1.53, ν = 2.33²/((4/3)²/2 + 1²/2) ≈ 3.9,
    // t ≈ 2.78: half-width ≈ 4.2 (the bootstrap's SE only approximates 1.53, so ask for 3.8 of it; the
    // percentile interval alone is about 2.9 wide on each side).
    expect(points?.difference.ci[0]).toBeLessThan(3 - 3.8);
    expect(points?.difference.ci[1]).toBeGreaterThan(3 + 3.8);
    // m: a's mean 2, b's 4 ⇒ −2; rank 1 is the smaller m (the earlier comprehension).
    expect(result.pairs.find((p) => p.measure === "comprehension_m")?.difference.estimate).toBe(-2);
    const m = result.ranks.filter((r) => r.measure === "comprehension_m");
    expect(m.map((r) => [r.group, r.estimate, r.rank.estimate])).toEqual([
      ["a", 2, 1],
      ["b", 4, 2],
    ]);
    expect(m[0]?.ci[0]).toBeLessThanOrEqual(2);
    expect(m[0]?.ci[1]).toBeGreaterThanOrEqual(2);
    expect(result.ranked_conditions.points).toEqual([TFT]);
  });

  it("ranks from the pairs' own intervals: Welch's interval of 3 ± 4.2 holds 0, so neither is ranked first", () => {
    // a: 10, 12, 14; b: 8, 8, 11 (the first test): a − b = 3, Welch's half-width ≈ 4.2 > 3. The
    // bootstrap alone (about ±2.9) would rank a surely above b.
    const result = compareRepeated([...matches("a", [10, 12, 14]), ...matches("b", [8, 8, 11])], settings);
    const pair = result.pairs.find((p) => p.measure === "points");
    expect(pair?.difference.ci[0]).toBeLessThan(0);
    const points = result.ranks.filter((r) => r.measure === "points");
    expect(points.map((r) => [r.group, r.rank.estimate, r.rank.ci, r.tied_group])).toEqual([
      ["a", 1, [1, 2], 1],
      ["b", 2, [1, 2], 1],
    ]);
  });

  it("smooths comprehension m at both ends of its range: five matches all m = 1 still leave a spread", () => {
    // Five matches of 16 rounds, m = 1 each, with half a match at 1 and at 17: mean (5 + 9)/6 = 7/3,
    // squares 5·(4/3)² + ((4/3)² + (44/3)²)/2 = 80/9 + 976/9 = 1056/9, variance 1056/45, of the mean
    // 1056/225 = 4.693.
    expect(smoothedMeanVariance([1, 1, 1, 1, 1], 1, 17)).toBeCloseTo(1056 / 225, 12);
    // Against five matches m = 17, 15, 16, 17, 12 (mean 15.4, sample variance 4.3): smoothed, their mean
    // is 43/3, squares 346/3, variance of the mean 346/75 = 4.613. The interval is −14.4 ± 1.96·√(1056/225
    // + 346/75) = −14.4 ± 5.979; Welch's interval on b's own spread alone is about ±2.6.
    const result = compareRepeated(
      [
        ...matches("a", [40, 40, 40, 40, 40], { m: [1, 1, 1, 1, 1] }),
        ...matches("b", [30, 31, 32, 33, 34], { m: [17, 15, 16, 17, 12] }),
      ],
      settings,
    );
    const m = result.pairs.find((p) => p.measure === "comprehension_m");
    expect(m?.difference.estimate).toBeCloseTo(-14.4, 12);
    const half = 1.959964 * Math.sqrt(1056 / 225 + 346 / 75);
    expect(m?.difference.ci[0]).toBeCloseTo(-14.4 - half, 5);
    expect(m?.difference.ci[1]).toBeCloseTo(-14.4 + half, 5);
  });

  it("pairs two groups that played the same schedule positions: a constant per-position gap has the interval [gap, gap]", () => {
    // b's points vary by position; a scored exactly 2 more at every position. Paired, every replicate
    // draws the same positions for both, so every replicate's difference is 2.
    const b = [8, 10, 13, 9, 20];
    const paired = compareRepeated(
      [
        ...matches(
          "a",
          b.map((x) => x + 2),
          { scheduled: true },
        ),
        ...matches("b", b, { scheduled: true }),
      ],
      settings,
    ).pairs.find((p) => p.measure === "points");
    expect(paired).toMatchObject({ paired: true, difference: { estimate: 2 } });
    expect(paired?.difference.ci[0]).toBeCloseTo(2, 9);
    expect(paired?.difference.ci[1]).toBeCloseTo(2, 9);
    // The same matches without a schedule are independent: the interval spans the spread of b.
    const independent = compareRepeated(
      [
        ...matches(
          "a",
          b.map((x) => x + 2),
        ),
        ...matches("b", b),
      ],
      settings,
    ).pairs.find((p) => p.measure === "points");
    expect(independent?.paired).toBe(false);
    expect(independent?.difference.ci[0]).toBeLessThan(0);
    expect(independent?.difference.ci[1]).toBeGreaterThan(4);
  });

  it("ranks cooperator, mixed and defector with rank intervals [1, 1], [2, 2], [3, 3], Holm over their three pairs", () => {
    // Against tit-for-tat over 16 rounds: all-C earns 16·4 = 64, all-D 6 + 15·2 = 36, C then all-D
    // 4 + 6 + 14·2 = 38; cooperation 1, 0 and 1/16.
    const rows = [
      ...matches("cooperator", [64, 64, 64, 64, 64, 66], { cooperation: [1, 1, 1, 1, 1, 15 / 16] }),
      ...matches("defector", [36, 36, 38, 36, 36, 36], { cooperation: [0, 0, 1 / 16, 0, 0, 0] }),
      ...matches("mixed", [50, 40, 60, 45, 55, 52], { cooperation: [0.5, 0.25, 0.75, 0.5, 0.5, 0.5] }),
    ];
    const result = compareRepeated(rows, settings);
    const points = result.ranks.filter((r) => r.measure === "points");
    expect(points.map((r) => [r.group, r.rank.ci])).toEqual([
      ["cooperator", [1, 1]],
      ["mixed", [2, 2]],
      ["defector", [3, 3]],
    ]);
    const pairs = result.pairs.filter((p) => p.measure === "points");
    expect(pairs).toHaveLength(3);
    // Holm: the smallest p times 3, the next times 2, made monotone; never below the raw p.
    for (const p of pairs) expect(p.p_adjusted).toBeGreaterThanOrEqual(p.p_value);
    const coop = result.pairs.find((p) => p.measure === "cooperation" && p.b === "defector");
    // cooperator − defector: (5 + 15/16)/6 − (1/16)/6 = (5 + 14/16)/6.
    expect(coop?.difference.estimate).toBeCloseTo((5 + 14 / 16) / 6, 12);
  });

  it("skips a measure no two groups share, naming what each played, and cooperation outside the PD family", () => {
    const rps = {
      game: "rock-paper-scissors",
      framing: "rps-plain",
      opponent: "uniform",
      opponent_params: {},
    };
    const result = compareRepeated(
      [...matches("a", [10, 12]), ...matches("b", [3, 4], { condition: rps })],
      settings,
    );
    expect(result.pairs).toEqual([]);
    const points = result.skipped.find((s) => s.measure === "points");
    expect(points?.reason).toBe(
      "No two groups played a repeated condition (game, framing, opponent) in common: 'a' played repeated-pd/repeated-plain vs tit-for-tat; 'b' played rock-paper-scissors/rps-plain vs uniform.",
    );
    expect(result.skipped.find((s) => s.measure === "cooperation")?.reason).toMatch(
      /cooperative action by at least two groups/,
    );
  });

  it("resamples the sessions of a group whose sessions played several matches", () => {
    const rows: RepeatedMatchRow[] = [
      ...matches("a", [10, 20, 30, 40]).map((r, t) => ({ ...r, unit: `session-${t % 2}` })),
      ...matches("b", [25, 25]),
    ];
    const result = compareRepeated(rows, settings);
    expect(result.units).toEqual([
      { group: "a", unit: "session", matches: 4 },
      { group: "b", unit: "match", matches: 2 },
    ]);
    for (const p of result.pairs)
      for (const x of [p.difference.estimate, ...p.difference.ci, p.p_value, p.p_adjusted])
        expect(Number.isFinite(x)).toBe(true);
    expect(result.pairs.find((p) => p.measure === "points")?.difference.estimate).toBe(0);
  });

  it("compares and ranks no condition a group played once: one match has no spread between matches", () => {
    // One match each, 2 points apart: every replicate repeats it, and the interval used to be [2, 2], p = 0.001.
    const single = compareRepeated([...matches("one-a", [34]), ...matches("one-b", [32])], settings);
    expect(single.pairs).toEqual([]);
    expect(single.ranks).toEqual([]);
    const described =
      "'one-a' 1 match of repeated-pd/repeated-plain vs tit-for-tat, 'one-b' 1 match of repeated-pd/repeated-plain vs tit-for-tat";
    expect(single.skipped.map((s) => s.reason)).toEqual([
      `Points needs a condition two groups each played in 2 matches or more (one match has no spread between matches to estimate): ${described}.`,
      `Cooperation needs a condition two groups each played in 2 matches or more (one match has no spread between matches to estimate): ${described}.`,
      `Comprehension m needs a condition two groups each played in 2 matches or more (one match has no spread between matches to estimate): ${described}.`,
    ]);
    expect(single.notes).toEqual([
      `Repeated play: a condition a group played in fewer than 2 matches has no spread between matches to estimate, so no interval, p-value or rank rests on it (it is left out of every pair and rank): ${described}.`,
    ]);

    // Three groups: 'c' played once, so 'a' and 'b' are compared and ranked without it; 'c' is named.
    const three = compareRepeated(
      [...matches("a", [40, 42, 44]), ...matches("b", [10, 12, 14]), ...matches("c", [60])],
      settings,
    );
    const points = three.pairs.filter((p) => p.measure === "points");
    expect(points.map((p) => [p.a, p.b, p.difference.estimate])).toEqual([["a", "b", 30]]);
    expect(three.ranks.filter((r) => r.measure === "points").map((r) => [r.group, r.rank.estimate])).toEqual([
      ["a", 1],
      ["b", 2],
    ]);
    expect(three.notes).toEqual([
      "Repeated play: a condition a group played in fewer than 2 matches has no spread between matches to estimate, so no interval, p-value or rank rests on it (it is left out of every pair and rank): 'c' 1 match of repeated-pd/repeated-plain vs tit-for-tat.",
    ]);

    // Sessions resampled: three matches in one session are one draw, as thin as one match.
    const oneSession = compareRepeated(
      [
        ...matches("a", [10, 20, 30, 40]).map((r, t) => ({ ...r, unit: `session-${t % 2}` })),
        ...matches("a", [5, 6, 7], { condition: { ...TFT, opponent: "grim" } }).map((r) => ({
          ...r,
          unit: "session-0",
        })),
        ...matches("b", [25, 26]),
        ...matches("b", [8, 9], { condition: { ...TFT, opponent: "grim" } }),
      ],
      settings,
    );
    const used = oneSession.pairs.find((p) => p.measure === "points");
    expect(used?.cells_used).toEqual([TFT]);
    expect(used?.cells_left_out).toEqual([{ ...TFT, opponent: "grim" }]);
    expect(oneSession.notes[0]).toBe(
      "Repeated play: a condition a group played in fewer than 2 matches (or in one session, where sessions are resampled) has no spread between matches to estimate, so no interval, p-value or rank rests on it (it is left out of every pair and rank): 'a' 3 matches in 1 session of repeated-pd/repeated-plain vs grim.",
    );
  });
});
