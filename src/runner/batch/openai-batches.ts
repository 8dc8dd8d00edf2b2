import OpenAI, { toFile } from "openai";
import type { ChatCompletion } from "openai/resources/chat/completions";
import type { Decoding } from "../endpoint.js";
import { openAiBody, openAiReply } from "../openai-endpoint.js";
import { atBatchApi, type BatchApi, type BatchResult, inProviderTerms, jsonLines } from "./batch-api.js";

type Json = Record<string, unknown>;

/** Statuses after which OpenAI does no more work on a batch: its output and error files are final. */
const ENDED = new Set(["completed", "failed", "expired", "cancelled"]);

/**
 * OpenAI's Batch API: the requests as a JSONL file uploaded with purpose "batch", one batch over
 * /v1/chat/completions with a 24 h completion window, its results read from the output file (replies)
 * and the error file (requests that failed or expired), each line carrying our custom_id.
 */
export function openAiBatches(
  client: OpenAI,
  model: string,
  decoding: Decoding,
  apiKey: string,
  url: string,
): BatchApi {
  const wrap = inProviderTerms(apiKey, OpenAI, url);
  const download = async (fileId: string | null | undefined, into: Json[]) => {
    if (!fileId) return;
    const text = await (await client.files.content(fileId)).text();
    for (const line of jsonLines(text, () => {})) into.push(line as Json);
  };
  return {
    submit: (requests) =>
      wrap(async () => {
        const lines = requests.map((r) =>
          JSON.stringify({
            custom_id: r.customId,
            method: "POST",
            url: "/v1/chat/completions",
            body: openAiBody(model, decoding, r.request),
          }),
        );
        const upload = await toFile(Buffer.from(`${lines.join("\n")}\n`), "same-game-batch.jsonl");
        const file = await atBatchApi(url, "/files", () =>
          wrap(() => client.files.create({ file: upload, purpose: "batch" })),
        );
        const batch = await atBatchApi(url, "/batches", () =>
          wrap(() =>
            client.batches.create({
              input_file_id: file.id,
              endpoint: "/v1/chat/completions",
              completion_window: "24h",
            }),
          ),
        );
        return batch.id;
      }),
    status: (batchId) =>
      wrap(async () => {
        const batch = await client.batches.retrieve(batchId);
        return { ended: ENDED.has(batch.status), state: batch.status };
      }),
    results: (batchId) =>
      wrap(async () => {
        const batch = await client.batches.retrieve(batchId);
        const lines: Json[] = [];
        await download(batch.output_file_id, lines);
        await download(batch.error_file_id, lines);
        return lines.map((line) => openAiResult(line, url));
      }),
  };
}

/** One line of an output or error file: a 200 with its completion, or the reason there is none. */
function openAiResult(line: Json, url: string): BatchResult {
  const customId = String(line.custom_id ?? "");
  const response = line.response as { status_code?: number; body?: unknown } | null | undefined;
  const error = line.error as { code?: string; message?: string } | null | undefined;
  if (response?.status_code === 200 && response.body && !error) {
    try {
      return { customId, ok: true, reply: openAiReply(response.body as ChatCompletion, url) };
    } catch (failure) {
      return { customId, ok: false, reason: (failure as Error).message };
    }
  }
  const reason = error
    ? `${error.code ?? "error"}: ${error.message ?? ""}`
    : `HTTP ${response?.status_code ?? "?"}: ${JSON.stringify(response?.body ?? null).slice(0, 200)}`;
  return { customId, ok: false, reason };
}
