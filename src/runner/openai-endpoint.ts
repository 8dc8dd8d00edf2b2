import OpenAI from "openai";
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from "openai/resources/chat/completions";
import { openAiBatches } from "./batch/openai-batches.js";
import {
  type ChatRequest,
  type Decoding,
  EndpointError,
  endpointWords,
  type Message,
  type ModelEndpoint,
  type ModelReply,
  providerError,
  reportedCount,
} from "./endpoint.js";

/**
 * Any OpenAI-compatible `/v1/chat/completions` endpoint (OpenAI, vLLM, Ollama, LM Studio, llama.cpp,
 * OpenRouter, Together), through the official `openai` client. The client's own retries are off: the
 * runner retries, so it can count retries, honour Retry-After and stop on repeated auth errors.
 */
export function openAiEndpoint(options: {
  model: string;
  baseURL?: string;
  apiKey: string;
  decoding: Decoding;
}): ModelEndpoint {
  const client = new FlatErrorOpenAI({ apiKey: options.apiKey, baseURL: options.baseURL, maxRetries: 0 });
  const url = options.baseURL ?? "https://api.openai.com/v1";
  return {
    provider: "openai",
    model: options.model,
    decoding: options.decoding,
    url,
    async complete(request: ChatRequest, signal: AbortSignal): Promise<ModelReply> {
      try {
        return openAiReply(
          await client.chat.completions.create(openAiBody(options.model, options.decoding, request), {
            signal,
          }),
          url,
          options.apiKey,
        );
      } catch (error) {
        if (error instanceof EndpointError) throw error;
        throw providerError(error, options.apiKey, OpenAI, url);
      }
    },
    batches: openAiBatches(client, options.model, options.decoding, options.apiKey, url),
  };
}

/**
 * The official client, reading a flat error body too. OpenAI nests its error (`{"error": {"message": …}}`),
 * and the client reads only that form; vLLM and other compatible servers answer flat
 * (`{"object": "error", "message": "The model `X` does not exist.", …}`), which the client would drop for
 * "404 status code (no body)". A flat body with a message is handed on as if nested.
 */
class FlatErrorOpenAI extends OpenAI {
  protected override makeStatusError(
    status: number,
    error: object,
    message: string | undefined,
    headers: Headers,
  ): InstanceType<typeof OpenAI.APIError> {
    const body = error as Record<string, unknown> | null | undefined;
    const flat =
      body !== null &&
      typeof body === "object" &&
      body.error === undefined &&
      typeof body.message === "string";
    return super.makeStatusError(status, flat ? { error: body } : error, message, headers);
  }
}

/** The chat-completions request body of one call: the same for a direct call and a batch line. */
export function openAiBody(
  model: string,
  decoding: Decoding,
  request: ChatRequest,
): ChatCompletionCreateParamsNonStreaming {
  return {
    model,
    messages: toOpenAiMessages(request),
    ...(request.tools && request.tools.length > 0 ? { tools: request.tools.map(toOpenAiTool) } : {}),
    ...(decoding.temperature !== undefined ? { temperature: decoding.temperature } : {}),
    max_tokens: decoding.max_tokens,
  };
}

/** A chat completion as the runner reads it, whether it came back directly or in a batch's output file. */
export function openAiReply(response: ChatCompletion, url: string, key?: string): ModelReply {
  // The client hands on a body that is not JSON as text. A stream of server-sent events nobody asked for
  // (a proxy or server that always streams) will not turn into a reply by asking again.
  if (typeof response === "string" && /^\s*(?:data|event):/.test(response)) {
    throw new EndpointError(
      "request",
      `${url} answered with a stream of server-sent events (text/event-stream), though the request did not ask to stream; the runner reads one JSON reply: turn streaming off on the server or proxy`,
      200,
      null,
    );
  }
  // A 200 without a choice is no reply: a failed call, retried like a server error.
  if (!Array.isArray(response.choices) || response.choices.length === 0) {
    // A body that is not JSON at all (a proxy's HTML sign-in page) is quoted: its start says what it is.
    const text = typeof response === "string" ? (response as string).trim() : "";
    const shown = text === "" ? "" : `: ${endpointWords(text, key)}`;
    throw new EndpointError("server", `${url} answered 200 with no choices${shown}`, 200, null);
  }
  const choice = response.choices[0];
  const message = choice?.message;
  return {
    text: message?.content ?? "",
    toolCalls: (message?.tool_calls ?? []).flatMap((call) =>
      call.type === "function"
        ? [{ id: call.id ?? "", name: call.function.name, arguments: argumentsText(call.function.arguments) }]
        : [],
    ),
    reportedModel: response.model ?? null,
    finishReason: choice?.finish_reason ?? null,
    promptTokens: reportedCount(response.usage?.prompt_tokens),
    completionTokens: reportedCount(response.usage?.completion_tokens),
  };
}

/**
 * A call's arguments as JSON text. The API sends a string of JSON; llama.cpp's server (and others) send
 * the object itself, which is the same arguments and is read as such.
 */
function argumentsText(args: unknown): string {
  if (typeof args === "string") return args;
  return args === undefined || args === null ? "" : JSON.stringify(args);
}

function toOpenAiMessages(request: ChatRequest): ChatCompletionMessageParam[] {
  return [{ role: "system", content: request.system }, ...request.messages.map(toOpenAiMessage)];
}

function toOpenAiMessage(message: Message): ChatCompletionMessageParam {
  switch (message.role) {
    case "user":
      return { role: "user", content: message.content };
    case "assistant":
      return message.toolCalls.length === 0
        ? { role: "assistant", content: message.text }
        : {
            role: "assistant",
            content: message.text || null,
            tool_calls: message.toolCalls.map((call) => ({
              id: call.id,
              type: "function" as const,
              function: { name: call.name, arguments: call.arguments },
            })),
          };
    case "tool":
      return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
  }
}

function toOpenAiTool(tool: { name: string; description: string; inputSchema: object }): ChatCompletionTool {
  return {
    type: "function",
    function: {
      name: tool.name,
      description: tool.description,
      parameters: tool.inputSchema as Record<string, unknown>,
    },
  };
}
