import { setTimeout as sleep } from "node:timers/promises";
import type { ModelCall } from "../domain/model-call.js";
import type { ToolSpec } from "./endpoint.js";
import type { CallSettings } from "./model-caller.js";
import type { ServerConnection, Structured, ToolAnswer } from "./server-connection.js";

/** One seat at the table: a model, how it is prompted, and the MCP connection that records its moves. */
export interface Seat {
  readonly connection: ServerConnection;
  readonly settings: CallSettings;
  /** The system message of every conversation of this seat (style wording + reply instruction). */
  readonly system: string;
  /** Replies drawn per decision in text mode; the majority is submitted. */
  readonly samples: number;
  /** The whitelisted play tools, in tools mode. */
  readonly tools: readonly ToolSpec[];
}

/** What next_trial, join_match and submit_move show of a round to play. */
export interface TrialView {
  match_id: string;
  round: number;
  rounds: number | null;
  prompt: string;
  labels: string[];
}

/** How long the runner waits between looks at a round the other seat has not answered yet. */
const PENDING_POLL_MS = 20;

/**
 * submit_move, with the model calls behind the reply in `_meta` and their tokens as `tokens`. An
 * agent-vs-agent round answered "pending" is asked again (the same choice, nothing new recorded) until
 * the other seat has moved, so the model is not billed for waiting.
 */
export async function submitReply(
  seat: Seat,
  args: Structured,
  calls: readonly ModelCall[],
): Promise<ToolAnswer> {
  let answer = await seat.connection.call("submit_move", args, calls);
  while (!answer.isError && answer.structured?.status === "pending") {
    await sleep(PENDING_POLL_MS);
    const { tokens: _spent, ...again } = args;
    answer = await seat.connection.call("submit_move", again);
  }
  return answer;
}

/** True when the answer settled the last round of the match. */
export function finishedMatch(answer: ToolAnswer): boolean {
  return !answer.isError && answer.structured?.finished === true;
}

/**
 * Whether the answer leaves the reply without a valid move: refused, or the invalid reply that voided its
 * round (the server answers that one as a decision, status "void", not as an error).
 */
export function gaveNoValidMove(answer: ToolAnswer): boolean {
  return answer.isError || answer.structured?.status === "void";
}

/** Counts a submission's answer among the run's invalid replies when it left the reply no valid move. */
export function countIfInvalid(seat: Seat, answer: ToolAnswer): void {
  if (gaveNoValidMove(answer)) seat.settings.stats.invalidReply(attemptRecorded(answer));
}

/**
 * Whether the server recorded the submission as an attempt (and so the model calls sent with it): a
 * decided round, or a reply refused as unreadable. A call refused before that (bad arguments, a round that
 * is not open) recorded nothing, so its model calls are sent again with the next submission.
 */
export function attemptRecorded(answer: ToolAnswer): boolean {
  return !answer.isError || /invalid reply \d+ of \d+/.test(answer.text);
}
