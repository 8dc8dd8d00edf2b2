import { performance } from "node:perf_hooks";
import { logError, logInfo } from "../../log.js";

/**
 * A readiness failure as the operator's log tells it: the record's error with its stack once, when /readyz
 * starts failing with it, and one line when the record answers again — however many probes failed in
 * between. /readyz answers without a token, so a stack per probe would let anyone who can reach the port
 * (and every load balancer's probe, every few seconds) write the log as fast as it can send requests.
 * An outage of the database is not this: the record's engine logs it (DatabaseOutage). Its duration is on
 * the monotonic clock, which no step of the wall clock moves.
 */
export class ReadinessFailures {
  private failing: string | null = null;
  private since = 0;
  private probes = 0;

  /** A probe failed with this error; logged when it is the first, or a failure other than the last. */
  failed(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.probes += 1;
    if (message === this.failing) return;
    if (this.failing === null) this.since = performance.now();
    this.failing = message;
    logError("readiness: the record did not answer; /readyz answers 503 until it does (logged once)", error);
  }

  /** A probe succeeded: a failure, if one was going on, is over. */
  answered(): void {
    if (this.failing === null) return;
    const seconds = ((performance.now() - this.since) / 1000).toFixed(1);
    logInfo(
      `readiness: the record answers again after ${seconds} s (${this.probes} probe(s) failed meanwhile)`,
    );
    this.failing = null;
    this.probes = 0;
  }
}
