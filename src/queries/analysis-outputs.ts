import type { PlayDeps } from "../play/play-deps.js";
import { repeatedMetricsInputSchema } from "./repeated-metrics-input.js";
import { repeatedMetrics } from "./repeated-metrics-query.js";
import { robustnessReport } from "./robustness-query.js";
import { sensitivityReport } from "./sensitivity-query.js";
import { storyLabelReport } from "./story-label-query.js";

/** The analyses that read the record (equilibria and power read only the catalog or their arguments). */
export const RECORD_ANALYSES = ["robustness", "sensitivity", "repeated", "story-labels"] as const;

/**
 * Every record analysis over the whole record, as the JSON `analyze … --json` prints (or the refusal it
 * exits with, e.g. no repeated matches): two records with equal outputs read the same to every analysis.
 * `bootstrap` resamples (seeded, so equal records give equal intervals); fewer is faster to compare.
 */
export function analysisOutputs(deps: PlayDeps, bootstrap?: number): Record<string, string> {
  const runs: Record<(typeof RECORD_ANALYSES)[number], () => unknown> = {
    robustness: () => robustnessReport(deps, { bootstrap }),
    sensitivity: () => sensitivityReport(deps, { bootstrap }),
    repeated: () => repeatedMetrics(deps, repeatedMetricsInputSchema.parse({})),
    "story-labels": () => storyLabelReport(deps, { bootstrap }),
  };
  const outputs: Record<string, string> = {};
  for (const name of RECORD_ANALYSES) {
    try {
      outputs[name] = JSON.stringify(runs[name](), null, 2);
    } catch (error) {
      outputs[name] = `refused: ${(error as Error).message}`;
    }
  }
  return outputs;
}
