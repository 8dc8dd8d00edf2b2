import { describe, expect, it } from "vitest";
import { ExtremePairTails } from "../../src/analysis/robustness/extreme-pair-tails.js";
import { robustnessAnalysis } from "../../src/analysis/robustness/robustness.js";
import {
  clippedRates,
  designEffects,
  type InversionFraming,
  RobustnessInversion,
  robustnessOf,
  smoothed,
  stretchedRates,
} from "../../src/analysis/robustness/robustness-inversion.js";
import { createBootstrapRng } from "../../src/analysis/sampling/fast-rng.js";
import { framingSessions } from "../support/framing-sessions.js";

/** Both ends of the interval, as robustnessAnalysis places them (guess: where each search starts). */
function invertRobustness(
  framings: readonly InversionFraming[],
  confidence: number,
  rejectsInvariance: boolean,
  guess: readonly [number, number],
): [number, number] {
  const inversion = new RobustnessInversion(framings, confidence);
  return [inversion.lowerEnd(guess[0]), inversion.upperEnd(rejectsInvariance, guess[1])];
}

/** Binomial(n, q) probabilities at 0..n. */
function pmf(n: number, q: number): number[] {
  const out: number[] = [];
  let choose = 1;
  for (let j = 0; j <= n; j++) {
    out.push(choose * q ** j * (1 - q) ** (n - j));
    choose = (choose * (n - j)) / (j + 1);
  }
  return out;
}

/** Exact mid-p tails of R* for two framings of n at the given rates, by summing over all (n + 1)² records. */
function exactTails(n: number, rates: readonly number[], estimate: number): { above: number; below: number } {
  const [a, b] = rates.map((q) => pmf(n, q)) as [number[], number[]];
  let above = 0;
  let below = 0;
  for (let i = 0; i <= n; i++) {
    for (let j = 0; j <= n; j++) {
      const p = (a[i] as number) * (b[j] as number);
      const r = robustnessOf([i / n, j / n]);
      const tie = Math.abs(r - estimate) <= 1e-12;
      if (r >= estimate - 1e-12) above += tie ? p / 2 : p;
      if (r <= estimate + 1e-12) below += tie ? p / 2 : p;
    }
  }
  return { above, below };
}

describe("the test-inversion interval of R (two actions)", () => {
  // 3 of 30 vs 12 of 30: rates .1 and .4, JSD = H(.25) − (H(.1) + H(.4))/2 = 0.56233 − (0.32508 + 0.67301)/2
  // = 0.06329 nats, so R̂ = 1 − 0.06329/ln 2 = 0.90869.
  const x = [3, 12];
  const n = [30, 30];
  const framings = x.map((c, f) => ({ x: c, n: n[f] as number }));
  const estimate = robustnessOf([0.1, 0.4]);
  const [lower, upper] = invertRobustness(framings, 0.95, true, [0.8, 0.99]);

  it("starts from the plug-in R", () => {
    expect(estimate).toBeCloseTo(0.90869, 4);
    expect(lower).toBeLessThan(estimate);
    expect(upper).toBeGreaterThan(estimate);
    expect(upper).toBeLessThan(1);
  });

  it("puts each end where the exact tail probability of the observed R is α/2", () => {
    // Enumeration of all 31² records, independent of the tails the interval was searched with: at the
    // lower end the restricted configuration makes R* ≥ R̂ a 2.5% event, at the upper end R* ≤ R̂ one,
    // to within the search's tolerance (5·10⁻⁴ on √(1 − R), a few 10⁻⁴ of tail here).
    const rates = x.map((c, f) => smoothed(c, n[f] as number));
    const atLower = exactTails(30, stretchedRates(x, n, rates, lower), estimate);
    expect(atLower.above).toBeGreaterThan(0.024);
    expect(atLower.above).toBeLessThan(0.026);
    const atUpper = exactTails(30, clippedRates(x, n, rates, upper), estimate);
    expect(atUpper.below).toBeGreaterThan(0.024);
    expect(atUpper.below).toBeLessThan(0.026);
    // And a wider end would not be an end: 0.02 further out the tails are well below α/2.
    expect(exactTails(30, stretchedRates(x, n, rates, lower - 0.02), estimate).above).toBeLessThan(0.015);
    expect(exactTails(30, clippedRates(x, n, rates, upper + 0.02), estimate).below).toBeLessThan(0.015);
  });

  it("reaches R = 1 exactly when the permutation test does not reject invariance", () => {
    const [lo, hi] = invertRobustness(framings, 0.95, false, [0.8, 0.99]);
    expect(hi).toBe(1);
    expect(lo).toBe(lower);
  });

  it("configurations on both paths have the R they were asked for", () => {
    const rates = [smoothed(3, 30), smoothed(12, 30), smoothed(7, 30)];
    expect(robustnessOf(stretchedRates([3, 12, 7], [30, 30, 30], rates, 0.7))).toBeCloseTo(0.7, 9);
    expect(robustnessOf(clippedRates([3, 12, 7], [30, 30, 30], rates, 0.97))).toBeCloseTo(0.97, 9);
  });

  it("pulls the extremes apart to the most likely pair on the curve JSD = (1 − R)·ln 2", () => {
    // Brute force on a grid of the lower rate a, the partner b by bisection on JSD(a, b) = c, the
    // Jeffreys-smoothed log-likelihood of the counts at a and b. Two records: 3 vs 12 of 30, and one
    // whose higher framing is near 1 (245 vs 299 of 300), where the curve ends before a reaches the
    // lower rate (no partner below 1 is far enough) and the optimum is not at that end.
    for (const [xs, ns, r] of [
      [[3, 12], [30, 30], 0.8],
      [[245, 299], [300, 300], 0.85],
    ] as [number[], number[], number][]) {
      const rates = xs.map((c, f) => smoothed(c, ns[f] as number));
      const partner = (a: number): number => {
        let lo = a;
        let hi = 1 - 1e-12;
        if (1 - robustnessOf([a, hi]) < 1 - r) return Number.NaN;
        for (let i = 0; i < 200; i++) {
          const mid = (lo + hi) / 2;
          if (1 - robustnessOf([a, mid]) < 1 - r) lo = mid;
          else hi = mid;
        }
        return (lo + hi) / 2;
      };
      const [x0, x1] = xs as [number, number];
      const [n0, n1] = ns as [number, number];
      const score = (a: number, b: number): number =>
        (x0 + 0.5) * Math.log(a) +
        (n0 - x0 + 0.5) * Math.log(1 - a) +
        (x1 + 0.5) * Math.log(b) +
        (n1 - x1 + 0.5) * Math.log(1 - b);
      let best = { a: 0, score: -Infinity };
      for (let a = 1e-4; a < (rates[0] as number); a += 1e-4) {
        const b = partner(a);
        if (Number.isNaN(b)) continue;
        const v = score(a, b);
        if (v > best.score) best = { a, score: v };
      }
      const [a, b] = stretchedRates(xs, ns, rates, r) as [number, number];
      expect(robustnessOf([a, b])).toBeCloseTo(r, 9);
      expect(a).toBeCloseTo(best.a, 3);
      expect(score(a, b)).toBeGreaterThanOrEqual(best.score - 1e-9);
    }
  });

  it("picks the most likely pair of several framings, a small middle framing among them", () => {
    // Brute force over every pair (low, high) with rate_low ≤ rate_high: a on a grid of 10⁻⁴, the partner
    // by bisection, the other framings clipped into [a, b], the Jeffreys-smoothed log-likelihood of every
    // framing's counts. Framing 3 (1 of 3) sits between the observed extremes 2/30 and 14/30 but costs
    // little to move, so at R = 0.6 it is pulled up as the partner of framing 0: the pair the search must
    // find although the observed extremes are searched first and most other pairs are ruled out unsearched.
    const xs = [2, 14, 8, 1];
    const ns = [30, 30, 30, 3];
    const r = 0.6;
    const rates = xs.map((c, f) => smoothed(c, ns[f] as number));
    const ll = (f: number, q: number): number =>
      ((xs[f] as number) + 0.5) * Math.log(q) +
      ((ns[f] as number) - (xs[f] as number) + 0.5) * Math.log(1 - q);
    const partner = (a: number): number => {
      let lo = a;
      let hi = 1 - 1e-12;
      if (1 - robustnessOf([a, hi]) < 1 - r) return Number.NaN;
      for (let i = 0; i < 100; i++) {
        const mid = (lo + hi) / 2;
        if (1 - robustnessOf([a, mid]) < 1 - r) lo = mid;
        else hi = mid;
      }
      return (lo + hi) / 2;
    };
    let best = { low: -1, high: -1, score: -Infinity };
    for (let low = 0; low < 4; low++) {
      for (let high = 0; high < 4; high++) {
        if (low === high || (rates[low] as number) > (rates[high] as number)) continue;
        for (let a = 1e-4; a < (rates[low] as number); a += 1e-4) {
          const b = partner(a);
          if (Number.isNaN(b)) continue;
          let score = ll(low, a) + ll(high, b);
          for (let f = 0; f < 4; f++) {
            if (f !== low && f !== high) score += ll(f, Math.min(b, Math.max(a, rates[f] as number)));
          }
          if (score > best.score) best = { low, high, score };
        }
      }
    }
    expect([best.low, best.high]).toEqual([0, 3]);
    const found = stretchedRates(xs, ns, rates, r);
    expect(robustnessOf(found)).toBeCloseTo(r, 9);
    // Framing 3 is the pulled-up extreme: the largest rate, above the others' own (clipped) rates.
    expect(Math.max(...found)).toBe(found[3]);
    expect(found[3]).toBeGreaterThan(rates[1] as number);
    const score = found.reduce((sum, q, f) => sum + ll(f, q), 0);
    expect(score).toBeGreaterThanOrEqual(best.score - 1e-9);
  });

  it("brings the framings together for the upper end by clipping them into the most likely band", () => {
    // 3, 4, 12 and 13 of 30 (two framings at each extreme), R̂ = 0.889; at r = 0.95 > R̂ the band
    // [a, b] with JSD(a, b) = 0.05·ln 2 is placed, by brute force on a grid of 10⁻⁴ with the partner by
    // bisection, where the Jeffreys-smoothed log-likelihood of all four framings clipped into it is
    // largest. Both low framings end on the lower edge and both high ones on the upper edge: the crowding
    // at the extremes that shrinking every framing toward the pooled rate would have spread apart.
    const xs = [3, 4, 12, 13];
    const ns = [30, 30, 30, 30];
    const r = 0.95;
    const rates = xs.map((c, f) => smoothed(c, ns[f] as number));
    const ll = (q: readonly number[]): number =>
      q.reduce(
        (sum, v, f) =>
          sum +
          ((xs[f] as number) + 0.5) * Math.log(v) +
          ((ns[f] as number) - (xs[f] as number) + 0.5) * Math.log(1 - v),
        0,
      );
    const partner = (a: number): number => {
      let lo = a;
      let hi = 1 - 1e-12;
      for (let i = 0; i < 100; i++) {
        const mid = (lo + hi) / 2;
        if (1 - robustnessOf([a, mid]) < 1 - r) lo = mid;
        else hi = mid;
      }
      return (lo + hi) / 2;
    };
    let best = { a: 0, score: -Infinity };
    for (let a = 0.05; a < 0.5; a += 1e-4) {
      const b = partner(a);
      const score = ll(rates.map((p) => Math.min(b, Math.max(a, p))));
      if (score > best.score) best = { a, score };
    }
    const found = clippedRates(xs, ns, rates, r);
    expect(robustnessOf(found)).toBeCloseTo(r, 9);
    expect(found[0]).toBeCloseTo(best.a, 3);
    expect(found[1]).toBe(found[0]);
    expect(found[3]).toBe(found[2]);
    expect(ll(found)).toBeGreaterThanOrEqual(best.score - 1e-9);
    // At r = 1 the band is a point: every framing at the most likely common rate, (32 + 2)/(120 + 4).
    expect(clippedRates(xs, ns, rates, 1)).toEqual([34 / 124, 34 / 124, 34 / 124, 34 / 124]);
  });

  it("covers the true R from above when framings crowd both extremes (6 at .2, 5 at .8)", () => {
    // 400 seeded records of 11 framings × 30 decisions, true R = 1 − JSD(.2, .8)/ln 2 = 0.72193. The upper
    // end should fall below the truth in about α/2 = 2.5% of them (Monte Carlo SE 0.8 points); on the
    // logit path that shrank every framing toward the pooled rate it did in 18%, because that path spreads
    // the crowded framings inside and so makes R* less biased than the truth's is.
    const truth = robustnessOf([0.2, 0.8]);
    expect(truth).toBeCloseTo(0.72193, 5);
    const rng = createBootstrapRng("upper end, two crowded extremes");
    const p = [...Array(6).fill(0.2), ...Array(5).fill(0.8)] as number[];
    let missed = 0;
    const records = 400;
    for (let s = 0; s < records; s++) {
      const framings = p.map((q) => {
        let x = 0;
        for (let i = 0; i < 30; i++) if (rng.next() < q) x++;
        return { x, n: 30 };
      });
      const inversion = new RobustnessInversion(framings, 0.95);
      if (inversion.upperEnd(true, Math.min(0.99, inversion.estimate + 0.05)) < truth) missed++;
    }
    expect(missed / records).toBeLessThan(0.06);
  });

  it("keeps R = r near rate 1, where no partner below 1 is far enough for a lower rate close to 1", () => {
    // 290 vs 300 of 300: R̂ = 0.983. At r = 0.7 a lower rate above ~0.93 has no partner below 1 at
    // JSD (1 − r)·ln 2; searched there anyway, the partner stopped at 1 − 10⁻¹² and the configuration had
    // R = 0.982, far from r, with a larger likelihood than any true one; the tail was then that of R̂
    // itself at every r, and the lower end came out 0.
    const x = [300, 290];
    const n = [300, 300];
    const rates = x.map((c, f) => smoothed(c, n[f] as number));
    for (const r of [0.8, 0.7, 0.5]) expect(robustnessOf(stretchedRates(x, n, rates, r))).toBeCloseTo(r, 9);
    const inversion = new RobustnessInversion(
      x.map((c, f) => ({ x: c, n: n[f] as number })),
      0.95,
    );
    const lower = inversion.lowerEnd(inversion.estimate - 0.05);
    expect(lower).toBeGreaterThan(0.95);
    expect(lower).toBeLessThan(inversion.estimate);
  });

  it("counts sessions by each framing's own design effect", () => {
    // Four sessions of 10 at 0, 10, 0, 10 (rate ½): between-session sum Σ 10·(0 or 1 − ½)² = 10 over 3
    // degrees of freedom, no variation within a session, m₀ = (40 − 400/40)/3 = 10, so ρ̂ = 1 and
    // deff = 1 + (10 − 1)·1 = 10. Independent decisions (no sessions) keep deff 1.
    const sessions = framingSessions([0, 10, 0, 10].map((c) => ({ x: c, n: 10, weight: 1 })));
    expect(
      designEffects([
        { x: 20, n: 40, sessions },
        { x: 3, n: 30 },
      ]),
    ).toEqual([10, 1]);
    // Sessions as alike as binomial draws can be never make the effect below 1.
    const even = framingSessions([5, 5, 5, 5].map((c) => ({ x: c, n: 10, weight: 1 })));
    expect(designEffects([{ x: 20, n: 40, sessions: even }])).toEqual([1]);
  });

  it("leaves a framing of one-decision sessions at deff 1 beside a framing of long correlated sessions", () => {
    // Framing a: 300 sessions of one decision (150 cooperate); framing b: 10 sessions of 30, five at 6
    // and five at 24 (rate ½, strongly correlated). One pooled effect would divide a's 300 decisions too.
    const a = {
      x: 150,
      n: 300,
      sessions: framingSessions([
        { x: 1, n: 1, weight: 150 },
        { x: 0, n: 1, weight: 150 },
      ]),
    };
    const b = {
      x: 150,
      n: 300,
      sessions: framingSessions([
        { x: 6, n: 30, weight: 5 },
        { x: 24, n: 30, weight: 5 },
      ]),
    };
    const [deffA, deffB] = designEffects([a, b]) as [number, number];
    expect(deffA).toBe(1);
    // b's m̃ = 30: deff = 1 + 29·ρ̂ with ρ̂ the pooled ANOVA estimate, well above 1.
    expect(deffB).toBeGreaterThan(5);
    expect(deffB).toBeLessThanOrEqual(30);
  });
});

describe("robustnessAnalysis and the inversion interval", () => {
  const cell = (framing: string, cooperate: number, defect: number) => ({
    player: "m",
    game: "pd",
    framing,
    counts: { cooperate, defect },
  });
  const cells = [cell("a", 3, 27), cell("b", 12, 18)];
  const options = { cooperativeAction: { pd: "cooperate" }, bootstrap: 2000, seed: 5 };

  it("reports the test-inversion interval for a two-action game, attenuated like R", () => {
    const result = robustnessAnalysis(cells, options);
    const game = result.games[0];
    const [lo, hi] = invertRobustness(
      [
        { x: 3, n: 30 },
        { x: 12, n: 30 },
      ],
      0.95,
      (game?.invariance.p_value ?? 1) <= 0.05,
      [0.8, 0.99],
    );
    // The search starts elsewhere (at the bootstrap's ends), so the ends agree to its tolerance.
    expect(game?.R.ci[0]).toBeCloseTo(lo, 2);
    expect(game?.R.ci[1]).toBeCloseTo(hi, 2);
    expect(result.interval_method).toMatch(/^R and R2 of a two-action game .*: test inversion/);
    const halved = robustnessAnalysis(cells, { ...options, attenuation: 0.5 }).games[0];
    expect(halved?.R.ci[0]).toBeCloseTo(1 - 0.5 * (1 - (game?.R.ci[0] ?? 0)), 9);
    expect(halved?.R.ci[1]).toBeCloseTo(1 - 0.5 * (1 - (game?.R.ci[1] ?? 0)), 9);
  });
});

/** R of a framing at rate a beside one at 1: 1 − JSD(a, 1)/ln 2. */
function robustnessBesideOne(a: number): number {
  return robustnessOf([a, 1]);
}

describe("the lower end when framings chose one action every time", () => {
  // Every framing cooperated n times out of n. The configuration with R = r under which that record is
  // most probable has one framing at the rate a with JSD(a, 1) = (1 − r)·ln 2 and every other at 1: the
  // record then has probability a^n (a mid-p tail of a^n/2), whatever the number of framings. So the
  // lower end is R at a = 0.05^(1/n): 0.145 at n = 1, 0.667 at 4, 0.857 at 10, 0.927 at 20 — for 2 framings
  // as for 11, and falling as the decisions do.
  const expected = (n: number): number => robustnessBesideOne(0.05 ** (1 / n));

  it("is where one deviant framing would leave the record an α/2 tail, for 2 to 11 framings", () => {
    for (const framings of [2, 3, 6, 11]) {
      const lowers = [1, 2, 4, 10, 20].map((n) => {
        const lower = new RobustnessInversion(
          Array.from({ length: framings }, () => ({ x: n, n })),
          0.95,
        ).lowerEnd(0.5);
        expect(lower, `${framings} framings of ${n}`).toBeCloseTo(expected(n), 3);
        return lower;
      });
      // Fewer decisions, less evidence: a lower end that falls with n.
      for (let i = 1; i < lowers.length; i++) expect(lowers[i]).toBeGreaterThan(lowers[i - 1] as number);
    }
    expect(expected(10)).toBeCloseTo(0.8566, 4);
    // Never cooperating is the same record with the actions' names swapped.
    const never = new RobustnessInversion(
      Array.from({ length: 11 }, () => ({ x: 0, n: 10 })),
      0.95,
    ).lowerEnd(0.5);
    expect(never).toBeCloseTo(expected(10), 3);
  });

  it("covers R at 95% or more when all framings but one never deviate (exact, over every record)", () => {
    // 11 framings of 10 decisions: 10 always cooperate, the last cooperates x times, x = 0..10. The
    // interval of each record from robustnessAnalysis; its coverage at rate p the binomial probability of
    // the records whose interval holds R(p) = R of (p, 1). At p = .95 (R = .9745) the all-cooperating
    // record (59.9% of records) must hold R: its interval was [0.985, 1] (40.1% coverage); at p = .74, the
    // largest rate whose R lies below that record's lower end, the record is 4.9% of records.
    const F = Array.from({ length: 11 }, (_, f) => `f${String(f).padStart(2, "0")}`);
    const cells = Array.from({ length: 11 }, (_, x) =>
      F.map((framing, f) => {
        const counts: Record<string, number> = f < 10 ? { C: 10 } : { C: x, D: 10 - x };
        return { player: `x${String(x).padStart(2, "0")}`, game: "pd", framing, counts };
      }),
    ).flat();
    const result = robustnessAnalysis(cells, {
      cooperativeAction: { pd: "C" },
      actions: { pd: ["C", "D"] },
      bootstrap: 200,
    });
    const intervals = result.games.map((g) => g.R.ci);
    const coverage = (p: number): number => {
      const truth = robustnessBesideOne(p);
      let covered = 0;
      let choose = 1;
      for (let x = 0; x <= 10; x++) {
        const [lo, hi] = intervals[x] as readonly [number, number];
        if (lo <= truth && truth <= hi) covered += choose * p ** x * (1 - p) ** (10 - x);
        choose = (choose * (10 - x)) / (x + 1);
      }
      return covered;
    };
    for (const p of [0.7, 0.74, 0.8, 0.9, 0.95, 0.98, 0.99])
      expect(coverage(p), `p = ${p}`).toBeGreaterThan(0.949);
  });
});

describe("exact tails of R* over the extreme framings", () => {
  /** Brute force: every record of framings of the given sizes, its R* against R̂ (mid-p). */
  function enumerated(sizes: readonly number[], rates: readonly number[], estimate: number) {
    const pmfs = sizes.map((m, f) => pmf(m, rates[f] as number));
    let above = 0;
    let below = 0;
    const visit = (f: number, counts: number[], p: number): void => {
      if (f === sizes.length) {
        const r = robustnessOf(counts.map((c, g) => c / (sizes[g] as number)));
        const tie = Math.abs(r - estimate) <= 1e-12;
        if (r >= estimate - 1e-12) above += tie ? p / 2 : p;
        if (r <= estimate + 1e-12) below += tie ? p / 2 : p;
        return;
      }
      for (let c = 0; c <= (sizes[f] as number); c++) {
        visit(f + 1, [...counts, c], p * ((pmfs[f] as number[])[c] as number));
      }
    };
    visit(0, [], 1);
    return { above, below };
  }

  it("equal the sum over every record, for framings of different sizes (ties included)", () => {
    // Sizes 4, 6 and 3 share rates (1/2 = 2/4 = 3/6, 1/3 = 2/6): ties across sizes must count once.
    const sizes = [4, 6, 3];
    const estimate = robustnessOf([1 / 4, 1 / 2, 2 / 3]);
    const tails = new ExtremePairTails(sizes, (1 - estimate) * Math.LN2);
    for (const rates of [
      [0.2, 0.5, 0.7],
      [0.5, 0.5, 0.5],
      [0.05, 0.9, 0.3],
    ]) {
      const exact = enumerated(sizes, rates, estimate);
      const got = tails.at(rates);
      expect(got.above).toBeCloseTo(exact.above, 12);
      expect(got.below).toBeCloseTo(exact.below, 12);
    }
  });

  it("match the two-framing enumeration at n 30", () => {
    const estimate = robustnessOf([0.1, 0.4]);
    const tails = new ExtremePairTails([30, 30], (1 - estimate) * Math.LN2);
    const exact = exactTails(30, [0.15, 0.35], estimate);
    expect(tails.at([0.15, 0.35]).above).toBeCloseTo(exact.above, 12);
    expect(tails.at([0.15, 0.35]).below).toBeCloseTo(exact.below, 12);
  });

  it("draw certain outcomes at rates 0 and 1 (every record ties R̂ = 0: mid-p ½ and ½)", () => {
    const tails = new ExtremePairTails([30, 30], Math.LN2);
    expect(tails.at([0, 1])).toEqual({ above: 0.5, below: 0.5 });
    // At ½ and ½ only the records 0 vs 30 and 30 vs 0 (probability 2⁻⁵⁹) are as far apart as R̂.
    expect(tails.at([0.5, 0.5]).above).toBeCloseTo(1, 12);
    expect(tails.at([0.5, 0.5]).below).toBeLessThan(1e-15);
  });
});
