import { type ModelCall, totalTokens } from "../domain/model-call.js";
import { opponentMove } from "../domain/opponents/index.js";
import { parseReply } from "../domain/parseReply.js";
import { formatAmount, renderRoundOutcome } from "../domain/render.js";
import { createRng } from "../domain/rng.js";
import type { ActionId } from "../domain/types.js";
import { SERVER_VERSION } from "../server-version.js";
import type { DecisionRecord, MatchRecord } from "../store/records.js";
import { UsageError } from "../usage-error.js";
import { recordAgentMove, settleAgentForfeit } from "./agent-match-rounds.js";
import { refuseLostPartnerMove } from "./agent-seat-lost.js";
import { refuseOtherSeat } from "./agent-seat-owner.js";
import { type Caller, sessionLabel } from "./caller.js";
import { fromOpponentSeat, opponentHistory, roundPayoffs } from "./match-engine.js";
import { currentRoundView, matchLabelMap, playableMatch, playerRound, type RoundView } from "./match-view.js";
import type { PlayDeps } from "./play-deps.js";
import { ensureCallerSession } from "./start-match.js";

/** After this many invalid replies in one round the round is void and scores 0. */
export const MAX_INVALID_ATTEMPTS = 5;

export interface SubmitMoveArgs {
  match_id: string;
  round: number;
  choice: string;
  rationale?: string;
  tokens?: number;
  /** The model calls behind this reply, when a runner sent them (request `_meta`). */
  model_calls?: readonly ModelCall[];
}

/** The recorded outcome of a round, as the agent is told it (in the framing's words). */
export interface MoveResult {
  match_id: string;
  round: number;
  /** "pending": an agent-vs-agent round waiting for the other seat's move; "forfeit": no answer in time. */
  status: "decided" | "void" | "pending" | "forfeit";
  your_choice: string | null;
  opponent_choice: string | null;
  your_points: number;
  opponent_points: number;
  outcome: string;
  /** True when this call repeated an already recorded choice and nothing new was written. */
  replayed: boolean;
  finished: boolean;
  /** The player's total over the match, once it is finished. */
  total_points: number | null;
  /** The next round to answer, while the match goes on. */
  next: RoundView | null;
}

export type SubmitOutcome = { kind: "recorded"; result: MoveResult } | { kind: "invalid"; message: string };

/**
 * `submit_move`, as one transaction: the reply is recorded verbatim as an attempt, parsed through the
 * framing's labels, and — when valid, or void after too many invalid attempts — the round is decided
 * against the opponent and the match advances. Idempotent per (match, round).
 */
export function submitMove(deps: PlayDeps, caller: Caller, args: SubmitMoveArgs): SubmitOutcome {
  // A reconnected client (new session) may continue a match: its session must exist before it acts.
  ensureCallerSession(deps, caller, sessionLabel(caller));
  return deps.store.transaction(() => {
    // One read of the match's state (the match, whether the round is decided, its attempts so far).
    const state = deps.store.moveState(args.match_id, args.round);
    const read = playableMatch(state?.match, args.match_id, caller.principal);
    refuseOtherSeat(deps, caller, read);
    refuseLostPartnerMove(read);
    const match = settleAgentForfeit(deps, read);
    // A forfeit just recorded changed the round: what was read before it is stale.
    const settled = match !== read;
    const recorded = state?.recorded || settled ? deps.store.getDecision(match.id, args.round) : undefined;
    if (recorded) return replay(deps, match, recorded, args.choice);
    if (match.status === "finished") {
      throw new UsageError(
        `Match "${match.id}" is finished after ${match.rounds} round(s); start a new match.`,
      );
    }
    if (args.round !== match.next_round) {
      throw new UsageError(
        `Round ${args.round} is not open in match "${match.id}": it is waiting for round ${match.next_round}.`,
      );
    }
    const before =
      settled || state === undefined ? deps.store.attemptTotals(match.id, args.round) : state.attempts;
    const framing = deps.catalog.framing(match.framing, match.game);
    const parsed = parseReply(args.choice, matchLabelMap(framing, match.action_order), framing.negations);
    // The record's clock, as every replica's: an agent seat's forfeit counts from this time on any replica.
    const now = deps.store.nowIso();
    const attempt = {
      match_id: match.id,
      round: args.round,
      session_id: caller.sessionId,
      raw_text: args.choice,
      action: parsed.ok ? parsed.action : null,
      invalid_reason: parsed.ok ? null : parsed.reason,
      tokens: args.tokens ?? (args.model_calls ? totalTokens(args.model_calls) : null),
      created_at: now,
    };
    if (args.model_calls && args.model_calls.length > 0) {
      const attemptId = deps.store.insertAttempt(attempt);
      deps.store.insertModelCalls(attemptId, match.id, args.round, args.model_calls);
    } else deps.store.recordAttempt(attempt);
    // The round's totals with this attempt, as the attempts table now sums them.
    const invalid = before.invalid + (parsed.ok ? 0 : 1);
    const tokens =
      before.tokens === null && attempt.tokens === null ? null : (before.tokens ?? 0) + (attempt.tokens ?? 0);
    if (!parsed.ok && invalid < MAX_INVALID_ATTEMPTS) {
      return {
        kind: "invalid",
        message: `${parsed.reason} This was invalid reply ${invalid} of ${MAX_INVALID_ATTEMPTS} for round ${args.round}; after ${MAX_INVALID_ATTEMPTS} the round is void and scores 0.`,
      };
    }
    // Round 1 has no history (the hot path of one-shot play); a later round reads it once, for the prompt
    // this reply answered and for the opponent's strategy.
    const past = args.round === 1 ? [] : deps.store.listDecisions(match.id);
    // That prompt, re-rendered from the record (the text the agent was shown, by the same catalog), is
    // stored once per distinct text, for the decision only: an invalid attempt leaves no decision.
    const provenance = {
      prompt_hash: deps.store.savePrompt(currentRoundView(deps, match, past).prompt),
      server_version: SERVER_VERSION,
      catalog_fingerprint: deps.catalog.fingerprint,
    };
    const input: RoundInput = {
      round: args.round,
      action: parsed.ok ? parsed.action : null,
      raw_text: args.choice,
      rationale: args.rationale ?? null,
      tokens,
      invalid_attempts: invalid,
      session_id: caller.sessionId,
      decided_at: now,
      ...provenance,
    };
    if (match.opponent === "agent") {
      const decision = recordAgentMove(deps, match, pendingDecision(match, input));
      return { kind: "recorded", result: moveResult(deps, match.id, decision, false) };
    }
    const decided = decideRound(deps, match, input, past);
    return { kind: "recorded", result: moveResult(deps, match.id, decided.decision, false, decided) };
  });
}

interface RoundInput {
  round: number;
  action: ActionId | null;
  raw_text: string;
  rationale: string | null;
  tokens: number | null;
  invalid_attempts: number;
  session_id: string;
  decided_at: string;
  prompt_hash: string;
  server_version: string;
  catalog_fingerprint: string;
}

/** A seat's move in agent-vs-agent play, waiting for the other seat's. */
function pendingDecision(match: MatchRecord, input: RoundInput): DecisionRecord {
  return {
    match_id: match.id,
    ...input,
    opponent_action: null,
    payoff: null,
    opponent_payoff: null,
    status: "pending",
  };
}

/** A decided round with the match as it now stands, so the reply needs no second read of the record. */
interface DecidedRound {
  decision: DecisionRecord;
  match: MatchRecord;
  decisions: DecisionRecord[];
}

/** Draws the opponent's move for the round, scores it, records the decision and advances the match. */
function decideRound(
  deps: PlayDeps,
  match: MatchRecord,
  input: RoundInput,
  past: readonly DecisionRecord[],
): DecidedRound {
  const game = deps.catalog.game(match.game);
  const stage = deps.catalog.stageGame(match.game, match.variant);
  // A generator derived for this round alone: replaying the history reproduces the move after a restart.
  const other = opponentMove(
    match.opponent,
    match.opponent_params,
    { stage: fromOpponentSeat(stage), cooperativeAction: game.cooperativeAction },
    opponentHistory(past),
    createRng(`${match.seed}:opponent:${input.round}`),
  );
  const payoffs = roundPayoffs(stage, input.action, other);
  const decision: DecisionRecord = {
    match_id: match.id,
    ...input,
    opponent_action: other,
    ...payoffs,
    status: input.action === null ? "void" : "decided",
  };
  // submitMove read in this transaction that the round has no decision yet.
  deps.store.saveDecision(decision, match, true);
  const finished = input.round >= match.rounds;
  deps.store.advanceMatch(match.id, input.round + 1, finished, input.decided_at);
  const advanced: MatchRecord = {
    ...match,
    next_round: input.round + 1,
    status: finished ? "finished" : "open",
    finished_at: finished ? input.decided_at : null,
  };
  return { decision, match: advanced, decisions: [...past, decision] };
}

/**
 * A resubmission for a round this seat has settled: the same choice gets the recorded outcome (or, while the
 * other seat's move is still out, the waiting answer), a different one an error. A forfeited round answers
 * with its outcome whatever the choice: the late reply cannot change it.
 */
function replay(deps: PlayDeps, match: MatchRecord, recorded: DecisionRecord, choice: string): SubmitOutcome {
  const framing = deps.catalog.framing(match.framing, match.game);
  const parsed = parseReply(choice, matchLabelMap(framing, match.action_order), framing.negations);
  const same = choice === recorded.raw_text || (parsed.ok && parsed.action === recorded.action);
  if (!same && recorded.status !== "forfeit") {
    const was = recorded.action === null ? "void (no valid reply)" : `"${framing.labels[recorded.action]}"`;
    throw new UsageError(
      `Round ${recorded.round} of match "${match.id}" is already ${recorded.status === "pending" ? "answered (waiting for the other player)" : "decided"} as ${was}; a different choice cannot replace it.`,
    );
  }
  return { kind: "recorded", result: moveResult(deps, match.id, recorded, true) };
}

function moveResult(
  deps: PlayDeps,
  matchId: string,
  decision: DecisionRecord,
  replayed: boolean,
  current?: DecidedRound,
): MoveResult {
  const match = current?.match ?? (deps.store.getMatch(matchId) as MatchRecord);
  const framing = deps.catalog.framing(match.framing, match.game);
  const finished = match.status === "finished";
  const decisions = current?.decisions ?? deps.store.listDecisions(match.id);
  return {
    match_id: match.id,
    round: decision.round,
    status: decision.status,
    ...playerRound(framing.labels, decision),
    outcome: outcomeText(deps, match, decision),
    replayed,
    finished,
    total_points: finished ? decisions.reduce((sum, d) => sum + (d.payoff ?? 0), 0) : null,
    next: finished || decision.status === "pending" ? null : currentRoundView(deps, match, decisions),
  };
}

function outcomeText(deps: PlayDeps, match: MatchRecord, decision: DecisionRecord): string {
  const framing = deps.catalog.framing(match.framing, match.game);
  const record = { own: decision.action, other: decision.opponent_action, ownPoints: decision.payoff ?? 0 };
  if (decision.status === "pending") {
    return `Your move for round ${decision.round} is recorded; waiting for the other player's move. Send the same choice again, or call get_match, to see the outcome.`;
  }
  const prefix =
    decision.status === "void"
      ? `No valid answer after ${MAX_INVALID_ATTEMPTS} tries: the round scores 0. `
      : decision.status === "forfeit"
        ? "You did not answer in time: the round is forfeited and scores 0 for both. "
        : match.opponent === "agent" && decision.opponent_action === null
          ? "The other player did not answer in time: the round scores 0 for both. "
          : "";
  if (framing.repeated !== null) return prefix + renderRoundOutcome(framing, decision.round, record);
  const own = record.own === null ? "no valid answer" : framing.labels[record.own];
  const other = record.other === null ? "no valid answer" : framing.labels[record.other];
  return `${prefix}You chose ${own}; the other side chose ${other}. Your result: ${formatAmount(framing, record.ownPoints)}.`;
}
