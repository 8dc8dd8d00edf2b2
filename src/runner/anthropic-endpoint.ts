import Anthropic from "@anthropic-ai/sdk";
import type {
  Message as AnthropicMessage,
  ContentBlockParam,
  MessageCreateParamsNonStreaming,
  MessageParam,
  Tool,
} from "@anthropic-ai/sdk/resources/messages";
import { anthropicBatches } from "./batch/anthropic-batches.js";
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

/** The Anthropic Messages API through the official `@anthropic-ai/sdk`, its own retries off (see openai). */
export function anthropicEndpoint(options: {
  model: string;
  baseURL?: string;
  apiKey: string;
  decoding: Decoding;
}): ModelEndpoint {
  const client = new Anthropic({ apiKey: options.apiKey, baseURL: options.baseURL, maxRetries: 0 });
  const url = options.baseURL ?? "https://api.anthropic.com";
  return {
    provider: "anthropic",
    model: options.model,
    decoding: options.decoding,
    url,
    async complete(request: ChatRequest, signal: AbortSignal): Promise<ModelReply> {
      try {
        const response: unknown = await client.messages.create(
          anthropicBody(options.model, options.decoding, request),
          { signal },
        );
        // The client hands on a body that is not JSON as text (a proxy's login page, say), and a JSON body
        // need not be a message: a 200 without content is no reply, a failed call retried like a server
        // error, said with the URL and the start of what came instead.
        if (!Array.isArray((response as Partial<AnthropicMessage> | null)?.content)) {
          const shown = typeof response === "string" ? response.trim() : JSON.stringify(response ?? null);
          throw new EndpointError(
            "server",
            `${url} answered 200 with no message content: ${endpointWords(shown, options.apiKey)}`,
            200,
            null,
          );
        }
        return anthropicReply(response as AnthropicMessage);
      } catch (error) {
        if (error instanceof EndpointError) throw error;
        throw providerError(error, options.apiKey, Anthropic, url);
      }
    },
    batches: anthropicBatches(client, options.model, options.decoding, options.apiKey, url),
  };
}

/** The Messages API request of one call: the same for a direct call and a batch's `params`. */
export function anthropicBody(
  model: string,
  decoding: Decoding,
  request: ChatRequest,
): MessageCreateParamsNonStreaming {
  return {
    model,
    system: request.system,
    messages: toAnthropicMessages(request.messages),
    ...(request.tools && request.tools.length > 0 ? { tools: request.tools.map(toAnthropicTool) } : {}),
    ...(decoding.temperature !== undefined ? { temperature: decoding.temperature } : {}),
    max_tokens: decoding.max_tokens,
  };
}

/** A message as the runner reads it, whether it came back directly or as a batch's succeeded result. */
export function anthropicReply(response: AnthropicMessage): ModelReply {
  const text = response.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
  const toolCalls = response.content.flatMap((block) =>
    block.type === "tool_use"
      ? [{ id: block.id, name: block.name, arguments: JSON.stringify(block.input ?? {}) }]
      : [],
  );
  return {
    text,
    toolCalls,
    reportedModel: response.model ?? null,
    finishReason: response.stop_reason ?? null,
    promptTokens: reportedCount(response.usage?.input_tokens),
    completionTokens: reportedCount(response.usage?.output_tokens),
  };
}

/** Messages API turns: tool results go back as a user turn of tool_result blocks, consecutive ones merged. */
function toAnthropicMessages(messages: readonly Message[]): MessageParam[] {
  const out: MessageParam[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      out.push({ role: "user", content: message.content });
    } else if (message.role === "assistant") {
      const blocks: ContentBlockParam[] = [];
      if (message.text) blocks.push({ type: "text", text: message.text });
      for (const call of message.toolCalls) {
        blocks.push({ type: "tool_use", id: call.id, name: call.name, input: parsedOrEmpty(call.arguments) });
      }
      out.push({ role: "assistant", content: blocks.length > 0 ? blocks : "" });
    } else {
      const block: ContentBlockParam = {
        type: "tool_result",
        tool_use_id: message.toolCallId,
        content: message.content,
        is_error: message.isError,
      };
      const last = out[out.length - 1];
      if (last?.role === "user" && Array.isArray(last.content)) last.content.push(block);
      else out.push({ role: "user", content: [block] });
    }
  }
  return out;
}

function parsedOrEmpty(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    return value !== null && typeof value === "object" ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function toAnthropicTool(tool: { name: string; description: string; inputSchema: object }): Tool {
  return {
    name: tool.name,
    description: tool.description,
    input_schema: tool.inputSchema as Tool.InputSchema,
  };
}
