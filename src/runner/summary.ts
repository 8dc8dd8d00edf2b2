import { usd } from "./budget/budget.js";
import { sentence } from "./endpoint.js";
import type { RunStats } from "./run-stats.js";
import type { RunSummary } from "./run-study.js";

/**
 * The end-of-run summary: what was played and spent, how to go on when the run stopped short, and how
 * to analyse what is recorded (nothing to analyse when no trial of the player is done): one command per
 * analysis the study's games take.
 */
export function summaryText(summary: RunSummary, analyses: readonly string[]): string {
  const { stats, total } = summary;
  const retriesByKind = Object.entries(stats.retriesByKind)
    .map(([kind, n]) => `${kind} ${n}`)
    .join(", ");
  const done = (total.finishedBefore ?? 0) + stats.trials;
  const budgetStopped = !summary.interrupted && stats.budgetStop !== null && !summary.complete;
  // Through --server the player's surface tells that adaptive stopping removed trials, not which or why.
  const stoppedUntold =
    summary.stoppedEarly.length === 0 &&
    total.trialsPlanned != null &&
    total.trialsPerPlayer != null &&
    total.trialsPlanned < total.trialsPerPlayer;
  const played =
    summary.complete && summary.stoppedEarly.length > 0
      ? `study complete for this player (${done} of at most ${total.trialsPerPlayer ?? "?"} trials): adaptive stopping ended ${summary.stoppedEarly.map((s) => `${s.game} early, ${s.reason}`).join("; ")}`
      : summary.complete && stoppedUntold
        ? `study complete for this player (${done} of at most ${total.trialsPerPlayer} trials): adaptive stopping ended it early (\`same-game study show\` on the server's record says where and why)`
        : `${done} of ${total.trialsPerPlayer ?? "?"} done${summary.complete ? " (study complete for this player)" : ""}`;
  const lines = [
    `Trials played: ${stats.trials} this run; ${played}.`,
    ...(summary.spentBefore !== null
      ? [
          `Spent before this run (earlier runs of this player in the study, counted by the budget): ${summary.spentBefore}.`,
        ]
      : []),
    `Failed trials: ${stats.failedTrials}${summary.leftOpen > 0 && !summary.interrupted && !budgetStopped ? ` (${summary.leftOpen} left open: run the same command again to resume them)` : ""}.`,
    `Model calls: ${stats.modelCalls}${stats.cacheHits > 0 ? `; replies from the cache: ${stats.cacheHits}` : ""}; invalid replies: ${invalidText(stats)}; retries: ${stats.retries}${retriesByKind ? ` (${retriesByKind})` : ""}.`,
    ...(stats.batchesSubmitted > 0 || stats.batchReplies > 0
      ? [
          `Batches: ${stats.batchesSubmitted} submitted this run; replies by batch: ${stats.batchReplies}; requests a batch did not answer, made directly: ${stats.batchFailures}.`,
        ]
      : []),
    ...(stats.cutOffReplies > 0
      ? [
          `Replies cut off at --max-tokens: ${stats.cutOffReplies}, each read as no answer (an invalid reply); raise --max-tokens so the model can finish (a reasoning model's thinking counts against it).`,
        ]
      : []),
    tokensText(stats),
    `Wall time: ${stats.elapsedSeconds().toFixed(1)} s.`,
  ];
  if (summary.interrupted) {
    const open = summary.leftOpen > 0 ? `; ${summary.leftOpen} trial(s) in play were left open` : "";
    lines.push(`Interrupted${open}: run the same command to resume.`);
  } else if (budgetStopped) {
    // The same command again would stop at the same budget: the trials it left open wait for a larger one.
    const open = summary.leftOpen > 0 ? ` (it resumes the ${summary.leftOpen} left open)` : "";
    lines.push(
      `Stopped at the budget, before one more trial could pass it: spent ${summary.spent ?? stats.budgetStop}. Nothing is half recorded; to go on, run the same command with a larger budget${open}.`,
    );
  } else if (stats.stopReason !== null) {
    lines.push(`Stopped early: ${sentence(stats.stopReason)}.`);
  }
  if (done > 0) for (const command of analyses) lines.push(`Analyse: ${command}`);
  return lines.join("\n");
}

/**
 * The tokens and cost the endpoint reported; calls it reported no usage for are counted apart, never as 0
 * tokens (and are not priced).
 */
function tokensText(stats: RunStats): string {
  const cost = stats.costUsd !== null ? `; cost ${usd(stats.costUsd)} at the --prices table` : "";
  const unknown = stats.unreportedUsage;
  const calls = `${unknown} call${unknown === 1 ? "" : "s"}`;
  if (unknown > 0 && unknown === stats.modelCalls && stats.tokens === 0)
    return `Tokens: not reported by the endpoint for ${calls}.`;
  const counted = `${stats.tokens} (${stats.promptTokens} prompt, ${stats.completionTokens} completion)`;
  const apart =
    unknown > 0
      ? `; tokens not reported by the endpoint for ${calls} (their missing counts are left out here, and they are not priced)`
      : "";
  return `Tokens: ${counted}${apart}${cost}.`;
}

/**
 * The invalid replies, split where the record keeps them apart: the invalid attempts are the record's
 * `invalid_attempts`; a tool call refused with no attempt recorded is only among its model calls.
 */
function invalidText(stats: RunStats): string {
  if (stats.refusedToolCalls === 0) return String(stats.invalidReplies);
  const attempts = stats.invalidReplies - stats.refusedToolCalls;
  return `${stats.invalidReplies} (${attempts} invalid attempt${attempts === 1 ? "" : "s"}, ${stats.refusedToolCalls} refused tool call${stats.refusedToolCalls === 1 ? "" : "s"})`;
}
