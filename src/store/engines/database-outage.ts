import { logInfo } from "../../log.js";

/**
 * A database outage as the operator's log tells it: one line when the record's database stops answering
 * (with the driver's words, no stack) and one when it answers again (with how long it was gone), however
 * many requests and readiness probes failed in between — each of those is answered 503 with a sentence,
 * and a stack per failure would bury the log under identical traces.
 */
export class DatabaseOutage {
  /** When it began on this process's monotonic clock: a step of the wall clock meanwhile is no duration. */
  private since: number | null = null;
  private refused = 0;

  /** A statement failed because the database was unreachable. */
  failed(driverMessage: string, now = performance.now()): void {
    this.refused += 1;
    if (this.since !== null) return;
    this.since = now;
    logInfo(
      `the record's database is unavailable (${driverMessage}); requests are answered 503 until it answers again`,
    );
  }

  /** A statement was answered: an outage, if one was going on, is over. */
  answered(now = performance.now()): void {
    if (this.since === null) return;
    const seconds = ((now - this.since) / 1000).toFixed(1);
    logInfo(
      `the record's database answers again after ${seconds} s unavailable (${this.refused} statement(s) failed meanwhile)`,
    );
    this.since = null;
    this.refused = 0;
  }
}
