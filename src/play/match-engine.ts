import type { HistoryRound } from "../domain/opponents/strategy.js";
import type { RoundRecord } from "../domain/render.js";
import type { ActionId, StageGame } from "../domain/types.js";
import type { DecisionRecord } from "../store/records.js";

// Pure rules of play shared by every match: who gets what in a round, and how the past looks from each
// side. No I/O, so the same rules serve live play, resumed matches and tests.

export interface RoundPayoffs {
  readonly payoff: number;
  readonly opponent_payoff: number;
}

/** Payoffs of one round; a round in which either side has no valid move scores 0 for both (SPEC §6). */
export function roundPayoffs(stage: StageGame, own: ActionId | null, other: ActionId | null): RoundPayoffs {
  if (own === null || other === null) return { payoff: 0, opponent_payoff: 0 };
  const i = stage.actions.indexOf(own);
  const j = stage.actions.indexOf(other);
  return { payoff: stage.u1[i]?.[j] as number, opponent_payoff: stage.u2[i]?.[j] as number };
}

/** The stage game seen from the other seat: the opponent becomes the row player. */
export function fromOpponentSeat(stage: StageGame): StageGame {
  const transpose = (m: StageGame["u1"]) =>
    stage.actions.map((_, j) => stage.actions.map((_, i) => m[i]?.[j] as number));
  return { actions: stage.actions, u1: transpose(stage.u2), u2: transpose(stage.u1) };
}

/** Past rounds as the evaluated player's prompt shows them. */
export function playerHistory(decisions: readonly DecisionRecord[]): RoundRecord[] {
  return decisions.map((d) => ({ own: d.action, other: d.opponent_action, ownPoints: d.payoff ?? 0 }));
}

/** Past rounds as an algorithmic opponent sees them (its own move first). */
export function opponentHistory(decisions: readonly DecisionRecord[]): HistoryRound[] {
  return decisions.map((d) => ({ own: d.opponent_action, other: d.action }));
}
