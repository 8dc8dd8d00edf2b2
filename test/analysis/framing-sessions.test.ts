// A game's cells as the test inversion reads their sessions: flat arrays, one number per session id.
import { describe, expect, it } from "vitest";
import { inversionFramings } from "../../src/analysis/robustness/framing-sessions.js";
import { planRobustness } from "../../src/analysis/robustness/robustness-plan.js";

describe("inversionFramings", () => {
  it("numbers each session once for all the game's framings and leaves out sessions without decisions", () => {
    // Session s2 decided in both framings, s1 in a only, s3 (standing for two sessions) in b only; s9 is
    // listed in a with no decision.
    const plan = planRobustness(
      [
        {
          player: "m",
          game: "pd",
          framing: "a",
          counts: { cooperate: 2, defect: 1 },
          clusters: [{ cooperate: 1 }, { cooperate: 1, defect: 1 }, {}],
          cluster_ids: ["s1", "s2", "s9"],
        },
        {
          player: "m",
          game: "pd",
          framing: "b",
          counts: { cooperate: 4, defect: 1 },
          clusters: [{ defect: 1 }, { cooperate: 2 }],
          cluster_ids: ["s2", "s3"],
          cluster_weights: [1, 2],
        },
      ],
      ["a", "b"],
      { pd: "cooperate" },
    );
    const [a, b] = inversionFramings(plan.cells);
    // cooperate is the first action: a chose it 2 times of 3, b 4 of 5.
    expect([a?.x, a?.n, b?.x, b?.n]).toEqual([2, 3, 4, 5]);
    // s1 → 0, s2 → 1 (in a), s3 → 2: s2 keeps its number in b.
    expect(a?.sessions).toEqual({
      x: Float64Array.of(1, 1),
      n: Float64Array.of(1, 2),
      weight: Float64Array.of(1, 1),
      id: Int32Array.of(0, 1),
    });
    expect(b?.sessions).toEqual({
      x: Float64Array.of(0, 2),
      n: Float64Array.of(1, 2),
      weight: Float64Array.of(1, 2),
      id: Int32Array.of(1, 2),
    });
  });

  it("gives decisions without sessions no session arrays", () => {
    const plan = planRobustness(
      [
        { player: "m", game: "pd", framing: "a", counts: { cooperate: 3, defect: 1 } },
        { player: "m", game: "pd", framing: "b", counts: { cooperate: 1, defect: 1 } },
      ],
      ["a", "b"],
      { pd: "cooperate" },
    );
    expect(inversionFramings(plan.cells)).toEqual([
      { x: 3, n: 4 },
      { x: 1, n: 2 },
    ]);
  });
});
