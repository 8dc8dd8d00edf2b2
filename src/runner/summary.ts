import type { RunSummary } from "./run-study.js";

/** The end-of-run summary: what was played and spent, and how to analyse it. */
export function summaryText(summary: RunSummary, analyse: string): string {
  const { stats, total } = summary;
  const retriesByKind = Object.entries(stats.retriesByKind)
    .map(([kind, n]) => `${kind} ${n}`)
    .join(", ");
  const done = (total.finishedBefore ?? 0) + stats.trials;
  const lines = [
    `Trials played: ${stats.trials} this run; ${done} of ${total.trialsPerPlayer ?? "?"} done${summary.complete ? " (study complete for this player)" : ""}.`,
    `Failed trials: ${stats.failedTrials}${summary.leftOpen > 0 ? ` (${summary.leftOpen} left open: run the same command again to resume them)` : ""}.`,
    `Model calls: ${stats.modelCalls}; invalid replies: ${stats.invalidReplies}; retries: ${stats.retries}${retriesByKind ? ` (${retriesByKind})` : ""}.`,
    `Tokens: ${stats.tokens} (${stats.promptTokens} prompt, ${stats.completionTokens} completion).`,
    `Wall time: ${stats.elapsedSeconds().toFixed(1)} s.`,
  ];
  if (stats.stopReason !== null) lines.push(`Stopped early: ${stats.stopReason}.`);
  lines.push(`Analyse: ${analyse}`);
  return lines.join("\n");
}
