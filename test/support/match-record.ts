import type { DecisionRecord, MatchRecord } from "../../src/store/records.js";

/**
 * An open one-shot prisoner's dilemma match against the random opponent, as the store tests write it
 * directly (no play loop): the fields a test cares about come in `fields`.
 */
export function oneShotMatch(id: string, fields: Partial<MatchRecord> = {}): MatchRecord {
  return {
    id,
    study_id: null,
    trial_index: null,
    player: "p",
    session_id: null,
    principal: "local",
    game: "prisoners-dilemma",
    variant: "base",
    framing: "business",
    style: "zero-shot",
    action_order: ["cooperate", "defect"],
    opponent: "random",
    opponent_params: {},
    history_mode: "none",
    reveal_horizon: false,
    rounds: 1,
    partner_match_id: null,
    seed: "1",
    status: "open",
    next_round: 1,
    source: null,
    created_at: "2026-12-01T00:00:00.000Z",
    finished_at: null,
    ...fields,
  };
}

/**
 * The decided first round of a one-shot match, choosing `action` (its raw text the action itself), as the
 * store tests write it directly; other fields (status, session) come in `fields`.
 */
export function firstRoundDecision(
  matchId: string,
  action: string | null,
  fields: Partial<DecisionRecord> = {},
): DecisionRecord {
  return {
    match_id: matchId,
    round: 1,
    session_id: null,
    raw_text: action,
    action,
    rationale: null,
    tokens: null,
    opponent_action: null,
    payoff: null,
    opponent_payoff: null,
    invalid_attempts: 0,
    status: "decided",
    decided_at: "2026-12-01T00:00:00.000Z",
    ...fields,
  };
}
