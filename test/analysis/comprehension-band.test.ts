import { describe, expect, it } from "vitest";
import { curveBand, meanCurve } from "../../src/analysis/repeated/comprehension-curve.js";
import { repeatedCellOf } from "../../src/report/report-data.js";
import { comprehensionChartSpec } from "../../src/report/sections/repeated-section.js";

// Three matches of a two-round game. Round 1 suffix shares 1, ½, ¾: mean ¾, sample sd ¼, standard error
// ¼/√3 = 0.144338, half-width 1.959964 × 0.144338 = 0.282896, so [0.467104, 1.032896] clipped to 1.
// Round 2: every match succeeded, no spread, [1, 1].
const curves = [
  [1, 1],
  [0.5, 1],
  [0.75, 1],
];

describe("the comprehension curve's band", () => {
  it("is mean ± z·s/√n over the matches, round by round, clipped to [0, 1]", () => {
    expect(meanCurve(curves)).toEqual([0.75, 1]);
    const band = curveBand(curves) as [number, number][];
    expect(band[0]?.[0]).toBeCloseTo(0.467104, 6);
    expect(band[0]?.[1]).toBe(1);
    expect(band[1]).toEqual([1, 1]);
  });

  it("is absent with a single match, which has no spread to show", () => {
    expect(curveBand([[1, 0.5]])).toBeNull();
  });

  it("reaches the report's and the dashboard's chart as a shaded layer from round 1", () => {
    const cell = repeatedCellOf({
      player: "p",
      game: "repeated-pd",
      variant: "base",
      framing: "repeated-plain",
      opponent: "tit-for-tat",
      opponent_params: {},
      matches: 3,
      total_points: { mean: 40 },
      cooperation_rate: { mean: 1 },
      comprehension_round: { mean: 1 },
      comprehension_curve: meanCurve(curves),
      comprehension_curve_ci: curveBand(curves),
    });
    expect(cell.curve[0]).toMatchObject({ round: 1, success_share: 0.75, hi: 1 });
    const spec = comprehensionChartSpec([cell]) as unknown as {
      data: { values: { round: number; lo: number | null }[] };
      spec: { layer: { mark: { type: string } }[] };
    };
    expect(spec.spec.layer.map((l) => l.mark.type)).toEqual(["rule", "line", "area"]);
    expect(spec.data.values.map((v) => v.round)).toEqual([1, 2]);
    expect(spec.data.values[0]?.lo).toBeCloseTo(0.467104, 6);
  });
});
