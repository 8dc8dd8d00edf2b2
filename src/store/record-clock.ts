import { performance } from "node:perf_hooks";

/**
 * How often the record clock reads its source again while the machine runs smoothly: PostgreSQL's clock
 * and this host's monotonic clock drift apart by well under a millisecond in that time.
 */
export const RECORD_CLOCK_RESYNC_MS = 30_000;

/**
 * How far this host's wall clock may move apart from its monotonic clock between two readings before the
 * record clock reads its source at once: a step of the wall clock (NTP, an operator's `date -s`) or a
 * suspend (the monotonic clock stops while the machine sleeps; the wall clock does not).
 */
export const WALL_CLOCK_STEP_MS = 1_000;

/**
 * After a reading that failed (the database not answering), how long the record clock goes on with the
 * monotonic clock alone before it asks again: a request during an outage is not slowed by a clock read.
 */
export const FAILED_READ_RETRY_MS = 5_000;

/** A reading of the source clock: its time (ms since the epoch) and this host's monotonic time around it. */
export interface ClockReading {
  readonly at: number;
  readonly before: number;
  readonly after: number;
}

/**
 * The record's clock: the one every time compared across processes is taken from — a session's last-seen
 * time and rate bucket, a run's lease, when a decision was made (an agent seat's forfeit counts from it,
 * exports order matches by it). A PostgreSQL record is shared by processes on several machines whose wall
 * clocks disagree (a replica 5 minutes ahead would take every other replica's sessions for expired, and a
 * runner behind would take a live run's lease for stale), so there it is the database server's clock, read
 * once every RECORD_CLOCK_RESYNC_MS and carried forward in between by this host's monotonic clock, which no
 * step of the wall clock moves. A step or a suspend of this host (its wall clock moved apart from its
 * monotonic clock by more than WALL_CLOCK_STEP_MS) is caught at the next reading, which then asks the source
 * again. An SQLite record lives on one machine, whose processes share its wall clock: there the source is
 * that wall clock itself (`Date.now()`), read every time.
 */
export class RecordClock {
  private anchor: { at: number; mono: number; wall: number } | null = null;
  /** Monotonic time before which a failed reading is not tried again. */
  private retryAt = Number.NEGATIVE_INFINITY;

  /** `read` asks the source; null: the source is this host's wall clock, read every time. */
  constructor(
    private readonly read: (() => ClockReading) | null,
    private readonly resyncMs = RECORD_CLOCK_RESYNC_MS,
  ) {}

  /** Now on the record's clock, in whole milliseconds since the epoch (UTC, as `Date.now()`). */
  now(): number {
    if (this.read === null) return Date.now();
    const mono = performance.now();
    const wall = Date.now();
    const anchor = this.anchor;
    if (anchor !== null) {
      const elapsed = mono - anchor.mono;
      const stepped = Math.abs(wall - anchor.wall - elapsed) > WALL_CLOCK_STEP_MS;
      if ((elapsed < this.resyncMs && !stepped) || mono < this.retryAt)
        return Math.round(anchor.at + elapsed);
      try {
        return this.sync(this.read);
      } catch {
        // The source does not answer: the monotonic clock carries the last reading on meanwhile (the
        // statements that need the record fail on their own).
        this.retryAt = mono + FAILED_READ_RETRY_MS;
        return Math.round(anchor.at + elapsed);
      }
    }
    return this.sync(this.read);
  }

  /** Reads the source and anchors the monotonic clock to it. */
  private sync(read: () => ClockReading): number {
    const reading = read();
    // The source's time was read somewhere between `before` and `after`: the midpoint is the best guess.
    const at = reading.at + (reading.after - reading.before) / 2;
    this.anchor = { at, mono: reading.after, wall: Date.now() };
    return Math.round(at);
  }

  /** Now on the record's clock as ISO 8601 UTC with milliseconds and `Z`, as every stored time is written. */
  nowIso(): string {
    return new Date(this.now()).toISOString();
  }
}
