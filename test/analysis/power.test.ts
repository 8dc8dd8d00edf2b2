import { describe, expect, it } from "vitest";
import { exactInvariancePower } from "../../src/analysis/power/exact-invariance-power.js";
import {
  expectedR2HalfWidth,
  powerAnalysis,
  trialsToDetectShift,
  trialsToExcludeInvariance,
} from "../../src/analysis/power/power.js";
import { normalQuantile } from "../../src/analysis/sampling/normal-quantile.js";
import { jensenShannon } from "../../src/domain/divergence.js";

describe("normalQuantile", () => {
  it("reproduces tabulated quantiles", () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 6);
    expect(normalQuantile(0.8)).toBeCloseTo(0.841621, 6);
    expect(normalQuantile(0.5)).toBe(0);
    expect(normalQuantile(0.001)).toBeCloseTo(-3.090232, 6); // lower-tail branch
    expect(normalQuantile(0.999)).toBeCloseTo(3.090232, 6);
    expect(() => normalQuantile(1)).toThrow(/Probability 1/);
  });
});

describe("trialsToDetectShift", () => {
  it("gives 388 per framing for p = 0.5, δ = 0.1 at α = 0.05, power 0.8", () => {
    // p₁ = 0.5, p₂ = 0.6, p̄ = 0.55: 1.959964·√(2·0.55·0.45) = 1.959964·0.703562 = 1.378956;
    // 0.841621·√(0.25 + 0.24) = 0.841621·0.7 = 0.589135; (1.968091)² / 0.01 = 387.34 → 388.
    // (The often-quoted 389 adds rounding of z or a continuity correction; this is the plain pooled formula.)
    const result = trialsToDetectShift({ baselineRate: 0.5, shift: 0.1 });
    expect(result.trials_exact).toBeCloseTo(387.34, 2);
    expect(result.trials_per_framing).toBe(388);
    expect(result.shifted_rate).toBe(0.6);
    expect(trialsToDetectShift({ baselineRate: 0.5, shift: -0.1 }).trials_per_framing).toBe(388);
    expect(() => trialsToDetectShift({ baselineRate: 0.95, shift: 0.1 })).toThrow(/1.05 is invalid/);
  });
});

describe("a power at or below alpha", () => {
  it("is refused by both plans, naming both values, instead of squaring a negative sum", () => {
    // At α = 0.999, power 0.001: z_{1−α/2} = z_.5005 = 0.0013 and z_.001 = −3.090, so the shift formula's
    // root is 0.0013·√(2·0.6·0.4) − 3.090·√(0.25 + 0.21) = −2.095, whose square over 0.2² gave 110 trials
    // per framing, more than α = 0.05 and power 0.8 need: (1.960·0.693 + 0.842·0.678)² / 0.04 = 93.
    const refusal =
      "Power 0.001 is not above alpha 0.999: the test rejects with probability alpha even when there is no effect, so a power at or below it plans for nothing; give a power above alpha (e.g. power 0.8 with alpha 0.05).";
    const plan = { baselineRate: 0.5, shift: 0.2, alpha: 0.999, power: 0.001 };
    expect(() => trialsToDetectShift(plan)).toThrow(refusal);
    expect(() => trialsToExcludeInvariance({ trueR: 0.95, alpha: 0.999, power: 0.001 })).toThrow(refusal);
    expect(() => powerAnalysis({ ...plan, simulations: 10, bootstrap: 100 })).toThrow(refusal);
    // Equal is refused too: the test's rate of rejecting under no effect is alpha itself.
    expect(() => trialsToDetectShift({ ...plan, alpha: 0.3, power: 0.3 })).toThrow(
      /^Power 0.3 is not above alpha 0.3:/,
    );
    expect(trialsToDetectShift({ baselineRate: 0.5, shift: 0.2 }).trials_per_framing).toBe(93);
  });
});

describe("expectedR2HalfWidth", () => {
  it("is seeded, and shrinks as n grows", () => {
    const small = { baselineRate: 0.3, shiftedRate: 0.5, n: 50, simulations: 40, bootstrap: 300 };
    const first = expectedR2HalfWidth(small);
    expect(expectedR2HalfWidth(small)).toEqual(first);
    // Half-widths of R2 scale roughly like 1/√n: 8× the trials should more than halve them.
    const large = expectedR2HalfWidth({ ...small, n: 400 });
    expect(large.expected_half_width).toBeLessThan(first.expected_half_width / 2);
    // True R2 of (0.3, 0.7) vs (0.5, 0.5): m = (0.4, 0.6), JSD = H(m) − (H(0.3) + H(0.5))/2.
    const h = (p: number) => -p * Math.log(p) - (1 - p) * Math.log(1 - p);
    expect(first.true_r2).toBeCloseTo(1 - (h(0.4) - (h(0.3) + h(0.5)) / 2) / Math.LN2, 14);
  });

  it("is combined with the shift test by powerAnalysis at the test's n by default", () => {
    const result = powerAnalysis({ baselineRate: 0.5, shift: 0.1, simulations: 10, bootstrap: 200 });
    expect(result.r2_precision.n).toBe(388);
    expect(result.r2_precision.shifted_rate).toBe(0.6);
  });
});

describe("power with sessions and for a drop in R", () => {
  it("multiplies the shift trials by Kish's design effect 1 + (m − 1)ρ", () => {
    const independent = trialsToDetectShift({ baselineRate: 0.3, shift: 0.2 });
    const clustered = trialsToDetectShift({
      baselineRate: 0.3,
      shift: 0.2,
      decisionsPerSession: 10,
      intraSessionCorrelation: 0.1,
    });
    expect(clustered.design_effect).toBeCloseTo(1.9, 12);
    expect(clustered.trials_per_framing).toBe(Math.ceil(independent.trials_exact * 1.9 - 1e-9));
    expect(() =>
      trialsToDetectShift({ baselineRate: 0.3, shift: 0.2, intraSessionCorrelation: 1.5 }),
    ).toThrow(/Intra-session correlation 1.5 is invalid/);
  });

  it("starts from (z_.975 + z_.8)² / (4(1 − R) ln 2) and plans the n whose exact power reaches 80%", () => {
    // R = 0.95: (1.959964 + 0.841621)² = 7.848879; / (4 · 0.05 · 0.693147) = 56.62 → 57, which has
    // about 76% power; the exact conditional power first stays at 80% from 63 on.
    const r = trialsToExcludeInvariance({ trueR: 0.95 });
    expect(r.noncentrality).toBeCloseTo(7.848879, 5);
    expect(r.trials_approximate).toBeCloseTo(56.618, 2);
    expect(r.method).toBe("exact");
    expect(r.trials_per_framing).toBe(63);
    expect(r.achieved_power).toBeGreaterThanOrEqual(0.8);
    expect(exactInvariancePower(57, r.baseline_rate, r.other_rate, 0.05)).toBeLessThan(0.8);
    // The other framing's rate is the one whose R against ½ is 0.95.
    const jsd = jensenShannon([0.5, 0.5], [r.other_rate, 1 - r.other_rate]);
    expect(1 - jsd / Math.LN2).toBeCloseTo(0.95, 9);
    // Sessions: the exact n times Kish's design effect, 63 · 1.9 = 119.7 → 120.
    const clustered = trialsToExcludeInvariance({
      trueR: 0.95,
      decisionsPerSession: 10,
      intraSessionCorrelation: 0.1,
    });
    expect(clustered.trials_per_framing).toBe(120);
    expect(trialsToExcludeInvariance({ trueR: 0.99 }).trials_per_framing).toBe(297);
    expect(() => trialsToExcludeInvariance({ trueR: 1 })).toThrow(/True R 1 is invalid/);
    expect(() => trialsToExcludeInvariance({ trueR: 0.1, baselineRate: 0.9 })).toThrow(/out of reach/);
  });

  it("sums the conditional test's power exactly: hand-checked splits of 3 and 4 decisions", () => {
    // 4 of 4 against 0 of 4: given 4 first actions in 8, the split 4–0 has probability 1/C(8,4) = 1/70 and
    // the two most uneven splits 2/70 = 0.029 ≤ 0.05, so the test rejects: power 1. With 3 decisions the
    // most uneven splits hold 2/C(6,3) = 0.1 > 0.05: it never rejects, power 0.
    expect(exactInvariancePower(4, 1, 0, 0.05)).toBeCloseTo(1, 12);
    expect(exactInvariancePower(3, 1, 0, 0.05)).toBe(0);
    // Under invariance the rejection probability is the test's size: at most α.
    expect(exactInvariancePower(50, 0.5, 0.5, 0.05)).toBeLessThanOrEqual(0.05);
    expect(exactInvariancePower(50, 0.5, 0.5, 0.05)).toBeGreaterThan(0.03);
  });
});
