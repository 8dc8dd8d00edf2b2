import Database from "better-sqlite3";
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
