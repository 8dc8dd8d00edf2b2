import { createHash } from "node:crypto";
import { join } from "node:path";
import Database from "better-sqlite3";
import type { ModelCall } from "../domain/model-call.js";
import { packageRoot } from "../package-root.js";
import { UsageError } from "../usage-error.js";
import { type Dialect, dialectOf, filterSql, tallyFilterSql } from "./dialect.js";
import { isPostgresUrl, redactUrl } from "./engines/database-location.js";
import type { Engine, Statement } from "./engines/engine.js";
import { PostgresEngine } from "./engines/postgres-engine.js";
import { SqliteEngine } from "./engines/sqlite-engine.js";
import { applyMigrations } from "./migrations.js";
import { checkRecordSchema, checkSqliteHeader, integrityCheck, knownSchemaVersion } from "./record-file.js";
import { checkPostgresRecord } from "./record-schema.js";
import type {
  AttemptRecord,
  CellCountRow,
  DecisionRecord,
  HttpSessionCaps,
  HttpSessionRecord,
  HttpSessionTouch,
  ImportedCountRow,
  MatchRecord,
  RecordFilter,
  SessionRecord,
  StudyRecord,
} from "./records.js";
import { requireWellFormedText } from "./well-formed-text.js";

type MatchRow = Omit<MatchRecord, "action_order" | "opponent_params" | "reveal_horizon"> & {
  action_order: string;
  opponent_params: string;
  reveal_horizon: number;
};

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
  finished: number;
  open: number;
}

/** How often one action was chosen (validly) in one (player, game, variant, framing) cell: the same shape
 * as a row of published counts, so live and imported cells read alike. */
export type CellActionCountRow = ImportedCountRow;

export interface StoreOptions {
  /** Open without writing anything (analysis, report, export); the file must exist and be current. */
  readonly?: boolean;
}

/** How long a writer waits for another process's transaction before SQLite reports busy. */
const BUSY_TIMEOUT_MS = 10_000;

/**
 * The record: the only module that speaks SQL. Every statement is prepared once and reused; a writing
 * operation of the play loop runs inside `transaction()` so one tool call is one transaction. The record is
 * an SQLite file (a path) or a PostgreSQL database (a postgres:// URL); see engines/ and dialect.ts.
 */
export class Store {
  readonly engine: Engine;
  private readonly statements = new Map<string, Statement>();
  private readonly dialect: Dialect;
  /** The analysis queries' WHERE clause in this engine's dialect. */
  private readonly filter: string;
  /** The same clause over `decision_tallies m`, where '' stands for no study and no source. */
  private readonly tallyFilter: string;
  /**
   * Set on a view made by `scopedTo`: the analysis queries then read only this principal's live play
   * (and the imported records, which belong to no client). Null = the whole record (the CLI).
   */
  readonly principalScope: string | null = null;

  /** Opened with `readonly`: analysis verbs never write, so a read-only file can still be analysed. */
  readonly readonly: boolean;

  constructor(
    readonly path: string,
    options: StoreOptions = {},
  ) {
    this.readonly = options.readonly === true;
    this.engine = isPostgresUrl(path) ? openPostgres(path, this.readonly) : openSqlite(path, this.readonly);
    this.dialect = dialectOf(this.engine.kind);
    this.filter = filterSql(this.dialect);
    this.tallyFilter = tallyFilterSql(this.dialect);
  }

  /** The better-sqlite3 handle of an SQLite record (tests and tools that inspect the file). */
  get db(): Database.Database {
    if (this.engine instanceof SqliteEngine) return this.engine.db;
    throw new Error("This record is a PostgreSQL database: it has no SQLite handle.");
  }

  /**
   * SQLite's integrity_check of the whole file: "ok", or the first problems it found. PostgreSQL checks its
   * pages itself (a damaged page fails the query that reads it), so a record there that answers is "ok".
   */
  integrityCheck(): string {
    if (this.engine instanceof SqliteEngine) return integrityCheck(this.engine.db);
    this.stmt("SELECT 1 AS ok").get();
    return "ok";
  }

  close(): void {
    this.engine.close();
  }

  /**
   * The same record seen by one principal (a bearer token): its analysis queries leave out every other
   * principal's matches, so to token B the play of token A does not exist. The view shares this store's
   * connection and prepared statements; closing it closes both.
   */
  scopedTo(principal: string): Store {
    return Object.create(this, { principalScope: { value: principal, enumerable: true } }) as Store;
  }

  /**
   * Runs `work` as one transaction: IMMEDIATE on SQLite (the write lock is taken up front, so no upgrade
   * deadlock), SERIALIZABLE on PostgreSQL (run again from the start when another replica's transaction
   * conflicts, so `work` must change nothing but the record).
   */
  transaction<T>(work: () => T): T {
    return this.engine.transaction(work);
  }

  private stmt(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.engine.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  // --- sessions -------------------------------------------------------------------------------------

  /** Records a session the first time it acts; later calls fill in client details learned since. */
  saveSession(session: SessionRecord): void {
    requireWellFormedText(session, {
      player: "player label",
      client_name: "client name",
      client_version: "client version",
    });
    this.stmt(
      `INSERT INTO sessions (id, player, client_name, client_version, transport, principal, started_at)
       VALUES (@id, @player, @client_name, @client_version, @transport, @principal, @started_at)
       ON CONFLICT(id) DO UPDATE SET
         client_name = coalesce(excluded.client_name, sessions.client_name),
         client_version = coalesce(excluded.client_version, sessions.client_version)`,
    ).run(session);
  }

  getSession(id: string): SessionRecord | undefined {
    return this.stmt("SELECT * FROM sessions WHERE id = ?").get(id) as SessionRecord | undefined;
  }

  // --- HTTP sessions (migration 009) --------------------------------------------------------------

  /**
   * Opens an HTTP session if the caps allow it, counted over the live sessions of every replica on this
   * record: "full" (all sessions) or "principal-full" (this principal's share) otherwise. Count and insert
   * are one transaction: on SQLite the write lock serialises replicas, so the caps are exact.
   */
  openHttpSession(session: HttpSessionRecord, caps: HttpSessionCaps): "opened" | "full" | "principal-full" {
    requireWellFormedText(session, { client_name: "client name", client_version: "client version" });
    return this.transaction(() => {
      const live = this.stmt(
        `SELECT count(*) AS n, coalesce(sum(CASE WHEN principal = ? THEN 1 ELSE 0 END), 0) AS mine
         FROM http_sessions WHERE closed_at IS NULL AND last_seen_at >= ?`,
      ).get(session.principal, caps.liveSince) as { n: number; mine: number };
      if (Number(live.n) >= caps.maxSessions) return "full";
      if (Number(live.mine) >= caps.maxSessionsPerPrincipal) return "principal-full";
      this.stmt(
        `INSERT INTO http_sessions (id, principal, protocol_version, initialize_params, client_name,
           client_version, created_at, last_seen_at, rate_tokens, rate_updated_at, rate_taken)
         VALUES (@id, @principal, @protocol_version, @initialize_params, @client_name, @client_version,
           @created_at, @created_at, @rate, @created_at, 1)`,
      ).run({ ...session, rate: caps.ratePerSecond });
      return "opened";
    });
  }

  /**
   * One request of a session, in one statement: finds the live row of this id for this principal, marks it
   * seen, and takes `messages` tokens from its bucket (refilled at `ratePerSecond` since the last request,
   * capped at one second's worth) — or, when they are not all there, takes none. Undefined when the id is
   * unknown, closed, expired or another principal's. One UPDATE, so two replicas never both spend a token.
   */
  touchHttpSession(
    id: string,
    principal: string,
    at: { now: number; liveSince: number },
    rate: { messages: number; ratePerSecond: number },
  ): HttpSessionTouch | undefined {
    const elapsed = "(CASE WHEN @now > rate_updated_at THEN @now - rate_updated_at ELSE 0 END)";
    const grown = `(rate_tokens + ${elapsed} * CAST(@rate AS DOUBLE PRECISION) / 1000.0)`;
    const refill = `(CASE WHEN ${grown} > @rate THEN CAST(@rate AS DOUBLE PRECISION) ELSE ${grown} END)`;
    const row = this.stmt(
      `UPDATE http_sessions SET
         last_seen_at = CASE WHEN @now > last_seen_at THEN @now ELSE last_seen_at END,
         rate_taken = CASE WHEN ${refill} >= @messages THEN 1 ELSE 0 END,
         rate_tokens = CASE WHEN ${refill} >= @messages THEN ${refill} - @messages ELSE ${refill} END,
         rate_updated_at = CASE WHEN @now > rate_updated_at THEN @now ELSE rate_updated_at END
       WHERE id = @id AND principal = @principal AND closed_at IS NULL AND last_seen_at >= @live_since
       RETURNING initialize_params, rate_taken, rate_tokens`,
    ).get({
      id,
      principal,
      now: at.now,
      live_since: at.liveSince,
      rate: rate.ratePerSecond,
      messages: rate.messages,
    }) as { initialize_params: string; rate_taken: number; rate_tokens: number } | undefined;
    if (!row) return undefined;
    return {
      initialize_params: row.initialize_params,
      taken: Number(row.rate_taken) === 1,
      tokens: Number(row.rate_tokens),
    };
  }

  /** Ends a session for every replica (DELETE): its id answers 404 from now on. */
  closeHttpSession(id: string, principal: string, now: number): void {
    this.stmt(
      "UPDATE http_sessions SET closed_at = ? WHERE id = ? AND principal = ? AND closed_at IS NULL",
    ).run(now, id, principal);
  }

  /** Live sessions over every replica: the readiness check reports it (and proves a round trip). */
  countLiveHttpSessions(liveSince: number): number {
    const row = this.stmt(
      "SELECT count(*) AS n FROM http_sessions WHERE closed_at IS NULL AND last_seen_at >= ?",
    ).get(liveSince) as { n: number };
    return Number(row.n);
  }

  // --- studies --------------------------------------------------------------------------------------

  insertStudy(study: StudyRecord): void {
    requireWellFormedText(study, { name: "study name" });
    this.stmt(
      `INSERT INTO studies (id, name, design_json, design_hash, seed, created_at)
       VALUES (@id, @name, @design_json, @design_hash, @seed, @created_at)`,
    ).run(study);
  }

  getStudy(id: string): StudyRecord | undefined {
    return this.stmt("SELECT * FROM studies WHERE id = ?").get(id) as StudyRecord | undefined;
  }

  findStudyByHash(hash: string): StudyRecord | undefined {
    return this.stmt("SELECT * FROM studies WHERE design_hash = ? ORDER BY created_at LIMIT 1").get(hash) as
      | StudyRecord
      | undefined;
  }

  listStudies(): StudyRecord[] {
    return this.stmt("SELECT * FROM studies ORDER BY created_at").all() as StudyRecord[];
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

  /** Trials of a study by player and cell: how many are finished and how many still open. */
  studyTrialCounts(studyId: string): StudyTrialCountRow[] {
    return this.stmt(
      `SELECT player, game, variant, framing, style, opponent,
              sum(CASE WHEN status = 'finished' THEN 1 ELSE 0 END) AS finished,
              sum(CASE WHEN status = 'open' THEN 1 ELSE 0 END) AS open
       FROM matches WHERE study_id = ? GROUP BY player, game, variant, framing, style, opponent
       ORDER BY player, game, variant, framing, style, opponent`,
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
    this.stmt(
      `INSERT INTO matches (id, study_id, trial_index, player, session_id, principal, game, variant, framing,
         style, action_order, opponent, opponent_params, history_mode, reveal_horizon, rounds,
         partner_match_id, seed, status, next_round, source, created_at, finished_at)
       VALUES (@id, @study_id, @trial_index, @player, @session_id, @principal, @game, @variant, @framing,
         @style, @action_order, @opponent, @opponent_params, @history_mode, @reveal_horizon, @rounds,
         @partner_match_id, @seed, @status, @next_round, @source, @created_at, @finished_at)`,
    ).run({
      ...match,
      action_order: JSON.stringify(match.action_order),
      opponent_params: JSON.stringify(match.opponent_params),
      reveal_horizon: match.reveal_horizon ? 1 : 0,
    });
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
    this.stmt(`UPDATE matches SET next_round = ?, status = ?, finished_at = ? WHERE id = ?`).run(
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
   * One principal's matches that pass the filter, newest first, with the number of settled rounds: what a
   * match listing shows without reading every decision into JS.
   */
  listMatchSummaries(filter: RecordFilter & { principal: string; limit: number }): MatchSummaryRow[] {
    return this.stmt(
      `SELECT m.id AS match_id, m.player, m.game, m.variant, m.framing, m.opponent, m.status,
         (SELECT COUNT(*) FROM decisions d WHERE d.match_id = m.id AND d.status <> 'pending') AS rounds_played,
         m.created_at AS started_at
       FROM matches m WHERE m.principal = @principal AND ${this.filter}
       ORDER BY m.created_at DESC, m.id LIMIT @limit`,
    ).all({ ...filterParams(filter), principal: filter.principal, limit: filter.limit }) as MatchSummaryRow[];
  }

  // --- decisions and attempts -----------------------------------------------------------------------

  getDecision(matchId: string, round: number): DecisionRecord | undefined {
    return this.stmt("SELECT * FROM decisions WHERE match_id = ? AND round = ?").get(matchId, round) as
      | DecisionRecord
      | undefined;
  }

  listDecisions(matchId: string): DecisionRecord[] {
    return this.stmt("SELECT * FROM decisions WHERE match_id = ? ORDER BY round").all(
      matchId,
    ) as DecisionRecord[];
  }

  /**
   * Inserts or replaces the decision of one round of `match` (a pending agent-vs-agent round is completed
   * later), and keeps `decision_tallies` equal to the decided rounds: the replaced row's action is taken
   * out, the new one counted. The caller holds the match already (every caller has just read or written
   * it), so only the replaced row is read here. The caller runs it inside its transaction, so both change
   * together or not at all. `fresh`: the caller has read, in this transaction, that the round has no row
   * yet (submit_move's first decision of a round), so there is nothing to take out and no need to look.
   */
  saveDecision(decision: DecisionRecord, match: MatchRecord, fresh = false): void {
    if (match.id !== decision.match_id) {
      throw new Error(`saveDecision: decision of "${decision.match_id}" given with match "${match.id}".`);
    }
    requireWellFormedText(decision, { raw_text: "reply (choice)", rationale: "rationale" });
    const before = fresh
      ? undefined
      : (this.stmt("SELECT session_id, action, status FROM decisions WHERE match_id = ? AND round = ?").get(
          decision.match_id,
          decision.round,
        ) as Pick<DecisionRecord, "session_id" | "action" | "status"> | undefined);
    const counted = (
      d: Pick<DecisionRecord, "action" | "status"> | undefined,
    ): d is { action: string; status: "decided" } =>
      d !== undefined && d.status === "decided" && d.action !== null;
    if (counted(before)) this.tally(match, before.session_id, before.action, -1);
    if (counted(decision)) this.tally(match, decision.session_id, decision.action, 1);
    this.stmt(
      `INSERT INTO decisions (match_id, round, session_id, raw_text, action, rationale, tokens,
         opponent_action, payoff, opponent_payoff, invalid_attempts, status, decided_at,
         prompt_hash, server_version, catalog_fingerprint)
       VALUES (@match_id, @round, @session_id, @raw_text, @action, @rationale, @tokens,
         @opponent_action, @payoff, @opponent_payoff, @invalid_attempts, @status, @decided_at,
         @prompt_hash, @server_version, @catalog_fingerprint)
       ON CONFLICT (match_id, round) DO UPDATE SET session_id = excluded.session_id,
         raw_text = excluded.raw_text, action = excluded.action, rationale = excluded.rationale,
         tokens = excluded.tokens, opponent_action = excluded.opponent_action, payoff = excluded.payoff,
         opponent_payoff = excluded.opponent_payoff, invalid_attempts = excluded.invalid_attempts,
         status = excluded.status, decided_at = excluded.decided_at, prompt_hash = excluded.prompt_hash,
         server_version = excluded.server_version, catalog_fingerprint = excluded.catalog_fingerprint`,
    ).run({
      ...decision,
      prompt_hash: decision.prompt_hash ?? null,
      server_version: decision.server_version ?? null,
      catalog_fingerprint: decision.catalog_fingerprint ?? null,
    });
  }

  /** Adds `delta` to the tally of one decided action of a match (see db/007_decision_tallies.sql). */
  private tally(match: MatchRecord, session: string | null, action: string, delta: 1 | -1): void {
    const order = match.action_order;
    this.stmt(
      `INSERT INTO decision_tallies (player, session_id, game, variant, framing, study_id, principal, source,
         one_shot, order_position, action, count)
       VALUES (@player, @session_id, @game, @variant, @framing, @study_id, @principal, @source, @one_shot,
         @order_position, @action, @delta)
       ON CONFLICT (player, session_id, game, variant, framing, action, study_id, principal, source,
         one_shot, order_position) DO UPDATE SET count = decision_tallies.count + excluded.count`,
    ).run({
      player: match.player,
      session_id: session ?? "",
      game: match.game,
      variant: match.variant,
      framing: match.framing,
      // '' stands for no study and no source: the tallies' key has no NULLs (db/007).
      study_id: match.study_id ?? "",
      principal: match.principal,
      source: match.source ?? "",
      one_shot: match.rounds === 1 ? 1 : 0,
      order_position: order.length !== 2 ? -1 : order[0] === action ? 0 : 1,
      action,
      delta,
    });
  }

  /** Stores a rendered prompt once per distinct text; returns its SHA-256 (the decisions' prompt_hash). */
  savePrompt(text: string): string {
    const hash = promptHash(text);
    this.stmt("INSERT INTO prompts (hash, text) VALUES (?, ?) ON CONFLICT (hash) DO NOTHING").run(hash, text);
    return hash;
  }

  getPrompt(hash: string): string | undefined {
    return (this.stmt("SELECT text FROM prompts WHERE hash = ?").get(hash) as { text: string } | undefined)
      ?.text;
  }

  /** Records one attempt and returns its id. */
  insertAttempt(attempt: AttemptRecord): number {
    requireWellFormedText(attempt, { raw_text: "reply (choice)" });
    const row = this.stmt(
      `INSERT INTO attempts (match_id, round, session_id, raw_text, action, invalid_reason, tokens, created_at)
       VALUES (@match_id, @round, @session_id, @raw_text, @action, @invalid_reason, @tokens, @created_at)
       RETURNING id`,
    ).get(attempt) as { id: number };
    return Number(row.id);
  }

  /** The model calls behind one attempt (sent by a runner), in the order they were made. */
  insertModelCalls(attemptId: number, matchId: string, round: number, calls: readonly ModelCall[]): void {
    const insert = this.stmt(
      `INSERT INTO model_calls (attempt_id, match_id, round, seq, provider, requested_model, reported_model,
         mode, style, sample_index, decoding_json, prompt_tokens, completion_tokens, latency_ms, retries,
         finish_reason, raw_reply, called_at)
       VALUES (@attempt_id, @match_id, @round, @seq, @provider, @requested_model, @reported_model,
         @mode, @style, @sample_index, @decoding_json, @prompt_tokens, @completion_tokens, @latency_ms,
         @retries, @finish_reason, @raw_reply, @called_at)`,
    );
    for (const [seq, { decoding, ...call }] of calls.entries()) {
      insert.run({
        ...call,
        attempt_id: attemptId,
        match_id: matchId,
        round,
        seq,
        decoding_json: JSON.stringify(decoding),
      });
    }
  }

  /** How many replies of a round were invalid, and the tokens its attempts reported (null if none did). */
  attemptTotals(matchId: string, round: number): { invalid: number; tokens: number | null } {
    return this.stmt(
      `SELECT coalesce(sum(CASE WHEN action IS NULL THEN 1 ELSE 0 END), 0) AS invalid, sum(tokens) AS tokens
       FROM attempts WHERE match_id = ? AND round = ?`,
    ).get(matchId, round) as { invalid: number; tokens: number | null };
  }

  listAttempts(matchId: string, round: number): AttemptRecord[] {
    return this.stmt("SELECT * FROM attempts WHERE match_id = ? AND round = ? ORDER BY id").all(
      matchId,
      round,
    ) as AttemptRecord[];
  }

  // --- repeated play and cell distributions ------------------------------------------------

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

  /** How many matches were imported under this source label. */
  countImportedMatches(source: string): number {
    const row = this.stmt("SELECT count(*) AS n FROM matches WHERE source = ?").get(source) as { n: number };
    return row.n;
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

  // --- imported counts ------------------------------------------------------------------------------

  /**
   * Stores published counts under `source`; importing the same source again replaces it whole (a
   * corrected, shorter file leaves none of the old rows behind).
   */
  importCounts(source: string, rows: readonly ImportedCountRow[], at: string): void {
    const remove = this.stmt("DELETE FROM imported_counts WHERE source = ?");
    const insert = this.stmt(
      `INSERT INTO imported_counts (source, player, game, variant, framing, action, count, imported_at)
       VALUES (@source, @player, @game, @variant, @framing, @action, @count, @imported_at)`,
    );
    this.transaction(() => {
      remove.run(source);
      for (const row of rows) insert.run({ ...row, source, imported_at: at });
    });
  }

  /** The sources of imported counts with their rows and decisions, for the report's provenance. */
  importedCountSources(): {
    source: string;
    rows: number;
    decisions: number;
    imported_at: string;
    /** The source's player labels, sorted. */
    players: string[];
  }[] {
    const rows = this.stmt(
      `SELECT source, count(*) AS rows, sum(count) AS decisions, max(imported_at) AS imported_at,
              ${this.dialect.sortedDistinctJsonArray("p.player", "FROM imported_counts p WHERE p.source = i.source")}
                AS players
       FROM imported_counts i GROUP BY source ORDER BY source`,
    ).all() as { source: string; rows: number; decisions: number; imported_at: string; players: string }[];
    return rows.map((row) => ({ ...row, players: JSON.parse(row.players) as string[] }));
  }

  // --- aggregates for the analysis ------------------------------------------------------------------

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

  private filterParams(filter: RecordFilter): Record<string, string | null> {
    return { ...filterParams(filter), principal: this.principalScope };
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

/** Per player: valid one-shot decisions of two-action games, and how many chose the first-listed action. */
export interface FirstListedRow {
  player: string;
  decisions: number;
  first_listed: number;
}

/**
 * The SHA-256 of a prompt, remembered for the last texts hashed: a one-shot condition's prompt is the same
 * text for every decision in it, and hashing its ~2 KB again on every submit_move costs more than the lookup.
 */
export function promptHash(text: string): string {
  let hash = promptHashes.get(text);
  if (hash === undefined) {
    hash = createHash("sha256").update(text, "utf8").digest("hex");
    if (promptHashes.size >= MAX_REMEMBERED_HASHES) promptHashes.clear();
    promptHashes.set(text, hash);
  }
  return hash;
}
const promptHashes = new Map<string, string>();
const MAX_REMEMBERED_HASHES = 256;

/** A filter list as a JSON array parameter (read by the dialect's inJsonList); null (match everything) when absent or empty. */
function jsonList(values: string[] | undefined): string | null {
  return values && values.length > 0 ? JSON.stringify(values) : null;
}

function filterParams(filter: RecordFilter): Record<string, string | null> {
  return {
    players: jsonList(filter.players),
    games: jsonList(filter.games),
    variants: jsonList(filter.variants),
    framings: jsonList(filter.framings),
    study_id: filter.study_id ?? null,
  };
}

function toMatchRecord(row: MatchRow): MatchRecord {
  return {
    ...row,
    action_order: JSON.parse(row.action_order) as string[],
    opponent_params: JSON.parse(row.opponent_params) as Record<string, unknown>,
    reveal_horizon: row.reveal_horizon === 1,
  };
}

/** Opens (creating when writable) the SQLite file at `path`, checked and migrated. */
function openSqlite(path: string, readonly: boolean): SqliteEngine {
  checkSqliteHeader(path);
  const migrations = join(packageRoot(), "db");
  const known = knownSchemaVersion(migrations);
  let db: Database.Database;
  try {
    db = new Database(path, { readonly, fileMustExist: readonly });
  } catch (error) {
    throw new UsageError(`Cannot open the record ${path} (${(error as Error).message}).`);
  }
  try {
    const version = checkRecordSchema(db, path, known);
    db.pragma("foreign_keys = ON");
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    const engine = new SqliteEngine(db);
    if (readonly) {
      if (version < known) {
        throw new UsageError(
          `${path} has schema version ${version} and this same-game reads ${known}: open it once with serve or import (writable) to upgrade it.`,
        );
      }
      return engine;
    }
    db.pragma("journal_mode = WAL");
    // NORMAL in WAL mode keeps every committed transaction across a process kill; only an OS crash or
    // power loss can lose the last commits, which is the trade SQLite recommends for WAL.
    db.pragma("synchronous = NORMAL");
    applyMigrations(engine, migrations);
    return engine;
  } catch (error) {
    db.close();
    if (error instanceof UsageError) throw error;
    throw new UsageError(`Cannot open the record ${path} (${(error as Error).message}).`);
  }
}

/**
 * Connects to the PostgreSQL database at `url`, checked and migrated (db/postgres/, numbered as db/). Every
 * refusal names the URL without its password.
 */
function openPostgres(url: string, readonly: boolean): PostgresEngine {
  const where = redactUrl(url);
  const migrations = join(packageRoot(), "db", "postgres");
  const known = knownSchemaVersion(migrations);
  let engine: PostgresEngine;
  try {
    engine = new PostgresEngine(url, { readonly });
  } catch (error) {
    throw new UsageError(`Cannot connect to the PostgreSQL record ${where} (${(error as Error).message}).`);
  }
  try {
    const version = checkPostgresRecord(engine, where, known);
    if (readonly) {
      if (version === 0) {
        throw new UsageError(
          `No record at ${where}: the database is empty (only serve, import, demo, study register and run create a record).`,
        );
      }
      if (version < known) {
        throw new UsageError(
          `${where} has schema version ${version} and this same-game reads ${known}: open it once with serve or import (writable) to upgrade it.`,
        );
      }
      return engine;
    }
    applyMigrations(engine, migrations);
    return engine;
  } catch (error) {
    engine.close();
    if (error instanceof UsageError) throw error;
    throw new UsageError(`Cannot open the PostgreSQL record ${where} (${(error as Error).message}).`);
  }
}
