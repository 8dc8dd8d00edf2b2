import { describe, expect, it } from "vitest";
import { randomAgentNote } from "../../src/agents/demo-summary.js";
import type { ReportData, RobustnessResult } from "../../src/report/report-data.js";

const R = { estimate: 0.9, ci: [0.8, 1] as [number, number] };
const report = (shiftCi: [number, number]): ReportData => {
  const robustness: RobustnessResult = {
    unit: "session",
    attenuation: 1,
    bootstrap: 2000,
    seed: 1,
    framings: ["business", "friend-sharing"],
    games: [
      { player: "uniform", game: "harmony", R, shift: { estimate: -0.6, ci: shiftCi } },
      { player: "uniform", game: "stag-hunt", R, shift: { estimate: 0.1, ci: [-0.2, 0.4] } },
      { player: "payoff-reader", game: "harmony", R, shift: { estimate: 0.7, ci: [0.5, 0.9] } },
    ],
    players: [],
    pooled: { R, shift: null },
    checks: [],
  };
  return {
    header: { title: "t", generated_at: "", database: null, study: null, players: [] },
    robustness,
    cooperation: [
      { player: "uniform", game: "harmony", framing: "business", rate: 16 / 20, ci: [0, 1], n: 20 },
      { player: "uniform", game: "harmony", framing: "friend-sharing", rate: 4 / 20, ci: [0, 1], n: 20 },
    ],
  };
};

describe("the demo's note on the random agent", () => {
  it("names the uniform agent's significant shift, with its counts and the chance of one among its games", () => {
    const note = randomAgentNote(report([-0.85, -0.37]));
    expect(note).toContain(
      "harmony (cooperated 16/20 under business, 4/20 under friend-sharing; shift -0.600 [-0.850, -0.370])",
    );
    // Two shift intervals of the uniform agent at 95%: 1 − 0.95² = 9.75% ≈ 10% of seeds show one.
    expect(note).toContain("about 10% of seeds (1 − 0.95^2)");
    // Only the random agent is explained: the payoff-reader's shift is not chance by construction.
    expect(note).not.toContain("payoff-reader");
  });

  it("says nothing when no shift interval of the random agent excludes 0", () => {
    expect(randomAgentNote(report([-0.85, 0.05]))).toBe("");
  });
});
