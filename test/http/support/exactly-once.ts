import Database from "better-sqlite3";
import { isPostgresUrl } from "../../../src/store/engines/database-location.js";
import { PostgresEngine } from "../../../src/store/engines/postgres-engine.js";
import type { Acknowledged } from "./http-client.js";

export interface RecordAudit {
  integrity: string;
  /** Acknowledged decisions with no row. */
  missing: Acknowledged[];
  /** Acknowledged decisions recorded by more than one attempt (a duplicated write). */
  duplicated: Acknowledged[];
  /**
   * Acknowledged decisions recorded otherwise than the client sent and was told: another action, opponent
   * action, payoff or trial, or not decided. Each with what differs.
   */
  wrong: { match_id: string; round: number; reason: string }[];
  decisionRows: number;
  attemptRows: number;
}

/** A decision's row as stored, beside its match's order of actions and trial. */
interface StoredDecision {
  action: string | null;
  opponent_action: string | null;
  payoff: number | null;
  status: string;
  action_order: string;
  trial_index: number | null;
}

/**
 * Why a stored decision is not the one acknowledged, or null when it is. The labels a match showed name its
 * actions in the stored order (action_order), so the sent label and the labels told map to actions.
 */
function wrongness(ack: Acknowledged, row: StoredDecision): string | null {
  const order = JSON.parse(row.action_order) as string[];
  const actionOf = (label: string | null | undefined) =>
    label == null || ack.labels === undefined ? null : (order[ack.labels.indexOf(label)] ?? `?${label}`);
  if (row.status !== "decided") return `status ${row.status}`;
  if (ack.choice !== undefined && row.action !== actionOf(ack.choice)) {
    return `action ${row.action}, sent ${ack.choice} (${actionOf(ack.choice)})`;
  }
  if (ack.told !== undefined) {
    if (ack.told.your_choice !== ack.choice) return `told ${ack.told.your_choice}, sent ${ack.choice}`;
    if (row.opponent_action !== actionOf(ack.told.opponent_choice)) {
      return `opponent action ${row.opponent_action}, told ${ack.told.opponent_choice}`;
    }
    if (Number(row.payoff) !== ack.told.your_points) {
      return `payoff ${row.payoff}, told ${ack.told.your_points}`;
    }
  }
  if (ack.trial_index !== undefined && Number(row.trial_index) !== ack.trial_index) {
    return `trial ${row.trial_index}, told ${ack.trial_index}`;
  }
  return null;
}

const STORED_DECISION = `SELECT d.action, d.opponent_action, d.payoff, d.status, m.action_order, m.trial_index
  FROM decisions d JOIN matches m ON m.id = d.match_id`;

/**
 * Reads the record with better-sqlite3 directly (not through Store) and checks each acknowledged
 * decision: exactly one decisions row (the primary key forbids more), exactly one attempts row, and the
 * row holds what the client sent and was told.
 */
export function auditRecord(dbPath: string, acknowledged: readonly Acknowledged[]): RecordAudit {
  if (isPostgresUrl(dbPath)) return auditPostgres(dbPath, acknowledged);
  const db = new Database(dbPath, { readonly: true });
  try {
    const integrity = (db.pragma("integrity_check", { simple: true }) as string) ?? "";
    const decision = db.prepare("SELECT count(*) AS n FROM decisions WHERE match_id = ? AND round = ?");
    const attempt = db.prepare("SELECT count(*) AS n FROM attempts WHERE match_id = ? AND round = ?");
    const stored = db.prepare(`${STORED_DECISION} WHERE d.match_id = ? AND d.round = ?`);
    const missing: Acknowledged[] = [];
    const duplicated: Acknowledged[] = [];
    const wrong: RecordAudit["wrong"] = [];
    for (const ack of acknowledged) {
      const rows = (decision.get(ack.match_id, ack.round) as { n: number }).n;
      const attempts = (attempt.get(ack.match_id, ack.round) as { n: number }).n;
      if (rows === 0) missing.push(ack);
      if (rows > 1 || attempts > 1) duplicated.push(ack);
      const row = stored.get(ack.match_id, ack.round) as StoredDecision | undefined;
      const reason = row === undefined ? null : wrongness(ack, row);
      if (reason !== null) wrong.push({ match_id: ack.match_id, round: ack.round, reason });
    }
    const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    return {
      integrity,
      missing,
      duplicated,
      wrong,
      decisionRows: count("SELECT count(*) AS n FROM decisions"),
      attemptRows: count("SELECT count(*) AS n FROM attempts"),
    };
  } finally {
    db.close();
  }
}

/**
 * The same audit of a PostgreSQL record, in one query per count. `integrity` is "ok" by the server's own
 * guarantees (there is no file to check); the constraints are what the audit exercises.
 */
function auditPostgres(url: string, acknowledged: readonly Acknowledged[]): RecordAudit {
  const engine = new PostgresEngine(url, { readonly: true });
  try {
    const perRound = (table: string) => {
      const rows = engine
        .prepare(`SELECT match_id, round, count(*) AS n FROM ${table} GROUP BY match_id, round`)
        .all() as { match_id: string; round: number; n: number | string }[];
      return new Map(rows.map((r) => [`${r.match_id}:${r.round}`, Number(r.n)]));
    };
    const decisions = perRound("decisions");
    const attempts = perRound("attempts");
    const stored = new Map(
      (
        engine
          .prepare(STORED_DECISION.replace("SELECT", "SELECT d.match_id, d.round,"))
          .all() as (StoredDecision & {
          match_id: string;
          round: number;
        })[]
      ).map((r) => [`${r.match_id}:${r.round}`, r]),
    );
    const missing: Acknowledged[] = [];
    const duplicated: Acknowledged[] = [];
    const wrong: RecordAudit["wrong"] = [];
    for (const ack of acknowledged) {
      const key = `${ack.match_id}:${ack.round}`;
      const rows = decisions.get(key) ?? 0;
      if (rows === 0) missing.push(ack);
      if (rows > 1 || (attempts.get(key) ?? 0) > 1) duplicated.push(ack);
      const row = stored.get(key);
      const reason = row === undefined ? null : wrongness(ack, row);
      if (reason !== null) wrong.push({ match_id: ack.match_id, round: ack.round, reason });
    }
    const total = (map: Map<string, number>) => [...map.values()].reduce((a, b) => a + b, 0);
    return {
      integrity: "ok",
      missing,
      duplicated,
      wrong,
      decisionRows: total(decisions),
      attemptRows: total(attempts),
    };
  } finally {
    engine.close();
  }
}
