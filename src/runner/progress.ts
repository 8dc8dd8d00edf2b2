import type { RunStats } from "./run-stats.js";
import type { RunTotal } from "./run-study.js";

export type ProgressSink = (stats: RunStats, total: RunTotal) => void;

/** Seconds as m:ss, or h:mm:ss from an hour on. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

/**
 * The progress line: trials done of the player's total, elapsed time, and the time left at this run's
 * rate so far ("ETA ?" until a trial has finished).
 */
export function progressLine(
  stats: RunStats,
  total: RunTotal,
): { done: number; of: number | null; line: string } {
  const done = (total.finishedBefore ?? 0) + stats.trials;
  // What will be played, not the schedule's size: positions an adaptive stop removed are not counted.
  const of = total.trialsPlanned ?? total.trialsPerPlayer;
  const seconds = stats.elapsedSeconds();
  const rate = seconds > 0 ? stats.trials / seconds : 0;
  const eta = of !== null && rate > 0 ? clock(Math.max(0, of - done) / rate) : "?";
  const line = `${done}/${of ?? "?"} trials, ${rate.toFixed(1)}/s, elapsed ${clock(seconds)}, ETA ${eta}, ${stats.tokens} tokens, ${stats.failedTrials} errors, ${stats.retries} retries`;
  return { done, of, line };
}

/** A bar redrawn in place, for a terminal. */
export function terminalProgress(write: (text: string) => void): ProgressSink {
  const width = 28;
  let last = 0;
  return (stats, total) => {
    const now = performance.now();
    if (now - last < 100) return;
    last = now;
    const { done, of, line } = progressLine(stats, total);
    const filled = of ? Math.min(width, Math.round((done / of) * width)) : 0;
    write(`\r[${"#".repeat(filled)}${".".repeat(width - filled)}] ${line}\u001b[K`);
  };
}

/** Plain lines, at most one every `everyMs`, for logs and pipes. */
export function lineProgress(write: (text: string) => void, everyMs = 5000): ProgressSink {
  let last = -Infinity;
  return (stats, total) => {
    const now = performance.now();
    // Nothing to say before the server has told the study's size.
    if (now - last < everyMs || total.trialsPerPlayer === null) return;
    last = now;
    write(`same-game run: ${progressLine(stats, total).line}\n`);
  };
}
