// The test-inversion interval of R for games of three or more actions: its tails, its path of
// configurations, its design effects and its ends, each against numbers a reader can work by hand or an
// independent enumeration of every record.
import { describe, expect, it } from "vitest";
import type { CountCell } from "../../src/analysis/count-cells.js";
import {
  binomialCdf,
  MultiActionInversion,
  MultiActionTails,
  multiActionDesignEffects,
  RadiusClipPath,
  robustnessOfDistributions,
  smoothedDistribution,
  TiltPath,
  tiltedConfiguration,
  tiltedRates,
} from "../../src/analysis/robustness/multi-action-inversion.js";
import { robustnessAnalysis } from "../../src/analysis/robustness/robustness.js";
import { designEffects } from "../../src/analysis/robustness/robustness-inversion.js";
import { createBootstrapRng } from "../../src/analysis/sampling/fast-rng.js";
import { jensenShannon } from "../../src/domain/divergence.js";
import { framingSessions } from "../support/framing-sessions.js";

/** Multinomial(m, p) probabilities of every composition of m into p.length counts. */
function multinomial(m: number, p: readonly number[]): { counts: number[]; probability: number }[] {
  const out: { counts: number[]; probability: number }[] = [];
  const factorial = (j: number): number => (j <= 1 ? 1 : j * factorial(j - 1));
  const walk = (prefix: number[], left: number): void => {
    if (prefix.length === p.length - 1) {
      const counts = [...prefix, left];
      let probability = factorial(m);
      counts.forEach((x, a) => {
        probability *= (p[a] as number) ** x / factorial(x);
      });
      out.push({ counts, probability });
      return;
    }
    for (let x = 0; x <= left; x++) walk([...prefix, x], left - x);
  };
  walk([], m);
  return out;
}

/** Mid-p tails of R* over every record of two framings of m decisions each, summed independently. */
function enumeratedTails(m: number, rates: readonly (readonly number[])[], estimate: number) {
  const [a, b] = rates.map((p) => multinomial(m, p)) as [
    ReturnType<typeof multinomial>,
    ReturnType<typeof multinomial>,
  ];
  let above = 0;
  let below = 0;
  for (const x of a) {
    for (const y of b) {
      const p = x.probability * y.probability;
      const r = robustnessOfDistributions([x.counts.map((c) => c / m), y.counts.map((c) => c / m)]);
      const tie = Math.abs(r - estimate) <= 1e-12;
      if (r >= estimate - 1e-12) above += tie ? p / 2 : p;
      if (r <= estimate + 1e-12) below += tie ? p / 2 : p;
    }
  }
  return { above, below };
}

describe("the tails of R* for k-action framings", () => {
  it("are worked by hand for one decision per framing", () => {
    // One decision each: R* = 1 when both chose the same action, else 0 (disjoint supports: JSD = ln 2).
    // Observed R̂ = 0. At (.5, .3, .2) and (.2, .3, .5): P(same) = .1 + .09 + .1 = .29, so
    // P(R* ≥ 0) in mid-p form = .29 + ½·.71 = .645 and P(R* ≤ 0) = ½·.71 = .355.
    const tails = new MultiActionTails([1, 1], 3, 0, "hand");
    const { above, below } = tails.at([
      [0.5, 0.3, 0.2],
      [0.2, 0.3, 0.5],
    ]);
    expect(above).toBeCloseTo(0.645, 12);
    expect(below).toBeCloseTo(0.355, 12);
  });

  it("are estimated from simulated records beyond the exact limit, within Monte Carlo error of every record summed", () => {
    // 25 decisions each over 3 actions: 351² = 123,201 joint records, above the exact limit (20,000).
    const rates = [
      [0.6, 0.3, 0.1],
      [0.3, 0.3, 0.4],
    ];
    const estimate = robustnessOfDistributions([
      [15 / 25, 7 / 25, 3 / 25],
      [8 / 25, 8 / 25, 9 / 25],
    ]);
    const simulated = new MultiActionTails([25, 25], 3, estimate, "mc").at(rates);
    const exact = enumeratedTails(25, rates, estimate);
    // 4,000 records: a tail near ½ has a standard error of 0.008; 4 of them.
    expect(Math.abs(simulated.above - exact.above)).toBeLessThan(0.032);
    expect(Math.abs(simulated.below - exact.below)).toBeLessThan(0.032);
    expect(simulated.above + simulated.below).toBeGreaterThanOrEqual(1 - 1e-12);
  });
});

describe("the exponential-tilt path", () => {
  it("runs from the pooled distribution (t = 0) through the rates (t = 1) and beyond", () => {
    const rates = [[0.5, 0.25, 0.25]];
    const pooled = [0.25, 0.25, 0.5];
    expect(tiltedRates(rates, pooled, 0)[0]).toEqual(pooled.map((x) => expect.closeTo(x, 12)));
    expect(tiltedRates(rates, pooled, 1)[0]).toEqual(rates[0]?.map((x) => expect.closeTo(x, 12)));
    // t = 2: p²/pooled = (1, .25, .125), divided by 1.375 = (.72727, .18182, .09091).
    const [a, b, c] = tiltedRates(rates, pooled, 2)[0] as number[];
    expect(a).toBeCloseTo(1 / 1.375, 12);
    expect(b).toBeCloseTo(0.25 / 1.375, 12);
    expect(c).toBeCloseTo(0.125 / 1.375, 12);
  });

  it("places a configuration at any R it reaches, and stops at its lowest R", () => {
    const rates = [smoothedDistribution([4, 1, 0]), smoothedDistribution([1, 1, 3])];
    // (4, 1, 0) smoothed: (4.5, 1.5, .5)/6.5.
    expect(rates[0]?.[0]).toBeCloseTo(4.5 / 6.5, 12);
    const pooled = smoothedDistribution([5, 2, 3]);
    for (const r of [0.05, 0.5, 0.9, 0.999]) {
      expect(robustnessOfDistributions(tiltedConfiguration(rates, pooled, r))).toBeCloseTo(r, 9);
    }
    // (5, 0, 0) vs (0, 0, 5): the unchosen second action has smoothed mass .5/6.5 in each framing against
    // .5/11.5 pooled, a ratio of 11.5/6.5, the same as each framing's chosen action (5.5/6.5)/(5.5/11.5):
    // far along the path each framing keeps that action and its chosen one in equal parts, so the two
    // share the second action and R never reaches 0. The path's lowest R stands in for every r below it.
    const apart = new TiltPath(
      [smoothedDistribution([5, 0, 0]), smoothedDistribution([0, 0, 5])],
      smoothedDistribution([5, 0, 5]),
    );
    expect(apart.minimum).toBeGreaterThan(0);
    expect(apart.minimum).toBeLessThan(0.2);
    expect(robustnessOfDistributions(apart.at(0))).toBeCloseTo(apart.minimum, 12);
    expect(robustnessOfDistributions(apart.at(0.5))).toBeCloseTo(0.5, 9);
  });
});

describe("R of a set of distributions", () => {
  it("is the largest pairwise jensenShannon's, bit for bit, each framing's entropy summed once", () => {
    // 200 records of 2 to 11 framings over 3 to 6 actions from a seeded stream, counts of 1 to 30.
    const rng = createBootstrapRng("R of a simulated record");
    for (let record = 0; record < 200; record++) {
      const F = 2 + Math.floor(rng.next() * 10);
      const k = 3 + Math.floor(rng.next() * 4);
      const rates = Array.from({ length: F }, () => {
        const counts = Array.from({ length: k }, () => Math.floor(rng.next() * 30));
        const n = counts.reduce((s, x) => s + x, 0) || 1;
        return counts.map((x) => x / n);
      });
      // The plain definition: every pair's jensenShannon, the largest over ln 2.
      let max = 0;
      for (let f = 0; f < F; f++) {
        for (let g = f + 1; g < F; g++)
          max = Math.max(max, jensenShannon(rates[f] as number[], rates[g] as number[]));
      }
      expect(robustnessOfDistributions(rates)).toBe(1 - max / Math.LN2);
    }
  });
});

describe("the upper end's configurations (three or more actions)", () => {
  it("pull in only the framings beyond a JSD radius, so framings crowding an extreme stay together", () => {
    // Three framings at (30, 15, 5) and three at (5, 15, 30): R̂ = 1 − JSD/ln 2 of the two groups' shares.
    const counts = [
      [30, 15, 5],
      [30, 15, 5],
      [30, 15, 5],
      [5, 15, 30],
      [5, 15, 30],
      [6, 16, 28],
    ];
    const rates = counts.map(smoothedDistribution);
    const pooled = smoothedDistribution([106, 91, 103]);
    const path = new RadiusClipPath(rates, pooled);
    for (const r of [0.8, 0.9, 0.99]) {
      const at = path.at(r);
      expect(robustnessOfDistributions(at)).toBeCloseTo(r, 9);
      // The three identical framings stay identical (tilting all toward the pool would too); the
      // framing (6, 16, 28), nearer the pool than its group, is left where it is until the radius
      // reaches it, and then joins the others on it.
      expect(at[1]).toEqual(at[0]);
      expect(at[2]).toEqual(at[0]);
      const [jsd3, jsd4, jsd5] = [3, 4, 5].map((f) => jensenShannon(at[f] as number[], pooled));
      expect(jsd4).toBeCloseTo(jsd3 as number, 9);
      expect(jsd5 as number).toBeLessThanOrEqual((jsd3 as number) + 1e-12);
    }
    // Near R̂ the radius has not reached the inner framing: it keeps its own smoothed rates.
    const near = path.at(robustnessOfDistributions(rates) + 0.002);
    expect(near[5]).toEqual(rates[5]);
    // At R = 1 every framing is at the pooled distribution.
    for (const p of path.at(1)) expect(p).toEqual(pooled.map((x) => expect.closeTo(x, 9)));
  });
});

describe("the binomial tables of the simulated tails", () => {
  it("hold Binomial(m, q)'s CDF over the counts that carry its mass", () => {
    // Binomial(10, .3): P(X ≤ 2) = .7¹⁰ + 10·.3·.7⁹ + 45·.09·.7⁸ = 0.3827828, P(X ≤ 3) = 0.6496107; every
    // count is within e⁻⁴² of the mode's probability, so the table runs from 0 to 10.
    const small = binomialCdf(10, 0.3);
    expect(small.from).toBe(0);
    expect(small.values.length).toBe(11);
    expect(small.values[2]).toBeCloseTo(0.3827828, 7);
    expect(small.values[3]).toBeCloseTo(0.6496107, 7);
    expect(small.values[10]).toBe(1);
    // A million decisions: SD √(10⁶·.3·.7) = 458, and e⁻⁴² is reached about √84 = 9.2 SD either side of
    // the mode, so some 8,400 counts, not a million; half the mass lies at or below the mean 300,000.
    const large = binomialCdf(1_000_000, 0.3);
    expect(large.values.length).toBeGreaterThan(8_000);
    expect(large.values.length).toBeLessThan(9_000);
    expect(large.values[300_000 - large.from]).toBeCloseTo(0.5, 1);
    expect(binomialCdf(7, 0)).toEqual({ from: 0, values: Float64Array.of(1) });
    expect(binomialCdf(7, 1)).toEqual({ from: 7, values: Float64Array.of(1) });
  });

  it("give framings of thousands of decisions the test-inversion interval, crowded extremes included", () => {
    // Three framings near (.6, .3, .1) and three near (.1, .3, .6), 2,500 decisions each, R̂ = 0.6867
    // below the groups' R = 1 − JSD((.6, .3, .1), (.1, .3, .6))/ln 2 = 0.7142 as crowded extremes make
    // it. The bootstrap interval these framings got before (more than 2,000 decisions) ended at 0.7088;
    // the inversion's upper end reaches past the groups' R.
    const counts = [
      [1525, 750, 225],
      [1500, 750, 250],
      [1495, 755, 250],
      [240, 755, 1505],
      [250, 750, 1500],
      [225, 745, 1530],
    ];
    const truth = robustnessOfDistributions([
      [0.6, 0.3, 0.1],
      [0.1, 0.3, 0.6],
    ]);
    expect(truth).toBeCloseTo(0.7142, 4);
    const actions = ["a1", "a2", "a3"];
    const result = robustnessAnalysis(
      counts.map((c, f) => ({
        player: "m",
        game: "g",
        framing: `f${f}`,
        counts: Object.fromEntries(c.map((x, a) => [actions[a] as string, x])),
      })),
      { cooperativeAction: { g: null }, actions: { g: actions }, bootstrap: 2_000, seed: 1 },
    );
    const R = result.games[0]?.R;
    expect(R?.estimate).toBeCloseTo(0.6867, 4);
    expect(R?.ci[1]).toBeGreaterThan(truth);
    expect(R?.ci[1]).toBeLessThan(0.73);
  });
});

describe("design effects of k-action sessions", () => {
  it("are 1 + (m̃ − 1)ρ̂ worked by hand: sessions that each chose one action give ρ̂ = 1", () => {
    // Every session of 2 decisions chose one action twice: no variation within sessions, so ρ̂ = 1 and
    // deff = 1 + (2 − 1)·1 = 2 in both framings.
    const framings = [
      {
        counts: [2, 2, 0],
        sessions: [
          { counts: [2, 0, 0], weight: 1 },
          { counts: [0, 2, 0], weight: 1 },
        ],
      },
      {
        counts: [2, 0, 2],
        sessions: [
          { counts: [0, 0, 2], weight: 1 },
          { counts: [2, 0, 0], weight: 1 },
        ],
      },
    ];
    expect(multiActionDesignEffects(framings)).toEqual([2, 2]);
    // Without sessions: 1.
    expect(multiActionDesignEffects(framings.map((f) => ({ counts: f.counts })))).toEqual([1, 1]);
  });

  it("agree with the two-action design effects on a two-action record", () => {
    const sessions = [
      [
        [3, 1],
        [0, 4],
        [2, 2],
      ],
      [
        [1, 0],
        [1, 0],
        [0, 1],
        [5, 7],
      ],
    ];
    const binary = designEffects(
      sessions.map((list) => ({
        x: list.reduce((s, c) => s + (c[0] as number), 0),
        n: list.reduce((s, c) => s + (c[0] as number) + (c[1] as number), 0),
        sessions: framingSessions(
          list.map((c) => ({ x: c[0] as number, n: (c[0] as number) + (c[1] as number), weight: 1 })),
        ),
      })),
    );
    const k = multiActionDesignEffects(
      sessions.map((list) => ({
        counts: [0, 1].map((a) => list.reduce((s, c) => s + (c[a] as number), 0)),
        sessions: list.map((c) => ({ counts: c, weight: 1 })),
      })),
    );
    expect(binary.some((d) => d > 1)).toBe(true);
    k.forEach((d, f) => {
      expect(d).toBeCloseTo(binary[f] as number, 12);
    });
  });
});

describe("the test-inversion interval of R (three or more actions)", () => {
  it("places the upper end of two framings that each chose one action where its tail is at the level", () => {
    // (5, 0, 0) vs (0, 0, 5): R̂ = 0 and R* ≤ 0 exactly when the two framings' supports are disjoint, so
    // P_r(R* ≤ R̂) in mid-p form is ½·P(disjoint). The bootstrap of this record repeats it in every
    // replicate; the inversion asks which R would make it unsurprising.
    const framings = [{ counts: [5, 0, 0] }, { counts: [0, 0, 5] }];
    const inversion = new MultiActionInversion(framings, 0.95);
    expect(inversion.estimate).toBe(0);
    const upper = inversion.upperEnd(true, 0.5);
    const rates = framings.map((f) => smoothedDistribution(f.counts));
    const pooled = smoothedDistribution([5, 0, 5]);
    const path = new RadiusClipPath(rates, pooled);
    const tailAt = (r: number): number => enumeratedTails(5, path.at(r), 0).below;
    // At R = 1 (both at the pooled (5.5, .5, 5.5)/11.5) disjoint supports are rare: the tail is below
    // α/2, so the end is where it crosses α/2.
    expect(tailAt(1)).toBeLessThan(0.025);
    expect(upper).toBeGreaterThan(0.5);
    expect(upper).toBeLessThan(1);
    expect(tailAt(upper)).toBeCloseTo(0.025, 3);
    expect(inversion.upperEnd(false, 0.5)).toBe(1);
  });

  it("places the lower end of a record where its tail above is α/2, an independent sum of every record", () => {
    const framings = [{ counts: [4, 1, 0] }, { counts: [1, 1, 3] }];
    const inversion = new MultiActionInversion(framings, 0.95);
    const lower = inversion.lowerEnd(0.2);
    const rates = framings.map((f) => smoothedDistribution(f.counts));
    const pooled = smoothedDistribution([5, 2, 3]);
    expect(lower).toBeLessThan(inversion.estimate);
    expect(lower).toBeGreaterThan(0);
    const above = enumeratedTails(5, tiltedConfiguration(rates, pooled, lower), inversion.estimate).above;
    expect(above).toBeCloseTo(0.025, 3);
  });

  it("keeps the bootstrap's lower end where it is lower, with three framings only", () => {
    // A small framing observed between two others may be the true extreme, which the path (pulling the
    // observed extremes apart) does not consider: the bootstrap's end (here the guess, 0.01) is kept.
    const three = [{ counts: [4, 1, 0] }, { counts: [2, 2, 1] }, { counts: [1, 1, 3] }];
    expect(new MultiActionInversion(three, 0.95).lowerEnd(0.01)).toBe(0.01);
    const two = new MultiActionInversion([{ counts: [4, 1, 0] }, { counts: [1, 1, 3] }], 0.95);
    expect(two.lowerEnd(0.01)).toBeGreaterThan(0.01);
  });

  it("gives a deterministic agent of three actions an interval that is not a point", () => {
    const cells = ["f0", "f1"].map((framing) => ({ player: "m", game: "g", framing, counts: { a1: 20 } }));
    const result = robustnessAnalysis(cells, {
      cooperativeAction: { g: null },
      actions: { g: ["a1", "a2", "a3"] },
      bootstrap: 400,
    });
    const [lower, upper] = (result.games[0] as (typeof result.games)[number]).R.ci;
    expect(upper).toBe(1);
    expect(lower).toBeLessThan(0.99);
    expect(lower).toBeGreaterThan(0.8);
  });

  it("reaches robustnessAnalysis for a record that rejects invariance: the upper end leaves R̂", () => {
    const cells: CountCell[] = [
      { player: "m", game: "g", framing: "f0", counts: { a1: 5 } },
      { player: "m", game: "g", framing: "f1", counts: { a3: 5 } },
    ];
    const result = robustnessAnalysis(cells, {
      cooperativeAction: { g: null },
      actions: { g: ["a1", "a2", "a3"] },
      bootstrap: 2000,
      seed: 1,
    });
    const game = result.games[0];
    expect(game?.invariance.p_value).toBeLessThan(0.05);
    const direct = new MultiActionInversion([{ counts: [5, 0, 0] }, { counts: [0, 0, 5] }], 0.95);
    expect(game?.R.ci).toEqual([0, expect.closeTo(direct.upperEnd(true, 0.5), 3)]);
  });
});

describe("the lower end when every framing chose the same one action every time (three actions)", () => {
  // A framing's JSD to the vertex (1, 0, 0) depends only on its rate a of the first action, as for two
  // actions: the configuration with R = r under which "every framing chose it all n times" is most
  // probable has one framing at a and the others on the vertex, the record then a^n (a mid-p tail of
  // a^n/2), so the lower end is the two-action one, R of (a, 1) at a = 0.05^(1/n) — 0.145 at n = 1,
  // 0.575 at 3, 0.857 at 10 — whatever the number of framings. It was the bootstrap's: [0.963, 1] for 6
  // framings of one decision and [0.424, 1] for 6 of three.
  const expected = (n: number): number =>
    1 - jensenShannon([0.05 ** (1 / n), 1 - 0.05 ** (1 / n)], [1, 0]) / Math.LN2;

  it("is where one deviant framing would leave the record an α/2 tail, and falls with the evidence", () => {
    for (const framings of [2, 6, 11]) {
      const lowers = [1, 3, 10].map((n) => {
        const lower = new MultiActionInversion(
          Array.from({ length: framings }, () => ({ counts: [n, 0, 0] })),
          0.95,
        ).lowerEnd(0.5);
        expect(lower, `${framings} framings of ${n}`).toBeCloseTo(expected(n), 3);
        return lower;
      });
      expect(lowers[1]).toBeGreaterThan(lowers[0] as number);
      expect(lowers[2]).toBeGreaterThan(lowers[1] as number);
    }
    expect(expected(3)).toBeCloseTo(0.575, 3);
  });
});
