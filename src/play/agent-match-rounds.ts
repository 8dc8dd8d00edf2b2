import type { DecisionRecord, MatchRecord } from "../store/records.js";
import { roundPayoffs } from "./match-engine.js";
import type { PlayDeps } from "./play-deps.js";

// Rounds of agent-vs-agent play (SPEC §7 `agent`). Each seat is its own match (own framing, labels and
// action order) linked by partner_match_id; both advance together. A seat's move waits as a `pending`
// decision — visible to nobody, its own seat's transcript included — until the other seat's move is in,
// and then both rounds are decided at once. A seat that leaves the other waiting longer than the match's
// forfeit_after_seconds forfeits the round; this is checked lazily, whenever either seat submits or reads.

/** How long a seat may keep the other waiting before it forfeits the round, unless the match says otherwise. */
export const DEFAULT_FORFEIT_SECONDS = 300;

/** The seat's forfeit limit, stored with the agent opponent's parameters. */
export function forfeitAfterSeconds(match: MatchRecord): number {
  const value = match.opponent_params.forfeit_after_seconds;
  return typeof value === "number" ? value : DEFAULT_FORFEIT_SECONDS;
}

/** A seat's move for the round; decisions of the same round, one per seat, are resolved together. */
export interface SeatMove {
  match: MatchRecord;
  /** The seat's pending decision, or null when it forfeits the round. */
  pending: DecisionRecord | null;
}

/**
 * Records a seat's settled move (valid, or void after too many invalid replies). If the other seat's move
 * is already waiting, the round is decided for both; otherwise this seat's move waits as `pending`.
 * Returns this seat's decision as now recorded.
 */
export function recordAgentMove(deps: PlayDeps, match: MatchRecord, pending: DecisionRecord): DecisionRecord {
  const partner = match.partner_match_id === null ? undefined : deps.store.getMatch(match.partner_match_id);
  const theirs = partner && deps.store.getDecision(partner.id, pending.round);
  if (partner === undefined || theirs?.status !== "pending") {
    deps.store.saveDecision(pending, match);
    return pending;
  }
  resolveAgentRound(deps, { match, pending }, { match: partner, pending: theirs }, pending.decided_at);
  return deps.store.getDecision(match.id, pending.round) as DecisionRecord;
}

/**
 * The lazy forfeit check: when exactly one seat's move for the open round is waiting, and it has waited
 * longer than the match's limit (counted from the later of the move and the second seat's arrival), the
 * silent seat forfeits: the round scores 0 for both. Returns the match as it now stands. `now` defaults to
 * the record's clock, the one the waiting move's time was written by: the two seats may be served by
 * replicas whose own clocks disagree by more than the limit, and a replica minutes ahead forfeited the
 * silent seat the moment it looked.
 */
export function settleAgentForfeit(deps: PlayDeps, match: MatchRecord, at?: Date): MatchRecord {
  if (match.opponent !== "agent" || match.status !== "open" || match.partner_match_id === null) return match;
  const now = at ?? new Date(deps.store.now());
  const partner = deps.store.getMatch(match.partner_match_id);
  if (partner === undefined) return match;
  return deps.store.transaction(() => {
    const round = match.next_round;
    const own = deps.store.getDecision(match.id, round);
    const theirs = deps.store.getDecision(partner.id, round);
    const waiting = own?.status === "pending" ? own : theirs?.status === "pending" ? theirs : undefined;
    if (waiting === undefined || (own?.status === "pending" && theirs?.status === "pending")) return match;
    const since = Math.max(
      Date.parse(waiting.decided_at),
      Date.parse(match.created_at),
      Date.parse(partner.created_at),
    );
    if (now.getTime() - since < forfeitAfterSeconds(match) * 1000) return match;
    const ownMove: SeatMove = { match, pending: own?.status === "pending" ? own : null };
    const theirMove: SeatMove = { match: partner, pending: theirs?.status === "pending" ? theirs : null };
    resolveAgentRound(deps, ownMove, theirMove, now.toISOString());
    return deps.store.getMatch(match.id) as MatchRecord;
  });
}

/** Decides one round for both seats: each seat's row gets the other's move and both payoffs; both advance. */
function resolveAgentRound(deps: PlayDeps, a: SeatMove, b: SeatMove, at: string): void {
  const stage = deps.catalog.stageGame(a.match.game, a.match.variant);
  for (const [self, other] of [
    [a, b],
    [b, a],
  ] as const) {
    const round = self.match.next_round;
    const own = self.pending?.action ?? null;
    const theirs = other.pending?.action ?? null;
    deps.store.saveDecision(
      {
        ...(self.pending ?? forfeitedRow(self.match.id, round)),
        opponent_action: theirs,
        ...roundPayoffs(stage, own, theirs),
        status: self.pending === null ? "forfeit" : own === null ? "void" : "decided",
        decided_at: at,
      },
      self.match,
    );
    deps.store.advanceMatch(self.match.id, round + 1, round >= self.match.rounds, at);
  }
}

function forfeitedRow(matchId: string, round: number): DecisionRecord {
  return {
    match_id: matchId,
    round,
    session_id: null,
    raw_text: null,
    action: null,
    rationale: null,
    tokens: null,
    opponent_action: null,
    payoff: 0,
    opponent_payoff: 0,
    invalid_attempts: 0,
    status: "forfeit",
    decided_at: "",
  };
}
