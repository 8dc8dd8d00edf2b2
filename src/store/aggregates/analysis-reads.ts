import type Database from "better-sqlite3";
import { jsonList } from "../filter-params.js";
import { importedSessionId } from "../imported-session-id.js";
import type { CellCountRow, ImportedCountRow, RecordFilter } from "../records.js";
import { ImportStore } from "./import-store.js";

/** One settled round of a finished repeated match, as the repeated-play metrics read it. */
export interface RepeatedRoundRow {
  match_id: string;
  round: number;
  move: string | null;
  opponent_move: string | null;
  payoff: number;
  opponent_payoff: number;
  tokens: number | null;
  invalid_attempts: number;
  /** The MCP session the round was decided in (null for an imported round, whose label is its match's). */
  session_id: string | null;
}

/** How often one action was chosen (validly) in one (player, game, variant, framing) cell: the same shape
 * as a row of published counts, so live and imported cells read alike. */
export type CellActionCountRow = ImportedCountRow;

/** One row of `oneShotTallies`: player, session_id, game, framing, action, count, first_listed, listed. */
export type OneShotTallyRow = [string, string, string, string, string, number, number, number];

/** One row of `oneShotSessions`: player, and the session's tally rows as text. */
export type OneShotSessionRow = [string, string];

/** The order of the engine's ORDER BY player, game, variant, framing, action (binary, code point order). */
function byCellAndAction(a: CellActionCountRow, b: CellActionCountRow): number {
  for (const key of ["player", "game", "variant", "framing", "action"] as const) {
    if (a[key] !== b[key]) return a[key] < b[key] ? -1 : 1;
  }
  return 0;
}

/**
 * What the analyses and exports read: aggregates computed by the engine (GROUP BY over decision_tallies),
 * never every row into JS for counting, and the export listings.
 */
export class AnalysisReads extends ImportStore {
  /**
   * Whether `repeatedRounds(filter)` has a row: a finished repeated match that passes the filter with a
   * settled round. Exactly when the repeated metrics of that filter have a cell (a match is listed only
   * with its rounds), without reading any round.
   */
  hasRepeatedRounds(filter: RecordFilter): boolean {
    const row = this.stmt(
      `SELECT CASE WHEN EXISTS (
         SELECT 1 FROM decisions d JOIN matches m ON m.id = d.match_id
         WHERE m.rounds > 1 AND m.status = 'finished' AND d.status <> 'pending' AND ${this.filter})
       THEN 1 ELSE 0 END AS found`,
    ).get(this.filterParams(filter)) as { found: number | string };
    return Number(row.found) === 1;
  }

  /**
   * Every settled round of the finished repeated matches that pass the filter, in match and round order:
   * the rows the repeated-play metrics are computed from. A live round's invalid attempts are counted from
   * its attempts; an imported round has no attempts, so its stored count is used.
   */
  repeatedRounds(filter: RecordFilter & { opponents?: string[] }): RepeatedRoundRow[] {
    return this.stmt(
      `SELECT d.match_id, d.round, d.action AS move, d.opponent_action AS opponent_move,
              coalesce(d.payoff, 0) AS payoff, coalesce(d.opponent_payoff, 0) AS opponent_payoff, d.tokens,
              d.session_id,
              CASE WHEN m.source IS NULL
                THEN (SELECT count(*) FROM attempts a
                      WHERE a.match_id = d.match_id AND a.round = d.round AND a.action IS NULL)
                ELSE d.invalid_attempts END AS invalid_attempts
       FROM decisions d JOIN matches m ON m.id = d.match_id
       WHERE m.rounds > 1 AND m.status = 'finished' AND d.status <> 'pending' AND ${this.filter}
         AND (${this.dialect.isNull("opponents")} OR ${this.dialect.inJsonList("m.opponent", "opponents")})
       ORDER BY m.created_at, m.id, d.round`,
    ).all({ ...this.filterParams(filter), opponents: jsonList(filter.opponents) }) as RepeatedRoundRow[];
  }

  /**
   * How often each action was chosen in every (player, game, variant, framing) cell, counting the valid
   * decisions of one-shot and repeated matches alike — live, imported transcripts and imported published
   * counts — computed by the engine (GROUP BY). Imported counts belong to no study, so a study filter
   * leaves them out.
   */
  cellActionCounts(filter: RecordFilter): CellActionCountRow[] {
    const params = this.filterParams(filter);
    const played = this.stmt(
      `SELECT m.player, m.game, m.variant, m.framing, m.action, sum(m.count) AS count
       FROM decision_tallies m
       WHERE m.count > 0 AND ${this.tallyFilter}
       GROUP BY m.player, m.game, m.variant, m.framing, m.action`,
    ).all(params) as CellActionCountRow[];
    const published = filter.study_id === undefined ? this.importedCountRows(filter) : [];
    // One row per cell and action, in key order, whichever kinds of record the cell's decisions came from.
    const cells = new Map<string, CellActionCountRow>();
    for (const { player, game, variant, framing, action, count } of [...played, ...published]) {
      const key = JSON.stringify([player, game, variant, framing, action]);
      const cell = cells.get(key);
      if (cell) cell.count = Number(cell.count) + Number(count);
      else cells.set(key, { player, game, variant, framing, action, count: Number(count) });
    }
    return [...cells.values()].sort(byCellAndAction);
  }

  /**
   * Every (player, game, variant) this view holds a match or published counts of, in the scope of a study
   * (the whole record when absent; published counts belong to no study): the names a player or game filter
   * can select anything by.
   */
  recordedPlayerGames(studyId: string | undefined): { player: string; game: string; variant: string }[] {
    const matched = this.stmt(
      `SELECT DISTINCT m.player, m.game, m.variant FROM matches m WHERE ${this.filter}`,
    ).all(this.filterParams({ study_id: studyId })) as { player: string; game: string; variant: string }[];
    if (studyId !== undefined) return matched;
    const published = this.stmt("SELECT DISTINCT player, game, variant FROM imported_counts").all() as {
      player: string;
      game: string;
      variant: string;
    }[];
    return [...matched, ...published];
  }

  /**
   * Every player label of the record's matches, in order: one index seek per player (the matches' index
   * leads with the player), not a scan of the matches, so it costs the same at a million decisions as at
   * ten. What an analysis asks before it looks for players without a valid decision: most often every
   * player it names has already been analysed, and the scan of their matches is not needed at all.
   */
  matchPlayers(): string[] {
    const rows = this.stmt(
      `WITH RECURSIVE labels(player) AS (
         SELECT min(player) FROM matches
         UNION ALL
         SELECT (SELECT min(m.player) FROM matches m WHERE m.player > labels.player)
         FROM labels WHERE labels.player IS NOT NULL
       )
       SELECT player FROM labels WHERE player IS NOT NULL`,
    ).all() as { player: string }[];
    return rows.map((r) => String(r.player));
  }

  /**
   * Per player and game of the matches that pass the filter (of one-shot or repeated games only, if asked): how many
   * matches, and their rounds by status. A player whose rounds hold no valid decision is in no analysis;
   * this says so, and why, instead of leaving it out in silence.
   */
  roundStatusByPlayer(
    filter: RecordFilter,
    games: "one-shot" | "repeated" | "all" = "all",
  ): {
    player: string;
    game: string;
    matches: number;
    decided: number;
    void: number;
    forfeit: number;
    pending: number;
  }[] {
    const rows = this.stmt(
      `SELECT m.player, m.game, count(DISTINCT m.id) AS matches,
              sum(CASE WHEN d.status = 'decided' THEN 1 ELSE 0 END) AS decided,
              sum(CASE WHEN d.status = 'void' THEN 1 ELSE 0 END) AS void,
              sum(CASE WHEN d.status = 'forfeit' THEN 1 ELSE 0 END) AS forfeit,
              sum(CASE WHEN d.status = 'pending' THEN 1 ELSE 0 END) AS pending
       FROM matches m LEFT JOIN decisions d ON d.match_id = m.id
       WHERE ${games === "all" ? "" : games === "one-shot" ? "m.rounds = 1 AND " : "m.rounds > 1 AND "}${this.filter}
       GROUP BY m.player, m.game
       ORDER BY m.player, m.game`,
    ).all(this.filterParams(filter)) as Record<string, string | number | null>[];
    return rows.map((r) => ({
      player: String(r.player),
      game: String(r.game),
      matches: Number(r.matches),
      decided: Number(r.decided ?? 0),
      void: Number(r.void ?? 0),
      forfeit: Number(r.forfeit ?? 0),
      pending: Number(r.pending ?? 0),
    }));
  }

  /**
   * Per (player, game, framing) of the one-shot matches that pass the filter: how many finished without a
   * valid decision (their round void after five invalid replies, or forfeit). Such a trial is played, as
   * `study show` counts it, yet adds no decision to any analysis; a design's check counts it apart.
   */
  oneShotTrialsWithoutDecision(
    filter: RecordFilter,
  ): { player: string; game: string; framing: string; trials: number }[] {
    const rows = this.stmt(
      `SELECT m.player, m.game, m.framing, count(*) AS trials
       FROM matches m JOIN decisions d ON d.match_id = m.id
       WHERE m.rounds = 1 AND d.status IN ('void', 'forfeit') AND ${this.filter}
       GROUP BY m.player, m.game, m.framing
       ORDER BY m.player, m.game, m.framing`,
    ).all(this.filterParams(filter)) as Record<string, string | number>[];
    return rows.map((r) => ({
      player: String(r.player),
      game: String(r.game),
      framing: String(r.framing),
      trials: Number(r.trials),
    }));
  }

  // --- export -----------------------------------------------------------------------------

  /**
   * Every decision that passes the filter with its match's condition, session (an imported match's session
   * label) and prompt, in record order.
   */
  exportDecisions(filter: RecordFilter): Record<string, unknown>[] {
    return this.stmt(
      `SELECT d.match_id, d.round, m.player, m.game, m.variant, m.framing, m.style, m.action_order,
              m.opponent, m.opponent_params, m.history_mode, m.reveal_horizon, m.rounds, m.study_id,
              m.trial_index, m.seed, m.source, coalesce(d.session_id, m.import_session) AS session_id,
              s.client_name, s.client_version, s.transport,
              d.status, d.action, d.opponent_action, d.payoff, d.opponent_payoff, d.raw_text, d.rationale,
              d.tokens, d.invalid_attempts, d.decided_at, d.prompt_hash, p.text AS prompt, d.server_version,
              d.catalog_fingerprint
       FROM decisions d JOIN matches m ON m.id = d.match_id
         LEFT JOIN sessions s ON s.id = d.session_id LEFT JOIN prompts p ON p.hash = d.prompt_hash
       WHERE ${this.filter}
       ORDER BY m.created_at, m.id, d.round`,
    ).all(this.filterParams(filter)) as Record<string, unknown>[];
  }

  /** Every attempt (valid or not, verbatim) of the matches that pass the filter, in the order received. */
  exportAttempts(filter: RecordFilter): Record<string, unknown>[] {
    return this.stmt(
      `SELECT a.id AS attempt_id, a.match_id, a.round, m.player, m.game, m.variant, m.framing, a.session_id,
              a.raw_text, a.action, a.invalid_reason, a.tokens, a.created_at
       FROM attempts a JOIN matches m ON m.id = a.match_id
       WHERE ${this.filter}
       ORDER BY a.id`,
    ).all(this.filterParams(filter)) as Record<string, unknown>[];
  }

  /**
   * Every model call a runner recorded behind the attempts of the matches that pass the filter (raw reply,
   * latency, retries, reported model, tokens), in the order made: the runner's per-call log. With where
   * each reply came from (the cache, a provider batch) and its cost, so the file sums to the spend
   * `study show` counts.
   */
  exportModelCalls(filter: RecordFilter): Record<string, unknown>[] {
    return this.stmt(
      `SELECT c.id AS call_id, c.attempt_id, c.match_id, c.round, c.seq, m.player, m.game, m.variant, m.framing,
              c.provider, c.requested_model, c.reported_model, c.mode, c.style, c.sample_index, c.decoding_json,
              c.prompt_tokens, c.completion_tokens, c.latency_ms, c.retries, c.finish_reason, c.raw_reply,
              c.called_at, c.cached_from, c.batch_id, c.cost_usd
       FROM model_calls c JOIN matches m ON m.id = c.match_id
       WHERE ${this.filter}
       ORDER BY c.id`,
    ).all(this.filterParams(filter)) as Record<string, unknown>[];
  }

  /**
   * Action counts of every one-shot cell, per MCP session, computed by SQLite (GROUP BY), with the imported
   * records (published counts, one-shot transcripts) beside them. Only valid decisions count (SPEC §4: π̂ over valid decisions).
   */
  oneShotCellCounts(filter: RecordFilter): CellCountRow[] {
    const params = this.filterParams(filter);
    const live = this.stmt(
      `SELECT m.player, m.game, m.variant, m.framing, m.action, nullif(m.session_id, '') AS session_id,
              sum(m.count) AS count, NULL AS source
       FROM decision_tallies m
       WHERE m.one_shot = 1 AND m.source = '' AND m.count > 0 AND ${this.tallyFilter}
       GROUP BY m.player, m.session_id, m.game, m.variant, m.framing, m.action
       ORDER BY m.player, m.session_id, m.game, m.variant, m.framing, m.action`,
    ).all(params) as CellCountRow[];
    return [...live, ...this.importedCellCounts(filter)];
  }

  /**
   * The one-shot cells of imported records as cell rows: the published counts and the one-shot rounds of
   * imported transcripts, each with its import's session (importedSessionId) where the file gave one, else
   * without a session (resampled by decision). Imported counts belong to no study, so a study filter
   * leaves them out (imported transcripts have none either, and the tally filter drops them).
   */
  importedCellCounts(filter: RecordFilter): CellCountRow[] {
    const transcripts = this.importedTranscriptRows(filter).map((row) => ({
      ...row,
      session_id: row.session_id === "" ? null : importedSessionId("matches", row.source, row.session_id),
    }));
    const published =
      filter.study_id === undefined
        ? this.importedCountRows(filter).map(({ session, ...row }) => ({
            ...row,
            session_id: session === "" ? null : importedSessionId("counts", row.source, session),
          }))
        : [];
    return [...transcripts, ...published];
  }

  /**
   * The one-shot decisions the analyses read, counted per cell, session and action in the `import counts`
   * shape (`export counts`): live play per MCP session, imported records per session label ('' for
   * none), each row with where it came from.
   */
  oneShotCountsBySession(filter: RecordFilter): (CellActionCountRow & {
    session: string;
    kind: "live" | "counts" | "matches";
    source: string;
  })[] {
    const live = this.stmt(
      `SELECT m.player, m.game, m.variant, m.framing, m.session_id AS session, m.action, sum(m.count) AS count
       FROM decision_tallies m
       WHERE m.one_shot = 1 AND m.source = '' AND m.count > 0 AND ${this.tallyFilter}
       GROUP BY m.player, m.session_id, m.game, m.variant, m.framing, m.action
       ORDER BY m.player, m.session_id, m.game, m.variant, m.framing, m.action`,
    ).all(this.filterParams(filter)) as (CellActionCountRow & { session: string })[];
    const transcripts = this.importedTranscriptRows(filter).map(({ session_id, ...row }) => ({
      ...row,
      session: session_id,
      kind: "matches" as const,
    }));
    const published =
      filter.study_id === undefined
        ? this.importedCountRows(filter).map((row) => ({ ...row, kind: "counts" as const }))
        : [];
    return [
      ...live.map((row) => ({ ...row, count: Number(row.count), kind: "live" as const, source: "" })),
      ...transcripts,
      ...published,
    ];
  }

  /** The one-shot rounds of imported transcripts per source, player, session label ('' for none), cell and action. */
  private importedTranscriptRows(
    filter: RecordFilter,
  ): (CellActionCountRow & { session_id: string; source: string })[] {
    return (
      this.stmt(
        `SELECT m.player, m.game, m.variant, m.framing, m.action, m.session_id, sum(m.count) AS count, m.source
         FROM decision_tallies m
         WHERE m.one_shot = 1 AND m.source <> '' AND m.count > 0 AND ${this.tallyFilter}
         GROUP BY m.source, m.player, m.session_id, m.game, m.variant, m.framing, m.action
         ORDER BY m.source, m.player, m.session_id, m.game, m.variant, m.framing, m.action`,
      ).all(this.filterParams(filter)) as (CellActionCountRow & { session_id: string; source: string })[]
    ).map((row) => ({ ...row, count: Number(row.count) }));
  }

  /**
   * The published counts (imported_counts) that pass the filter's player, game, variant and framing, with
   * their session label ('' for none).
   */
  private importedCountRows(
    filter: RecordFilter,
  ): (CellActionCountRow & { source: string; session: string })[] {
    const d = this.dialect;
    return (
      this.stmt(
        `SELECT m.player, m.game, m.variant, m.framing, m.action, m.count, m.source, m.session
         FROM imported_counts m
         WHERE m.count > 0 AND (${d.isNull("players")} OR ${d.inJsonList("m.player", "players")})
           AND (${d.isNull("games")} OR ${d.inJsonList("m.game", "games")})
           AND (${d.isNull("variants")} OR ${d.inJsonList("m.variant", "variants")})
           AND (${d.isNull("framings")} OR ${d.inJsonList("m.framing", "framings")})
         ORDER BY m.source, m.player, m.session, m.game, m.variant, m.framing, m.action`,
      ).all(this.filterParams(filter)) as (CellActionCountRow & { source: string; session: string })[]
    ).map((row) => ({ ...row, count: Number(row.count) }));
  }

  /**
   * Every live one-shot tally that passes the filter, per player, session, cell and action, streamed in
   * the key order of decision_tallies (so SQLite neither sorts nor holds them): the one read the one-shot
   * analyses fold into cell totals, session types and the order effect's counts. Each row is [player,
   * session_id, game, framing, action, count, first_listed, listed]: `listed` of the `count` decisions were
   * made in a two-action game (whose listing order was recorded), `first_listed` of those chose the action
   * listed first. A row per variant when the filter leaves several.
   */
  *oneShotTallies(filter: RecordFilter): IterableIterator<OneShotTallyRow> {
    const statement = this.stmt(
      `SELECT m.player, m.session_id, m.game, m.framing, m.action, sum(m.count) AS count,
              sum(CASE WHEN m.order_position = 0 THEN m.count ELSE 0 END) AS first_listed,
              sum(CASE WHEN m.order_position >= 0 THEN m.count ELSE 0 END) AS listed
       FROM decision_tallies m
       WHERE m.one_shot = 1 AND m.source = '' AND m.count > 0 AND ${this.tallyFilter}
       GROUP BY m.player, m.session_id, m.game, m.variant, m.framing, m.action
       ORDER BY m.player, m.session_id, m.game, m.variant, m.framing, m.action`,
    );
    const params = this.filterParams(filter);
    // SQLite streams the rows without holding them (flat memory at any size). The PostgreSQL engine's worker
    // answers a whole result at once, so there the rows (one per session and cell) are held while read,
    // and its sums (bigint) arrive as text.
    if (this.engine.kind === "sqlite") {
      yield* (statement as Database.Statement).raw(true).iterate(params) as IterableIterator<OneShotTallyRow>;
      return;
    }
    for (const row of statement.all(params) as Record<string, unknown>[]) {
      const [player, session, game, framing, action, count, first, listed] = Object.values(row);
      yield [
        String(player),
        String(session),
        String(game),
        String(framing),
        String(action),
        Number(count),
        Number(first),
        Number(listed),
      ];
    }
  }

  /**
   * Every live one-shot session that passes the filter, one row per player and session, in that order,
   * streamed in the key order of decision_tallies: [player, tallies], where `tallies` is the session's
   * rows as comma-joined JSON arrays [game, variant, framing, action, count, order_position], in no set
   * order, with a row per study, principal and listing order of a cell's action (sessionTallies folds them
   * into the GROUP BY's rows). The session id itself is not read: sessions are only told apart, and one
   * row of one string per session costs far less to hand to JavaScript than a row of strings per (session,
   * cell, action) where sessions are short and span cells.
   */
  *oneShotSessions(filter: RecordFilter): IterableIterator<OneShotSessionRow> {
    const tallies = this.dialect.jsonArraysOfGroup([
      "m.game",
      "m.variant",
      "m.framing",
      "m.action",
      "m.count",
      "m.order_position",
    ]);
    const statement = this.stmt(
      `SELECT m.player, ${tallies} AS tallies
       FROM decision_tallies m
       WHERE m.one_shot = 1 AND m.source = '' AND m.count > 0 AND ${this.tallyFilter}
       GROUP BY m.player, m.session_id
       ORDER BY m.player, m.session_id`,
    );
    const params = this.filterParams(filter);
    // As oneShotTallies: SQLite streams, the PostgreSQL worker answers the whole result at once.
    if (this.engine.kind === "sqlite") {
      yield* (statement as Database.Statement)
        .raw(true)
        .iterate(params) as IterableIterator<OneShotSessionRow>;
      return;
    }
    for (const row of statement.all(params) as { player: unknown; tallies: unknown }[]) {
      yield [String(row.player), String(row.tallies)];
    }
  }
}
