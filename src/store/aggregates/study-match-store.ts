import type { AssignedTrial } from "../../domain/adaptive/adaptive-stops.js";
import { filterParams } from "../filter-params.js";
import { type MatchRow, toMatchRecord } from "../match-rows.js";
import type { MatchRecord, RecordFilter, StudyRecord } from "../records.js";
import { requireWellFormedText } from "../well-formed-text.js";
import { HttpSessionStore } from "./http-session-store.js";

/** One line of a match listing (the `list_matches` tool). */
export interface MatchSummaryRow {
  match_id: string;
  player: string;
  game: string;
  variant: string;
  framing: string;
  opponent: string;
  status: "open" | "finished";
  rounds_played: number;
  started_at: string;
}

/** One (player, cell) of a study's trials, as `study show` reports progress. */
export interface StudyTrialCountRow {
  player: string;
  game: string;
  variant: string;
  framing: string;
  style: string;
  opponent: string;
  /** The opponent's params as stored with the matches (JSON): a design may list one opponent twice. */
  opponent_params: string;
  finished: number;
  open: number;
}

/** The studies a viewer (@viewer: a principal, or null for the whole record) may see. */
const VISIBLE_STUDY = `(CAST(@viewer AS TEXT) IS NULL OR principal = @viewer OR principal = 'local')`;

/** Registered studies and the matches played (a study's trials among them). */
export class StudyMatchStore extends HttpSessionStore {
  insertStudy(study: StudyRecord): void {
    requireWellFormedText(study, { name: "study name" });
    this.stmt(
      `INSERT INTO studies (id, name, design_json, design_hash, seed, created_at, principal)
       VALUES (@id, @name, @design_json, @design_hash, @seed, @created_at, @principal)`,
    ).run(study);
  }

  // A study belongs to the principal that registered it. A view scoped to a principal (`scopedTo`) sees
  // its own studies and the operator's (registered on the record itself, as 'local', e.g. by `same-game
  // study register`); the whole record (the CLI) sees every study.

  getStudy(id: string): StudyRecord | undefined {
    return this.stmt(`SELECT * FROM studies WHERE id = @id AND ${VISIBLE_STUDY}`).get({
      id,
      viewer: this.principalScope,
    }) as StudyRecord | undefined;
  }

  /** The oldest study of this design the viewer can see: registering it again returns that one. */
  findStudyByHash(hash: string): StudyRecord | undefined {
    return this.stmt(
      `SELECT * FROM studies WHERE design_hash = @hash AND ${VISIBLE_STUDY} ORDER BY created_at LIMIT 1`,
    ).get({ hash, viewer: this.principalScope }) as StudyRecord | undefined;
  }

  listStudies(): StudyRecord[] {
    return this.stmt(`SELECT * FROM studies WHERE ${VISIBLE_STUDY} ORDER BY created_at`).all({
      viewer: this.principalScope,
    }) as StudyRecord[];
  }

  /**
   * How many trials of a study this player of this principal has been assigned (its position in the
   * schedule). Two tokens that use the same player label have two schedules: neither sees the other's.
   */
  countStudyTrials(studyId: string, player: string, principal: string): number {
    const row = this.stmt(
      "SELECT count(*) AS n FROM matches WHERE study_id = ? AND player = ? AND principal = ?",
    ).get(studyId, player, principal) as { n: number };
    return row.n;
  }

  /** How many trials of a study this player of this principal has finished. */
  countFinishedStudyTrials(studyId: string, player: string, principal: string): number {
    const row = this.stmt(
      "SELECT count(*) AS n FROM matches WHERE study_id = ? AND player = ? AND principal = ? AND status = 'finished'",
    ).get(studyId, player, principal) as { n: number };
    return Number(row.n);
  }

  /**
   * Every trial of a study this player of this principal was assigned, in schedule order, with its first
   * decided choice (round 1): what adaptive stopping looks at. `fromIndex`: only trials at or above it
   * (the schedule keeps the finished ones below what it has read).
   */
  studyTrialOutcomes(studyId: string, player: string, principal: string, fromIndex = 0): AssignedTrial[] {
    const rows = this.stmt(
      `SELECT m.trial_index, m.status, d.action FROM matches m
       LEFT JOIN decisions d ON d.match_id = m.id AND d.round = 1 AND d.status = 'decided'
       WHERE m.study_id = ? AND m.player = ? AND m.principal = ? AND m.trial_index >= ?
       ORDER BY m.trial_index`,
    ).all(studyId, player, principal, fromIndex) as {
      trial_index: number;
      status: string;
      action: string | null;
    }[];
    return rows.map((r) => ({
      trial_index: Number(r.trial_index),
      finished: r.status === "finished",
      action: r.action ?? null,
    }));
  }

  /** The players (and their principals) that were assigned trials of a study. */
  studyPlayers(studyId: string): { player: string; principal: string }[] {
    return this.stmt(
      "SELECT DISTINCT player, principal FROM matches WHERE study_id = ? ORDER BY player, principal",
    ).all(studyId) as { player: string; principal: string }[];
  }

  /**
   * Every game the record's play and imported counts name, and every framing its live play was presented
   * in (an imported match's framing is a free provenance label): what a catalog must hold to read it all.
   */
  recordedGamesAndFramings(): { games: string[]; framings: string[] } {
    const games = this.stmt(
      "SELECT game FROM matches UNION SELECT game FROM imported_counts ORDER BY game",
    ).all() as { game: string }[];
    const framings = this.stmt(
      "SELECT DISTINCT framing FROM matches WHERE source IS NULL ORDER BY framing",
    ).all() as { framing: string }[];
    return { games: games.map((r) => r.game), framings: framings.map((r) => r.framing) };
  }

  /** Trials of a study by player and cell: how many are finished and how many still open. */
  studyTrialCounts(studyId: string): StudyTrialCountRow[] {
    return this.stmt(
      `SELECT player, game, variant, framing, style, opponent, opponent_params,
              sum(CASE WHEN status = 'finished' THEN 1 ELSE 0 END) AS finished,
              sum(CASE WHEN status = 'open' THEN 1 ELSE 0 END) AS open
       FROM matches WHERE study_id = ?
       GROUP BY player, game, variant, framing, style, opponent, opponent_params
       ORDER BY player, game, variant, framing, style, opponent, opponent_params`,
    ).all(studyId) as StudyTrialCountRow[];
  }

  /**
   * The player's unfinished trial of a study under this principal, if any, other than those in `skip`
   * (trials the client is already playing): `next_trial` resumes it instead of assigning anew.
   */
  openStudyMatch(
    studyId: string,
    player: string,
    principal: string,
    skip: readonly string[] = [],
  ): MatchRecord | undefined {
    const row = this.stmt(
      `SELECT * FROM matches WHERE study_id = @study_id AND player = @player AND principal = @principal
         AND status = 'open' AND NOT ${this.dialect.inJsonList("id", "skip")}
       ORDER BY trial_index LIMIT 1`,
    ).get({ study_id: studyId, player, principal, skip: JSON.stringify(skip) }) as MatchRow | undefined;
    return row && toMatchRecord(row);
  }

  /** The newest live matches of one principal, for the match resource's listing and id completion. */
  listPrincipalMatches(principal: string, limit: number, idPrefix = ""): MatchRecord[] {
    const rows = this.stmt(
      `SELECT * FROM matches WHERE principal = ? AND source IS NULL AND substr(id, 1, length(CAST(? AS TEXT))) = ?
       ORDER BY created_at DESC, id LIMIT ?`,
    ).all(principal, idPrefix, idPrefix, limit) as MatchRow[];
    return rows.map(toMatchRecord);
  }

  // --- matches --------------------------------------------------------------------------------------

  insertMatch(match: MatchRecord): void {
    requireWellFormedText(match, {
      player: "player label",
      framing: "framing label",
      opponent: "opponent label",
    });
    this.write(
      `INSERT INTO matches (id, study_id, trial_index, player, session_id, principal, game, variant, framing,
         style, action_order, opponent, opponent_params, history_mode, reveal_horizon, rounds,
         partner_match_id, seed, status, next_round, source, import_session, created_at, finished_at)
       VALUES (@id, @study_id, @trial_index, @player, @session_id, @principal, @game, @variant, @framing,
         @style, @action_order, @opponent, @opponent_params, @history_mode, @reveal_horizon, @rounds,
         @partner_match_id, @seed, @status, @next_round, @source, @import_session, @created_at, @finished_at)`,
      {
        ...match,
        import_session: match.import_session ?? null,
        action_order: JSON.stringify(match.action_order),
        opponent_params: JSON.stringify(match.opponent_params),
        reveal_horizon: match.reveal_horizon ? 1 : 0,
      },
    );
  }

  getMatch(id: string): MatchRecord | undefined {
    const row = this.stmt("SELECT * FROM matches WHERE id = ?").get(id) as MatchRow | undefined;
    return row && toMatchRecord(row);
  }

  setPartner(matchId: string, partnerId: string): void {
    this.stmt("UPDATE matches SET partner_match_id = ? WHERE id = ?").run(partnerId, matchId);
  }

  /** Moves a match to its next round, finishing it after the last. */
  advanceMatch(id: string, nextRound: number, finished: boolean, at: string): void {
    this.write(
      "UPDATE matches SET next_round = ?, status = ?, finished_at = ? WHERE id = ?",
      nextRound,
      finished ? "finished" : "open",
      finished ? at : null,
      id,
    );
  }

  /** Matches of the record (live and imported) that pass the filter, oldest first. */
  listMatches(filter: RecordFilter & { repeated_only?: boolean }): MatchRecord[] {
    const rows = this.stmt(
      `SELECT * FROM matches m WHERE ${this.filter} AND (@repeated_only = 0 OR m.rounds > 1)
       ORDER BY m.created_at, m.id`,
    ).all({ ...this.filterParams(filter), repeated_only: filter.repeated_only ? 1 : 0 }) as MatchRow[];
    return rows.map(toMatchRecord);
  }

  /**
   * One page of one principal's matches that pass the filter, newest first, with the number of settled
   * rounds: what a match listing shows without reading every decision into JS.
   */
  listMatchSummaries(filter: MatchListFilter & { limit: number; offset: number }): MatchSummaryRow[] {
    return this.stmt(
      `SELECT m.id AS match_id, m.player, m.game, m.variant, m.framing, m.opponent, m.status,
         (SELECT COUNT(*) FROM decisions d WHERE d.match_id = m.id AND d.status <> 'pending') AS rounds_played,
         m.created_at AS started_at
       FROM matches m WHERE m.principal = @principal AND ${this.filter} ${OPPONENT_FILTER}
       ORDER BY m.created_at DESC, m.id LIMIT @limit OFFSET @offset`,
    ).all({
      ...matchListParams(filter),
      limit: filter.limit,
      offset: filter.offset,
    }) as MatchSummaryRow[];
  }

  /** How many matches listMatchSummaries pages through, so a listing can say how much of it it shows. */
  countMatchSummaries(filter: MatchListFilter): number {
    const row = this.stmt(
      `SELECT COUNT(*) AS n FROM matches m WHERE m.principal = @principal AND ${this.filter} ${OPPONENT_FILTER}`,
    ).get(matchListParams(filter)) as { n: number };
    return Number(row.n);
  }
}

/**
 * What a match listing filters on: the record's filters, the principal whose matches these are, and the
 * opponent (by id), which tells apart the repeated-play cells of one player, game and framing.
 */
export type MatchListFilter = RecordFilter & { principal: string; opponent?: string };

const OPPONENT_FILTER = "AND (CAST(@opponent AS TEXT) IS NULL OR m.opponent = @opponent)";

function matchListParams(filter: MatchListFilter): Record<string, string | null> {
  return { ...filterParams(filter), principal: filter.principal, opponent: filter.opponent ?? null };
}
