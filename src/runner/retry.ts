import { setTimeout as sleep } from "node:timers/promises";
import { EndpointError, type FailureKind } from "./endpoint.js";

export interface RetryPolicy {
  /** Retries after the first try (so up to retries + 1 requests). */
  readonly retries: number;
  /** First backoff; doubled per retry, with full jitter, capped at maxDelayMs. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 6, baseDelayMs: 500, maxDelayMs: 30_000 };

const RETRIED: readonly FailureKind[] = ["rate", "server", "timeout"];

/**
 * Runs `attempt` until it succeeds, retrying rate limits, server errors and timeouts with exponential
 * backoff and full jitter, waiting what Retry-After asks up to the policy's longest wait. Other failures
 * (auth, quota, a bad request) are thrown at once: waiting cannot fix them. `onRetry` sees every failure
 * that is retried, before the wait. An aborted `signal` ends a wait at once with its reason.
 */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  policy: RetryPolicy,
  onRetry: (error: EndpointError, delayMs: number) => void,
  random: () => number = Math.random,
  signal?: AbortSignal,
): Promise<{ value: T; retries: number }> {
  for (let retry = 0; ; retry++) {
    try {
      return { value: await attempt(), retries: retry };
    } catch (error) {
      if (!(error instanceof EndpointError) || !RETRIED.includes(error.kind) || retry >= policy.retries) {
        throw error;
      }
      const delay = backoffDelay(retry, policy, error.retryAfterMs, random);
      onRetry(error, delay);
      try {
        await sleep(delay, undefined, { signal });
      } catch {
        throw signal?.reason ?? error;
      }
    }
  }
}

/**
 * Full jitter over base·2^retry (capped), never shorter than the server's Retry-After — which is itself
 * capped at maxDelayMs: a "come back tomorrow" (Retry-After: 86400) must not park a run for a day; the
 * retry then fails or succeeds like any other, and the retry budget bounds the whole wait.
 */
export function backoffDelay(
  retry: number,
  policy: RetryPolicy,
  retryAfterMs: number | null,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  const jittered = random() * ceiling;
  return retryAfterMs === null ? jittered : Math.max(Math.min(retryAfterMs, policy.maxDelayMs), jittered);
}
