import { existsSync, statSync } from "node:fs";
import { SpendReads } from "./spend-reads.js";

/**
 * Whose data `eraseFromRecord` takes out: one player label or one principal (a bearer token's SHA-256),
 * each optionally in one study only, or one MCP session.
 */
export type ErasureTarget =
  | { readonly player: string; readonly study?: string | undefined }
  | { readonly principal: string; readonly study?: string | undefined }
  | { readonly session: string };

/** What one erasure deleted, table by table. */
export interface ErasureCounts {
  matches: number;
  decisions: number;
  attempts: number;
  model_calls: number;
  imported_count_rows: number;
  sessions: number;
  prompts: number;
  runner_batch_requests: number;
  runner_batches: number;
  run_leases: number;
  cached_analyses: number;
  /** Sessions of the target still referenced by another player's matches (kept: their play is not erased). */
  sessions_kept: number;
}

/** A run's lease still held (not expired) for a player being erased: erasing under it would race its writes. */
export interface LiveLease {
  readonly study_id: string;
  readonly player: string;
  readonly host: string;
  readonly pid: number;
}

/**
 * Erasure of one participant's data (a withdrawal of consent): every row that holds their play or their
 * words, in one transaction. The tallies the analyses read are taken down by exactly the decisions removed
 * (then every tally at zero dropped, so no row keeps the label), prompts no remaining decision answered go
 * with them, and the whole analysis result cache is emptied: a cached result of an older version still
 * holds the erased numbers and labels, though it could never be served again.
 */
/** Thrown inside a preview's transaction to roll it back (never leaves `previewErasure`). */
const PREVIEW_ROLLBACK = new Error("erasure preview: rolled back");

export class ErasureStore extends SpendReads {
  /** The leases of runs still playing (expires_at after `now`) for the target's player, if any. */
  liveLeasesOf(target: ErasureTarget, now: string): LiveLease[] {
    if (!("player" in target)) return [];
    const rows = this.stmt(
      "SELECT study_id, player, host, pid, expires_at FROM run_leases WHERE player = ?",
    ).all(target.player) as (LiveLease & { expires_at: string })[];
    return rows
      .filter((r) => r.expires_at > now && (target.study === undefined || r.study_id === target.study))
      .map(({ expires_at: _, ...r }) => ({ ...r, pid: Number(r.pid) }));
  }

  /** How many rows name the player (matches, session rows, imported counts): 0 = nothing to erase. */
  erasablePlayerRows(player: string, study?: string): number {
    const row = this.stmt(
      `SELECT (SELECT count(*) FROM matches WHERE player = ? AND (CAST(? AS TEXT) IS NULL OR study_id = ?))
         + (CASE WHEN CAST(? AS TEXT) IS NULL THEN (SELECT count(*) FROM sessions WHERE player = ?)
              + (SELECT count(*) FROM imported_counts WHERE player = ?) ELSE 0 END) AS n`,
    ).get(player, study ?? null, study ?? null, study ?? null, player, player) as { n: number | string };
    return Number(row.n);
  }

  /**
   * How many rows belong to the session (its row, the matches and replies recorded in it, its HTTP row, which
   * a session that only connected has alone): 0 = nothing to erase.
   */
  erasableSessionRows(session: string): number {
    const row = this.stmt(
      `SELECT (SELECT count(*) FROM sessions WHERE id = ?) + (SELECT count(*) FROM matches WHERE session_id = ?)
         + (SELECT count(*) FROM decisions WHERE session_id = ?) + (SELECT count(*) FROM http_sessions WHERE id = ?)
         AS n`,
    ).get(session, session, session, session) as { n: number | string };
    return Number(row.n);
  }

  /**
   * How many rows the principal holds (matches, and without a study its session and HTTP session rows): 0 =
   * nothing to erase.
   */
  erasablePrincipalRows(principal: string, study?: string): number {
    const row = this.stmt(
      `SELECT (SELECT count(*) FROM matches WHERE principal = ? AND (CAST(? AS TEXT) IS NULL OR study_id = ?))
         + (CASE WHEN CAST(? AS TEXT) IS NULL THEN (SELECT count(*) FROM sessions WHERE principal = ?)
              + (SELECT count(*) FROM http_sessions WHERE principal = ?) ELSE 0 END) AS n`,
    ).get(principal, study ?? null, study ?? null, study ?? null, principal, principal) as {
      n: number | string;
    };
    return Number(row.n);
  }

  /** The ids of the matches the target played, in id order. */
  private erasedMatchIds(target: ErasureTarget): string[] {
    const rows =
      "player" in target || "principal" in target
        ? (this.stmt(
            `SELECT id FROM matches WHERE ${"player" in target ? "player" : "principal"} = ?
               AND (CAST(? AS TEXT) IS NULL OR study_id = ?) ORDER BY id`,
          ).all(
            "player" in target ? target.player : target.principal,
            target.study ?? null,
            target.study ?? null,
          ) as { id: string }[])
        : // A match is the session's when it was started there or any of its rounds was answered there (a
          // match resumed in another session holds both sessions' replies: it goes whole).
          (this.stmt(
            `SELECT id FROM matches WHERE session_id = ?
             UNION SELECT match_id AS id FROM decisions WHERE session_id = ?
             UNION SELECT match_id AS id FROM attempts WHERE session_id = ?
             ORDER BY id`,
          ).all(target.session, target.session, target.session) as { id: string }[]);
    return rows.map((r) => r.id);
  }

  /** The sessions that may go with the erased rows: those named by them, and the player's or principal's own. */
  private candidateSessions(target: ErasureTarget, matches: string): string[] {
    const named = this.stmt(
      `SELECT session_id AS id FROM matches WHERE ${this.dialect.inJsonList("id", "m")} AND session_id IS NOT NULL
       UNION SELECT session_id AS id FROM decisions WHERE ${this.dialect.inJsonList("match_id", "m")} AND session_id IS NOT NULL
       UNION SELECT session_id AS id FROM attempts WHERE ${this.dialect.inJsonList("match_id", "m")} AND session_id IS NOT NULL`,
    ).all({ m: matches }) as { id: string }[];
    const own =
      "session" in target
        ? [{ id: target.session }]
        : target.study !== undefined
          ? []
          : "player" in target
            ? (this.stmt("SELECT id FROM sessions WHERE player = ?").all(target.player) as { id: string }[])
            : (this.stmt(
                "SELECT id FROM sessions WHERE principal = ? UNION SELECT id FROM http_sessions WHERE principal = ?",
              ).all(target.principal, target.principal) as { id: string }[]);
    return [...new Set([...named, ...own].map((r) => r.id))].sort();
  }

  /**
   * Deletes the target's matches with their decisions, attempts, model calls and runner batch requests, its
   * imported counts (a player erased whole), the sessions nothing left refers to (their client names with
   * them), the prompts no remaining decision answered, its run leases, and every cached analysis; the
   * tallies lose exactly the removed decisions. One transaction, so the record version moves once.
   */
  eraseFromRecord(target: ErasureTarget): ErasureCounts {
    // SQLite leaves deleted text in the file's pages unless told to zero it (better-sqlite3 builds it off).
    if (this.engine.kind === "sqlite") this.db.pragma("secure_delete = ON");
    return this.transaction(() => {
      const ids = this.erasedMatchIds(target);
      const m = JSON.stringify(ids);
      const inMatches = (column: string) => this.dialect.inJsonList(column, "m");
      const sessions = this.candidateSessions(target, m);

      // The tallies: each removed decided round taken out of the tally it was counted in (the key
      // saveDecision writes), then every tally at zero dropped, so no row keeps an erased label.
      const tallied = this.stmt(
        `SELECT mt.player, coalesce(d.session_id, mt.import_session, '') AS session_id, mt.game, mt.variant,
           mt.framing, d.action, coalesce(mt.study_id, '') AS study_id, mt.principal,
           coalesce(mt.source, '') AS source, mt.rounds, mt.action_order, count(*) AS n
         FROM decisions d JOIN matches mt ON mt.id = d.match_id
         WHERE d.status = 'decided' AND d.action IS NOT NULL AND ${inMatches("mt.id")}
         GROUP BY mt.player, coalesce(d.session_id, mt.import_session, ''), mt.game, mt.variant, mt.framing,
           d.action, coalesce(mt.study_id, ''), mt.principal, coalesce(mt.source, ''), mt.rounds, mt.action_order`,
      ).all({ m }) as {
        player: string;
        session_id: string;
        game: string;
        variant: string;
        framing: string;
        action: string;
        study_id: string;
        principal: string;
        source: string;
        rounds: number | string;
        action_order: string;
        n: number | string;
      }[];
      const untally = this.stmt(
        `UPDATE decision_tallies SET count = count - @n
         WHERE player = @player AND session_id = @session_id AND game = @game AND variant = @variant
           AND framing = @framing AND action = @action AND study_id = @study_id AND principal = @principal
           AND source = @source AND one_shot = @one_shot AND order_position = @order_position`,
      );
      for (const { rounds, action_order, n, ...key } of tallied) {
        const order = JSON.parse(action_order) as string[];
        untally.run({
          ...key,
          n: Number(n),
          one_shot: Number(rounds) === 1 ? 1 : 0,
          order_position: order.length !== 2 ? -1 : order[0] === key.action ? 0 : 1,
        });
      }
      this.write("DELETE FROM decision_tallies WHERE count <= 0");

      const prompts = (
        this.stmt(
          `SELECT DISTINCT prompt_hash AS hash FROM decisions WHERE ${inMatches("match_id")} AND prompt_hash IS NOT NULL`,
        ).all({ m }) as { hash: string }[]
      ).map((r) => r.hash);
      const batches = (
        this.stmt(`SELECT DISTINCT batch_id FROM runner_batch_requests WHERE ${inMatches("match_id")}`).all({
          m,
        }) as { batch_id: string }[]
      ).map((r) => r.batch_id);

      const counts: ErasureCounts = {
        matches: 0,
        decisions: 0,
        attempts: 0,
        model_calls: this.stmt(`DELETE FROM model_calls WHERE ${inMatches("match_id")}`).run({ m }).changes,
        imported_count_rows: 0,
        sessions: 0,
        prompts: 0,
        runner_batch_requests: this.stmt(
          `DELETE FROM runner_batch_requests WHERE ${inMatches("match_id")}`,
        ).run({
          m,
        }).changes,
        runner_batches: 0,
        run_leases: 0,
        cached_analyses: 0,
        sessions_kept: 0,
      };
      counts.attempts = this.stmt(`DELETE FROM attempts WHERE ${inMatches("match_id")}`).run({ m }).changes;
      counts.decisions = this.stmt(`DELETE FROM decisions WHERE ${inMatches("match_id")}`).run({ m }).changes;
      // The other seat of an agent-vs-agent match stays (another player's play) without its link.
      this.stmt(
        `UPDATE matches SET partner_match_id = NULL WHERE ${inMatches("partner_match_id")} AND NOT ${inMatches("id")}`,
      ).run({ m });
      this.stmt(`UPDATE matches SET partner_match_id = NULL WHERE ${inMatches("id")}`).run({ m });
      counts.matches = this.stmt(`DELETE FROM matches WHERE ${inMatches("id")}`).run({ m }).changes;

      const p = JSON.stringify(prompts);
      counts.prompts = this.stmt(
        `DELETE FROM prompts WHERE ${this.dialect.inJsonList("hash", "p")}
           AND hash NOT IN (SELECT prompt_hash FROM decisions WHERE prompt_hash IS NOT NULL)`,
      ).run({ p }).changes;

      const b = JSON.stringify(batches);
      const emptyBatch = "batch_id NOT IN (SELECT batch_id FROM runner_batch_requests)";
      counts.runner_batches = this.stmt(
        `DELETE FROM runner_batches WHERE ${this.dialect.inJsonList("batch_id", "b")} AND ${emptyBatch}`,
      ).run({ b }).changes;

      if ("player" in target) {
        counts.runner_batches += this.stmt(
          `DELETE FROM runner_batches WHERE player = ? AND (CAST(? AS TEXT) IS NULL OR study_id = ?) AND ${emptyBatch}`,
        ).run(target.player, target.study ?? null, target.study ?? null).changes;
        counts.run_leases = this.stmt(
          "DELETE FROM run_leases WHERE player = ? AND (CAST(? AS TEXT) IS NULL OR study_id = ?)",
        ).run(target.player, target.study ?? null, target.study ?? null).changes;
        // Imports belong to no study: a player erased whole takes their imported counts too.
        if (target.study === undefined)
          counts.imported_count_rows = this.stmt("DELETE FROM imported_counts WHERE player = ?").run(
            target.player,
          ).changes;
      }

      // A session goes when nothing left refers to it; its HTTP bookkeeping row (client name, initialize
      // params) with it.
      const s = JSON.stringify(sessions);
      const referenced = (
        this.stmt(
          `SELECT session_id AS id FROM matches WHERE ${this.dialect.inJsonList("session_id", "s")}
           UNION SELECT session_id AS id FROM decisions WHERE ${this.dialect.inJsonList("session_id", "s")}
           UNION SELECT session_id AS id FROM attempts WHERE ${this.dialect.inJsonList("session_id", "s")}`,
        ).all({ s }) as { id: string }[]
      ).map((r) => r.id);
      const free = JSON.stringify(sessions.filter((id) => !referenced.includes(id)));
      counts.sessions = this.stmt(`DELETE FROM sessions WHERE ${this.dialect.inJsonList("id", "f")}`).run({
        f: free,
      }).changes;
      this.stmt(`DELETE FROM http_sessions WHERE ${this.dialect.inJsonList("id", "f")}`).run({ f: free });
      counts.sessions_kept = referenced.length;

      counts.cached_analyses = this.stmt("DELETE FROM analysis_cache").run().changes;
      return counts;
    });
  }

  /**
   * What `eraseFromRecord` would remove, counted by running it and rolling it back: the same statements, so
   * a preview can never say other numbers than the erasure. Nothing of the record changes (its version
   * neither, so no cached analysis is lost).
   */
  previewErasure(target: ErasureTarget): ErasureCounts {
    let counts: ErasureCounts | undefined;
    try {
      this.transaction(() => {
        counts = this.eraseFromRecord(target);
        throw PREVIEW_ROLLBACK;
      });
    } catch (error) {
      if (error !== PREVIEW_ROLLBACK) throw error;
    }
    return counts as ErasureCounts;
  }

  /**
   * After an erasure on SQLite: rebuilds the file (VACUUM: no free page or page slack keeps a copy of
   * erased text that older writes moved around) and empties the -wal into it (a TRUNCATE checkpoint: the
   * -wal holds the pages as they were before). `wal_emptied` is false when another connection was reading
   * (a server on the record): its -wal then still holds old pages until that connection ends and a
   * checkpoint runs. Null on PostgreSQL, which keeps dead rows until its own VACUUM (see docs).
   */
  scrubFile(): { wal_emptied: boolean; bytes: number } | null {
    if (this.engine.kind !== "sqlite") return null;
    this.db.exec("VACUUM");
    const [result] = this.db.pragma("wal_checkpoint(TRUNCATE)") as { busy: number; log: number }[];
    const pages = this.db.pragma("page_count", { simple: true }) as number;
    const size = this.db.pragma("page_size", { simple: true }) as number;
    const wal = `${this.path}-wal`;
    const walBytes = existsSync(wal) ? statSync(wal).size : 0;
    return { wal_emptied: result !== undefined && result.busy === 0 && walBytes === 0, bytes: pages * size };
  }
}
