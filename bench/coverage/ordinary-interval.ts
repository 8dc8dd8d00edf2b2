// The robustness analysis's 95% R interval (what `robustness` reports) on one (player, game)'s counts per
// framing, for the adaptive-stopping benches that ask how it covers at a stop.
import { robustnessAnalysis } from "../../src/analysis/robustness/robustness.js";
import { REPLICATES } from "./run-options.js";

const ACTIONS = ["cooperate", "defect", "a3", "a4", "a5", "a6"];

/** R's interval on `counts` (one row per framing, one column per action), B = `REPLICATES`. */
export function ordinaryInterval(
  counts: readonly (readonly number[])[],
  seed: number,
): { lower: number; upper: number } {
  const k = (counts[0] as number[]).length;
  const cells = counts.map((c, f) => ({
    player: "m",
    game: "g",
    framing: `f${String(f).padStart(2, "0")}`,
    counts: Object.fromEntries(
      c.map((x, a) => [ACTIONS[a] as string, x]).filter(([, x]) => (x as number) > 0),
    ),
  }));
  const result = robustnessAnalysis(cells, {
    cooperativeAction: { g: k === 2 ? "cooperate" : null },
    actions: { g: ACTIONS.slice(0, k) },
    bootstrap: REPLICATES,
    seed,
  });
  const ci = result.games[0]?.R.ci;
  if (!ci) throw new Error("no game analysed");
  return { lower: ci[0], upper: ci[1] };
}
