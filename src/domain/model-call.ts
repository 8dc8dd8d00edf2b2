import { z } from "zod";

/**
 * The request `_meta` key under which a runner sends, with a submit_move call, the model calls behind that
 * reply. It travels inside the MCP request, so a runner that is a remote client (Streamable HTTP) records
 * its calls exactly like one on stdio. Host agents send nothing here and lose nothing.
 */
export const MODEL_CALLS_META_KEY = "same-game/model-calls";

const MAX_RAW_CHARS = 200_000;
const text = (max: number) => z.string().max(max);
const count = z.number().int().min(0).max(1e9).nullable();

/** One call to a model endpoint, as the runner reports it and the record keeps it. */
export const ModelCallSchema = z.object({
  provider: z.enum(["openai", "anthropic"]),
  requested_model: text(200).min(1),
  reported_model: text(200).nullable(),
  mode: z.enum(["tools", "text"]),
  style: text(100).min(1),
  sample_index: z.number().int().min(0).max(1000),
  decoding: z.record(z.string(), z.union([z.number(), z.string(), z.boolean(), z.null()])),
  prompt_tokens: count,
  completion_tokens: count,
  latency_ms: z.number().min(0).max(1e8),
  retries: z.number().int().min(0).max(1000),
  finish_reason: text(100).nullable(),
  raw_reply: text(MAX_RAW_CHARS),
  called_at: text(40),
  /** The response-cache entry looked up (`run --cache`), and the original call a reused reply came from. */
  cache_key: text(100).nullable().optional(),
  cached_from: text(40).nullable().optional(),
  /** The call's price under the run's --prices table; 0 for a reply from the cache. */
  cost_usd: z.number().min(0).max(1e9).nullable().optional(),
  /** The provider batch the reply came from (`run --batch`); null for a direct call or a cached reply. */
  batch_id: text(200).nullable().optional(),
});
export type ModelCall = z.infer<typeof ModelCallSchema>;

export const ModelCallsSchema = z.array(ModelCallSchema).max(64);

/** The calls carried by a tools/call request's `_meta`, or [] when it has none; a malformed entry throws. */
export function modelCallsFromMeta(meta: Record<string, unknown> | undefined): ModelCall[] {
  const raw = meta?.[MODEL_CALLS_META_KEY];
  if (raw === undefined) return [];
  const parsed = ModelCallsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `_meta["${MODEL_CALLS_META_KEY}"] is malformed at ${issue?.path.join(".") || "(top)"}: ${issue?.message}.`,
    );
  }
  return parsed.data;
}

/**
 * Every token the calls spent: what the efficiency metric charges for the reply. Null unless every call
 * reported both its prompt and its completion tokens: a sum that leaves a call's tokens out is not the
 * round's tokens, and an efficiency divided by it would be overstated rather than unknown (SPEC §6).
 */
export function totalTokens(calls: readonly ModelCall[]): number | null {
  if (calls.length === 0) return null;
  let sum = 0;
  for (const call of calls) {
    if (call.prompt_tokens === null || call.completion_tokens === null) return null;
    sum += call.prompt_tokens + call.completion_tokens;
  }
  return sum;
}
