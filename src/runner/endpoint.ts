import { printable } from "../queries/format.js";
import type { BatchApi } from "./batch/batch-api.js";

// What the runner needs of a model endpoint, independent of the provider's wire format: one conversation
// in, one reply out. Each provider file maps this to its official client library.

export interface ToolCall {
  readonly id: string;
  readonly name: string;
  /** The arguments as the model wrote them: JSON text, possibly malformed. */
  readonly arguments: string;
}

export type Message =
  | { readonly role: "user"; readonly content: string }
  | { readonly role: "assistant"; readonly text: string; readonly toolCalls: readonly ToolCall[] }
  | {
      readonly role: "tool";
      readonly toolCallId: string;
      readonly name: string;
      readonly content: string;
      readonly isError: boolean;
    };

/** A tool offered to the model: name, description and JSON Schema exactly as the MCP server lists them. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
}

export interface ChatRequest {
  readonly system: string;
  readonly messages: readonly Message[];
  readonly tools?: readonly ToolSpec[];
}

export interface ModelReply {
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
  /** The model id the endpoint reports in its reply. */
  readonly reportedModel: string | null;
  readonly finishReason: string | null;
  readonly promptTokens: number | null;
  readonly completionTokens: number | null;
}

/**
 * A token count as an endpoint reported it, read as the whole number it must be, else unknown (null). A
 * proxy that re-serialises the reply may send "812" for 812, read as such; anything else (a negative or
 * fractional number, text, past what the record keeps) is no count, rather than one that would be added
 * to the others as text ("0" + "812" is "0812") or refused by the record with the reply it came with.
 */
export function reportedCount(value: unknown): number | null {
  const count = typeof value === "string" && /^\d{1,10}$/.test(value.trim()) ? Number(value) : value;
  return typeof count === "number" && Number.isSafeInteger(count) && count >= 0 && count <= MAX_REPORTED_COUNT
    ? count
    : null;
}

/** The largest token count the record keeps for one call (the model-call schema's bound). */
const MAX_REPORTED_COUNT = 1e9;

/** Decoding settings sent with every call, and recorded with it. */
export interface Decoding {
  readonly temperature?: number;
  readonly max_tokens: number;
}

export type Provider = "openai" | "anthropic";

export interface ModelEndpoint {
  readonly provider: Provider;
  readonly model: string;
  readonly decoding: Decoding;
  /** The base URL the requests go to (the provider's public API unless --base-url names another). */
  readonly url: string;
  /**
   * One request; throws EndpointError. `signal` aborts it (the runner's deadline for this request, body
   * included, or Ctrl-C); the caller bounds the wait itself too, so an SDK that ignores it cannot stall.
   */
  complete(request: ChatRequest, signal: AbortSignal): Promise<ModelReply>;
  /** The provider's batch API (`run --batch`): the same requests at the provider's batch price. */
  readonly batches?: BatchApi;
}

/**
 * Why a call failed, as the retry policy needs it: `rate` and `server` and `timeout` are retried with
 * backoff; `auth` and `quota` stop the run once they repeat; `request` (a 4xx the model can't fix by
 * waiting) fails the trial. The message never contains the API key.
 */
export type FailureKind = "rate" | "server" | "timeout" | "auth" | "quota" | "request";

export class EndpointError extends Error {
  override readonly name = "EndpointError";
  constructor(
    readonly kind: FailureKind,
    message: string,
    readonly status: number | null,
    /** From Retry-After / retry-after-ms, when the endpoint sent it. */
    readonly retryAfterMs: number | null,
  ) {
    super(message);
  }
}

/** Classifies an HTTP failure; `body` is the provider's error object, used to tell quota from rate. */
export function classifyStatus(status: number | null, body: unknown): FailureKind {
  if (status === null) return "server";
  if (status === 401 || status === 403) return "auth";
  const text = JSON.stringify(body ?? "").toLowerCase();
  if (status === 429) return /quota|billing|credit/.test(text) ? "quota" : "rate";
  if (status === 402) return "quota";
  if (status === 408 || status === 409 || status >= 500) return "server";
  return "request";
}

/** The error classes both official provider SDKs export alike (one generated client core); only
 * `instanceof` is used, so any constructor signature fits. */
export interface ProviderErrorClasses {
  readonly APIConnectionTimeoutError: abstract new (...args: never[]) => Error;
  readonly APIConnectionError: abstract new (...args: never[]) => Error;
  readonly APIError: abstract new (...args: never[]) => Error;
}

/**
 * A provider SDK's failure as the retry policy reads it; the key never reaches the message. `url` is the
 * endpoint's base URL, named when it cannot be reached (the SDKs say only "Connection error.").
 */
export function providerError(
  error: unknown,
  key: string,
  sdk: ProviderErrorClasses,
  url: string,
): EndpointError {
  if (error instanceof sdk.APIConnectionTimeoutError) {
    return new EndpointError("timeout", `the request to ${url} timed out`, null, null);
  }
  if (error instanceof sdk.APIConnectionError) {
    const reason = [error.message, causeOf(error)]
      .filter((part) => part !== "")
      .map(sentence)
      .join(": ");
    return new EndpointError("server", `cannot reach ${url}: ${endpointWords(reason, key)}`, null, null);
  }
  if (error instanceof sdk.APIError) {
    const {
      status,
      error: body,
      headers,
    } = error as Error & {
      status?: number;
      error?: unknown;
      headers?: Headers;
    };
    // Anthropic's 529 "overloaded" is a server condition like 503 (classifyStatus: ≥ 500).
    return new EndpointError(
      classifyStatus(status ?? null, body),
      `HTTP ${status ?? null}: ${endpointWords(error.message, key)}`,
      status ?? null,
      retryAfterMs(headers),
    );
  }
  // The SDKs parse a JSON reply's body themselves: one that is not JSON (cut short by a proxy, an
  // overloaded server's partial write) comes through as the parser's bare SyntaxError. It is a failed
  // call like a 500, retried, and said as what it is, with the URL, not as the parser's position.
  if (error instanceof SyntaxError) {
    return new EndpointError(
      "server",
      `${url} answered with a reply body that is not valid JSON (${endpointWords(sentence(error.message), key)})`,
      null,
      null,
    );
  }
  if (cutMidReply(error)) {
    const reason = [error.message, causeOf(error)]
      .filter((part) => part !== "")
      .map(sentence)
      .join(": ");
    return new EndpointError(
      "server",
      `the connection to ${url} broke before the reply was complete (${endpointWords(reason, key)})`,
      null,
      null,
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new EndpointError("request", endpointWords(message, key), null, null);
}

/**
 * The most of an endpoint's own words a failure quotes. An error body is the endpoint's to choose (a
 * proxy's HTML page, a megabyte of JSON): its start says what went wrong, and the failure line that
 * quotes it stays readable.
 */
export const ENDPOINT_WORDS_MAX = 500;

/**
 * What an endpoint said, as a failure may quote it: the key replaced, every control character (a newline,
 * an escape sequence that would clear the operator's terminal) shown escaped, at most ENDPOINT_WORDS_MAX
 * characters. The key is replaced first, while the text is still the one the endpoint sent.
 */
export function endpointWords(text: string, key: string | undefined): string {
  const redacted = redact(text, key);
  const head = redacted.length > ENDPOINT_WORDS_MAX ? redacted.slice(0, ENDPOINT_WORDS_MAX) : redacted;
  const shown = printable(head);
  return shown.length > ENDPOINT_WORDS_MAX || head !== redacted
    ? `${shown.slice(0, ENDPOINT_WORDS_MAX)}… (${redacted.length} characters, cut)`
    : shown;
}

/**
 * Whether the error is fetch's "terminated": the connection closed (reset, a proxy or the server going away)
 * while the reply's body was being read. The SDKs wrap only failures before the headers as connection
 * errors; this one comes through bare, and is as transient as they are.
 */
function cutMidReply(error: unknown): error is Error {
  if (!(error instanceof TypeError)) return false;
  if (error.message === "terminated") return true;
  const code = (error as { cause?: { code?: unknown } }).cause?.code;
  return typeof code === "string" && /^(?:UND_ERR_SOCKET|ECONNRESET|EPIPE|UND_ERR_CLOSED)$/.test(code);
}

/**
 * The low-level reason under a connection error (ECONNREFUSED, ENOTFOUND), when the SDK kept it: the
 * first error code down the cause chain (the SDK's error, fetch's "fetch failed", the socket's error),
 * else the deepest message.
 */
function causeOf(error: Error): string {
  let deepest = "";
  let cause = (error as { cause?: unknown }).cause;
  for (let depth = 0; depth < 5 && cause !== null && typeof cause === "object"; depth++) {
    const { code, message } = cause as { code?: unknown; message?: unknown };
    if (typeof code === "string" && /^E[A-Z_]+$/.test(code)) return code;
    if (typeof message === "string") deepest = message;
    cause = (cause as { cause?: unknown }).cause;
  }
  return deepest;
}

/** A message part without its closing period, so parts join without doubled punctuation. */
export function sentence(text: string): string {
  return text.trim().replace(/[.\s]+$/, "");
}

/** Retry-After in milliseconds: `retry-after-ms`, or `retry-after` as seconds or an HTTP date. */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | null {
  if (!headers) return null;
  const ms = Number(headers.get("retry-after-ms"));
  if (headers.get("retry-after-ms") !== null && Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get("retry-after");
  if (value === null) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** The text with every occurrence of the secret replaced, so no error or log can carry a key. */
export function redact(text: string, secret: string | undefined): string {
  if (!secret || secret.length < 4) return text;
  return text.split(secret).join("[redacted]");
}
