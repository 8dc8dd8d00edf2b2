// A player's sessions shared by several games draw one propensity per replicate for all of them in the
// session-design null: the beta quantile table and the shared uniforms, by hand.
import { describe, expect, it } from "vitest";
import type { CountCell } from "../../src/analysis/count-cells.js";
import { sharedDesignSessions } from "../../src/analysis/invariance/shared-design-sessions.js";
import {
  betaQuantiles,
  QUANTILES,
  sharedPropensities,
} from "../../src/analysis/invariance/shared-session-propensities.js";
import { planRobustness } from "../../src/analysis/robustness/robustness-plan.js";

describe("betaQuantiles", () => {
  it("gives the quantiles a reader can invert: Beta(1, 1) is uniform, Beta(2, 1) has CDF x²", () => {
    const uniform = betaQuantiles(1, 1);
    const square = betaQuantiles(2, 1);
    for (const j of [0, 100, 511, QUANTILES - 1]) {
      const u = (j + 0.5) / QUANTILES;
      expect(uniform[j]).toBeCloseTo(u, 12);
      expect(square[j]).toBeCloseTo(Math.sqrt(u), 12);
    }
    // Beta(½, ½) (arcsine): CDF (2/π)·asin(√x), so the median is ½ and the quantile at u is sin²(πu/2).
    const arcsine = betaQuantiles(0.5, 0.5);
    expect(arcsine[200]).toBeCloseTo(Math.sin((Math.PI * (200.5 / QUANTILES)) / 2) ** 2, 9);
  });
});

describe("sharedPropensities", () => {
  it("orders the sessions by id and gives every game the same uniforms for a seed", () => {
    const a = sharedPropensities(new Set(["s2", "s10", "s1"]), "player", 3);
    const b = sharedPropensities(new Set(["s1", "s2", "s10"]), "player", 3);
    expect([...a.index]).toEqual([
      ["s1", 0],
      ["s10", 1],
      ["s2", 2],
    ]);
    expect(a.uniforms).toEqual(b.uniforms);
    expect(a.uniforms.length).toBe(9);
    expect(sharedPropensities(new Set(["s1"]), "other", 3).uniforms[0]).not.toBe(a.uniforms[0]);
  });
});

describe("sharedDesignSessions", () => {
  /** Two games; framing f0 has sessions of `short` decisions, f1 of `long`; ids shared by the games. */
  const record = (short: number, long: number): CountCell[] =>
    ["g0", "g1"].flatMap((game) =>
      [
        { framing: "f0", length: short, sessions: 4 },
        { framing: "f1", length: long, sessions: 2 },
      ].map(({ framing, length, sessions }) => ({
        player: "m",
        game,
        framing,
        counts: { cooperate: length * sessions },
        clusters: Array.from({ length: sessions }, () => ({ cooperate: length })),
        cluster_ids: Array.from({ length: sessions }, (_, s) => `${framing}-s${s}`),
      })),
    );
  const cooperative = { g0: "cooperate", g1: "cooperate" };
  const actions = { g0: ["cooperate", "defect"], g1: ["cooperate", "defect"] };

  it("names the sessions two session-design games share: one-decision sessions beside sessions of 5", () => {
    const plan = planRobustness(record(1, 5), undefined, cooperative, actions);
    expect([...sharedDesignSessions(plan, 0)].sort()).toEqual([
      "f0-s0",
      "f0-s1",
      "f0-s2",
      "f0-s3",
      "f1-s0",
      "f1-s1",
    ]);
  });

  it("names none where sessions are all of one length (the permutation is exact there)", () => {
    const plan = planRobustness(record(3, 3), undefined, cooperative, actions);
    expect(sharedDesignSessions(plan, 0).size).toBe(0);
  });
});
