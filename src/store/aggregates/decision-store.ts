import { createHash } from "node:crypto";
import type { ModelCall } from "../../domain/model-call.js";
import { type MatchRow, toMatchRecord } from "../match-rows.js";
import type { AttemptRecord, DecisionRecord, MatchRecord } from "../records.js";
import { requireWellFormedText } from "../well-formed-text.js";
import { StudyMatchStore } from "./study-match-store.js";

/** The text fields of a model call (its `decoding` is stored as JSON, which escapes what it must). */
const MODEL_CALL_TEXT = {
  requested_model: "model call's requested_model",
  reported_model: "model call's reported_model",
  style: "model call's style",
  finish_reason: "model call's finish_reason",
  raw_reply: "model call's raw_reply",
  called_at: "model call's called_at",
  cache_key: "model call's cache_key",
  cached_from: "model call's cached_from",
  batch_id: "model call's batch_id",
} as const;

/** A decision row as DecisionRecord has it: every column but the store's own mark `tallied`. */
const DECISION_COLUMNS = `match_id, round, session_id, raw_text, action, rationale, tokens, opponent_action,
  payoff, opponent_payoff, invalid_attempts, status, decided_at, prompt_hash, server_version,
  catalog_fingerprint`;

/**
 * Decisions, the attempts and model calls behind them, and the prompts they answered. Every decision
 * write keeps decision_tallies equal to the decided rounds, in the same transaction.
 */
export class DecisionStore extends StudyMatchStore {
  getDecision(matchId: string, round: number): DecisionRecord | undefined {
    return this.stmt(`SELECT ${DECISION_COLUMNS} FROM decisions WHERE match_id = ? AND round = ?`).get(
      matchId,
      round,
    ) as DecisionRecord | undefined;
  }

  /**
   * What submit_move reads before it records a reply, in one statement: the match, whether `round` has a
   * decision (its status; the row itself is read only then, to replay it), and the round's attempts so far.
   * One read instead of three: on PostgreSQL each read that waits is a round trip through the store's
   * thread, on SQLite a statement each. Whether the round is decided is read from the decisions table
   * itself, as getDecision did, not inferred from the match's next round.
   */
  moveState(matchId: string, round: number): MoveState | undefined {
    const row = this.stmt(
      `SELECT m.*, d.status AS move_recorded_status, a.invalid AS move_invalid_attempts,
         a.tokens AS move_attempt_tokens
       FROM matches m
       LEFT JOIN decisions d ON d.match_id = m.id AND d.round = ?
       CROSS JOIN (SELECT coalesce(sum(CASE WHEN action IS NULL THEN 1 ELSE 0 END), 0) AS invalid,
           sum(tokens) AS tokens
         FROM attempts WHERE match_id = ? AND round = ?) a
       WHERE m.id = ?`,
    ).get(round, matchId, round, matchId) as
      | (MatchRow & {
          move_recorded_status: string | null;
          move_invalid_attempts: number | string;
          move_attempt_tokens: number | string | null;
        })
      | undefined;
    if (!row) return undefined;
    const { move_recorded_status, move_invalid_attempts, move_attempt_tokens, ...match } = row;
    return {
      match: toMatchRecord(match),
      recorded: move_recorded_status !== null,
      attempts: {
        invalid: Number(move_invalid_attempts),
        tokens: move_attempt_tokens === null ? null : Number(move_attempt_tokens),
      },
    };
  }

  listDecisions(matchId: string): DecisionRecord[] {
    return this.stmt(`SELECT ${DECISION_COLUMNS} FROM decisions WHERE match_id = ? ORDER BY round`).all(
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
   * The row is marked `tallied`: a row without the mark was written by an older same-game, which the
   * record's triggers tally instead (db/021_older_writers.sql).
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
    // An imported match has no MCP session; its decisions are tallied under the import's session label.
    const session = (d: Pick<DecisionRecord, "session_id">) => d.session_id ?? match.import_session ?? null;
    if (counted(before)) this.tally(match, session(before), before.action, -1);
    if (counted(decision)) this.tally(match, session(decision), decision.action, 1);
    this.write(
      `INSERT INTO decisions (match_id, round, session_id, raw_text, action, rationale, tokens,
         opponent_action, payoff, opponent_payoff, invalid_attempts, status, decided_at,
         prompt_hash, server_version, catalog_fingerprint, tallied)
       VALUES (@match_id, @round, @session_id, @raw_text, @action, @rationale, @tokens,
         @opponent_action, @payoff, @opponent_payoff, @invalid_attempts, @status, @decided_at,
         @prompt_hash, @server_version, @catalog_fingerprint, 1)
       ON CONFLICT (match_id, round) DO UPDATE SET session_id = excluded.session_id,
         raw_text = excluded.raw_text, action = excluded.action, rationale = excluded.rationale,
         tokens = excluded.tokens, opponent_action = excluded.opponent_action, payoff = excluded.payoff,
         opponent_payoff = excluded.opponent_payoff, invalid_attempts = excluded.invalid_attempts,
         status = excluded.status, decided_at = excluded.decided_at, prompt_hash = excluded.prompt_hash,
         server_version = excluded.server_version, catalog_fingerprint = excluded.catalog_fingerprint,
         tallied = 1`,
      {
        ...decision,
        prompt_hash: decision.prompt_hash ?? null,
        server_version: decision.server_version ?? null,
        catalog_fingerprint: decision.catalog_fingerprint ?? null,
      },
    );
  }

  /** Adds `delta` to the tally of one decided action of a match (see db/007_decision_tallies.sql). */
  private tally(match: MatchRecord, session: string | null, action: string, delta: 1 | -1): void {
    const order = match.action_order;
    this.write(
      `INSERT INTO decision_tallies (player, session_id, game, variant, framing, study_id, principal, source,
         one_shot, order_position, action, count)
       VALUES (@player, @session_id, @game, @variant, @framing, @study_id, @principal, @source, @one_shot,
         @order_position, @action, @delta)
       ON CONFLICT (player, session_id, game, variant, framing, action, study_id, principal, source,
         one_shot, order_position) DO UPDATE SET count = decision_tallies.count + excluded.count`,
      {
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
      },
    );
  }

  /** Stores a rendered prompt once per distinct text; returns its SHA-256 (the decisions' prompt_hash). */
  savePrompt(text: string): string {
    const hash = promptHash(text);
    this.write("INSERT INTO prompts (hash, text) VALUES (?, ?) ON CONFLICT (hash) DO NOTHING", hash, text);
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

  /**
   * Records one attempt when nobody needs its id (no model calls to link to it): on PostgreSQL it then
   * travels with the transaction's next statement that waits, instead of a round trip of its own.
   */
  recordAttempt(attempt: AttemptRecord): void {
    requireWellFormedText(attempt, { raw_text: "reply (choice)" });
    this.write(
      `INSERT INTO attempts (match_id, round, session_id, raw_text, action, invalid_reason, tokens, created_at)
       VALUES (@match_id, @round, @session_id, @raw_text, @action, @invalid_reason, @tokens, @created_at)`,
      attempt,
    );
  }

  /** The model calls behind one attempt (sent by a runner), in the order they were made. */
  insertModelCalls(attemptId: number, matchId: string, round: number, calls: readonly ModelCall[]): void {
    const insert = this.stmt(
      `INSERT INTO model_calls (attempt_id, match_id, round, seq, provider, requested_model, reported_model,
         mode, style, sample_index, decoding_json, prompt_tokens, completion_tokens, latency_ms, retries,
         finish_reason, raw_reply, called_at, cache_key, cached_from, cost_usd, batch_id)
       VALUES (@attempt_id, @match_id, @round, @seq, @provider, @requested_model, @reported_model,
         @mode, @style, @sample_index, @decoding_json, @prompt_tokens, @completion_tokens, @latency_ms,
         @retries, @finish_reason, @raw_reply, @called_at, @cache_key, @cached_from, @cost_usd, @batch_id)`,
    );
    for (const [seq, { decoding, ...call }] of calls.entries()) {
      // A runner's report is client text like a reply: refused where it enters, on both engines alike.
      requireWellFormedText(call, MODEL_CALL_TEXT);
      insert.run({
        ...call,
        cache_key: call.cache_key ?? null,
        cached_from: call.cached_from ?? null,
        cost_usd: call.cost_usd ?? null,
        batch_id: call.batch_id ?? null,
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
}

/** What submit_move finds before it records a reply (see DecisionStore.moveState). */
export interface MoveState {
  match: MatchRecord;
  /** Whether the round already has a decision (a resubmission, answered from the record). */
  recorded: boolean;
  /** The round's attempts so far: how many were invalid, and the tokens they reported (null: none did). */
  attempts: { invalid: number; tokens: number | null };
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
