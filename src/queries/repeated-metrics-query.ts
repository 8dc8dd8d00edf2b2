import { comprehensionCurve, curveBand, meanCurve } from "../analysis/repeated/comprehension-curve.js";
import {
  INVALID_ROUND_SCORINGS,
  type InvalidRoundScoring,
} from "../analysis/repeated/invalid-round-scoring.js";
import {
  type AggregateMatchMetrics,
  aggregateMatchMetrics,
  type ComprehensionRule,
  DEFAULT_COMPREHENSION_THRESHOLD,
  type MatchMetrics,
  type MatchTranscript,
  matchMetrics,
  type TranscriptRound,
} from "../analysis/repeated/repeated-metrics.js";
import { canonicalJson } from "../domain/canonical-json.js";
import { VARIANT_IDS } from "../domain/types.js";
import type { PlayDeps } from "../play/play-deps.js";
import { loadStudy } from "../play/studies.js";
import type { MatchRecord, RecordFilter } from "../store/records.js";
import { UsageError } from "../usage-error.js";
import { refuseAbsentPlayersAndGames } from "./absent-filter-values.js";
import { type AskedFrom, filterNames } from "./filter-names.js";
import { printable } from "./format.js";

// The store → analysis bridge for repeated play: finished repeated matches (live and imported) become
// transcripts, and SPEC §6 metrics come out per match and per (player, game, variant, framing, opponent
// with its params): one opponent id with other params is another opponent (pattern of rock alone and of
// scissors alone), as a study's design counts it.

export interface RepeatedMetricsQuery extends RecordFilter, AskedFrom {
  opponents?: string[];
  rule?: ComprehensionRule;
  threshold?: number;
  /** How rounds without a valid move are scored (SPEC §6 "loss", or as the counterfactual study does). */
  invalid_rounds?: InvalidRoundScoring;
}

export interface StoredTranscript {
  match: MatchRecord;
  transcript: MatchTranscript;
  /**
   * The MCP session its first decided round was decided in; null for an imported match. Not the match's
   * own session_id, which is the session that started it: `same-game run` starts every trial from its one
   * stdio session and plays each in a fresh one.
   */
  decidedIn: string | null;
}

/** Where a match came from and which cell it belongs to, beside its metrics. */
export interface MatchMetricsRow extends MatchMetrics {
  match_id: string;
  player: string;
  game: string;
  variant: string;
  framing: string;
  opponent: string;
  /** The opponent's params as the match recorded them: {} for none, and for an imported transcript. */
  opponent_params: Record<string, unknown>;
  /** The import label of an imported transcript; null for live play. */
  source: string | null;
  study_id: string | null;
}

export interface CellMetricsRow extends AggregateMatchMetrics {
  player: string;
  game: string;
  variant: string;
  framing: string;
  opponent: string;
  /** The params all the cell's matches gave the opponent ({} for none). */
  opponent_params: Record<string, unknown>;
  /** Mean over the cell's matches of the share of successful rounds from round i to the end (index i − 1). */
  comprehension_curve: number[];
  /** Its 95% pointwise interval over the matches, round by round (null with a single match). */
  comprehension_curve_ci: [number, number][] | null;
}

export interface RepeatedMetricsReport {
  comprehension_rule: ComprehensionRule;
  comprehension_threshold: number;
  invalid_rounds: InvalidRoundScoring;
  matches: MatchMetricsRow[];
  cells: CellMetricsRow[];
}

/** Transcripts of the finished repeated matches that pass the filter, oldest first. */
export function storedTranscripts(
  deps: PlayDeps,
  filter: RecordFilter & { opponents?: string[] },
): StoredTranscript[] {
  const rounds = new Map<string, TranscriptRound[]>();
  const decidedIn = new Map<string, string>();
  for (const row of deps.store.repeatedRounds(filter)) {
    const { match_id, round: _round, session_id, ...transcriptRound } = row;
    const list = rounds.get(match_id) ?? [];
    list.push(transcriptRound);
    rounds.set(match_id, list);
    if (session_id !== null && !decidedIn.has(match_id)) decidedIn.set(match_id, session_id);
  }
  return deps.store
    .listMatches({ ...filter, repeated_only: true })
    .filter((match) => rounds.has(match.id))
    .map((match) => ({
      match,
      transcript: { rounds: rounds.get(match.id) as TranscriptRound[] },
      decidedIn: decidedIn.get(match.id) ?? null,
    }));
}

/** SPEC §6 metrics of the record: every finished repeated match, and every cell's means and SDs. */
export function repeatedMetrics(deps: PlayDeps, query: RepeatedMetricsQuery): RepeatedMetricsReport {
  checkFilter(deps, query);
  const rule = query.rule ?? "match";
  const threshold = query.threshold ?? DEFAULT_COMPREHENSION_THRESHOLD;
  if (!(threshold > 0 && threshold <= 1)) {
    throw new UsageError(`The comprehension threshold must be in (0, 1]; got ${threshold}.`);
  }
  const invalidRounds = query.invalid_rounds ?? "loss";
  if (!(INVALID_ROUND_SCORINGS as readonly string[]).includes(invalidRounds)) {
    throw new UsageError(
      `Unknown invalid-round scoring "${invalidRounds}"; valid: ${INVALID_ROUND_SCORINGS.join(", ")}.`,
    );
  }
  const cells = new Map<string, { row: MatchMetricsRow; curve: number[] }[]>();
  const matches = storedTranscripts(deps, query).map(({ match, transcript }) => {
    const game = deps.catalog.game(match.game);
    const stage = deps.catalog.stageGame(match.game, match.variant);
    const row: MatchMetricsRow = {
      match_id: match.id,
      player: match.player,
      game: match.game,
      variant: match.variant,
      framing: match.framing,
      opponent: match.opponent,
      opponent_params: match.opponent_params,
      source: match.source,
      study_id: match.study_id,
      ...matchMetrics(transcript, stage, game.cooperativeAction, { rule, threshold, invalidRounds }),
    };
    const key = JSON.stringify([
      match.player,
      match.game,
      match.variant,
      match.framing,
      match.opponent,
      canonicalJson(match.opponent_params),
    ]);
    const members = cells.get(key) ?? [];
    members.push({
      row,
      curve: comprehensionCurve(transcript, stage, rule, invalidRounds, game.cooperativeAction),
    });
    cells.set(key, members);
    return row;
  });
  // A filter by labels the record does not hold would read as "no repeated play yet": it is named.
  if (matches.length === 0 && (query.players ?? query.framings ?? query.opponents) !== undefined) {
    const parts = [
      query.players && `players ${query.players.map(printable).join(", ")}`,
      query.games && `games ${query.games.join(", ")}`,
      query.framings && `framings ${query.framings.map(printable).join(", ")}`,
      query.opponents && `opponents ${query.opponents.map(printable).join(", ")}`,
      query.study_id && `study ${printable(query.study_id)}`,
    ].filter(Boolean);
    throw new UsageError(
      `No finished repeated match matches ${parts.join(", ")}; play some repeated matches or import transcripts first.`,
    );
  }
  return {
    comprehension_rule: rule,
    comprehension_threshold: threshold,
    invalid_rounds: invalidRounds,
    matches,
    cells: [...cells.values()].map((members) => {
      const { player, game, variant, framing, opponent, opponent_params } = (
        members[0] as { row: MatchMetricsRow }
      ).row;
      return {
        player,
        game,
        variant,
        framing,
        opponent,
        opponent_params,
        ...aggregateMatchMetrics(members.map((m) => m.row)),
        comprehension_curve: meanCurve(members.map((m) => m.curve)),
        comprehension_curve_ci: curveBand(members.map((m) => m.curve)),
      };
    }),
  };
}

/** Game and variant filters must name catalog entries (players, framings, opponents may be import labels). */
function checkFilter(deps: PlayDeps, query: RepeatedMetricsQuery): void {
  if (query.study_id !== undefined) loadStudy(deps, query.study_id);
  const repeatedGames = deps.catalog.games.filter((g) => g.rounds > 1).map((g) => g.id);
  for (const game of query.games ?? []) {
    if (!repeatedGames.includes(game)) {
      throw new UsageError(`"${game}" is not a repeated game; repeated games: ${repeatedGames.join(", ")}.`);
    }
  }
  for (const variant of query.variants ?? []) {
    if (!(VARIANT_IDS as readonly string[]).includes(variant)) {
      throw new UsageError(`Unknown variant "${variant}"; valid variants: ${VARIANT_IDS.join(", ")}.`);
    }
  }
  refuseAbsentPlayersAndGames(deps, query, {
    names: filterNames(query.surface),
    analysable: (game) => repeatedGames.includes(game),
  });
}
