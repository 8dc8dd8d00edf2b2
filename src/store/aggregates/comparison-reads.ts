import type { RecordFilter } from "../records.js";
import { AnalysisCacheStore } from "./analysis-cache-store.js";

/** What `compare` groups decisions by: the player label, the prompting style, the MCP client, the model. */
export const COMPARISON_FACTORS = ["player", "style", "client", "model"] as const;
export type ComparisonFactor = (typeof COMPARISON_FACTORS)[number];

/** One group's valid one-shot choices of one action in one cell, per resampling unit (see ComparisonRow). */
export interface ComparisonCountRow {
  group: string;
  game: string;
  framing: string;
  action: string;
  count: number;
  unit: string | null;
  position: string | null;
}

/**
 * The recorded factor each comparison groups by: the match's player; the runner's preamble style of the
 * match's calls, else the study's style of the match; the session's client (name and version); the model
 * the endpoint reported for the runner's calls of the match (else the one asked for).
 */
const GROUP_BY: Record<ComparisonFactor, string> = {
  player: "m.player",
  style: "coalesce((SELECT max(c.style) FROM model_calls c WHERE c.match_id = m.id), m.style)",
  client:
    "CASE WHEN s.client_name IS NULL THEN NULL ELSE s.client_name || ' ' || coalesce(s.client_version, '') END",
  model:
    "(SELECT max(coalesce(c.reported_model, c.requested_model)) FROM model_calls c WHERE c.match_id = m.id)",
};

/** The reads of `compare`: decisions counted by group, cell, resampling unit and schedule position. */
export class ComparisonReads extends AnalysisCacheStore {
  /**
   * Valid live one-shot decisions counted (GROUP BY) by group, game, framing, action, unit and position;
   * then, when grouping by player, the imported records (their import's session as unit, if any; no
   * position). The unit of a runner trial (a match with model calls: one fresh model context each) is the
   * trial itself, else the MCP session.
   * A trial's position is its visit of its cell in the study's schedule (study, style, opponent, and the
   * how-many-th trial of that cell the player played): players of one study visit every cell alike. The
   * study is named by its design's hash, not its id: the id is random, and a position's name seeds the
   * stream it is drawn from, so two records of one design played alike would otherwise compare apart.
   * Decisions whose factor is not recorded (no client name, no model call) are left out.
   */
  comparisonCounts(filter: RecordFilter, by: ComparisonFactor): ComparisonCountRow[] {
    const live =
      by === "player" && !this.hasTrialsOrPositions(filter)
        ? this.playerCountsFromTallies(filter)
        : this.decisionCounts(filter, by);
    if (by !== "player") return live.map(numeric);
    const imported = this.importedCellCounts(filter).map((r) => ({
      group: r.player,
      game: r.game,
      framing: r.framing,
      action: r.action,
      count: r.count,
      // An imported session is resampled whole, like a live one; decisions without one each alone.
      unit: r.session_id,
      position: null,
    }));
    return [...live.map(numeric), ...imported];
  }

  /**
   * Whether the player comparison's rows (`comparisonCounts(filter, "player")`) are the live one-shot
   * tallies of one variant alone, as `oneShotTallies` streams them: an SQLite record (whose key order is
   * the binary text order the rows are sorted in) without runner trials, schedule positions or imported
   * one-shot records under the filter. The comparison may then fold the stream instead of the rows.
   */
  comparesPlayersByTallies(filter: RecordFilter): boolean {
    return (
      this.engine.kind === "sqlite" &&
      filter.variants?.length === 1 &&
      !this.hasTrialsOrPositions(filter) &&
      this.importedCellCounts(filter).length === 0
    );
  }

  /**
   * Whether a live one-shot match that passes the filter is a runner trial (it has model calls: its unit
   * is the trial) or has a schedule position (a study's trial): only then are the decisions themselves
   * read. Both look up an index, not the decisions.
   */
  private hasTrialsOrPositions(filter: RecordFilter): boolean {
    const row = this.stmt(
      `SELECT CASE WHEN EXISTS (
           SELECT 1 FROM matches m
           WHERE m.study_id IS NOT NULL AND m.trial_index IS NOT NULL AND m.rounds = 1 AND m.source IS NULL
             AND ${this.filter})
         OR EXISTS (
           SELECT 1 FROM model_calls c JOIN matches m ON m.id = c.match_id
           WHERE m.rounds = 1 AND m.source IS NULL AND ${this.filter})
       THEN 1 ELSE 0 END AS found`,
    ).get(this.filterParams(filter)) as { found: number | string };
    return Number(row.found) === 1;
  }

  /**
   * The player comparison's live rows of a record without runner trials or schedule positions: every unit
   * is the decision's MCP session, so the write-time tallies (decision_tallies) hold the same counts as
   * the decisions, in the same order, at a fraction of the reading.
   * A player none of whose sessions made more than one decision is resampled by decision whatever its
   * sessions (group-samples.ts), so its rows are counted per cell and action with no unit: one row per
   * cell and action instead of one per decision (at a million decisions, hundreds of thousands of rows).
   */
  private playerCountsFromTallies(filter: RecordFilter): ComparisonCountRow[] {
    // A decision without a session is tallied under '' and read as a NULL unit, which both engines group
    // and order as one unit (SQLite sorts it first, PostgreSQL last, as each sorts NULL).
    return this.stmt(
      `WITH single_decision_players AS (
         SELECT player FROM (
           SELECT m.player, m.session_id, sum(m.count) AS n
           FROM decision_tallies m
           WHERE m.one_shot = 1 AND m.source = '' AND m.count > 0 AND m.session_id <> '' AND ${this.tallyFilter}
           GROUP BY m.player, m.session_id) s
         GROUP BY player
         HAVING max(n) = 1)
       SELECT m.player AS "group", m.game, m.framing, m.action, sum(m.count) AS count,
              CASE WHEN m.player IN (SELECT player FROM single_decision_players) THEN NULL
                   ELSE nullif(m.session_id, '') END AS unit,
              NULL AS position
       FROM decision_tallies m
       WHERE m.one_shot = 1 AND m.source = '' AND m.count > 0 AND ${this.tallyFilter}
       GROUP BY m.player, m.game, m.framing, m.action, 6
       ORDER BY 1, 2, 3, 4, 6`,
    ).all(this.filterParams(filter)) as ComparisonCountRow[];
  }

  /** The live rows counted from the decisions themselves (any factor, trials and positions). */
  private decisionCounts(filter: RecordFilter, by: ComparisonFactor): ComparisonCountRow[] {
    return this.stmt(
      `SELECT grp AS "group", game, framing, action, count(*) AS count, unit, position FROM (
         SELECT ${GROUP_BY[by]} AS grp, m.game, m.framing, d.action,
                CASE WHEN EXISTS (SELECT 1 FROM model_calls c WHERE c.match_id = m.id) THEN 'trial:' || m.id
                     ELSE d.session_id END AS unit,
                CASE WHEN m.study_id IS NULL OR m.trial_index IS NULL THEN NULL
                     ELSE coalesce(st.design_hash, m.study_id) || '#' || m.style || '#' || m.opponent || '#' ||
                       (ROW_NUMBER() OVER (
                         PARTITION BY m.player, coalesce(st.design_hash, m.study_id), m.game, m.variant, m.framing,
                                      m.style, m.opponent
                         ORDER BY m.trial_index, st.created_at, m.study_id)) END AS position
         FROM decisions d JOIN matches m ON m.id = d.match_id LEFT JOIN sessions s ON s.id = d.session_id
           LEFT JOIN studies st ON st.id = m.study_id
         WHERE m.rounds = 1 AND m.source IS NULL AND d.status = 'decided' AND d.action IS NOT NULL
           AND ${this.filter}) x
       WHERE grp IS NOT NULL
       GROUP BY grp, game, framing, action, unit, position
       ORDER BY grp, game, framing, action, unit, position`,
    ).all(this.filterParams(filter)) as ComparisonCountRow[];
  }

  /**
   * The group of every finished repeated match that passes the filter, by the same recorded factor as
   * `comparisonCounts`: live matches, and imported ones when grouping by player (an import records no
   * style, client or model); a match whose factor is not recorded is left out. Repeated play is compared
   * match by match, so the analysis needs only which group each match is in.
   */
  repeatedMatchGroups(filter: RecordFilter, by: ComparisonFactor): { match_id: string; group: string }[] {
    return this.stmt(
      `SELECT match_id, grp AS "group" FROM (
         SELECT m.id AS match_id, ${GROUP_BY[by]} AS grp
         FROM matches m LEFT JOIN sessions s ON s.id = m.session_id
         WHERE m.rounds > 1 AND m.status = 'finished' AND ${this.filter}
           ${by === "player" ? "" : "AND m.source IS NULL"}) x
       WHERE grp IS NOT NULL
       ORDER BY match_id`,
    ).all(this.filterParams(filter)) as { match_id: string; group: string }[];
  }
}

/** PostgreSQL returns count(*) as a string (a bigint). */
function numeric(row: ComparisonCountRow): ComparisonCountRow {
  return { ...row, count: Number(row.count) };
}
