import type { HistoryMode } from "../domain/study-design.js";
import type { PromptStyle, VariantId } from "../domain/types.js";
import { printable } from "../queries/format.js";
import { UsageError } from "../usage-error.js";
import { forfeitAfterSeconds } from "./agent-match-rounds.js";
import { refuseJoinMidMatch } from "./agent-seat-lost.js";
import { type Caller, playerLabel } from "./caller.js";
import { currentRoundView, type RoundView } from "./match-view.js";
import type { PlayDeps } from "./play-deps.js";
import { buildMatch, ensureCallerSession } from "./start-match.js";

export interface JoinMatchArgs {
  match_id: string;
  /** The second seat's framing; the first seat's when absent. */
  framing?: string;
  player?: string;
}

/**
 * `join_match`: takes the open seat of a match started with opponent "agent". The second seat gets its own
 * match — same game, variant, style, history and horizon settings, its own framing and its own seeded
 * action order — linked to the first through partner_match_id, and its first prompt.
 *
 * The match id is the invitation, within one principal: a match of another token answers exactly like a
 * missing one (a principal is a wall), and a refusal never says what a match is played against. Each
 * seat reads only its own match.
 */
export function joinMatch(deps: PlayDeps, caller: Caller, args: JoinMatchArgs): RoundView {
  const player = playerLabel(caller, args.player);
  ensureCallerSession(deps, caller, player);
  return deps.store.transaction(() => {
    const first = deps.store.getMatch(args.match_id);
    if (first === undefined || first.source !== null || first.principal !== caller.principal) {
      throw new UsageError(
        `No match with id "${printable(args.match_id)}" to join; ask the first player for the match_id start_match gave it.`,
      );
    }
    if (first.opponent !== "agent") {
      throw new UsageError(
        `Match "${first.id}" was not started for another player to join; only a match started with opponent "agent" can be joined.`,
      );
    }
    refuseJoinMidMatch(first);
    if (first.partner_match_id !== null || first.status === "finished") {
      throw new UsageError(
        `Match "${first.id}" already has both players; start a new match with opponent "agent".`,
      );
    }
    const second = {
      ...buildMatch(deps, caller, player, {
        game: first.game,
        variant: first.variant as VariantId,
        framing: args.framing ?? first.framing,
        style: first.style as PromptStyle,
        opponent: { id: "agent", params: {} },
        seed: `${first.seed}:second-seat`,
        history_mode: first.history_mode as HistoryMode,
        reveal_horizon: first.reveal_horizon,
        forfeit_after_seconds: forfeitAfterSeconds(first),
      }),
      partner_match_id: first.id,
    };
    deps.store.insertMatch(second);
    deps.store.setPartner(first.id, second.id);
    return currentRoundView(deps, second, []);
  });
}
