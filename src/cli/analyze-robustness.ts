import { runsOneAnalysis } from "../analysis/invariance/permutation-replicates.js";
import type { VariantId } from "../domain/types.js";
import { robustnessReport } from "../queries/robustness-query.js";
import { robustnessText } from "../queries/robustness-text.js";
import { listFlag, numberFlag, type ParsedArgs, stringFlag } from "./command.js";
import { printResult, withDeps } from "./open-deps.js";

/** `analyze robustness`: the same object the `robustness` tool returns, or its table. */
export async function analyzeRobustness(args: ParsedArgs): Promise<void> {
  runsOneAnalysis();
  await withDeps(args, (deps) => {
    const report = robustnessReport(deps, {
      players: listFlag(args, "players"),
      games: listFlag(args, "games"),
      framings: listFlag(args, "framings"),
      variant: variantFlag(args),
      study_id: stringFlag(args, "study"),
      attenuation: numberFlag(args, "attenuation", { min: 0, max: 1, aboveMin: true }),
      bootstrap: numberFlag(args, "bootstrap", { min: 1, max: 1_000_000, integer: true }),
      seed: numberFlag(args, "seed", { min: 0, max: 2 ** 31 - 1, integer: true }),
      confidence: numberFlag(args, "confidence", { min: 0.5, max: 0.999 }),
    });
    printResult(args, report, robustnessText(report));
  });
}

export function variantFlag(args: ParsedArgs): VariantId | undefined {
  return stringFlag(args, "variant") as VariantId | undefined;
}
