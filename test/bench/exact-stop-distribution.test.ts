import { describe, expect, it } from "vitest";
import { ExactStopDistribution } from "../../bench/coverage/stop-distribution-exact.js";
import { FastUniversalInference } from "../../bench/coverage/stop-processes.js";

// Universal inference on 2 framings × 2 actions, one framing always action 0 and the other always 1:
// after n blocks E = KT(n, 0)² / (½)^(2n), KT(n, 0) = Π_{i<n} (i + ½)/(i + 1).
// n = 4: (105/384)² · 256 = 19.140625 < 20; n = 5: (945/3840)² · 1024 = 62.015625 ≥ 20.
// So no record stops before block 5, and the perfect split is the only record with R̂ = 0 there.
const LOG_20 = Math.log(20);

describe("the fast universal-inference process (bench)", () => {
  it("gives E = 19.14 after four perfectly split blocks and 62.02 after five", () => {
    const process = new FastUniversalInference(2, 2, 10);
    for (let b = 0; b < 4; b++) process.addBlock([0, 1]);
    expect(Math.exp(process.logE())).toBeCloseTo((105 / 384) ** 2 * 256, 10);
    expect(Math.exp(process.logE())).toBeCloseTo(19.140625, 9);
    process.addBlock([0, 1]);
    expect(Math.exp(process.logE())).toBeCloseTo((945 / 3840) ** 2 * 1024, 10);
    expect(Math.exp(process.logE())).toBeCloseTo(62.015625, 9);
  });
});

describe("the exact stopping distribution of universal inference on 2 × 2 (bench)", () => {
  // Observed: stopped after block 5 with R̂ = 0 (5 C against 5 D).
  const distribution = new ExactStopDistribution(5, 5, 0, LOG_20);

  it("at rates ½ and ½: nothing stops earlier; the two perfect splits, 2 of 4⁵ records, tie", () => {
    const tails = distribution.tails(0.5, 0.5);
    expect(tails.more).toBe(0);
    expect(tails.ties).toBeCloseTo(2 / 1024, 15);
    expect(tails.less).toBeCloseTo(1 - 2 / 1024, 12);
  });

  it("at rates .8 and .3: a tie is a split either way, .8⁵·.7⁵ + .2⁵·.3⁵", () => {
    const tails = distribution.tails(0.8, 0.3);
    expect(tails.more).toBe(0);
    expect(tails.ties).toBeCloseTo(0.8 ** 5 * 0.7 ** 5 + 0.2 ** 5 * 0.3 ** 5, 15);
  });

  it("at the deterministic split every record ties", () => {
    const tails = distribution.tails(1, 0);
    expect(tails).toEqual({ more: 0, ties: 1, less: 0 });
  });
});
