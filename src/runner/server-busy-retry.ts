import { setTimeout as sleep } from "node:timers/promises";
import { retryAfterMs } from "./endpoint.js";
import type { RetryPolicy } from "./retry.js";

// A shared `same-game serve --http` answers a client over its rate or its share of the server with 429,
// and a full server with 503, each with Retry-After, and processes nothing of such a request
// (docs/shared-service.md): the client is to wait and send it again. Sent again as it was, the request can
// neither lose a trial nor deal one twice. The MCP client's transport would instead fail the call, so the
// runner gives it a fetch that waits.

/** What the runner is told of each wait: the status that asked for it and how long it waits. */
export type ServerWaitListener = (status: number, delayMs: number) => void;

/**
 * `fetch` for the runner's Streamable HTTP transport: a 429, or a 503 with Retry-After, is sent again
 * after the Retry-After it gives (and up to as long again; at most the policy's longest wait), up to the
 * policy's retries; the
 * last answer is returned as it came when they are spent. An aborted `signal` ends a wait at once.
 */
export function fetchWaitingOnBusyServer(
  policy: RetryPolicy,
  onWait: ServerWaitListener,
  signal?: AbortSignal,
  send: typeof fetch = fetch,
  random: () => number = Math.random,
): typeof fetch {
  return async (input, init) => {
    for (let retry = 0; ; retry++) {
      const response = await send(input, init);
      const wait = retryAfterMs(response.headers);
      const busy = response.status === 429 || (response.status === 503 && wait !== null);
      if (!busy || retry >= policy.retries) return response;
      // The refusal's body is a sentence for people; the request is sent again instead.
      await response.body?.cancel();
      // Up to as long again at random, so workers refused together do not all come back together.
      const asked = wait ?? policy.baseDelayMs * 2 ** retry;
      const delay = Math.min(asked * (1 + random()), policy.maxDelayMs);
      onWait(response.status, delay);
      await sleep(delay, undefined, signal ? { signal } : undefined);
    }
  };
}
