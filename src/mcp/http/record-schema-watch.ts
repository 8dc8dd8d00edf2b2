import { logInfo } from "../../log.js";
import { schemaVersionThisBuildReads } from "../../store/record-file.js";
import type { Store } from "../../store/store.js";

/** How often readiness reads the record's schema version again: probes come every second or two. */
export const SCHEMA_CHECK_MS = 5_000;

/**
 * The record's schema version beside the one this build reads. In a rolling upgrade a newer build migrates
 * the shared record while older replicas still serve; an older one would refuse to start on it now, so it
 * must stop being routed to: readiness fails with a sentence naming both versions. The version is read at
 * most once per SCHEMA_CHECK_MS (one small query), not on every probe.
 */
export class RecordSchemaWatch {
  /** The schema version this build reads and writes. */
  readonly reads = schemaVersionThisBuildReads();
  private record: number;
  private readAt: number;
  private reported = false;

  constructor(
    private readonly store: Store,
    private readonly everyMs = SCHEMA_CHECK_MS,
  ) {
    this.record = store.recordSchemaVersion();
    this.readAt = performance.now();
  }

  /** The record's schema version as last read (liveness shows it without asking the record). */
  get lastSeen(): number {
    return this.record;
  }

  /**
   * Why this replica must not take requests any more — the record's schema is newer than this build reads
   * — or null. Reads the version again when the last read is older than the interval; a failed read
   * throws (the record does not answer: readiness fails for that). `now` is this process's monotonic clock
   * (performance.now()), so a wall clock stepped back does not hold the last read for the length of the step.
   */
  tooNew(now: number): string | null {
    if (now - this.readAt >= this.everyMs) {
      this.record = this.store.recordSchemaVersion();
      this.readAt = now;
    }
    if (this.record <= this.reads) return null;
    const reason = `The record's schema version is ${this.record}, newer than the ${this.reads} this build reads: a newer same-game migrated it; replace this replica with that build.`;
    if (!this.reported) {
      this.reported = true;
      logInfo(`${reason} /readyz answers 503 from now on.`);
    }
    return reason;
  }
}
