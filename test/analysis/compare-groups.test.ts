import { describe, expect, it } from "vitest";
import { compareGroups, NoSharedCells } from "../../src/analysis/comparison/compare-groups.js";
import type { ComparisonRow } from "../../src/analysis/comparison/comparison-rows.js";
import { groupSample } from "../../src/analysis/comparison/group-samples.js";
import {
  bootstrapDifference,
  boundaryWidened,
  moverWidened,
  welchWidened,
} from "../../src/analysis/comparison/pair-differences.js";
import type { PooledModel } from "../../src/analysis/comparison/pooled-measures.js";
import { rankIntervals, ranksFromOrder } from "../../src/analysis/comparison/rank-intervals.js";
import { exploitabilityBound } from "../../src/analysis/equilibrium/deviation.js";
import { holm } from "../../src/analysis/multiple-testing/holm.js";
import { meanDistances } from "../../src/analysis/robustness/mean-interval.js";
import { RobustnessInversion } from "../../src/analysis/robustness/robustness-inversion.js";
import { studentQuantile } from "../../src/analysis/sampling/student-t.js";
import { fitPooledLambda } from "../../src/analysis/sensitivity/logit-response-mle.js";
import { prisonersDilemmaPooled, prisonersDilemmaStage } from "../support/prisoners-dilemma-pooled.js";

const framings = ["business", "friend-sharing"];
const options = {
  framings,
  actionsOf: () => ["cooperate", "defect"],
  cooperativeAction: () => "cooperate",
  bootstrap: 2000,
  seed: 3,
};

/** Imported-style counts (no session): `cooperate` of `n` per framing, in the listed games. */
function counts(
  group: string,
  cooperate: Record<string, number>,
  n = 30,
  games = ["prisoners-dilemma"],
): ComparisonRow[] {
  return games.flatMap((game) =>
    Object.entries(cooperate).flatMap(([framing, c]) => [
      { group, game, framing, action: "cooperate", count: c, unit: null, position: null },
      { group, game, framing, action: "defect", count: n - c, unit: null, position: null },
    ]),
  );
}

/** One decision per schedule position (a runner study): `actions[framing][t]` at trial t of that cell. */
function scheduled(group: string, actions: Record<string, string[]>): ComparisonRow[] {
  return Object.entries(actions).flatMap(([framing, list]) =>
    list.map((action, t) => ({
      group,
      game: "prisoners-dilemma",
      framing,
      action,
      count: 1,
      unit: `${group}:${framing}:${t}`,
      position: `study#${framing}-${t}`,
    })),
  );
}

describe("compare groups", () => {
  it("gives two players with identical counts a difference 0 whose interval holds 0, and one tied group", () => {
    const rows = [
      ...counts("alpha", { business: 20, "friend-sharing": 10 }),
      ...counts("beta", { business: 20, "friend-sharing": 10 }),
    ];
    const result = compareGroups(rows, options);
    const r = result.pairs.find((p) => p.measure === "R");
    expect(r?.difference.estimate).toBe(0);
    expect(r?.difference.ci[0]).toBeLessThan(0);
    expect(r?.difference.ci[1]).toBeGreaterThan(0);
    expect(r?.p_value).toBeGreaterThan(0.5);
    expect(r?.paired).toBe(false);
    expect(r?.cells_used).toEqual([
      { game: "prisoners-dilemma", framing: "business" },
      { game: "prisoners-dilemma", framing: "friend-sharing" },
    ]);
    expect(new Set(result.ranks.map((x) => x.tied_group))).toEqual(new Set([1]));
    expect(result.ranks.map((x) => x.rank.ci)).toEqual([
      [1, 2],
      [1, 2],
    ]);
  });

  it("ranks a player who always plays the dominant action first, with the rank interval [1, 1]", () => {
    // The dominant player defects in every framing (R = 1); the story-swayed ones cooperate with a friend.
    const rows = [
      ...counts("dominant", { business: 0, "friend-sharing": 0 }),
      ...counts("swayed", { business: 3, "friend-sharing": 27 }),
      ...counts("swayed-too", { business: 5, "friend-sharing": 25 }),
    ];
    const result = compareGroups(rows, options);
    const top = result.ranks[0];
    expect(top?.group).toBe("dominant");
    expect(top?.estimate).toBe(1);
    expect(top?.rank).toEqual({ estimate: 1, ci: [1, 1] });
    expect(top?.tied_group).toBe(1);
    expect(result.ranks.filter((x) => x.tied_group === 1).map((x) => x.group)).toEqual(["dominant"]);
    const pair = result.pairs.find((p) => p.measure === "R" && p.a === "dominant" && p.b === "swayed");
    expect(pair?.difference.ci[0]).toBeGreaterThan(0);
    expect(pair?.p_adjusted).toBeLessThan(0.05);
  });

  it("gives two deterministic players (R = 1 on both sides) a finite interval around 0, not a point", () => {
    const rows = [
      ...counts("always-c", { business: 30, "friend-sharing": 30 }),
      ...counts("always-c-too", { business: 30, "friend-sharing": 30 }),
    ];
    const result = compareGroups(rows, options);
    for (const pair of result.pairs) {
      const [lo, hi] = pair.difference.ci;
      expect(Number.isFinite(lo) && Number.isFinite(hi)).toBe(true);
      expect(lo).toBeLessThan(0);
      expect(hi).toBeGreaterThan(0);
    }
    for (const rank of result.ranks) {
      expect(rank.ci[0]).toBeLessThan(rank.ci[1]);
      expect(rank.ci[1]).toBe(1);
    }
  });

  it("ranks two groups apart only where their pair's own interval of R leaves 0 out", () => {
    // In two games, "steady" defects 30 of 30 under both framings (R = 1); "sparse" defected 2 of 2
    // under business and cooperated 2 of 2 among friends (R = 0). So few decisions leave their difference undecided: the
    // pair's interval (bias-corrected ∪ plain percentile ∪ MOVER) holds 0 and p is far above 0.05. The
    // bias-corrected interval alone leaves 0 out (the replicates of R = 0 lie far above it), and the ranks
    // read only that one and MOVER: they put "sparse" surely below "steady" at the simultaneous level, a
    // verdict the pair's own 95% interval does not support.
    const games = ["prisoners-dilemma", "stag-hunt"];
    const rows = [
      ...counts("steady", { business: 0, "friend-sharing": 0 }, 30, games),
      ...counts("sparse", { business: 0, "friend-sharing": 2 }, 2, games),
    ];
    const result = compareGroups(rows, options);
    // Pairs are named in the groups' order: a = "sparse", b = "steady", a − b = 0 − 1.
    const pair = result.pairs.find((p) => p.measure === "R");
    expect(pair?.difference.estimate).toBe(-1);
    expect(pair?.difference.ci[1]).toBeGreaterThan(0);
    expect(pair?.p_value).toBeGreaterThan(0.05);
    const ranks = result.ranks.filter((r) => r.measure === "R");
    expect(ranks.map((r) => [r.group, r.rank.estimate, r.rank.ci, r.tied_group])).toEqual([
      ["steady", 1, [1, 2], 1],
      ["sparse", 2, [1, 2], 1],
    ]);
  });

  it("pairs two groups that played the same schedule positions, and not groups that did not", () => {
    const a = {
      business: ["defect", "defect", "cooperate", "defect"],
      "friend-sharing": ["cooperate", "cooperate", "defect", "cooperate"],
    };
    const rows = [
      ...scheduled("m1", a),
      ...scheduled("m2", a),
      ...counts("paper", { business: 1, "friend-sharing": 3 }, 4),
    ];
    const result = compareGroups(rows, options);
    const pair = (x: string, y: string) =>
      result.pairs.find((p) => p.measure === "R" && p.a === x && p.b === y);
    expect(pair("m1", "m2")?.paired).toBe(true);
    expect(pair("m1", "paper")?.paired).toBe(false);
    // The same answers at the same positions: every paired replicate of the difference is 0.
    expect(pair("m1", "m2")?.difference).toEqual({ estimate: 0, ci: [0, 0] });
    expect(result.group_details.map((g) => g.unit)).toEqual(["trial", "trial", "decision"]);
  });

  it("refuses two groups that share no game under every framing, naming both", () => {
    const rows = [
      ...counts("alpha", { business: 20, "friend-sharing": 10 }),
      ...counts("beta", { business: 20, "friend-sharing": 10 }, 30, ["stag-hunt"]),
    ];
    expect(() => compareGroups(rows, options)).toThrow(NoSharedCells);
    expect(() => compareGroups(rows, options)).toThrow(
      /'alpha' and 'beta' share no game .*'alpha' played prisoners-dilemma .*'beta' played stag-hunt/,
    );
  });

  it("lists the cells left out of a pair", () => {
    const rows = [
      ...counts("alpha", { business: 20, "friend-sharing": 10 }, 30, ["prisoners-dilemma", "stag-hunt"]),
      ...counts("beta", { business: 20, "friend-sharing": 10 }),
    ];
    const pair = compareGroups(rows, options).pairs[0];
    expect(pair?.cells_left_out).toEqual([
      { game: "stag-hunt", framing: "business" },
      { game: "stag-hunt", framing: "friend-sharing" },
    ]);
  });

  it("names the games left out of the ranks and the group that did not play them under every framing", () => {
    // "full" and "other" played both games under both framings; 'short "v2", beta' played stag-hunt under
    // business only. Ranks need every group on the same games: prisoners-dilemma alone. A name holding a
    // comma or a quote is written as the list flags read it.
    const games = ["prisoners-dilemma", "stag-hunt"];
    const rows = [
      ...counts("full", { business: 20, "friend-sharing": 10 }, 30, games),
      ...counts("other", { business: 20, "friend-sharing": 12 }, 30, games),
      ...counts('short "v2", beta', { business: 20, "friend-sharing": 10 }),
      ...counts('short "v2", beta', { business: 20 }, 30, ["stag-hunt"]),
    ];
    const result = compareGroups(rows, options);
    expect(result.ranked_games).toEqual(["prisoners-dilemma"]);
    expect(result.notes).toContain(
      "Ranked on prisoners-dilemma only, the games every group played under every framing (R, λ and exploitability alike); " +
        'left out of the ranks: stag-hunt (not played under every framing by "short ""v2"", beta"). ' +
        "Each pair is still compared on the games both played (games used). " +
        "To rank on more games, compare without the groups that lack them, or play the missing cells.",
    );
    // Without it, both games are ranked and nothing is said.
    const two = compareGroups(
      rows.filter((r) => r.group !== 'short "v2", beta'),
      options,
    );
    expect(two.ranked_games).toEqual(games);
    expect(two.notes.filter((n) => n.startsWith("Ranked on"))).toEqual([]);
  });

  it("names two groups whose names print alike, spelling each with its code points", () => {
    // "Müller" with ü as one character (U+00FC) and as u plus a combining diaeresis (U+0308): two labels.
    const rows = [
      ...counts("M\u00fcller", { business: 20, "friend-sharing": 10 }),
      ...counts("Mu\u0308ller", { business: 20, "friend-sharing": 12 }),
      ...counts("other", { business: 20, "friend-sharing": 12 }),
    ];
    const result = compareGroups(rows, options);
    expect(result.groups).toHaveLength(3);
    expect(result.notes).toContain(
      "Groups whose names print alike but are different labels (Unicode forms differ): Mu\\u{308}ller and M\\u{fc}ller. " +
        "They are compared and ranked as different groups.",
    );
    const plain = compareGroups(
      rows.filter((r) => r.group !== "Mu\u0308ller"),
      options,
    );
    expect(plain.notes.filter((n) => n.startsWith("Groups whose names"))).toEqual([]);
  });

  it("adjusts by Holm's step-down rule", () => {
    expect(holm([0.01, 0.04, 0.03])).toEqual([0.03, 0.06, 0.06]);
    expect(holm([0.5, 0.9])).toEqual([1, 1]);
  });
});

describe("compare groups on λ and exploitability", () => {
  const stage = prisonersDilemmaStage;
  const pooled: PooledModel = prisonersDilemmaPooled;
  const result = compareGroups(
    [
      ...counts("a", { business: 3, "friend-sharing": 3 }),
      ...counts("b", { business: 3, "friend-sharing": 3 }),
      ...counts("dominant", { business: 0, "friend-sharing": 0 }),
    ],
    { ...options, pooled },
  );

  it("fits λ by maximum likelihood: 3 of 30 cooperate, so σ(−0.3λ) = 0.1 and λ = ln 9 / 0.3", () => {
    const lambda = result.ranks.filter((r) => r.measure === "lambda");
    expect(lambda.find((r) => r.group === "a")?.estimate).toBeCloseTo(Math.log(9) / 0.3, 9);
    const pair = result.pairs.find((p) => p.measure === "lambda" && p.a === "a" && p.b === "b");
    expect(pair?.difference.estimate).toBe(0);
    expect(pair?.difference.ci[0]).toBeLessThan(0);
    expect(pair?.difference.ci[1]).toBeGreaterThan(0);
  });

  it("gives the player of the dominant action (the equilibrium) exploitability 0 and ranks it first, the least exploitable", () => {
    const exploitability = result.ranks.filter((r) => r.measure === "exploitability");
    expect(exploitability.find((r) => r.group === "dominant")).toMatchObject({
      estimate: 0,
      rank: { estimate: 1 },
    });
    // Ranked on −exploitability and read back: each interval is in the measure's own units, low end first.
    for (const r of exploitability) {
      expect(r.ci[0]).toBeGreaterThanOrEqual(0);
      expect(r.ci[0]).toBeLessThanOrEqual(r.estimate);
      expect(r.ci[1]).toBeGreaterThanOrEqual(r.estimate);
    }
    // Against 10% cooperation a best-responding opponent defects and earns 0.1·5 + 0.9·1 = 1.4 instead of
    // 1 at the equilibrium: 0.4 over the payoff range 5.
    expect(exploitability.find((r) => r.group === "a")?.estimate).toBeCloseTo(0.08, 9);
  });

  it("holds 0 in the λ difference and ties the ranks when both groups may sit at λ = 0", () => {
    // "even" cooperates 11 of 20 per framing, more than half, so its fit is at the bound: λ̂ = 0.
    // "less" cooperates 7 of 20: σ(−0.3λ) = 0.35, λ̂ = ln(13/7)/0.3 = 2.063. A replicate of "less" fits
    // λ = 0 when it draws ≥ 20 cooperations of 40, P(Bin(40, 0.35) ≥ 20) = 0.0363 > 0.025: neither group
    // rejects λ = 0 at 2.5%, so the difference may be 0.
    const atBound = compareGroups(
      [
        ...counts("even", { business: 11, "friend-sharing": 11 }, 20),
        ...counts("less", { business: 7, "friend-sharing": 7 }, 20),
      ],
      { ...options, pooled },
    );
    const pair = atBound.pairs.find((p) => p.measure === "lambda");
    expect(pair?.difference.estimate).toBeCloseTo(-Math.log(13 / 7) / 0.3, 9);
    // The bias-corrected interval ends below 0 here; the normal interval whose tail floors p,
    // d̂ ± 1.96·sd(d*), already ends above it (the widening at the bound, which would end at 0, is checked
    // on its own under "the interval of a difference").
    expect(pair?.difference.ci[1]).toBeGreaterThanOrEqual(0);
    // p is at least twice the share of "less" replicates at 0 (2 · 0.0363, less the Monte Carlo error of
    // B = 2,000: ±0.009), so the pair is not significant.
    expect(pair?.p_value).toBeGreaterThan(0.0726 - 0.009);
    expect(pair?.p_value).toBeGreaterThan(0.05);
    const ranks = atBound.ranks.filter((r) => r.measure === "lambda");
    expect(ranks.map((r) => [r.group, r.rank.ci, r.tied_group])).toEqual([
      ["less", [1, 2], 1],
      ["even", [1, 2], 1],
    ]);
  });

  it("keeps a group's exploitability interval inside the values play can give: at most 0.8 here", () => {
    // Against all-cooperate the opponent defects and earns 5, the most it can earn; at the equilibrium it
    // earns 1: (5 − 1)/5 = 0.8, the largest exploitability of any play in this game. A group that cooperated
    // 10 of 10 under both framings is there; its smoothed replicates, spread by √(10/9), reached past it.
    expect(exploitabilityBound(stage)).toBeCloseTo(0.8, 12);
    const bounded = compareGroups(
      [
        ...counts("always", { business: 10, "friend-sharing": 10 }, 10),
        ...counts("half", { business: 5, "friend-sharing": 5 }, 10),
      ],
      { ...options, pooled: { ...pooled, exploitabilityBound: () => exploitabilityBound(stage) } },
    );
    const always = bounded.ranks.find((r) => r.measure === "exploitability" && r.group === "always");
    expect(always?.estimate).toBeCloseTo(0.8, 12);
    expect(always?.ci[1]).toBeLessThanOrEqual(0.8);
    expect(always?.ci[0]).toBeLessThan(0.8);
  });

  it("keeps an exploitability difference inside what two groups' play can differ by: ±0.8 here", () => {
    // One decision per framing: Welch's t over 2 units a side (ν about 1) is far wider than the game allows.
    // Each group's exploitability lies in [0, 0.8], so a − b lies in [−0.8, 0.8] (not [−1, 1]).
    const tiny = compareGroups(
      [
        ...counts("cooperates", { business: 1, "friend-sharing": 1 }, 1),
        ...counts("defects", { business: 0, "friend-sharing": 0 }, 1),
      ],
      { ...options, pooled: { ...pooled, exploitabilityBound: () => exploitabilityBound(stage) } },
    );
    const pair = tiny.pairs.find((p) => p.measure === "exploitability");
    expect(pair?.difference.estimate).toBeCloseTo(0.8, 12);
    expect(pair?.difference.ci[0]).toBeGreaterThanOrEqual(-0.8 - 1e-12);
    expect(pair?.difference.ci[1]).toBeLessThanOrEqual(0.8 + 1e-12);
    expect(pair?.difference.ci[0]).toBeLessThan(0);
  });

  it("makes the exploitability difference of two small groups at least as wide as Welch's t interval", () => {
    // 2 and 3 of 5 cooperate per framing: exploitability 0.8·rate (against rate c a best-responding
    // opponent defects and gains 4c over the equilibrium, over the payoff range 5): 0.32 and 0.48. Each
    // side's replicate variance is 0.64 · p(1 − p)/10 · 5/4 (Efron's spread for 5 units) = 0.0192, so
    // sd(d*) ≈ √0.0384 = 0.196; Welch's ν = 18 (10 decisions a side), t = 2.101: a width of at least
    // 2 · 2.101 · 0.196 = 0.823 (the bias-corrected percentile interval alone gave 0.716).
    const small = compareGroups(
      [
        ...counts("two", { business: 2, "friend-sharing": 2 }, 5),
        ...counts("three", { business: 3, "friend-sharing": 3 }, 5),
      ],
      { ...options, pooled },
    );
    const pair = small.pairs.find((p) => p.measure === "exploitability");
    expect(pair?.difference.estimate).toBeCloseTo(0.48 - 0.32, 9);
    const [lo, hi] = pair?.difference.ci ?? [0, 0];
    expect(hi - lo).toBeGreaterThan(0.81);
  });

  it("warm-starts a replicate's fit at no cost to its value", () => {
    const observations = [
      { cooperative: 7, n: 30, deltaU: -0.3 },
      { cooperative: 20, n: 25, deltaU: 0.2 },
    ];
    expect(fitPooledLambda(observations, 3.5)).toBeCloseTo(fitPooledLambda(observations) as number, 10);
  });
});

describe("the p-value of a difference", () => {
  // 1,000 replicates alternating 0.1 and 0.3 about the estimate 0.2: none reaches 0, so the bootstrap tail
  // is its floor 1/1001; their sd is 0.1 (0.10005 with B − 1), so the normal tail is 2·Φ(−2) ≈ 0.0455.
  const replicates = Float64Array.from({ length: 1000 }, (_, b) => (b % 2 === 0 ? 0.1 : 0.3));

  it("is the bootstrap tail for R", () => {
    expect(bootstrapDifference(0.2, replicates, 0.95).p_value).toBeCloseTo(1 / 1001, 6);
  });

  it("is never below the normal tail for a mean of choices (the shift), whose bootstrap tail is a lattice", () => {
    expect(bootstrapDifference(0.2, replicates, 0.95, { normalFloor: true }).p_value).toBeCloseTo(0.0455, 3);
  });
});

describe("the interval of a difference", () => {
  // 1,001 replicates evenly from 0.1 to 0.3 (step 0.0002): the 2.5% and 97.5% points are the 25th and
  // 975th, 0.105 and 0.295; their mean 0.2 lies 0.1 below the estimate 0.3, so the bias is −0.1 and the
  // bias-corrected interval is [0.205, 0.395].
  const replicates = Float64Array.from({ length: 1001 }, (_, b) => 0.1 + 0.0002 * b);

  it("is the bias-corrected percentile interval", () => {
    const { ci } = bootstrapDifference(0.3, replicates, 0.95);
    expect(ci[0]).toBeCloseTo(0.205, 12);
    expect(ci[1]).toBeCloseTo(0.395, 12);
  });

  it("for R also holds the plain percentile interval: [0.105, 0.395]", () => {
    const { ci } = bootstrapDifference(0.3, replicates, 0.95, { percentileUnion: true });
    expect(ci[0]).toBeCloseTo(0.105, 12);
    expect(ci[1]).toBeCloseTo(0.395, 12);
  });

  it("for λ holds 0 when neither group rejects λ = 0 at 2.5%, with p at least 2·min(shares)", () => {
    const difference = { estimate: -0.9, ci: [-1.6, -0.2] as [number, number], p_value: 0.01 };
    // Shares of replicates at λ = 0 of 0.5 and 0.1: both above 0.025.
    expect(boundaryWidened(difference, 0.5, 0.1, 0.95)).toEqual({
      estimate: -0.9,
      ci: [-1.6, 0],
      p_value: 0.2,
    });
    // 0.02 ≤ 0.025: that group rejects λ = 0, the pair is left as it was.
    expect(boundaryWidened(difference, 0.5, 0.02, 0.95)).toEqual(difference);
  });
});

describe("the MOVER widening of a difference of R", () => {
  it("combines the groups' distances in quadrature, the side toward 0 read as z standard errors", () => {
    // a: .03 below and .10 above its mean; b: .04 below, .02 above; d̂ = −0.06, independent groups.
    // Up: √(.10² + .04²) = 0.107703, so the upper end is 0.047703; down: √(.03² + .02²) = 0.036056.
    // p: the side toward 0 is the upper one, |d̂|·1.959964/0.107703 = 1.091862, 2·(1 − Φ) = 0.274889.
    const bootstrapped = { estimate: -0.06, ci: [-0.09, -0.03] as [number, number], p_value: 0.001 };
    const widened = moverWidened(
      bootstrapped,
      { below: 0.03, above: 0.1 },
      { below: 0.04, above: 0.02 },
      0,
      0.95,
    );
    expect(widened.ci[0]).toBeCloseTo(-0.096056, 6);
    expect(widened.ci[1]).toBeCloseTo(0.047703, 6);
    expect(widened.p_value).toBeCloseTo(0.274889, 4);
    // Paired replicates correlated .5 take 2·.5·.10·.04 off the squared upper distance: √(.0076) = 0.087178.
    const paired = moverWidened(
      bootstrapped,
      { below: 0.03, above: 0.1 },
      { below: 0.04, above: 0.02 },
      0.5,
      0.95,
    );
    expect(paired.ci[1]).toBeCloseTo(-0.06 + Math.sqrt(0.0076), 9);
    // Where the bootstrap interval is already wider, it stays.
    const wide = { estimate: -0.06, ci: [-0.5, 0.5] as [number, number], p_value: 0.9 };
    expect(moverWidened(wide, { below: 0.03, above: 0.1 }, { below: 0.04, above: 0.02 }, 0, 0.95)).toEqual({
      estimate: -0.06,
      ci: [-0.5, 0.5],
      p_value: 0.9,
    });
  });

  it("takes a mean's distances over games in quadrature, the larger one standing in above at the bound 1", () => {
    // Games (.7 in [.65, .8]) and (.9 in [.85, 1]): below √(.05² + .05²)/2 = 0.035355; above, the second
    // game's end is the bound, so its larger distance .1 stands in: √(.1² + .1²)/2 = 0.070711; κ = 2 scales
    // both by √2.
    const games = [
      { estimate: 0.7, ci: [0.65, 0.8] as const },
      { estimate: 0.9, ci: [0.85, 1] as const },
    ];
    expect(meanDistances(games, 1).below).toBeCloseTo(0.035355, 6);
    expect(meanDistances(games, 1).above).toBeCloseTo(0.070711, 6);
    expect(meanDistances(games, 2).above).toBeCloseTo(0.1, 9);
  });

  it("holds 0 for two agents of the same R whose framings crowd the extremes differently", () => {
    // Eleven framings of 300 decisions. "crowded": 6 near .2 and 5 near .8, R̂ = 0.6343, below the R of
    // its groups (0.7219) as a maximum over 30 near-tied pairs is; "spread": .2, .26, …, .8 exactly,
    // R̂ = 0.7219. Both have R = 0.7219 in truth at these rates. The bootstrap interval alone was
    // [−0.188, −0.003] (p 0.040): the spread agent called the more robust. The crowded agent's own
    // test-inversion interval reaches past 0.72, so the difference's interval holds 0.
    const names = Array.from({ length: 11 }, (_, f) => `f${String(f).padStart(2, "0")}`);
    const rowsOf = (group: string, xs: number[]): ComparisonRow[] =>
      xs.flatMap((x, f) => [
        {
          group,
          game: "prisoners-dilemma",
          framing: names[f] as string,
          action: "cooperate",
          count: x,
          unit: null,
          position: null,
        },
        {
          group,
          game: "prisoners-dilemma",
          framing: names[f] as string,
          action: "defect",
          count: 300 - x,
          unit: null,
          position: null,
        },
      ]);
    const crowded = [48, 52, 56, 60, 64, 66, 234, 238, 240, 244, 252];
    const spread = [60, 78, 96, 114, 132, 150, 168, 186, 204, 222, 240];
    const result = compareGroups([...rowsOf("crowded", crowded), ...rowsOf("spread", spread)], {
      ...options,
      framings: names,
    });
    const R = result.pairs.find((p) => p.measure === "R");
    expect(R?.difference.estimate).toBeCloseTo(0.6343 - 0.7219, 3);
    expect(R?.difference.ci[0]).toBeLessThan(0);
    expect(R?.difference.ci[1]).toBeGreaterThan(0);
    expect(R?.p_value).toBeGreaterThan(0.05);
    // The upper end is at least MOVER's: d̂ + √(crowded's distance above² + spread's below²), each from
    // the inversion of its own counts (to within the ends' search tolerance: each search starts from
    // its own guess).
    const invert = (xs: number[]) =>
      new RobustnessInversion(
        xs.map((x) => ({ x, n: 300 })),
        0.95,
      );
    const a = invert(crowded);
    const b = invert(spread);
    const above = a.upperEnd(true, a.estimate + 0.05) - a.estimate;
    const below = b.estimate - b.lowerEnd(b.estimate - 0.05);
    const estimate = R?.difference.estimate as number;
    expect(R?.difference.ci[1]).toBeGreaterThan(estimate + Math.hypot(above, below) - 1e-4);
    // The crowded agent's own interval in the ranking holds its R (0.7219) too: it also holds the
    // agent's test-inversion interval, whose upper end is past it; the percentile interval of its
    // replicates, centred on a biased R̂ and biased once more, was not.
    const own = result.ranks.find((r) => r.measure === "R" && r.group === "crowded");
    expect(own?.ci[1]).toBeGreaterThan(0.7219);
    expect(own?.ci[1]).toBeCloseTo(a.upperEnd(true, a.estimate + 0.05), 3);
  });
});

describe("rank intervals with a further interval of each difference", () => {
  it("rank two groups apart only where both intervals leave 0 out", () => {
    // Two groups whose replicates never overlap (0.9 ± 0.01 against 0.5 ± 0.01): the bootstrap alone
    // ranks them 1 and 2. A further interval of their difference that holds 0 keeps both in [1, 2];
    // one that leaves 0 out as well keeps them apart.
    const B = 1000;
    const star = (centre: number) => Float64Array.from({ length: B }, (_, b) => centre + 0.01 * Math.sin(b));
    const replicates = [star(0.9), star(0.5)];
    const apart = rankIntervals(["a", "b"], [0.9, 0.5], replicates, 0.95);
    expect(apart.map((r) => r.rank.ci)).toEqual([
      [1, 1],
      [2, 2],
    ]);
    const held = rankIntervals(["a", "b"], [0.9, 0.5], replicates, 0.95, undefined, () => [-0.1, 0.9]);
    expect(held.map((r) => r.rank.ci)).toEqual([
      [1, 2],
      [1, 2],
    ]);
    const both = rankIntervals(["a", "b"], [0.9, 0.5], replicates, 0.95, undefined, () => [0.1, 0.7]);
    expect(both.map((r) => r.rank.ci)).toEqual([
      [1, 1],
      [2, 2],
    ]);
  });
});

describe("tiers", () => {
  it("put in tier 1 every group not surely below the best, even one ranked below a group of tier 2", () => {
    // "top" is surely above "mid" and nothing else: "wide" (a group of few decisions) is told apart from
    // no one. Tier 1 holds the groups not surely below the best, "top": "top" and "wide". "wide" was put in
    // tier 2 beside "mid", because tiers were cut in order of estimate and "mid" came first: the table then
    // said "top" was surely more robust than "wide", which nothing in the record shows.
    const better = [
      [false, true, false],
      [false, false, false],
      [false, false, false],
    ];
    const ranked = ranksFromOrder(["top", "mid", "wide"], [1, 0.93, 0.92], better);
    expect(ranked.map((r) => [r.group, r.rank.ci, r.tied_group])).toEqual([
      ["top", [1, 2], 1],
      ["mid", [2, 3], 2],
      ["wide", [1, 3], 1],
    ]);
  });

  it("cut the groups below tier 1 the same way: tier 2 is those not surely below the best of the rest", () => {
    // a > b, a > c, a > d, b > d: tier 1 {a}; of b, c, d, the best is b, not surely above c: tier 2 {b, c};
    // then tier 3 {d}.
    const better = [
      [false, true, true, true],
      [false, false, false, true],
      [false, false, false, false],
      [false, false, false, false],
    ];
    const ranked = ranksFromOrder(["a", "b", "c", "d"], [0.9, 0.8, 0.7, 0.6], better);
    expect(ranked.map((r) => r.tied_group)).toEqual([1, 2, 2, 3]);
  });
});

describe("Welch's widening", () => {
  // Replicates alternating 0.1 and 0.3: sd 0.1 · √(1000/999). Two sides of equal variance and 5 units
  // each: Satterthwaite's ν = (2v)² / (2v²/4) = 8; halfway to n_min − 1 = 4 is ν = 6, t = 2.447;
  // paired, ν = 5 − 1 = 4, t = 2.776.
  const star = Float64Array.from({ length: 1000 }, (_, b) => (b % 2 === 0 ? 0.1 : 0.3));
  const sd = 0.1 * Math.sqrt(1000 / 999);
  const narrow = { estimate: 0.2, ci: [0.15, 0.25] as [number, number], p_value: 0.001 };
  const side = { variance: 0.005, units: 5 };

  it("widens to d̂ ± t_ν·sd(d*), ν halfway between Satterthwaite's and n_min − 1, or n − 1 when paired", () => {
    const welch = welchWidened(narrow, star, side, side, false, 0.95);
    expect(welch.ci[0]).toBeCloseTo(0.2 - 2.447 * sd, 3);
    expect(welch.ci[1]).toBeCloseTo(0.2 + 2.447 * sd, 3);
    const paired = welchWidened(narrow, star, side, side, true, 0.95);
    expect(paired.ci[1]).toBeCloseTo(0.2 + 2.776 * sd, 3);
    // p: 2·P(T_6 ≥ 2/1.0005) ≈ 0.0926.
    expect(welch.p_value).toBeCloseTo(0.0926, 3);
  });

  it("at 3 units against 30 of a hundredth the variance, takes ν halfway between 2.04 and 2", () => {
    // Satterthwaite's ν = 0.0101² / (0.01²/2 + 0.0001²/29) ≈ 2.040, never below n_min − 1 = 2: ν = 2.020.
    const small = { variance: 0.01, units: 3 };
    const large = { variance: 0.0001, units: 30 };
    const satterthwaite = 0.0101 ** 2 / (0.01 ** 2 / 2 + 0.0001 ** 2 / 29);
    expect(satterthwaite).toBeCloseTo(2.04, 2);
    const widened = welchWidened(narrow, star, small, large, false, 0.95);
    expect((widened.ci[1] - 0.2) / sd).toBeCloseTo(studentQuantile(0.025, (satterthwaite + 2) / 2), 6);
    expect((widened.ci[1] - 0.2) / sd).toBeGreaterThan(studentQuantile(0.025, satterthwaite));
  });
});

describe("compare groups with sessions", () => {
  /** `sessions` sessions of one group, each making `per` decisions per framing with the given choices. */
  const sessionRows = (group: string, sessions: string[][]): ComparisonRow[] =>
    sessions.flatMap((choices, s) =>
      framings.flatMap((framing, f) =>
        choices.map((action) => ({
          group,
          game: "prisoners-dilemma",
          framing,
          action: f === 0 ? action : action === "cooperate" ? "defect" : "cooperate",
          count: 1,
          unit: `${group}-session-${s}`,
          position: null,
        })),
      ),
    );

  it("resamples a group's sessions when it has several, and its decisions when it has one", () => {
    const many = sessionRows("many", [
      ["cooperate", "cooperate", "defect"],
      ["defect", "defect", "cooperate"],
      ["cooperate", "defect", "defect"],
    ]);
    const one = sessionRows("one", [
      ["cooperate", "cooperate", "defect", "defect", "cooperate", "defect", "defect", "cooperate", "defect"],
    ]);
    const result = compareGroups([...many, ...one], options);
    expect(result.group_details.map((g) => [g.group, g.unit])).toEqual([
      ["many", "session"],
      ["one", "decision"],
    ]);
    // One session drawn whole would repeat its counts in every replicate: its interval would be a point.
    const rank = result.ranks.find((r) => r.group === "one");
    expect(rank?.ci[0]).toBeLessThan(rank?.ci[1] as number);
  });
});

describe("groupSample: an imported cell with sessions for some of its decisions", () => {
  it("draws each decision without a session as a unit of its own, so every decision is drawn", () => {
    const row = (framing: string, action: string, count: number, unit: string | null): ComparisonRow => ({
      group: "m",
      game: "prisoners-dilemma",
      framing,
      action,
      count,
      unit,
      position: null,
    });
    const sample = groupSample(
      "m",
      [
        row("business", "cooperate", 3, "s1"),
        row("business", "defect", 2, "s2"),
        row("business", "defect", 2, null),
        row("business", "cooperate", 1, null),
        // A cell without any session stays drawn by decision.
        row("friend-sharing", "cooperate", 4, null),
      ],
      () => ["cooperate", "defect"],
    );
    expect(sample.unit).toBe("session");
    const business = sample.strata.find((s) => s.kind === "units");
    // Two sessions (3 and 2 decisions) and three one-decision units: 8 decisions, 5 units.
    expect(business?.kind === "units" ? business.units.map((u) => u.map((e) => e.count)) : null).toEqual(
      expect.arrayContaining([[3], [2], [1], [1], [1]]),
    );
    expect(business?.kind === "units" ? business.units.length : 0).toBe(5);
    expect(sample.strata.filter((s) => s.kind !== "units")).toHaveLength(1);
  });
});
