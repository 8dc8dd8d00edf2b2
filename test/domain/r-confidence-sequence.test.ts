import { describe, expect, it } from "vitest";
import { InvarianceEProcess } from "../../src/domain/adaptive/invariance-e-process.js";
import { anytimeRInterval } from "../../src/domain/adaptive/r-confidence-sequence.js";
import { bernoulliJsd, jensenShannon } from "../../src/domain/divergence.js";

/** The cells of an e-process fed `counts[f][a]` choices of action a in framing f (one stratum). */
function cellsOf(counts: readonly (readonly number[])[]) {
  const process = new InvarianceEProcess((counts[0] as number[]).length);
  counts.forEach((c, f) => {
    c.forEach((x, a) => {
      for (let i = 0; i < x; i++) process.add("s", `f${f}`, a);
    });
  });
  return process.cells();
}

describe("R's anytime-valid interval", () => {
  it("for one C in each of two framings: each rate is ≥ 1/80, R ≥ 1 − JSD(1, 1/80)/ln 2", () => {
    // KT(1, 0) = ½; at α = 0.05 over m = 2 cells the set is {q : 1·ln(1/q) ≤ ln(40) + ln 2} = [1/80, 1].
    const interval = anytimeRInterval(
      cellsOf([
        [1, 0],
        [1, 0],
      ]),
      ["f0", "f1"],
      2,
      0.05,
      2,
    );
    expect(interval.upper).toBe(1);
    expect(interval.lower).toBeCloseTo(1 - bernoulliJsd(1, 1 / 80) / Math.LN2, 9);
    expect(interval.lower).toBeCloseTo(0.0486, 4);
  });

  it("for two C in each: KT(2, 0) = 3/8, each rate ≥ √(3/320) = 0.0968", () => {
    const interval = anytimeRInterval(
      cellsOf([
        [2, 0],
        [2, 0],
      ]),
      ["f0", "f1"],
      2,
      0.05,
      2,
    );
    expect(interval.lower).toBeCloseTo(1 - bernoulliJsd(1, Math.sqrt(3 / 320)) / Math.LN2, 9);
    expect(interval.width).toBeCloseTo(0.7638, 4);
  });

  it("is exact for two actions: C 10/0 against D 0/10 puts R's upper end at the sets' gap", () => {
    // KT(10, 0) = Π_{i<10} (i + ½)/(i + 1); the C set is [e^(−r/10), 1], the D framing's mirror [0, 1 − e^(−r/10)].
    let logKt = 0;
    for (let i = 0; i < 10; i++) logKt += Math.log((i + 0.5) / (i + 1));
    const edge = Math.exp(-(Math.log(40) - logKt) / 10);
    expect(edge).toBeCloseTo(0.5813, 4);
    const interval = anytimeRInterval(
      cellsOf([
        [10, 0],
        [0, 10],
      ]),
      ["f0", "f1"],
      2,
      0.05,
      2,
    );
    expect(interval.lower).toBe(0);
    expect(interval.upper).toBeCloseTo(1 - bernoulliJsd(edge, 1 - edge) / Math.LN2, 9);
    expect(interval.upper).toBeCloseTo(0.9808, 4);
  });

  it("holds the plug-in R and narrows as the same rates are seen more often (3 actions)", () => {
    let previous = 1;
    for (const n of [10, 40, 160, 640]) {
      const counts = [
        [0.5 * n, 0.3 * n, 0.2 * n],
        [0.2 * n, 0.3 * n, 0.5 * n],
      ];
      const interval = anytimeRInterval(cellsOf(counts), ["f0", "f1"], 3, 0.05, 2);
      const plugIn = 1 - jensenShannon([0.5, 0.3, 0.2], [0.2, 0.3, 0.5]) / Math.LN2;
      expect(interval.lower).toBeLessThanOrEqual(plugIn);
      expect(interval.upper).toBeGreaterThanOrEqual(plugIn);
      expect(interval.width).toBeLessThan(previous);
      previous = interval.width;
    }
    expect(previous).toBeCloseTo(0.206, 3);
  });

  it("splits α over the designed cells: 11 framings give a wider interval than 2 on the same pair", () => {
    const two = anytimeRInterval(
      cellsOf([
        [20, 0],
        [20, 0],
      ]),
      ["f0", "f1"],
      2,
      0.05,
      2,
    );
    const eleven = anytimeRInterval(
      cellsOf([
        [20, 0],
        [20, 0],
      ]),
      ["f0", "f1"],
      2,
      0.05,
      11,
    );
    expect(eleven.width).toBeGreaterThan(two.width);
  });

  it("is the whole of [0, 1] while a framing has no choice yet, never NaN", () => {
    const interval = anytimeRInterval(
      cellsOf([
        [3, 0],
        [0, 0],
      ]),
      ["f0", "f1"],
      2,
      0.05,
      2,
    );
    expect(interval).toEqual({ lower: 0, upper: 1, width: 1 });
  });
});
