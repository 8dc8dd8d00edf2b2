import Anthropic from "@anthropic-ai/sdk";
import type { MessageBatchIndividualResponse } from "@anthropic-ai/sdk/resources/messages/batches";
import { anthropicBody, anthropicReply } from "../anthropic-endpoint.js";
import type { Decoding } from "../endpoint.js";
import { atBatchApi, type BatchApi, type BatchResult, inProviderTerms } from "./batch-api.js";

/**
 * Anthropic's Message Batches: one batch of `requests[{custom_id, params}]`, polled until its processing
 * status is "ended", its results read from `results_url` (JSONL, in any order) as succeeded, errored,
 * canceled or expired.
 */
export function anthropicBatches(
  client: Anthropic,
  model: string,
  decoding: Decoding,
  apiKey: string,
  url: string,
): BatchApi {
  const wrap = inProviderTerms(apiKey, Anthropic, url);
  return {
    submit: (requests) =>
      atBatchApi(url, "/v1/messages/batches", () =>
        wrap(async () => {
          const batch = await client.messages.batches.create({
            requests: requests.map((r) => ({
              custom_id: r.customId,
              params: anthropicBody(model, decoding, r.request),
            })),
          });
          return batch.id;
        }),
      ),
    status: (batchId) =>
      wrap(async () => {
        const batch = await client.messages.batches.retrieve(batchId);
        return { ended: batch.processing_status === "ended", state: batch.processing_status };
      }),
    results: (batchId) =>
      wrap(async () => {
        const out: BatchResult[] = [];
        for await (const line of await client.messages.batches.results(batchId))
          out.push(anthropicResult(line));
        return out;
      }),
  };
}

function anthropicResult(line: MessageBatchIndividualResponse): BatchResult {
  const { custom_id: customId, result } = line;
  if (result.type === "succeeded") return { customId, ok: true, reply: anthropicReply(result.message) };
  const detail = result.type === "errored" ? `: ${JSON.stringify(result.error).slice(0, 200)}` : "";
  return { customId, ok: false, reason: `${result.type}${detail}` };
}
