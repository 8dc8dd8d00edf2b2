import type { FetchLike } from "@modelcontextprotocol/client";

/** What a client's replica fetch saw: how many requests it retried on the next replica, and why. */
export interface ReplicaFetchStats {
  requests: number;
  retries: number;
  reasons: string[];
}

/**
 * A client's fetch over a replica set, as a load balancer without stickiness would route it: each request
 * goes to the next replica in turn (so consecutive requests of one session land on different replicas),
 * and a request that failed with a connection error (refused, reset, a body cut off) or a 503 that says the
 * replica did not take it is sent again to the next one.
 *
 * Safe to resend: submit_move is idempotent per (match, round) — a resend of a decision the dead replica
 * had committed is answered from the record ("already recorded"), never written twice — and every read is
 * idempotent. start_match is not: its resend can leave one extra open match with no decision, which no
 * audit counts as a decision. The response body of a POST is read in full here, so a replica killed
 * mid-answer is a retry, not a half-read result. `urls` may be changed in place (a restarted replica).
 */
export function replicaFetch(urls: string[], start = 0, stats?: ReplicaFetchStats): FetchLike {
  let next = start;
  return async (_url, init) => {
    let lastError: unknown;
    for (let attempt = 0; attempt < urls.length * 4; attempt++) {
      const target = urls[next % urls.length] as string;
      next += 1;
      if (stats && attempt === 0) stats.requests += 1;
      try {
        const response = await fetch(target, init);
        if (response.status === 503 && init?.method !== "GET") {
          await response.text();
          throw new Error(`503 from ${target}`);
        }
        if (init?.method !== "POST" || response.body === null) return response;
        // Buffer a POST's answer: a replica killed mid-stream must fail here, where it can be retried.
        const body = await response.arrayBuffer();
        return new Response(body.byteLength === 0 && response.status === 202 ? null : body, {
          status: response.status,
          statusText: response.statusText,
          headers: response.headers,
        });
      } catch (error) {
        if (!isConnectionFailure(error)) throw error;
        lastError = error;
        if (stats) {
          stats.retries += 1;
          stats.reasons.push(describe(error));
        }
        await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
      }
    }
    throw lastError;
  };
}

function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === "AbortError") return false;
  return (
    error instanceof TypeError || /503 from|terminated|ECONN|socket|other side closed/i.test(describe(error))
  );
}

function describe(error: unknown): string {
  const e = error as Error & { cause?: { code?: string; message?: string } };
  return `${e.message}${e.cause ? ` (${e.cause.code ?? e.cause.message})` : ""}`;
}
