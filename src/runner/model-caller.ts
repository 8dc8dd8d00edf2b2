import type { ModelCall } from "../domain/model-call.js";
import {
  type Budget,
  type CallEstimate,
  TEMPLATE_TOKENS_PER_CALL,
  TOOL_USE_TOKENS_PER_CALL,
} from "./budget/budget.js";
import { callCost, type ModelPrice } from "./budget/prices.js";
import { forMatch, replyKey, type TrialRef, withoutMatchId } from "./cache/reply-key.js";
import type { ResponseCache } from "./cache/response-cache.js";
import { type ChatRequest, EndpointError, type ModelEndpoint, type ModelReply } from "./endpoint.js";
import { wasCutOff } from "./reply-answer.js";
import { cappedReply } from "./reply-cap.js";
import { type RetryPolicy, withRetries } from "./retry.js";
import { type RunStats, StopSignal } from "./run-stats.js";
import { wrongEndpoint } from "./wrong-endpoint.js";

export interface CallSettings {
  readonly endpoint: ModelEndpoint;
  readonly mode: "tools" | "text";
  readonly style: string;
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
  readonly stats: RunStats;
  /** `--cache`: replies looked up before, and kept after, every endpoint call. */
  readonly cache: ResponseCache | null;
  /** `--max-calls`, `--max-tokens-total`, `--max-cost`: shared by every seat of the run. */
  readonly budget: Budget | null;
  /** This seat's model's price (`--prices`), so every call's cost is recorded. */
  readonly price: ModelPrice | null;
}

/**
 * One model call with retries, and its record: what the endpoint reported (model id, usage, finish
 * reason), the decoding settings sent, the latency of the request that answered, and the raw reply —
 * capped, like the reply the runner goes on with, so no reply can outgrow what the protocol carries.
 */
export async function callModel(
  settings: CallSettings,
  request: ChatRequest,
  trial: TrialRef,
  sampleIndex = 0,
): Promise<{ reply: ModelReply; record: ModelCall }> {
  const { endpoint, stats, budget } = settings;
  stats.checkStopped();
  const cached = fromCache(settings, request, trial, sampleIndex);
  if (cached.hit) return cached.hit;
  const calledAt = new Date().toISOString();
  const ticket = budget ? budget.reserveCall(requestEstimate(settings, request)) : null;
  if (budget && ticket === null) {
    // This trial's next call could pass the budget: it stops here, left open for a run with a larger one.
    stats.stopAtBudget(budget.describe());
    throw new StopSignal("the budget is reached");
  }
  let started = 0;
  try {
    const { value: answered, retries } = await stats.interruptible((interruption) =>
      withRetries(
        () => {
          stats.checkStopped();
          started = performance.now();
          return bounded(
            (signal) => endpoint.complete(request, signal),
            settings.timeoutMs,
            endpoint.url,
            interruption,
          );
        },
        settings.retry,
        (error) => stats.retried(error.kind),
        Math.random,
        interruption,
      ),
    );
    const latency = performance.now() - started;
    budget?.observe(ticket, answered.promptTokens, answered.completionTokens);
    return answeredCall(settings, trial, answered, {
      key: cached.key,
      sampleIndex,
      calledAt,
      latency,
      retries,
      batchId: null,
      estimate: requestEstimate(settings, request),
    });
  } catch (error) {
    if (error instanceof EndpointError && (error.kind === "auth" || error.kind === "quota")) {
      stats.fatalFailure(error);
    }
    throw wrongEndpoint(error, endpoint) ?? error;
  } finally {
    budget?.endCall(ticket);
  }
}

/** What the budget needs to know of a request before it is made: its size, the longest reply, the price. */
export function requestEstimate(settings: CallSettings, request: ChatRequest, batch = false): CallEstimate {
  return {
    promptBytes: Buffer.byteLength(JSON.stringify([request.system, request.messages, request.tools ?? []])),
    toolsOffered: (request.tools ?? []).length > 0,
    maxCompletionTokens: settings.endpoint.decoding.max_tokens,
    price: settings.price,
    batch,
  };
}

/**
 * The cache's reply to this call, when `--cache` has one (recorded as cached, costing nothing), and the
 * key it was looked up under (null without --cache), which an answered call is then kept under.
 */
export function fromCache(
  settings: CallSettings,
  request: ChatRequest,
  trial: TrialRef,
  sampleIndex: number,
): { key: string | null; hit: { reply: ModelReply; record: ModelCall } | null } {
  const { endpoint, cache, stats, price } = settings;
  const key = cache ? replyKey(endpoint, request, sampleIndex, trial) : null;
  const entry = key ? cache?.get(key) : null;
  if (!entry || !key) return { key, hit: null };
  // The reply of the original call, as it came back then (capped then); it costs nothing now.
  const reply = forMatch(entry.reply, trial.matchId);
  stats.cacheHits++;
  if (wasCutOff(reply)) stats.cutOffReplies++;
  const record = describeCall(settings, reply, cappedReply(reply).raw, {
    key,
    sampleIndex,
    calledAt: new Date().toISOString(),
    latency: 0,
    retries: 0,
    cachedFrom: entry.called_at,
    cost: price ? 0 : null,
    batchId: null,
  });
  return { key, hit: { reply, record } };
}

/** How an endpoint's reply was obtained: directly (batchId null) or as a result of a provider batch. */
export interface AnsweredHow {
  readonly key: string | null;
  readonly sampleIndex: number;
  readonly calledAt: string;
  readonly latency: number;
  readonly retries: number;
  readonly batchId: string | null;
  /** What the budget reserved for the call: what it is charged where the endpoint reports no usage. */
  readonly estimate?: CallEstimate;
}

/**
 * A reply the endpoint gave: counted, priced (a batch reply at the batch price), charged to the budget,
 * kept in the cache, capped, and described for the record.
 */
export function answeredCall(
  settings: CallSettings,
  trial: TrialRef,
  answered: ModelReply,
  how: AnsweredHow,
): { reply: ModelReply; record: ModelCall } {
  const { endpoint, stats, cache, budget, price } = settings;
  stats.called(answered.promptTokens, answered.completionTokens);
  if (how.batchId !== null) stats.batchReplies++;
  if (wasCutOff(answered)) stats.cutOffReplies++;
  // Usage the endpoint left out (a local server without `usage`, or with nulls) is unknown, not zero: the
  // call is recorded without a cost rather than at a cost of $0.
  const reported = answered.promptTokens !== null && answered.completionTokens !== null;
  const cost =
    price && reported
      ? callCost(price, answered.promptTokens ?? 0, answered.completionTokens ?? 0, how.batchId !== null)
      : null;
  if (cost !== null) stats.costUsd = (stats.costUsd ?? 0) + cost;
  if (budget) {
    // An unknown count is charged at what the budget reserved for it (the prompt's characters ÷ 3, a
    // --max-tokens reply), which no call can pass; and a budget of tokens or dollars cannot go on.
    const charged = chargedUsage(answered, how.estimate);
    budget.charge(trial.budgetKey, charged.prompt, charged.completion, cost ?? charged.cost);
    if (budget.countsTokens && !reported) {
      stats.stop(
        `${endpoint.url} does not report the token usage of its replies, so a token or cost budget cannot be kept (the call was counted at its estimate); run without --max-tokens-total and --max-cost (--max-calls needs no usage)`,
      );
    }
  }
  const { reply, raw } = cappedReply(answered);
  if (cache && how.key) {
    cache.keep({
      key: how.key,
      provider: endpoint.provider,
      url: endpoint.url,
      model: endpoint.model,
      called_at: how.calledAt,
      latency_ms: how.latency,
      reply: withoutMatchId(reply, trial.matchId),
    });
  }
  return { reply, record: describeCall(settings, reply, raw, { ...how, cachedFrom: null, cost }) };
}

/**
 * A call's tokens and cost as the budget counts them: as reported, else at the bound it was reserved at (its
 * prompt's bytes and the stated per-call allowance, a full reply).
 */
function chargedUsage(
  answered: ModelReply,
  estimate: CallEstimate | undefined,
): { prompt: number; completion: number; cost: number } {
  const prompt =
    answered.promptTokens ??
    (estimate
      ? estimate.promptBytes +
        TEMPLATE_TOKENS_PER_CALL +
        (estimate.toolsOffered ? TOOL_USE_TOKENS_PER_CALL : 0)
      : 0);
  const completion = answered.completionTokens ?? estimate?.maxCompletionTokens ?? 0;
  const cost = estimate?.price ? callCost(estimate.price, prompt, completion, estimate.batch === true) : 0;
  return { prompt, completion, cost };
}

function describeCall(
  settings: CallSettings,
  reply: ModelReply,
  raw: string,
  call: AnsweredHow & { cachedFrom: string | null; cost: number | null },
): ModelCall {
  const { endpoint } = settings;
  return {
    provider: endpoint.provider,
    requested_model: endpoint.model,
    reported_model: reply.reportedModel,
    mode: settings.mode,
    style: settings.style,
    sample_index: call.sampleIndex,
    decoding: { ...endpoint.decoding },
    prompt_tokens: reply.promptTokens,
    completion_tokens: reply.completionTokens,
    latency_ms: Math.round(call.latency * 10) / 10,
    retries: call.retries,
    finish_reason: reply.finishReason,
    raw_reply: raw,
    called_at: call.calledAt,
    cache_key: call.key,
    cached_from: call.cachedFrom,
    cost_usd: call.cost,
    ...(call.batchId !== null ? { batch_id: call.batchId } : {}),
  };
}

/**
 * `work` given at most `timeoutMs`, headers and body alike (the SDKs' own timeouts stop at the headers,
 * so a body dripping a byte a second would hold the trial for ever), and cut short by an interruption.
 * The wait is bounded here whether or not `work` honours its signal.
 */
export async function bounded<T>(
  work: (signal: AbortSignal) => Promise<T>,
  timeoutMs: number,
  url: string,
  interruption?: AbortSignal,
): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(
    () =>
      controller.abort(
        new EndpointError(
          "timeout",
          `the request to ${url} took longer than the ${timeoutMs / 1000} s --timeout`,
          null,
          null,
        ),
      ),
    timeoutMs,
  );
  const interrupt = () => controller.abort(interruption?.reason ?? new StopSignal("interrupted"));
  if (interruption?.aborted) interrupt();
  else interruption?.addEventListener("abort", interrupt, { once: true });
  const aborted = new Promise<never>((_, reject) => {
    if (controller.signal.aborted) reject(controller.signal.reason);
    controller.signal.addEventListener("abort", () => reject(controller.signal.reason), { once: true });
  });
  try {
    return await Promise.race([work(controller.signal), aborted]);
  } catch (error) {
    // The SDK reports its aborted read in its own words; the reason the request was cut short is ours.
    throw controller.signal.aborted ? controller.signal.reason : error;
  } finally {
    clearTimeout(timer);
    interruption?.removeEventListener("abort", interrupt);
  }
}
