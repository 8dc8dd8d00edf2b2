import type { ModelCall } from "../domain/model-call.js";
import { type ChatRequest, EndpointError, type ModelEndpoint, type ModelReply } from "./endpoint.js";
import { cappedReply } from "./reply-cap.js";
import { type RetryPolicy, withRetries } from "./retry.js";
import { type RunStats, StopSignal } from "./run-stats.js";

export interface CallSettings {
  readonly endpoint: ModelEndpoint;
  readonly mode: "tools" | "text";
  readonly style: string;
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
  readonly stats: RunStats;
}

/**
 * One model call with retries, and its record: what the endpoint reported (model id, usage, finish
 * reason), the decoding settings sent, the latency of the request that answered, and the raw reply —
 * capped, like the reply the runner goes on with, so no reply can outgrow what the protocol carries.
 */
export async function callModel(
  settings: CallSettings,
  request: ChatRequest,
  sampleIndex = 0,
): Promise<{ reply: ModelReply; record: ModelCall }> {
  const { endpoint, stats } = settings;
  stats.checkStopped();
  let started = 0;
  const calledAt = new Date().toISOString();
  try {
    const { value: answered, retries } = await withRetries(
      () => {
        stats.checkStopped();
        started = performance.now();
        return bounded(
          (signal) => endpoint.complete(request, signal),
          settings.timeoutMs,
          endpoint.url,
          stats.interruption,
        );
      },
      settings.retry,
      (error) => stats.retried(error.kind),
      Math.random,
      stats.interruption,
    );
    const latency = performance.now() - started;
    stats.called(answered.promptTokens, answered.completionTokens);
    const { reply, raw } = cappedReply(answered);
    return {
      reply,
      record: {
        provider: endpoint.provider,
        requested_model: endpoint.model,
        reported_model: answered.reportedModel,
        mode: settings.mode,
        style: settings.style,
        sample_index: sampleIndex,
        decoding: { ...endpoint.decoding },
        prompt_tokens: answered.promptTokens,
        completion_tokens: answered.completionTokens,
        latency_ms: Math.round(latency * 10) / 10,
        retries,
        finish_reason: answered.finishReason,
        raw_reply: raw,
        called_at: calledAt,
      },
    };
  } catch (error) {
    if (error instanceof EndpointError && (error.kind === "auth" || error.kind === "quota")) {
      stats.fatalFailure(error);
    }
    throw error;
  }
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
