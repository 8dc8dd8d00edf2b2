import type { Rng } from "../domain/rng.js";

/** What a reference agent sees of one decision: only text the server showed it, never a condition id. */
export interface DecisionContext {
  /** The rendered prompt of this round. */
  readonly prompt: string;
  /** The choices in the framing's words, in the order shown. */
  readonly labels: readonly string[];
  readonly round: number;
  /** 1 for a one-shot decision; the horizon of a repeated match, or null when it is hidden. */
  readonly rounds: number | null;
  /** The server's outcome text of the previous round of this match; null in round 1. */
  readonly previousOutcome: string | null;
}

/**
 * A scripted player used as a calibration instrument: its true behaviour is known, so the analysis must
 * recover it. `choose` returns one of `context.labels`; all randomness comes from the given seeded rng.
 */
export interface ReferenceAgent {
  readonly name: string;
  readonly description: string;
  choose(context: DecisionContext, rng: Rng): string;
}
