import { performance } from "node:perf_hooks";
import { logInfo } from "../../log.js";

/**
 * How long a burst of refused tokens is summed up before its count is logged, and how long the log stays
 * quiet before the next refusal is logged at once again.
 */
const SUMMARY_MS = 60_000;

/**
 * Requests refused for a missing or wrong bearer token, as the operator's log tells them: the first of an
 * episode at once (where it came from, and whether it sent a token at all), then at most one line a minute
 * with how many more were refused, however fast they come. The operator learns that a client's token is
 * wrong (a rotated token, a typo in a host's config) or that someone is guessing, and a client that sends
 * bad tokens as fast as it can still writes two lines a minute at most. The token itself is never logged.
 * Times are on the monotonic clock, which no step of the wall clock moves.
 */
export class RefusedTokens {
  /** When the current episode's last line was written (null: no episode, the next refusal is logged). */
  private loggedAt: number | null = null;
  private sinceLogged = 0;
  private lastFrom = "";
  private timer: NodeJS.Timeout | null = null;

  /** A request was answered 401: `from` is its address, `sentToken` whether it had an Authorization header. */
  refused(from: string, sentToken: boolean): void {
    this.lastFrom = from;
    if (this.loggedAt === null) {
      this.loggedAt = performance.now();
      logInfo(
        `refused a request from ${from}: ${sentToken ? "its bearer token is not one of --token-file's" : "it sent no bearer token"} (401; further refusals are counted, one line a minute)`,
      );
      this.schedule();
      return;
    }
    this.sinceLogged += 1;
  }

  /** Stops the summary timer (the server is closing); a count not yet logged is logged now. */
  close(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.summarize();
  }

  private schedule(): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      // A minute with refusals is said and the next one watched; a quiet minute ends the episode.
      if (this.summarize()) this.schedule();
      else this.loggedAt = null;
    }, SUMMARY_MS);
    this.timer.unref();
  }

  /** Logs the refusals since the last line, if any; whether there were. */
  private summarize(): boolean {
    if (this.sinceLogged === 0 || this.loggedAt === null) return false;
    const seconds = ((performance.now() - this.loggedAt) / 1000).toFixed(0);
    logInfo(
      `refused ${this.sinceLogged} more request(s) without a valid bearer token in the last ${seconds} s (last from ${this.lastFrom})`,
    );
    this.loggedAt = performance.now();
    this.sinceLogged = 0;
    return true;
  }
}
