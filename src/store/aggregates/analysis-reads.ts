import type Database from "better-sqlite3";
import { jsonList } from "../filter-params.js";
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
}

/** How often one action was chosen (validly) in one (player, game, variant, framing) cell: the same shape
 * as a row of published counts, so live and imported cells read alike. */
export type CellActionCountRow = ImportedCountRow;

/** Per player: valid one-shot decisions of two-action games, and how many chose the first-listed action. */
export interface FirstListedRow {
  player: string;
  decisions: number;
  first_listed: number;
}

/**
 * What the analyses and exports read: aggregates computed by the engine (GROUP BY over decision_tallies),
 * never every row into JS for counting, and the export listings.
 */
export class AnalysisReads extends ImportStore {
  /**
   * Every settled round of the finished repeated matches that pass the filter, in match and round order:
   * the rows the repeated-play metrics are computed from. A live round's invalid attempts are counted from
   * its attempts; an imported round has no attempts, so its stored count is used.
   */
  repeatedRounds(filter: RecordFilter & { opponents?: string[] }): RepeatedRoundRow[] {
    return this.stmt(
      `SELECT d.match_id, d.round, d.action AS move, d.opponent_action AS opponent_move,
              coalesce(d.payoff, 0) AS payoff, coalesce(d.opponent_payoff, 0) AS opponent_payoff, d.tokens,
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
   * decisions of one-shot and repeated matches alike (live and imported), computed by SQLite (GROUP BY).
   */
  cellActionCounts(filter: RecordFilter): CellActionCountRow[] {
    return this.stmt(
      `SELECT m.player, m.game, m.variant, m.framing, m.action, sum(m.count) AS count
       FROM decision_tallies m
       WHERE m.count > 0 AND ${this.tallyFilter}
       GROUP BY m.player, m.game, m.variant, m.framing, m.action
       ORDER BY m.player, m.game, m.variant, m.framing, m.action`,
    ).all(this.filterParams(filter)) as CellActionCountRow[];
  }

  // --- export -----------------------------------------------------------------------------

  /** Every decision that passes the filter with its match's condition, session and prompt, in record order. */
  exportDecisions(filter: RecordFilter): Record<string, unknown>[] {
    return this.stmt(
      `SELECT d.match_id, d.round, m.player, m.game, m.variant, m.framing, m.style, m.action_order,
              m.opponent, m.opponent_params, m.history_mode, m.reveal_horizon, m.rounds, m.study_id,
              m.trial_index, m.seed, m.source, d.session_id, s.client_name, s.client_version, s.transport,
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
   * Action counts of every one-shot cell, per MCP session, computed by SQLite (GROUP BY), with imported
   * published counts beside them. Only valid decisions count (SPEC §4: π̂ over valid decisions).
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

  /** Imported counts as cell rows; they belong to no study, so a study filter leaves them out. */
  importedCellCounts(filter: RecordFilter): CellCountRow[] {
    const params = this.filterParams(filter);
    const d = this.dialect;
    return filter.study_id === undefined
      ? (this.stmt(
          `SELECT m.player, m.game, m.variant, m.framing, m.action, NULL AS session_id, m.count, m.source
             FROM imported_counts m
             WHERE m.count > 0 AND (${d.isNull("players")} OR ${d.inJsonList("m.player", "players")})
               AND (${d.isNull("games")} OR ${d.inJsonList("m.game", "games")})
               AND (${d.isNull("variants")} OR ${d.inJsonList("m.variant", "variants")})
               AND (${d.isNull("framings")} OR ${d.inJsonList("m.framing", "framings")})
             ORDER BY m.source, m.player, m.game, m.variant, m.framing, m.action`,
        ).all(params) as CellCountRow[])
      : [];
  }

  /**
   * The valid live one-shot decisions of every cell, by action (no session split), and for each player
   * the most decisions one of its sessions made: a player whose sessions never made more than one is
   * analysed by decision, and needs no per-session rows.
   */
  oneShotCellTotals(filter: RecordFilter): { cells: CellCountRow[]; clusteredPlayers: string[] } {
    const params = this.filterParams(filter);
    const cells = this.stmt(
      `SELECT m.player, m.game, m.variant, m.framing, m.action, NULL AS session_id, sum(m.count) AS count,
              NULL AS source
       FROM decision_tallies m
       WHERE m.one_shot = 1 AND m.source = '' AND m.count > 0 AND ${this.tallyFilter}
       GROUP BY m.player, m.game, m.variant, m.framing, m.action
       ORDER BY m.player, m.game, m.variant, m.framing, m.action`,
    ).all(params) as CellCountRow[];
    const clustered = this.stmt(
      `SELECT player FROM (
         SELECT m.player, m.session_id, sum(m.count) AS decisions FROM decision_tallies m
         WHERE m.one_shot = 1 AND m.source = '' AND m.count > 0 AND ${this.tallyFilter}
         GROUP BY m.player, m.session_id) s
       GROUP BY player HAVING max(decisions) > 1 ORDER BY player`,
    ).all(params) as { player: string }[];
    return { cells, clusteredPlayers: clustered.map((r) => r.player) };
  }

  /**
   * The per-session counts of the live one-shot cells of `players`, streamed player by player and session
   * by session (the key order of decision_tallies, so SQLite neither sorts nor holds them): each row is
   * [player, session_id, game, variant, framing, action, count].
   */
  *oneShotSessionCounts(
    filter: RecordFilter & { players: string[] },
  ): IterableIterator<[string, string, string, string, string, string, number]> {
    if (filter.players.length === 0) return;
    type Row = [string, string, string, string, string, string, number];
    const statement = this.stmt(
      `SELECT m.player, m.session_id, m.game, m.variant, m.framing, m.action, sum(m.count) AS count
       FROM decision_tallies m
       WHERE m.one_shot = 1 AND m.source = '' AND m.count > 0 AND ${this.tallyFilter}
       GROUP BY m.player, m.session_id, m.game, m.variant, m.framing, m.action
       ORDER BY m.player, m.session_id, m.game, m.variant, m.framing, m.action`,
    );
    const params = this.filterParams(filter);
    // SQLite streams the rows without holding them (flat memory at any size). The PostgreSQL engine's worker
    // answers a whole result at once, so there the rows (one per session and cell) are held while read.
    if (this.engine.kind === "sqlite") {
      yield* (statement as Database.Statement).raw(true).iterate(params) as IterableIterator<Row>;
      return;
    }
    for (const row of statement.all(params) as Record<string, unknown>[]) yield Object.values(row) as Row;
  }

  /** The order-effect counts: live two-action one-shot decisions by whether the choice was listed first. */
  firstListedCounts(filter: RecordFilter): FirstListedRow[] {
    return this.stmt(
      `SELECT m.player, sum(m.count) AS decisions,
              sum(CASE WHEN m.order_position = 0 THEN m.count ELSE 0 END) AS first_listed
       FROM decision_tallies m
       WHERE m.one_shot = 1 AND m.source = '' AND m.order_position >= 0 AND m.count > 0
         AND ${this.tallyFilter}
       GROUP BY m.player ORDER BY m.player`,
    ).all(this.filterParams(filter)) as FirstListedRow[];
  }
}
