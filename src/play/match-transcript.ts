import type { MatchRecord } from "../store/records.js";
import { settleAgentForfeit } from "./agent-match-rounds.js";
import type { Caller } from "./caller.js";
import { playerRound, requireMatch, surfaceLabels } from "./match-view.js";
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
  // Reading is one of the moments an overdue agent-vs-agent round is settled (see agent-match-rounds).
  const match = settleAgentForfeit(deps, requireMatch(deps, matchId, caller.principal));
  const framing = deps.catalog.framing(match.framing, match.game);
  const rounds = deps.store
    .listDecisions(match.id)
    .filter((d) => d.status !== "pending")
    .map((d) => ({
      round: d.round,
      status: d.status,
      ...playerRound(framing, d),
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
    labels: surfaceLabels(deps, match),
    rounds,
    total_points: rounds.reduce((sum, r) => sum + r.your_points, 0),
  };
}
