import type { MatchRecord } from "../store/records.js";
import { UsageError } from "../usage-error.js";
import type { Caller } from "./caller.js";
import type { PlayDeps } from "./play-deps.js";

// In agent-vs-agent play each seat is a match of its own, and the second seat is invited by the first
// seat's match id. An agent that joined a match and then answers on the id it was invited with (not the
// one join_match gave it) would move for the other player: under one principal nothing else tells the
// seats apart, so its move would be recorded as the other player's and the other player then refused.
// The connection that took one seat is therefore refused on the other seat's match when the two seats are
// different players, unless it also took that one: one player on both seats is self-play, on purpose, from
// one connection or from a host that reconnected between start_match and join_match.

/**
 * Refuses a move on `match` from a connection that holds the other seat of the same agent-vs-agent match,
 * played by another player, and not this one, naming the caller's own seat.
 */
export function refuseOtherSeat(deps: PlayDeps, caller: Caller, match: MatchRecord): void {
  if (match.opponent !== "agent" || match.partner_match_id === null) return;
  if (match.session_id === caller.sessionId) return;
  const partner = deps.store.getMatch(match.partner_match_id);
  if (partner === undefined || partner.session_id !== caller.sessionId) return;
  if (partner.player === match.player) return;
  throw new UsageError(
    `Match "${match.id}" is the other player's seat of your agent-vs-agent match; your seat is match "${partner.id}": answer with submit_move on match_id "${partner.id}".`,
  );
}
