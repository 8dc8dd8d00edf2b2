import { INVALID_ROUND_SCORINGS } from "../analysis/repeated/invalid-round-scoring.js";
import { repeatedMetricsText } from "../mcp/tools/analysis/repeated-metrics.js";
import { repeatedMetricsInputSchema } from "../queries/repeated-metrics-input.js";
import { repeatedMetrics } from "../queries/repeated-metrics-query.js";
import { UsageError } from "../usage-error.js";
import { listFlag, numberFlag, type ParsedArgs, stringFlag } from "./command.js";
import { printResult, withDeps } from "./open-deps.js";

/** `analyze repeated`: the `repeated_metrics` tool's object (`--json`) or its table. */
export async function analyzeRepeated(args: ParsedArgs): Promise<void> {
  const rule = stringFlag(args, "rule");
  if (rule !== undefined && rule !== "match" && rule !== "beat") {
    throw new UsageError(`--rule must be match or beat, got "${rule}".`);
  }
  const invalidRounds = stringFlag(args, "invalid-rounds");
  if (invalidRounds !== undefined && !(INVALID_ROUND_SCORINGS as readonly string[]).includes(invalidRounds)) {
    throw new UsageError(
      `--invalid-rounds must be ${INVALID_ROUND_SCORINGS.join(" or ")}, got "${invalidRounds}".`,
    );
  }
  const parsed = repeatedMetricsInputSchema.safeParse({
    players: listFlag(args, "players"),
    games: listFlag(args, "games"),
    variants: listFlag(args, "variants"),
    framings: listFlag(args, "framings"),
    opponents: listFlag(args, "opponents"),
    study_id: stringFlag(args, "study"),
    rule,
    threshold: numberFlag(args, "threshold", { min: 0, max: 1, aboveMin: true }),
    invalid_rounds: invalidRounds,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(`--${issue?.path.join(".")}: ${issue?.message}.`);
  }
  await withDeps(args, (deps) => {
    const report = repeatedMetrics(deps, parsed.data);
    printResult(args, report, repeatedMetricsText(report));
  });
}
