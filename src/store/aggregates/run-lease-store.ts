import { RunnerBatchStore } from "./runner-batch-store.js";

/** The lease of the `same-game run` playing a study for a player (migration 020). */
export interface RunLeaseRow {
  readonly study_id: string;
  readonly player: string;
  /** A token the run drew: only the run that wrote the row renews or deletes it. */
  readonly holder: string;
  readonly pid: number;
  readonly host: string;
  /** Where `pid` names a process: the host name and the PID namespace of the run. */
  readonly pid_scope: string;
  /** When the run took the lease. */
  readonly since: string;
  /** Its last heartbeat. */
  readonly renewed_at: string;
  /** When another run may take it over without a heartbeat coming first. */
  readonly expires_at: string;
}

/**
 * The runs' leases. Each method is a single statement, outside `transaction()`: a lease says who plays,
 * not what was played, so its heartbeats do not count as changes of the record (record_version), and one
 * statement is atomic on both engines without a transaction around it.
 */
export class RunLeaseStore extends RunnerBatchStore {
  /** Writes the lease when no run holds the (study, player); false when a row is there already. */
  insertRunLease(lease: RunLeaseRow): boolean {
    return (
      this.stmt(
        `INSERT INTO run_leases (study_id, player, holder, pid, host, pid_scope, since, renewed_at, expires_at)
         VALUES (@study_id, @player, @holder, @pid, @host, @pid_scope, @since, @renewed_at, @expires_at)
         ON CONFLICT (study_id, player) DO NOTHING`,
      ).run(lease).changes === 1
    );
  }

  runLease(studyId: string, player: string): RunLeaseRow | null {
    const row = this.stmt(
      `SELECT study_id, player, holder, pid, host, pid_scope, since, renewed_at, expires_at FROM run_leases
       WHERE study_id = ? AND player = ?`,
    ).get(studyId, player) as RunLeaseRow | undefined;
    return row ? { ...row, pid: Number(row.pid) } : null;
  }

  /**
   * Takes over the lease `stale` (a run that died without ending), only while that row is still the one
   * there: of two runs taking over the same dead run's lease, one wins.
   */
  takeOverRunLease(stale: RunLeaseRow, lease: RunLeaseRow): boolean {
    return (
      this.stmt(
        `UPDATE run_leases SET holder = @holder, pid = @pid, host = @host, pid_scope = @pid_scope, since = @since,
           renewed_at = @renewed_at, expires_at = @expires_at
         WHERE study_id = @study_id AND player = @player AND holder = @stale_holder
           AND renewed_at = @stale_renewed_at`,
      ).run({ ...lease, stale_holder: stale.holder, stale_renewed_at: stale.renewed_at }).changes === 1
    );
  }

  /** The heartbeat: false when the lease is no longer this run's (another run took it over). */
  renewRunLease(
    studyId: string,
    player: string,
    holder: string,
    renewedAt: string,
    expiresAt: string,
  ): boolean {
    return (
      this.stmt(
        `UPDATE run_leases SET renewed_at = ?, expires_at = ?
         WHERE study_id = ? AND player = ? AND holder = ?`,
      ).run(renewedAt, expiresAt, studyId, player, holder).changes === 1
    );
  }

  /** The run ended: the (study, player) is free at once. */
  deleteRunLease(studyId: string, player: string, holder: string): void {
    this.stmt("DELETE FROM run_leases WHERE study_id = ? AND player = ? AND holder = ?").run(
      studyId,
      player,
      holder,
    );
  }
}
