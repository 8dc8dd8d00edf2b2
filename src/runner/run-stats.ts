import type { UsageError } from "../usage-error.js";
import type { EndpointError, FailureKind } from "./endpoint.js";

/** Consecutive auth or quota failures after which the run stops (one alone may be a proxy's hiccup). */
export const FATAL_REPEATS = 3;

/** The running totals of one `same-game run`, shared by its workers, read by the progress line. */
export class RunStats {
  trials = 0;
  failedTrials = 0;
  modelCalls = 0;
  /**
   * Replies that gave their round no valid move: the ones the server kept as invalid attempts (the
   * record's `invalid_attempts`, the one that voided a round included) and, in tools mode, tool calls
   * refused with no attempt recorded (arguments that are not a JSON object, a tool not offered, a call
   * the server refused before recording it), which the record keeps only among its model calls.
   */
  invalidReplies = 0;
  /** Of `invalidReplies`, the tool calls refused with no attempt recorded. */
  refusedToolCalls = 0;
  retries = 0;
  promptTokens = 0;
  completionTokens = 0;
  /** Replies whose endpoint reported no token usage (or only part of it): their tokens are unknown. */
  unreportedUsage = 0;
  /** Replies the endpoint cut off at --max-tokens (finish reason "length", Anthropic's "max_tokens"). */
  cutOffReplies = 0;
  /** Dollars spent at the --prices table (null without one). */
  costUsd: number | null = null;
  /** Replies reused from the response cache (no endpoint request). */
  cacheHits = 0;
  /** Replies that came back in a provider batch (`--batch`), at the batch price. */
  batchReplies = 0;
  /** Provider batches submitted by this run (`--batch`). */
  batchesSubmitted = 0;
  /** Requests a batch did not answer (errored, expired, canceled, missing), made again directly. */
  batchFailures = 0;
  /** The run stopped because one more trial or call could pass its budget (what was spent, then). */
  budgetStop: string | null = null;
  readonly retriesByKind: Partial<Record<FailureKind, number>> = {};
  /** Why the run stopped early, once it must. */
  stopReason: string | null = null;
  private consecutiveFatal = 0;
  private readonly interrupter = new AbortController();
  /** Aborted by `interrupt()`: every request and backoff wait in flight ends at once. */
  readonly interruption: AbortSignal = this.interrupter.signal;
  /** The signals of the requests (with their backoff waits) in flight, aborted by `interrupt()` too. */
  private readonly inFlight = new Set<AbortController>();
  /** Told of every change a progress line shows between trials (a retry, say). */
  onChange: () => void = () => {};

  constructor(readonly startedAt = performance.now()) {}

  called(prompt: number | null, completion: number | null): void {
    this.modelCalls++;
    if (prompt === null || completion === null) this.unreportedUsage++;
    this.promptTokens += prompt ?? 0;
    this.completionTokens += completion ?? 0;
    this.consecutiveFatal = 0;
  }

  /** A reply that gave its round no valid move; `recorded` when the server kept it as an attempt. */
  invalidReply(recorded: boolean): void {
    this.invalidReplies++;
    if (!recorded) this.refusedToolCalls++;
  }

  retried(kind: FailureKind): void {
    this.retries++;
    this.retriesByKind[kind] = (this.retriesByKind[kind] ?? 0) + 1;
    this.onChange();
  }

  /** An auth or quota failure: after FATAL_REPEATS in a row, the run stops with the reason. */
  fatalFailure(error: EndpointError): void {
    this.consecutiveFatal++;
    if (this.consecutiveFatal >= FATAL_REPEATS && this.stopReason === null) {
      this.stopReason =
        error.kind === "auth"
          ? `the endpoint refused the credentials ${FATAL_REPEATS} times in a row (${error.message}); check the API key variable and --base-url`
          : `the endpoint reports the quota or credit is exhausted ${FATAL_REPEATS} times in a row (${error.message})`;
    }
  }

  stop(reason: string): void {
    if (this.stopReason === null) this.stopReason = reason;
  }

  /** The run is set up wrong (a wrong --base-url, say): it stops, and the run ends with this error (exit 2). */
  misconfigured: UsageError | null = null;

  stopMisconfigured(error: UsageError): void {
    this.misconfigured ??= error;
    this.stop(error.message);
  }

  /**
   * The budget allows no more trials: a clean stop, with what was spent. Unlike stop(), the trials already
   * in play go on: each was admitted because the budget could pay for it to the end, and each of its calls
   * is still checked against the budget before it is made.
   */
  stopAtBudget(spent: string): void {
    if (this.stopReason !== null || this.budgetStop !== null) return;
    this.budgetStop = spent;
  }

  /** Whether a new trial may start: not once the run is stopping, interrupted or at its budget. */
  get takesNewTrials(): boolean {
    return this.stopReason === null && this.budgetStop === null;
  }

  /** Ctrl-C: no new request, and the ones in flight are abandoned (their trials stay open to resume). */
  interrupt(): void {
    this.stop("interrupted");
    const reason = new StopSignal("interrupted");
    this.interrupter.abort(reason);
    for (const request of this.inFlight) request.abort(reason);
  }

  /**
   * `work` with a signal of its own that `interrupt()` aborts, for one request and its backoff waits. Each
   * request listens to its own signal rather than to `interruption`: at `--concurrency 11` and up, one
   * listener per request in flight on the one shared signal would pass Node's limit of ten and print a
   * "possible memory leak" warning.
   */
  async interruptible<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const request = new AbortController();
    if (this.interruption.aborted) request.abort(this.interruption.reason);
    this.inFlight.add(request);
    try {
      return await work(request.signal);
    } finally {
      this.inFlight.delete(request);
    }
  }

  get interrupted(): boolean {
    return this.interruption.aborted;
  }

  /** Throws once the run must stop, so no new request goes out. */
  checkStopped(): void {
    if (this.stopReason !== null) throw new StopSignal(this.stopReason);
  }

  get tokens(): number {
    return this.promptTokens + this.completionTokens;
  }

  elapsedSeconds(): number {
    return (performance.now() - this.startedAt) / 1000;
  }
}

export class StopSignal extends Error {
  override readonly name = "StopSignal";
}
