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
  decisionRows: number;
  attemptRows: number;
}

/**
 * Reads the record with better-sqlite3 directly (not through Store) and checks each acknowledged
 * decision: exactly one decisions row (the primary key forbids more) and exactly one attempts row.
 */
export function auditRecord(dbPath: string, acknowledged: readonly Acknowledged[]): RecordAudit {
  if (isPostgresUrl(dbPath)) return auditPostgres(dbPath, acknowledged);
  const db = new Database(dbPath, { readonly: true });
  try {
    const integrity = (db.pragma("integrity_check", { simple: true }) as string) ?? "";
    const decision = db.prepare("SELECT count(*) AS n FROM decisions WHERE match_id = ? AND round = ?");
    const attempt = db.prepare("SELECT count(*) AS n FROM attempts WHERE match_id = ? AND round = ?");
    const missing: Acknowledged[] = [];
    const duplicated: Acknowledged[] = [];
    for (const ack of acknowledged) {
      const rows = (decision.get(ack.match_id, ack.round) as { n: number }).n;
      const attempts = (attempt.get(ack.match_id, ack.round) as { n: number }).n;
      if (rows === 0) missing.push(ack);
      if (rows > 1 || attempts > 1) duplicated.push(ack);
    }
    const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    return {
      integrity,
      missing,
      duplicated,
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
    const missing: Acknowledged[] = [];
    const duplicated: Acknowledged[] = [];
    for (const ack of acknowledged) {
      const key = `${ack.match_id}:${ack.round}`;
      const rows = decisions.get(key) ?? 0;
      if (rows === 0) missing.push(ack);
      if (rows > 1 || (attempts.get(key) ?? 0) > 1) duplicated.push(ack);
    }
    const total = (map: Map<string, number>) => [...map.values()].reduce((a, b) => a + b, 0);
    return {
      integrity: "ok",
      missing,
      duplicated,
      decisionRows: total(decisions),
      attemptRows: total(attempts),
    };
  } finally {
    engine.close();
  }
}
