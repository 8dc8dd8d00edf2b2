import { UsageError } from "../usage-error.js";
import { EndpointError, type ModelEndpoint, sentence } from "./endpoint.js";

// Some failures of a model call say the run is set up wrong, not that the endpoint is having a bad moment:
// a 404 where the chat API should be (a base URL without its /v1), a server that streams when asked for one
// reply. Every trial would fail the same way, so the run stops at the first, with exit 2 and one line that
// names the URL and what to change — rather than after five failed trials with the SDK's "404 status code
// (no body)".

/** The usage error a failed call means, when it means the run is set up wrong; null otherwise. */
export function wrongEndpoint(error: unknown, endpoint: ModelEndpoint): UsageError | null {
  if (!(error instanceof EndpointError)) return null;
  if (/server-sent events/.test(error.message)) return new UsageError(`--base-url: ${error.message}.`);
  if (error.status !== 404 || namesMissingModel(error.message)) return null;
  const base = endpoint.url.replace(/\/+$/, "");
  const anthropic = endpoint.provider === "anthropic";
  const posted = anthropic ? `${base}/v1/messages` : `${base}/chat/completions`;
  const said = sentence(error.message.replace(/^HTTP 404: (?:404 )?/, "")).slice(0, 200);
  const hint = anthropic
    ? /\/v1$/.test(base)
      ? `the Anthropic client adds /v1 itself: try --base-url ${base.replace(/\/v1$/, "")}`
      : "check --base-url and --provider"
    : /\/v1$/.test(base)
      ? "check --base-url and --provider"
      : `OpenAI-compatible servers (vLLM, Ollama, llama.cpp) serve it under /v1: try --base-url ${base}/v1`;
  return new UsageError(`POST ${posted} answered 404 (${said}): no chat API there; ${hint}.`);
}

/**
 * A 404 that names the model ("The model `X` does not exist", Ollama's "model \"X\" not found"): the URL is
 * right and the model name wrong, which five failed trials in a row already stop with those words.
 */
function namesMissingModel(message: string): boolean {
  return /\bmodel\b/i.test(message) && /does not exist|not found|not_found|no such|unknown/i.test(message);
}
