import { UsageError } from "../../usage-error.js";
import {
  type ChatRequest,
  EndpointError,
  type ModelReply,
  type ProviderErrorClasses,
  providerError,
  sentence,
} from "../endpoint.js";

// What `same-game run --batch` needs of a provider's batch API, independent of its wire format: submit
// many one-shot requests under ids of our choosing, ask whether the batch has ended, and read each
// request's result back by its id. Each provider file maps this to its official client library.

export interface BatchRequest {
  /** Our id for the request (the provider's custom_id): how its result is mapped back to its trial. */
  readonly customId: string;
  readonly request: ChatRequest;
}

/** One request's outcome: a reply, or why there is none (errored, expired, canceled, missing). */
export type BatchResult =
  | { readonly customId: string; readonly ok: true; readonly reply: ModelReply }
  | { readonly customId: string; readonly ok: false; readonly reason: string };

export interface BatchStatus {
  /** The provider is done with the batch (completed, ended, expired, failed, cancelled): results can be read. */
  readonly ended: boolean;
  /** The provider's own word for the state, for the progress line. */
  readonly state: string;
}

export interface BatchApi {
  /** Submits the requests as one batch; returns the provider's batch id. */
  submit(requests: readonly BatchRequest[]): Promise<string>;
  status(batchId: string): Promise<BatchStatus>;
  /** Every result the provider returns for an ended batch, in the provider's order (not ours). */
  results(batchId: string): Promise<BatchResult[]>;
}

/**
 * The providers' limits on one batch: OpenAI 50,000 requests and 200 MB per input file, Anthropic 100,000
 * requests and 256 MB. A chunk is cut at whichever of `--batch-size` and the byte limit comes first.
 */
export const BATCH_LIMITS = {
  openai: { requests: 50_000, bytes: 200 * 1024 * 1024 },
  anthropic: { requests: 100_000, bytes: 256 * 1024 * 1024 },
} as const;

/** Parses JSON Lines, skipping blank lines; a line that is not JSON is passed to `onBad`, not thrown. */
export function jsonLines(text: string, onBad: (line: string) => void): unknown[] {
  const out: unknown[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      onBad(line);
    }
  }
  return out;
}

/** Runs a batch API call, its failure told as the retry policy reads it (the key never in the message). */
export function inProviderTerms(
  apiKey: string,
  sdk: ProviderErrorClasses,
  url: string,
): <T>(work: () => Promise<T>) => Promise<T> {
  return async (work) => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof EndpointError || error instanceof UsageError) throw error;
      throw providerError(error, apiKey, sdk, url);
    }
  };
}

/**
 * One call that creates something at a batch API (an upload, a batch). A 404 there means the endpoint has
 * no batch API at that URL — a wrong --base-url, a --provider whose paths the server does not serve, a
 * server without one (vLLM, Ollama) — which waiting or retrying cannot mend: a usage error naming the URL.
 */
export async function atBatchApi<T>(baseUrl: string, path: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof EndpointError) || error.status !== 404) throw error;
    const url = `${baseUrl.replace(/\/+$/, "")}${path}`;
    const said = sentence(error.message.replace(/^HTTP 404: /, "")).slice(0, 200);
    throw new UsageError(
      `--batch: POST ${url} answered 404 (${said}): the endpoint offers no batch API there; run without --batch, or check --base-url and --provider.`,
    );
  }
}
