import { setTimeout as sleep } from "node:timers/promises";
import { roundViewText } from "../mcp/tools/play/play-schemas.js";
import { UsageError } from "../usage-error.js";
import { type BatchSettings, runBatchStudy } from "./batch/run-batch.js";
import type { Budget } from "./budget/budget.js";
import type { ModelPrice } from "./budget/prices.js";
import type { TrialRef } from "./cache/reply-key.js";
import type { ResponseCache } from "./cache/response-cache.js";
import type { ModelEndpoint } from "./endpoint.js";
import type { CallSettings } from "./model-caller.js";
import { playTextMatch } from "./play-text.js";
import { playToolsMatch } from "./play-tools.js";
import type { RetryPolicy } from "./retry.js";
import { RunStats, StopSignal } from "./run-stats.js";
import type { Seat, TrialView } from "./seat.js";
import { ServerConnection, type ServerTarget } from "./server-connection.js";
import { type RunnerStyle, systemMessage } from "./styles.js";

/** One model at the table and how it is asked. */
export interface SeatOptions {
  readonly endpoint: ModelEndpoint;
  /** The player label its decisions are recorded under. */
  readonly player: string;
  readonly mode: "tools" | "text";
  readonly style: RunnerStyle;
  readonly samples: number;
  /** The model's price from --prices, so each call's cost is recorded; null without a price table. */
  readonly price: ModelPrice | null;
}

export interface RunOptions {
  readonly studyId: string;
  readonly target: ServerTarget;
  readonly seat: SeatOptions;
  /** A second model seated through join_match, for a study whose opponent is `agent`. */
  readonly opponent?: SeatOptions;
  readonly concurrency: number;
  /** Stop after starting this many trials (a smoke run); all remaining trials otherwise. */
  readonly maxTrials?: number;
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
  /** `--cache`: the response cache both seats look replies up in. */
  readonly cache: ResponseCache | null;
  /** What the run may spend; it stops cleanly before passing it. */
  readonly budget: Budget | null;
  /** `--batch`: the trials' first replies through the provider's batch API (text mode, one seat). */
  readonly batch?: BatchSettings;
  /** Where the player stood before this run, when the runner could read the record (--db). */
  readonly before?: {
    readonly trialsPerPlayer: number;
    readonly finished: number;
    readonly trialsPlanned?: number;
    readonly stoppedEarly?: readonly { readonly game: string; readonly reason: string }[];
  };
  /** Called whenever the totals change, and with the study's size once known. */
  readonly onProgress?: (stats: RunStats, total: RunTotal) => void;
  /** Aborted on Ctrl-C: the run stops at once, trials in play stay open, and the summary says so. */
  readonly interrupt?: AbortSignal;
  /** One line per failed trial (never containing a key). */
  readonly onTrialError?: (matchId: string, message: string) => void;
}

/** How far the player is through the study: from the record, or once the server has answered the first next_trial. */
export interface RunTotal {
  /** The schedule's size: under adaptive stopping the most the player can play. */
  trialsPerPlayer: number | null;
  /** The trials the player will play as things stand: the size less what adaptive stops removed. */
  trialsPlanned?: number | null;
  /** Trials finished before this run started, once it can be told. */
  finishedBefore: number | null;
  /** The games the study's adaptive rule stopped early for this player, with why (once complete). */
  stoppedEarly: { game: string; reason: string }[];
  /**
   * Whether this run was dealt one-shot trials (a trial of one round) and repeated ones: through --server
   * the runner cannot read the study's design, and a trial's `rounds` is all it is told of its game.
   */
  dealt?: { oneShot: boolean; repeated: boolean };
}

export interface RunSummary {
  readonly stats: RunStats;
  readonly total: RunTotal;
  /** The server said the study is complete for this player. */
  readonly complete: boolean;
  /** Trials given up after errors or an interruption; they stay open and the next run resumes them. */
  readonly leftOpen: number;
  /** The run was interrupted (Ctrl-C). */
  readonly interrupted: boolean;
  /** What the player has spent in the study against the budget (earlier runs too), when the run had one. */
  readonly spent: string | null;
  /** What earlier runs of the player in the study had spent, when the budget counts it and it is not nothing. */
  readonly spentBefore: string | null;
  /** The games the study's adaptive rule stopped early for this player, with why (once complete). */
  readonly stoppedEarly: readonly { game: string; reason: string }[];
}

/** After Ctrl-C, how long the workers get to unwind (a submit_move in flight finishes) before the summary. */
const UNWIND_MS = 3000;

/** Trials failing one after another this often mean the setup is wrong (model name, URL): stop. */
const FAILED_TRIALS_IN_A_ROW = 5;

/**
 * `same-game run`: plays the player's remaining trials of a study, `concurrency` at a time, each in a
 * fresh conversation. Trials come from next_trial (the server's balanced, blinded schedule) with
 * `concurrent`, so a trial one worker holds is never handed to another, and an open trial of an
 * earlier, interrupted run is resumed first — so a run stopped anywhere ends, when run again, with
 * exactly the designed trials.
 */
export async function runStudy(options: RunOptions): Promise<RunSummary> {
  if (options.batch) return runBatchStudy(options, options.batch);
  const stats = new RunStats();
  const main = await openSeat(options, options.seat, stats);
  const opponent = options.opponent ? await openSeat(options, options.opponent, stats) : null;
  const total = initialTotal(options);
  const abandoned = new Set<string>();
  let started = 0;
  let complete = false;
  let failuresInARow = 0;
  const report = () => options.onProgress?.(stats, total);
  stats.onChange = report;
  const inPlay = new Set<string>();

  const nextTrial = trialDealer(main, options.studyId, total);

  const { budget } = options;
  let admissions = 0;
  const worker = async () => {
    while (stats.takesNewTrials && !complete) {
      if (options.maxTrials !== undefined && started >= options.maxTrials) return;
      // A trial starts only when the budget can pay for it to the end.
      const budgetKey = `trial ${++admissions}`;
      if (budget && !(await budget.admit(budgetKey, () => !stats.takesNewTrials))) {
        stats.stopAtBudget(budget.describe());
        return;
      }
      // Other workers may have started trials (or found the study done) while this one waited for the budget.
      if ((options.maxTrials !== undefined && started >= options.maxTrials) || complete) {
        budget?.release(budgetKey, false);
        return;
      }
      let finished = false;
      started++;
      const next = await nextTrial();
      // Nothing left to deal: the study is complete, or its last trials are ones this run holds open.
      if (next.complete === true || next.trial === null) {
        complete = true;
        started--;
        budget?.release(budgetKey, false);
        return;
      }
      const view = next.trial as TrialView;
      const trial = { trialIndex: next.trial_index as number, budgetKey };
      inPlay.add(view.match_id);
      report();
      try {
        await playTrial(main, opponent, view, trial);
        stats.trials++;
        finished = true;
        failuresInARow = 0;
      } catch (error) {
        abandoned.add(view.match_id);
        if (error instanceof StopSignal) return;
        // A run set up wrong stops at once; the one line that says so is the run's error, not a trial's.
        if (error instanceof UsageError) return stats.stopMisconfigured(error);
        stats.failedTrials++;
        const message = error instanceof Error ? error.message : String(error);
        options.onTrialError?.(view.match_id, message);
        if (++failuresInARow >= FAILED_TRIALS_IN_A_ROW) {
          stats.stop(`${FAILED_TRIALS_IN_A_ROW} trials in a row failed; the last: ${message}`);
        }
      } finally {
        inPlay.delete(view.match_id);
        budget?.release(budgetKey, finished);
        report();
      }
    }
  };

  // Heard before the workers start: a signal during the server's start stops them before they deal a trial.
  const interrupted = new Promise<void>((resolve) => {
    const onInterrupt = () => {
      stats.interrupt();
      resolve();
    };
    if (options.interrupt?.aborted) onInterrupt();
    else options.interrupt?.addEventListener("abort", onInterrupt, { once: true });
  });
  const workers = Promise.all(Array.from({ length: options.concurrency }, worker));
  try {
    report();
    await Promise.race([
      workers,
      interrupted.then(() => Promise.race([workers, sleep(UNWIND_MS, undefined, { ref: false })])),
    ]);
    // A worker cut off by the interruption may still fail against the closed connection: nothing to tell.
    if (stats.interrupted) workers.catch(() => {});
  } finally {
    // A worker still waiting on the server after the unwind time is abandoned with its connection.
    for (const matchId of inPlay) abandoned.add(matchId);
    await Promise.all([main.connection.close(), opponent?.connection.close()]);
  }
  if (stats.misconfigured !== null && !stats.interrupted) throw stats.misconfigured;
  return {
    stats,
    total,
    complete: studyComplete(complete, total, stats),
    leftOpen: abandoned.size,
    interrupted: stats.interrupted,
    spent: options.budget?.describe() ?? null,
    spentBefore: options.budget?.describeBefore() ?? null,
    stoppedEarly: total.stoppedEarly,
  };
}

/** The totals as the record gave them before the run (unknown through --server until next_trial answers). */
export function initialTotal(options: RunOptions): RunTotal {
  return {
    trialsPerPlayer: options.before?.trialsPerPlayer ?? null,
    trialsPlanned: options.before?.trialsPlanned ?? null,
    finishedBefore: options.before?.finished ?? null,
    stoppedEarly: [...(options.before?.stoppedEarly ?? [])],
    dealt: { oneShot: false, repeated: false },
  };
}

/**
 * Whether the study is complete for the player at the end of a run: next_trial said so and every trial
 * is finished, or the budget refused the next trial when none was left to play (a budget that covers the
 * study exactly, or a run again after it was done), which is completion, not a stop at the budget.
 */
export function studyComplete(dealtAll: boolean, total: RunTotal, stats: RunStats): boolean {
  return (dealtAll || stats.budgetStop !== null) && allDone(total, stats);
}

/**
 * Whether every trial the player will play is finished: next_trial's "complete" says only that nothing is
 * left to deal, while trials this run held may have been given up (an interruption, an error) and stay open.
 */
export function allDone(total: RunTotal, stats: RunStats): boolean {
  const planned = total.trialsPlanned ?? total.trialsPerPlayer;
  return planned !== null && (total.finishedBefore ?? 0) + stats.trials >= planned;
}

/**
 * next_trial with `concurrent`: the server never hands this connection a trial it already holds, so
 * workers ask at the same time without racing, and a trial given up on is not retried in this run.
 * Keeps `total` (the study's size, and how many trials were done before this run) up to date.
 */
export function trialDealer(
  seat: Seat,
  studyId: string,
  total: RunTotal,
): () => Promise<Record<string, unknown>> {
  let resumed = 0;
  return async () => {
    const next = await seat.connection.require("next_trial", {
      study_id: studyId,
      player: seat.connection.player,
      concurrent: true,
    });
    total.trialsPerPlayer = next.trials_per_player as number;
    // The trials that will be played: under adaptive stopping the positions its stops removed are not.
    total.trialsPlanned = (next.trials_planned ?? next.trials_per_player) as number;
    // The first answer comes before any trial of this run can finish: its count is what was done before.
    if (typeof next.trials_finished === "number") total.finishedBefore ??= next.trials_finished;
    if (next.complete !== true && next.trial !== null) {
      // A repeated game's horizon may be hidden (rounds null); a one-shot trial always says 1.
      total.dealt ??= { oneShot: false, repeated: false };
      if ((next.trial as TrialView | undefined)?.rounds === 1) total.dealt.oneShot = true;
      else if (next.trial !== undefined) total.dealt.repeated = true;
      if (next.resumed === true) resumed++;
      // Open trials are resumed before any new one is assigned, so the first new index counts them;
      // positions a stop removed before it were never assigned.
      else {
        total.finishedBefore ??=
          (next.trial_index as number) - ((next.skipped_before as number | undefined) ?? 0) - resumed;
      }
    } else {
      // Trials held open by this run (the answer's held_open) are not finished ones.
      if (next.complete === true) total.finishedBefore ??= total.trialsPlanned - resumed;
      // Only the operator's surface says why games stopped early; the player's surface the runner plays
      // on leaves it out, and what the record said before the run stands.
      const stopped = next.stopped_early as { game: string; reason: string }[] | undefined;
      if (stopped) total.stoppedEarly = stopped.map(({ game, reason }) => ({ game, reason }));
    }
    return next;
  };
}

export async function openSeat(options: RunOptions, seat: SeatOptions, stats: RunStats): Promise<Seat> {
  const connection = await ServerConnection.open(options.target, seat.player, {
    retry: options.retry,
    // A wait the server asked for counts as a rate-limit retry, as a model endpoint's 429 does.
    onWait: () => stats.retried("rate"),
    ...(options.interrupt ? { signal: options.interrupt } : {}),
  });
  const settings: CallSettings = {
    endpoint: seat.endpoint,
    mode: seat.mode,
    style: seat.style.id,
    timeoutMs: options.timeoutMs,
    retry: options.retry,
    stats,
    cache: options.cache,
    budget: options.budget,
    price: seat.price,
  };
  return {
    connection,
    settings,
    system: systemMessage(seat.style, seat.mode),
    samples: seat.samples,
    tools: seat.mode === "tools" ? await connection.modelTools() : [],
  };
}

/** One trial: the match from its current round, and the second seat's match when a model sits there. */
async function playTrial(
  main: Seat,
  opponent: Seat | null,
  view: TrialView,
  trial: { trialIndex: number; budgetKey: string },
): Promise<void> {
  if (opponent === null) return playSeat(main, view, trial);
  const joined = await opponent.connection.call("join_match", {
    match_id: view.match_id,
    player: opponent.connection.player,
  });
  if (joined.isError || joined.structured === null) {
    // join_match's refusal of a match whose opponent is not "agent" (src/play/agent-match-join.ts).
    if (/was not started for another player to join/.test(joined.text)) {
      throw new UsageError(`--opponent-model needs a study whose opponent is "agent": ${joined.text}`);
    }
    throw new Error(`join_match: ${joined.text}`);
  }
  await Promise.all([
    playSeat(main, view, trial),
    playSeat(opponent, joined.structured as unknown as TrialView, trial),
  ]);
}

function playSeat(
  seat: Seat,
  view: TrialView,
  trial: { trialIndex: number; budgetKey: string },
): Promise<void> {
  const ref: TrialRef = { ...trial, matchId: view.match_id, player: seat.connection.player };
  return seat.settings.mode === "tools"
    ? playToolsMatch(seat, roundViewText(view), view, ref)
    : playTextMatch(seat, view, ref);
}
