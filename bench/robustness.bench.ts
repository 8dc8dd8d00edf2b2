// The issue-3 benchmark: 3 players × 4 games × 2 framings, n = 300 per cell (the published reference
// counts), B = 10,000, attenuation 0.7, intervals for every game, player and the pool.
// Target: median ≤ 5 ms on one core. Run: npx vitest bench --run bench/robustness.bench.ts
import { bench, describe } from "vitest";
import type { CountCell } from "../src/analysis/count-cells.js";
import { robustnessAnalysis } from "../src/analysis/robustness/robustness.js";
import { DILEMMA_COOPERATIVE_ACTION, loadLoreHeydariCells } from "../test/analysis/lore-heydari-cells.js";

/** Stand-in counts of the same shape when the reference file is not beside the repository. */
function syntheticCells(): CountCell[] {
  const cells: CountCell[] = [];
  ["model-a", "model-b", "model-c"].forEach((player, p) => {
    Object.keys(DILEMMA_COOPERATIVE_ACTION).forEach((game, g) => {
      ["business", "friend-sharing"].forEach((framing, f) => {
        const cooperate = (37 * p + 71 * g + 113 * f + 20) % 301;
        cells.push({ player, game, framing, counts: { cooperate, defect: 300 - cooperate } });
      });
    });
  });
  return cells;
}

const cells = loadLoreHeydariCells() ?? syntheticCells();

describe("robustness analysis, 3 players × 4 games × 2 framings, n = 300, B = 10,000", () => {
  bench(
    "robustnessAnalysis (attenuation 0.7)",
    () => {
      robustnessAnalysis(cells, {
        attenuation: 0.7,
        bootstrap: 10_000,
        seed: 1,
        cooperativeAction: DILEMMA_COOPERATIVE_ACTION,
      });
    },
    { time: 3000, warmupTime: 1000 },
  );
});
