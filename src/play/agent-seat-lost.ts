import type { MatchRecord } from "../store/records.js";
import { UsageError } from "../usage-error.js";

// An agent-vs-agent seat advances only together with its partner seat. When one player's play is erased
// (`same-game erase`, a participant's withdrawal) the other seat stays, without its link: past round 1 it
// can never be decided again (no move can meet it, no forfeit can be counted against a seat that is gone),
// and a newcomer joining it would start at round 1 beside a seat at round N, each waiting for the other's
// move of a round the other will never play. Both are refused, saying why, instead of waiting forever.

/** Whether this open agent seat lost its partner after the match began. */
function lostPartnerMidMatch(match: MatchRecord): boolean {
  return (
    match.opponent === "agent" &&
    match.partner_match_id === null &&
    match.status === "open" &&
    match.next_round > 1
  );
}

/** Refuses a move on a seat whose partner seat was erased after round 1: it can never be decided. */
export function refuseLostPartnerMove(match: MatchRecord): void {
  if (!lostPartnerMidMatch(match)) return;
  throw new UsageError(
    `Match "${match.id}" cannot go on: the other player's seat was erased from the record after round ${match.next_round - 1}, so no move can meet yours; start a new match.`,
  );
}

/** Refuses to seat a newcomer beside a seat that is already past round 1. */
export function refuseJoinMidMatch(match: MatchRecord): void {
  if (!lostPartnerMidMatch(match)) return;
  throw new UsageError(
    `Match "${match.id}" cannot be joined: it was played to round ${match.next_round - 1} with another player, whose seat was erased from the record; start a new match with opponent "agent".`,
  );
}
