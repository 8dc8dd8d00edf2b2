import type { MatchRecord } from "../store/records.js";
import { settleAgentForfeit } from "./agent-match-rounds.js";
import type { Caller } from "./caller.js";
import { playerRound, surfaceLabels, visibleMatch } from "./match-view.js";
import type { PlayDeps } from "./play-deps.js";

/** Where a round came from; every field null for rounds recorded before provenance was kept. */
export interface RoundProvenance {
  prompt_hash: string | null;
  server_version: string | null;
  catalog_fingerprint: string | null;
}

/** A match as its player may see it: its rounds in the framing's words, still blind to the condition. */
export interface MatchTranscript {
  match_id: string;
  status: MatchRecord["status"];
  next_round: number | null;
  rounds_played: number;
  labels: string[];
  rounds: {
    round: number;
    status: string;
    your_choice: string | null;
    opponent_choice: string | null;
    your_points: number;
    opponent_points: number;
    invalid_attempts: number;
    /** Which prompt text (by hash), server version and catalog the round was played under. */
    provenance: RoundProvenance;
  }[];
  total_points: number;
}

export function matchTranscript(deps: PlayDeps, caller: Caller, matchId: string): MatchTranscript {
  const found = visibleMatch(deps.store.getMatch(matchId), matchId, caller.principal);
  // Reading is one of the moments an overdue agent-vs-agent round is settled (see agent-match-rounds).
  const match = found.source === null ? settleAgentForfeit(deps, found) : found;
  // An imported transcript's framing is a label of play elsewhere, whose words the record does not hold:
  // its rounds are told in the game's own action ids.
  const labels = found.source === null ? deps.catalog.framing(match.framing, match.game).labels : {};
  const rounds = deps.store
    .listDecisions(match.id)
    .filter((d) => d.status !== "pending")
    .map((d) => ({
      round: d.round,
      status: d.status,
      ...playerRound(labels, d),
      invalid_attempts: d.invalid_attempts,
      provenance: {
        prompt_hash: d.prompt_hash ?? null,
        server_version: d.server_version ?? null,
        catalog_fingerprint: d.catalog_fingerprint ?? null,
      },
    }));
  return {
    match_id: match.id,
    status: match.status,
    next_round: match.status === "open" ? match.next_round : null,
    rounds_played: rounds.length,
    labels: found.source === null ? surfaceLabels(deps, match) : [...match.action_order],
    rounds,
    total_points: rounds.reduce((sum, r) => sum + r.your_points, 0),
  };
}
