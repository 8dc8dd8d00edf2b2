import { storyLabelReport, storyLabelText } from "../queries/story-label-query.js";
import { variantFlag } from "./analyze-robustness.js";
import { listFlag, numberFlag, type ParsedArgs, stringFlag } from "./command.js";
import { printResult, withDeps } from "./open-deps.js";

/** `analyze story-labels`: the story effect and the label effect of a story × labels crossing. */
export async function analyzeStoryLabels(args: ParsedArgs): Promise<void> {
  await withDeps(args, (deps) => {
    const report = storyLabelReport(deps, {
      players: listFlag(args, "players"),
      games: listFlag(args, "games"),
      stories: listFlag(args, "stories"),
      labels: listFlag(args, "labels"),
      variant: variantFlag(args),
      study_id: stringFlag(args, "study"),
      bootstrap: numberFlag(args, "bootstrap", { min: 1, max: 1_000_000, integer: true }),
      seed: numberFlag(args, "seed", { min: 0, max: 2 ** 31 - 1, integer: true }),
      confidence: numberFlag(args, "confidence", { min: 0.5, max: 0.999 }),
    });
    printResult(args, report, storyLabelText(report));
  });
}
