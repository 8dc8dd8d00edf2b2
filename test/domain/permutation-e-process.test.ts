import { describe, expect, it } from "vitest";
import { AdaptiveStoppingSchema, adaptiveRuleProblem } from "../../src/domain/adaptive/adaptive-design.js";
import { type AssignedTrial, adaptiveSchedule } from "../../src/domain/adaptive/adaptive-stops.js";
import {
  arrangementsWeight,
  logOrbitSize,
  WithinBlockPermutationEProcess,
} from "../../src/domain/adaptive/permutation-e-process.js";
import { canonicalJson } from "../../src/domain/canonical-json.js";
import { designHash, type StudyCell, StudyDesignSchema } from "../../src/domain/study-design.js";
import { scheduledCell } from "../../src/domain/study-schedule.js";

const block = (...actions: number[]) =>
  actions.map((action, f) => ({ stratum: "s", framing: `f${f}`, action }));

describe("the within-block permutation e-process", () => {
  it("bets 8/5, 9/5, 32/17, 50/26, 72/37 on a framing always C against one always D", () => {
    // Block 1: every bet is the pooled rate, both arrangements equally likely: factor 1.
    // Block 2: counts (1, 0) and (0, 1), pooled (1, 1) → p̄ = (½, ½); with κ = 2 the bets are
    // ((1 + 1)/3, 1/3) = (2/3, 1/3) and (1/3, 2/3); the observed arrangement has q = (2/3)² / ((2/3)² +
    // (1/3)²) = 4/5 of the two, so the factor is 2 · 4/5 = 8/5. After n blocks the bets are
    // ((n + 1)/(n + 2), 1/(n + 2)), q = (n + 1)² / ((n + 1)² + 1): 9/5 (n = 2), 32/17, 50/26, 72/37.
    const e = new WithinBlockPermutationEProcess(2);
    const expected = [1, 8 / 5, 9 / 5, 32 / 17, 50 / 26, 72 / 37];
    let product = 1;
    for (const factor of expected) {
      e.addBlock(block(0, 1));
      product *= factor;
      expect(e.eValue()).toBeCloseTo(product, 12);
    }
    // 10.43 after 5 blocks, 20.29 ≥ 20 after 6: the test rejects at block 6.
    expect(product).toBeCloseTo(20.2871, 4);
  });

  it("has mean exactly 1 over a block's outcomes under any common rates, after any past", () => {
    // The validity argument itself, on 3 framings × 3 actions with lopsided past counts: Σ_a P(a) F(a) = 1.
    for (const p of [
      [1 / 3, 1 / 3, 1 / 3],
      [0.7, 0.2, 0.1],
      [0.05, 0.05, 0.9],
    ]) {
      let mean = 0;
      for (let x = 0; x < 27; x++) {
        const a = [x % 3, Math.floor(x / 3) % 3, Math.floor(x / 9)];
        const e = new WithinBlockPermutationEProcess(3);
        e.addBlock(block(0, 1, 2));
        e.addBlock(block(0, 0, 2));
        e.addBlock(block(1, 0, 2));
        const before = e.logE();
        e.addBlock(block(...a));
        mean += a.reduce((prob, action) => prob * (p[action] as number), 1) * Math.exp(e.logE() - before);
      }
      expect(mean).toBeCloseTo(1, 12);
    }
  });

  it("sums a multiset's arrangements by hand: weights (.6 .4), (.3 .7), (.5 .5) over {C, C, D}", () => {
    // CCD .6·.3·.5 = .09, CDC .6·.7·.5 = .21, DCC .4·.3·.5 = .06: .36 over 3 arrangements.
    expect(
      arrangementsWeight(
        [
          [0.6, 0.4],
          [0.3, 0.7],
          [0.5, 0.5],
        ],
        [2, 1],
      ),
    ).toBeCloseTo(0.36, 14);
    expect(Math.exp(logOrbitSize([2, 1]))).toBeCloseTo(3, 12);
    // 11 framings, 6 actions, multiset (2, 2, 2, 2, 2, 1): 11!/2⁵ = 1,247,400 arrangements, equal weights.
    const uniform = Array.from({ length: 11 }, () => Array(6).fill(1 / 6));
    expect(Math.exp(logOrbitSize([2, 2, 2, 2, 2, 1]))).toBeCloseTo(1_247_400, 4);
    expect(arrangementsWeight(uniform, [2, 2, 2, 2, 2, 1])).toBeCloseTo(1_247_400 / 6 ** 11, 14);
  });

  it("gives factor 1 to a block where all framings chose alike or only one framing chose", () => {
    const e = new WithinBlockPermutationEProcess(2);
    e.addBlock(block(0, 1));
    e.addBlock(block(0, 1));
    const before = e.eValue();
    e.addBlock(block(1, 1));
    e.addBlock([{ stratum: "s", framing: "f0", action: 0 }]);
    expect(e.eValue()).toBeCloseTo(before, 12);
  });

  it("refuses a framing twice in one stratum's block, and an action outside the game", () => {
    const e = new WithinBlockPermutationEProcess(2);
    expect(() =>
      e.addBlock([
        { stratum: "s", framing: "a", action: 0 },
        { stratum: "s", framing: "a", action: 1 },
      ]),
    ).toThrow('Framing "a" chose twice in one block of stratum s');
    expect(() => e.addBlock(block(0, 2))).toThrow("Action index 2 is outside 0…1");
  });
});

describe("the within_block_permutation option of a design", () => {
  const cell = (game: string, framing: string): StudyCell => ({
    game,
    variant: "base",
    framing,
    style: "zero-shot",
    opponent: { id: "random", params: {} },
  });
  const cells = [cell("g", "a"), cell("g", "b"), cell("h", "a"), cell("h", "b")];
  const played = (n: number): AssignedTrial[] =>
    Array.from({ length: n }, (_, i) => {
      const c = scheduledCell(cells, "seed", "p", i);
      return { trial_index: i, finished: true, action: c.game === "g" && c.framing === "b" ? "D" : "C" };
    });

  it("stops g after block 6 (e = 20.29), one block after the universal-inference test, and names its test", () => {
    const adaptive = AdaptiveStoppingSchema.parse({ rule: "invariance", test: "within_block_permutation" });
    const schedule = adaptiveSchedule(adaptive, cells, "seed", "p", played(24), 400, () => ["C", "D"]);
    const g = schedule.games.find((s) => s.game === "g");
    expect(g?.stopped?.block).toBe(6);
    expect(g?.stopped?.e_value).toBeCloseTo(20.2871, 4);
    expect(g?.stopped?.reason).toMatch(
      /^invariance rejected by within_block_permutation after block 6 \(e = 20\.3 ≥ 20\); R in /,
    );
    expect(schedule.games.find((s) => s.game === "h")?.stopped).toBeNull();
    const before = adaptiveSchedule(adaptive, cells, "seed", "p", played(20), 400, () => ["C", "D"]);
    expect(before.games.find((s) => s.game === "g")?.stopped).toBeNull();
  });

  it("refuses an unknown test naming the valid ones, and a test under the width rule alone", () => {
    const result = AdaptiveStoppingSchema.safeParse({ rule: "invariance", test: "pocock" });
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues)).toContain(
      '["universal_inference","within_block_permutation"]',
    );
    const width = AdaptiveStoppingSchema.parse({
      rule: "width",
      width_target: 0.2,
      test: "universal_inference",
    });
    expect(adaptiveRuleProblem(width)).toBe(
      "adaptive.test universal_inference has no effect under rule width (it stops on R's interval alone); use rule invariance_or_width, or drop it.",
    );
  });

  it("leaves a design without the option as it was hashed before the option existed", () => {
    const design = StudyDesignSchema.parse({
      name: "old",
      games: ["prisoners-dilemma"],
      framings: ["neutral", "business"],
      trials_per_cell: 10,
      adaptive: { rule: "invariance" },
    });
    expect(canonicalJson(design.adaptive)).toBe(
      '{"alpha":0.05,"look_every_blocks":1,"min_blocks":1,"rule":"invariance"}',
    );
    const withTest = StudyDesignSchema.parse({
      ...design,
      adaptive: { rule: "invariance", test: "within_block_permutation" },
    });
    expect(designHash(withTest)).not.toBe(designHash(design));
  });
});
