import type { ModelCall } from "../domain/model-call.js";
import { type ChatRequest, EndpointError, type ModelEndpoint, type ModelReply } from "./endpoint.js";
import { type RetryPolicy, withRetries } from "./retry.js";
import type { RunStats } from "./run-stats.js";

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
 * reason), the decoding settings sent, the latency of the request that answered, and the raw reply.
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
    const { value: reply, retries } = await withRetries(
      () => {
        stats.checkStopped();
        started = performance.now();
        return endpoint.complete(request, settings.timeoutMs);
      },
      settings.retry,
      (error) => stats.retried(error.kind),
    );
    const latency = performance.now() - started;
    stats.called(reply.promptTokens, reply.completionTokens);
    return {
      reply,
      record: {
        provider: endpoint.provider,
        requested_model: endpoint.model,
        reported_model: reply.reportedModel,
        mode: settings.mode,
        style: settings.style,
        sample_index: sampleIndex,
        decoding: { ...endpoint.decoding },
        prompt_tokens: reply.promptTokens,
        completion_tokens: reply.completionTokens,
        latency_ms: Math.round(latency * 10) / 10,
        retries,
        finish_reason: reply.finishReason,
        raw_reply: JSON.stringify({ text: reply.text, tool_calls: reply.toolCalls }),
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
