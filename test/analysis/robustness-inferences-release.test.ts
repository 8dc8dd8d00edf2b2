// The test-inversion intervals of R place both ends of every game before the permutation test's verdict,
// so an analysis keeps no inversion's tables (ExtremePairTails: megabytes per game at a million decisions,
// every game's at once) while it waits for that test: the tails are unreachable once the lower ends are
// placed, and the intervals are those the verdict then asks for.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { expect, it } from "vitest";
import type { CountCell } from "../../src/analysis/count-cells.js";
import { fillPermutationRows } from "../../src/analysis/invariance/permutation-replicates.js";
import { ExtremePairTails } from "../../src/analysis/robustness/extreme-pair-tails.js";
import { robustnessAnalysis } from "../../src/analysis/robustness/robustness.js";
import { RobustnessInferences } from "../../src/analysis/robustness/robustness-inferences.js";
import { planRobustness } from "../../src/analysis/robustness/robustness-plan.js";
import { bootstrapReplicates, pointEstimates } from "../../src/analysis/robustness/robustness-replicates.js";
import { StatisticsEvaluator } from "../../src/analysis/robustness/robustness-statistics.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const COOPERATE = { pd: "cooperate" } as const;
const cell = (player: string, framing: string, cooperate: number, defect: number): CountCell => ({
  player,
  game: "pd",
  framing,
  counts: { cooperate, defect },
});
// "moved" cooperates 30% under a, 45% under b, 35% under c (1,000 decisions each): the permutation test
// rejects invariance. "steady" cooperates 40% under every framing: R̂ = 1, and the test cannot reject.
const cells = [
  cell("moved", "a", 300, 700),
  cell("moved", "b", 450, 550),
  cell("moved", "c", 350, 650),
  cell("steady", "a", 400, 600),
  cell("steady", "b", 400, 600),
  cell("steady", "c", 400, 600),
];
const B = 500;

it("keeps no inversion's tails once the lower ends are placed, and ends R's intervals as the verdict says", async () => {
  const plan = planRobustness(cells, undefined, COOPERATE);
  const evaluator = new StatisticsEvaluator(plan, 1);
  const { rows } = bootstrapReplicates(plan, evaluator, 1, B);
  const inferences = new RobustnessInferences(
    plan,
    evaluator.layout,
    pointEstimates(plan, evaluator),
    rows,
    B,
    0.95,
    1,
  );
  // Every tails object the inversions evaluate, held weakly.
  const seen: WeakRef<ExtremePairTails>[] = [];
  const at = Object.getOwnPropertyDescriptor(ExtremePairTails.prototype, "at")
    ?.value as ExtremePairTails["at"];
  ExtremePairTails.prototype.at = function (this: ExtremePairTails, rates) {
    if (!seen.some((ref) => ref.deref() === this)) seen.push(new WeakRef(this));
    return at.call(this, rates);
  };
  try {
    inferences.placeLowerEnds();
  } finally {
    ExtremePairTails.prototype.at = at;
  }
  // Both games' R and R2 (3 framings: R2 is the planned pair a, b) were inverted.
  expect(seen).toHaveLength(4);
  // A weakly held object stays alive to the end of the job that last reached it, and one full collection
  // does not always clear every weak reference (about one run in three kept one): a few rounds, each in a
  // later job. A tails object the analysis still holds survives all of them.
  let alive = seen.length;
  for (let round = 0; round < 5 && alive > 0; round++) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    gc();
    alive = seen.filter((ref) => ref.deref() !== undefined).length;
  }
  expect(alive).toBe(0);

  const permuted = new Float64Array(evaluator.layout.count * B);
  fillPermutationRows(plan, evaluator, 1, B, permuted);
  inferences.withPermutations(permuted);
  const [moved, steady] = plan.units.map((_, u) =>
    inferences.robustness(evaluator.layout.unitR[u] as number),
  );
  expect(moved?.pValue).toBeLessThanOrEqual(0.05);
  expect(moved?.ci[1]).toBeLessThan(1);
  expect(steady?.estimate).toBe(1);
  expect(steady?.ci[1]).toBe(1);
  // The same intervals as the analysis reports.
  const reported = robustnessAnalysis(cells, { cooperativeAction: COOPERATE, bootstrap: B, seed: 1 });
  expect(reported.games.map((g) => g.R.ci)).toEqual([moved?.ci, steady?.ci]);
});
