// How far a running analysis has got, for whoever asked for it (an MCP client's progress notifications, the
// CLI's line on a terminal). The analyses are synchronous functions of plain data, so the listener is
// ambient: set around one analysis by its runner, and told by the long loops inside it. With no listener
// (tests, Table 3, the permutation worker) a report costs one comparison. A report is also where a cancelled
// analysis stops (analysis-cancellation.ts): the loops that report are the loops that take time.
import { throwIfCancelled } from "./analysis-cancellation.js";

/** One report: `done` of `total` steps of the named stage ("bootstrap (10,000 replicates)", "cells"). */
export interface ProgressStep {
  readonly stage: string;
  readonly done: number;
  readonly total: number;
  /** What one step is ("cell", "simulation"), for the readable message. */
  readonly unit: string;
}

export type ProgressListener = (step: ProgressStep) => void;

let listener: ProgressListener | null = null;

/**
 * Tells the current listener, if any, that `done` of `total` steps of `stage` are finished; throws
 * AnalysisStopped instead when the analysis has been cancelled.
 */
export function reportProgress(stage: string, done: number, total: number, unit: string): void {
  throwIfCancelled();
  if (listener !== null) listener({ stage, done, total, unit });
}

/** Runs `work` with `progress` as the listener (restoring the one before, so runs may nest). */
export function withProgress<T>(progress: ProgressListener | null, work: () => T): T {
  const before = listener;
  listener = progress;
  try {
    return work();
  } finally {
    listener = before;
  }
}

/** The readable line of a step: "bootstrap (10,000 replicates): cell 400 of 880"; a one-step stage by name. */
export function progressMessage(step: ProgressStep): string {
  const n = (x: number) => x.toLocaleString("en-US");
  if (step.total <= 1) return step.stage;
  return `${step.stage}: ${step.unit} ${n(step.done)} of ${n(step.total)}`;
}
