import { randomUUID } from "node:crypto";
import { readlinkSync } from "node:fs";
import { hostname } from "node:os";
import type { RunLeaseRow, Store } from "../store/store.js";
import { UsageError } from "../usage-error.js";

// One `same-game run` at a time per (record, study, player). Two runs of the same player would each be
// handed the other's open trials by next_trial (a trial is held per connection), pay for replies only one
// of them can record, and count a budget against a record the other is spending from. The run holds a lease
// row in the record instead: taken before the first trial, renewed by a heartbeat, deleted at the end.
// Every time of a lease is on the record's clock (`Store.now`: PostgreSQL's for a PostgreSQL record), never
// the run's own: a runner whose host is minutes ahead would otherwise take a live run's lease for expired
// (and both would play and pay), and one behind would write leases that look expired to every other host.

/** How long a lease outlives its last heartbeat: the longest a run that died elsewhere blocks the next. */
export const LEASE_SECONDS = 60;

/** The heartbeat: often enough that a run stalled for a beat or two (a busy record) keeps its lease. */
const RENEW_EVERY_MS = 15_000;

/** How often the run looks for a sleep of its machine, and how far the clocks must part to be one. */
const WAKE_WATCH_MS = 1_000;
const WAKE_STEP_MS = 5_000;

export class RunLease {
  private heartbeat: NodeJS.Timeout | undefined;
  private wakeWatch: NodeJS.Timeout | undefined;
  private lost = false;
  private released = false;

  private constructor(
    private readonly store: Store,
    private readonly row: RunLeaseRow,
  ) {}

  /**
   * Takes the lease of (study, player) in the record, or refuses with one sentence naming the run that
   * holds it (`where` names the record). A lease whose run is gone is taken over: at once when that run
   * ran where this one can see its process (same host, same PID namespace) and that process no longer
   * exists, else once the lease has expired.
   */
  static take(store: Store, studyId: string, player: string, where: string): RunLease {
    const holder = randomUUID();
    // Two runs taking over the same stale lease at once: one wins, the other then sees the winner's row.
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = store.now();
      const lease = leaseRow(studyId, player, holder, now);
      if (store.insertRunLease(lease)) return new RunLease(store, lease);
      const held = store.runLease(studyId, player);
      if (held === null) continue;
      if (!isStale(held, now)) throw new UsageError(refusal(held, where));
      if (store.takeOverRunLease(held, lease)) return new RunLease(store, lease);
    }
    const held = store.runLease(studyId, player);
    throw new UsageError(
      held
        ? refusal(held, where)
        : `the lease of study ${studyId} keeps changing hands in ${where}; try again.`,
    );
  }

  /**
   * Renews the lease every RENEW_EVERY_MS, and at once after the machine slept; `onLost` once another run
   * has taken it over (this one stalled or slept past the lease).
   */
  keepAlive(onLost: () => void): void {
    const beat = () => {
      let renewed: boolean;
      try {
        const now = this.store.now();
        renewed = this.store.renewRunLease(
          this.row.study_id,
          this.row.player,
          this.row.holder,
          new Date(now).toISOString(),
          expiry(now),
        );
      } catch {
        // A record busy past its timeout: the next beat tries again, well before the lease expires.
        return;
      }
      if (!renewed) {
        this.stop();
        this.lost = true;
        onLost();
      }
    };
    this.heartbeat = setInterval(beat, RENEW_EVERY_MS);
    this.heartbeat.unref();
    // Timers run on the monotonic clock, which stops while the machine sleeps: after a laptop's sleep the
    // next beat would come up to RENEW_EVERY_MS later, while the run went on dealing and paying for trials
    // another run may have taken over meanwhile. A sleep (or a step of the wall clock) shows as the wall
    // clock moving apart from the monotonic one: the lease is renewed, or found lost, within a second of it.
    let wall = Date.now();
    let mono = performance.now();
    this.wakeWatch = setInterval(() => {
      const [wallNow, monoNow] = [Date.now(), performance.now()];
      const jumped = Math.abs(wallNow - wall - (monoNow - mono)) > WAKE_STEP_MS;
      [wall, mono] = [wallNow, monoNow];
      if (jumped) beat();
    }, WAKE_WATCH_MS);
    this.wakeWatch.unref();
  }

  /**
   * The run ended (or is exiting): the study is free for the player's next run at once. Closes the store
   * the lease was taken with, which is the lease's from `take` on.
   */
  release(): void {
    this.stop();
    if (this.released) return;
    this.released = true;
    try {
      if (!this.lost) this.store.deleteRunLease(this.row.study_id, this.row.player, this.row.holder);
      this.store.close();
    } catch {
      // The record is out of reach: the lease expires LEASE_SECONDS after its last heartbeat.
    }
  }

  private stop(): void {
    if (this.heartbeat !== undefined) clearInterval(this.heartbeat);
    if (this.wakeWatch !== undefined) clearInterval(this.wakeWatch);
    this.heartbeat = undefined;
    this.wakeWatch = undefined;
  }
}

function leaseRow(studyId: string, player: string, holder: string, now: number): RunLeaseRow {
  const at = new Date(now).toISOString();
  return {
    study_id: studyId,
    player,
    holder,
    pid: process.pid,
    host: hostname(),
    pid_scope: pidScope(),
    since: at,
    renewed_at: at,
    expires_at: expiry(now),
  };
}

function expiry(now: number): string {
  return new Date(now + LEASE_SECONDS * 1000).toISOString();
}

/** Whether the run holding `lease` is gone: its lease expired, or its process no longer exists here. */
function isStale(lease: RunLeaseRow, now: number): boolean {
  if (Date.parse(lease.expires_at) <= now) return true;
  return lease.pid_scope === pidScope() && lease.pid !== process.pid && !processExists(lease.pid);
}

/**
 * Where a pid names one process: the host, and on Linux the PID namespace (containers on one host, even
 * with the host's name, do not see each other's processes). Elsewhere the host name alone.
 */
function pidScope(): string {
  try {
    return `${hostname()} ${readlinkSync("/proc/self/ns/pid")}`;
  } catch {
    return hostname();
  }
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, as another user's.
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

function refusal(held: RunLeaseRow, where: string): string {
  return (
    `study ${held.study_id} is being run for player "${held.player}" in ${where} by pid ${held.pid} on ${held.host} since ${held.since}: ` +
    `let it finish, or stop it (the same command then resumes where it stopped), or play another --player; ` +
    `if that run is gone, its lease expires at ${held.expires_at} (${LEASE_SECONDS} s after its last heartbeat).`
  );
}
