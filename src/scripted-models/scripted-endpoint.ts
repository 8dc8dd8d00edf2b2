import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { ScriptedBatches, type ScriptedBatchOptions } from "./scripted-batches.js";
import { type Conversation, latestDecision, type ScriptedReply, scriptedReply } from "./scripted-policy.js";

// A model endpoint for tests, benchmarks and the runner demo: real HTTP on loopback speaking the
// OpenAI chat-completions API (POST /v1/chat/completions) and the Anthropic Messages API (POST
// /v1/messages), answering from the prompt through a reference agent, reporting usage, and injecting
// the failures a real endpoint has on a schedule the caller sets. Both providers' batch APIs are served
// too (scripted-batches.ts).

export interface ScriptedFaults {
  /** Every n-th request is answered 429 with Retry-After: retryAfterSeconds. */
  readonly rateLimitEvery?: number;
  readonly retryAfterSeconds?: number;
  /** Every n-th request is answered 500. */
  readonly serverErrorEvery?: number;
  /**
   * The message of those 500 answers ("The server had an error." unless set): an endpoint's own words,
   * which may hold anything — a line break, an escape sequence, a megabyte, the key it was sent.
   */
  readonly serverErrorMessage?: string;
  /** Every n-th request is answered only after slowMs (longer than a client's timeout, say). */
  readonly slowEvery?: number;
  readonly slowMs?: number;
  /** Every n-th tool call carries arguments that are not JSON. */
  readonly malformedToolEvery?: number;
  /** After this many answered requests, every request is 429 "insufficient_quota". */
  readonly quotaAfter?: number;
  /** Every n-th reply's text is padded to hugeReplyChars characters (the choice stays on the last line). */
  readonly hugeReplyEvery?: number;
  readonly hugeReplyChars?: number;
  /** Every n-th reply sends its headers at once, then its body one byte every dripMs. */
  readonly dripEvery?: number;
  readonly dripMs?: number;
  /** Every n-th OpenAI reply is a 200 with `choices: []`. */
  readonly emptyChoicesEvery?: number;
  /** Every n-th reply is a 200 whose JSON body is cut short and ended cleanly (a proxy that truncated it). */
  readonly truncatedJsonEvery?: number;
  /** Every n-th reply is a 200 HTML page (a proxy's login page) instead of the API's JSON. */
  readonly htmlPageEvery?: number;
  /** Every n-th reply sends its headers and part of its body, then the connection is reset. */
  readonly resetMidBodyEvery?: number;
  /** Every n-th OpenAI reply is a stream of server-sent events (text/event-stream), asked for or not. */
  readonly streamEvery?: number;
}

/**
 * How the replies look, as the servers people run models on shape them: a reasoning model's thinking in
 * the reply, a reply cut off at max_tokens, no usage, llama.cpp's tool calls.
 */
export interface ScriptedReplyShape {
  /**
   * Text replies open with a reasoning block: "closed" thinks aloud that its answer is the other label,
   * then gives its choice after `</think>`; "unclosed" names its choice inside a block it never closes.
   */
  readonly think?: "closed" | "unclosed";
  /** Every n-th reply ends with finish_reason "length" (Anthropic: stop_reason "max_tokens"). */
  readonly cutOffEvery?: number;
  /** The replies carry no `usage`. */
  readonly noUsage?: boolean;
  /** The `usage` counts are strings of digits ("812"), as a proxy that re-serialised the reply sends them. */
  readonly usageAsStrings?: boolean;
  /** Every n-th reply carries no `usage` (a server that reports it for some replies only). */
  readonly noUsageEvery?: number;
  /** OpenAI tool calls carry their arguments as an object (llama.cpp), not as a JSON string. */
  readonly toolArgumentsAsObject?: boolean;
  /**
   * OpenAI tool calls come without an `id`; a request whose tool turns lack ids is then refused 400, as
   * OpenAI and vLLM refuse it.
   */
  readonly toolCallsWithoutId?: boolean;
}

export interface ScriptedEndpointOptions {
  /** Time to answer each request (the model "thinking"). */
  readonly delayMs?: number;
  /** When set, requests must carry this key (Bearer / x-api-key); a wrong key is refused 401, echoing it. */
  readonly apiKey?: string;
  readonly faults?: ScriptedFaults;
  readonly shape?: ScriptedReplyShape;
  /** The batch APIs: how long a batch is in flight, and its faults. */
  readonly batches?: ScriptedBatchOptions;
  /**
   * Prompt tokens counted per four characters of the messages: 1 (the default) as English runs, more for
   * a denser tokenizer (a non-Latin script, a provider's own tool-use prompt). 4 counts one token a character.
   */
  readonly promptTokensPerFourChars?: number;
}

/** A request as the endpoint received it, kept for tests to inspect. */
export interface ReceivedRequest {
  readonly api: "openai" | "anthropic";
  readonly body: Record<string, unknown>;
  readonly status: number;
}

export interface ScriptedEndpoint {
  /** http://127.0.0.1:PORT */
  readonly origin: string;
  /** The base URL for an OpenAI client (origin + /v1); an Anthropic client takes `origin`. */
  readonly openAiBaseUrl: string;
  readonly requests: ReceivedRequest[];
  /** The batch APIs, and every call made to them. */
  readonly batches: ScriptedBatches;
  close(): Promise<void>;
}

export async function startScriptedEndpoint(
  options: ScriptedEndpointOptions = {},
): Promise<ScriptedEndpoint> {
  const requests: ReceivedRequest[] = [];
  let received = 0;
  let answered = 0;
  const faults = options.faults ?? {};
  const every = (n: number | undefined, k: number) => n !== undefined && n > 0 && k % n === 0;

  let origin = "";
  const batches = new ScriptedBatches(options.batches ?? {}, () => origin);
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const batchAnswer = await batches.handle(req, () => readBody(req));
    if (batchAnswer?.text !== undefined) {
      res.writeHead(batchAnswer.status, { "content-type": "application/binary" });
      return res.end(batchAnswer.text);
    }
    if (batchAnswer) return send(res, batchAnswer.status, batchAnswer.body);
    const api = req.url?.startsWith("/v1/chat/completions")
      ? "openai"
      : req.url?.startsWith("/v1/messages")
        ? "anthropic"
        : null;
    if (req.method !== "POST" || api === null) return send(res, 404, { error: { message: "not found" } });
    const body = JSON.parse(await readBody(req)) as Record<string, unknown>;
    const k = ++received;
    const log = (status: number) => requests.push({ api, body, status });
    if (options.apiKey !== undefined) {
      const given =
        api === "openai"
          ? (req.headers.authorization ?? "").replace(/^Bearer /, "")
          : String(req.headers["x-api-key"] ?? "");
      if (given !== options.apiKey) {
        log(401);
        // Real endpoints echo (part of) a wrong key; the runner must never pass it on.
        return send(res, 401, {
          error: { type: "authentication_error", message: `Incorrect API key provided: ${given}` },
        });
      }
    }
    if (faults.quotaAfter !== undefined && answered >= faults.quotaAfter) {
      log(429);
      return send(res, 429, {
        error: { type: "insufficient_quota", message: "You exceeded your current quota." },
      });
    }
    if (every(faults.rateLimitEvery, k)) {
      log(429);
      return send(
        res,
        429,
        { error: { type: "rate_limit_error", message: "Rate limit reached." } },
        {
          "retry-after": String(faults.retryAfterSeconds ?? 1),
        },
      );
    }
    if (api === "openai" && options.shape?.toolCallsWithoutId && !toolTurnsNamed(body)) {
      log(400);
      return send(res, 400, {
        object: "error",
        message: "messages: every tool call and tool result needs its id (tool_call_id)",
        type: "BadRequestError",
        code: 400,
      });
    }
    if (every(faults.serverErrorEvery, k)) {
      log(500);
      const message = faults.serverErrorMessage ?? "The server had an error.";
      return send(res, 500, { error: { type: "server_error", message } });
    }
    if (every(faults.slowEvery, k)) await sleep(faults.slowMs ?? 5000);
    if (options.delayMs) await sleep(options.delayMs);
    if (res.destroyed) return log(499);
    const conversation = api === "openai" ? openAiConversation(body) : anthropicConversation(body);
    const reply = shapedText(scriptedReply(conversation, k), conversation, options.shape?.think);
    const malformed = reply.kind === "tool" && every(faults.malformedToolEvery, k);
    const shown: ScriptedReply =
      malformed && reply.kind === "tool"
        ? { ...reply, arguments: `{"match_id": ${reply.arguments.slice(13, 30)}` }
        : reply;
    answered++;
    log(200);
    const padded: ScriptedReply =
      every(faults.hugeReplyEvery, k) && shown.kind === "text"
        ? { kind: "text", text: `${"x".repeat(faults.hugeReplyChars ?? 5_000_000)}\n${shown.text}` }
        : shown;
    const answer = reshaped(
      api,
      scriptedAnswer(api, body, padded, k, options.promptTokensPerFourChars),
      options.shape ?? {},
      k,
    );
    if (api === "openai" && every(faults.emptyChoicesEvery, k)) answer.choices = [];
    if (api === "openai" && every(faults.streamEvery, k)) return stream(res, answer);
    if (every(faults.resetMidBodyEvery, k)) return resetMidBody(req, res, JSON.stringify(answer));
    if (every(faults.htmlPageEvery, k)) {
      res.writeHead(200, { "content-type": "text/html" });
      return res.end("<html><head><title>Sign in</title></head><body>Sign in to continue</body></html>");
    }
    if (every(faults.truncatedJsonEvery, k)) {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(JSON.stringify(answer).slice(0, 40));
    }
    if (every(faults.dripEvery, k)) return drip(res, JSON.stringify(answer), faults.dripMs ?? 1000);
    send(res, 200, answer);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 400, { error: { message: String(error) } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    openAiBaseUrl: `${origin}/v1`,
    requests,
    batches,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.destroyed) return;
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

type Json = Record<string, unknown>;

/** A 200 whose body arrives one byte at a time, as a stalled proxy or a hostile endpoint sends it. */
async function drip(res: ServerResponse, body: string, everyMs: number): Promise<void> {
  res.writeHead(200, {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(body)),
  });
  for (const byte of Buffer.from(body)) {
    if (res.destroyed) return;
    res.write(Buffer.from([byte]));
    await sleep(everyMs);
  }
  res.end();
}

/** A 200 whose body stops part way: the connection is reset under the client reading it. */
function resetMidBody(req: IncomingMessage, res: ServerResponse, body: string): void {
  res.writeHead(200, {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(body)),
  });
  res.write(body.slice(0, Math.floor(body.length / 2)));
  setTimeout(() => req.socket.destroy(), 20);
}

/** The reply as server-sent events (a server that streams whatever it is asked). */
function stream(res: ServerResponse, answer: Json): void {
  res.writeHead(200, { "content-type": "text/event-stream" });
  const message = (answer.choices as Json[])[0]?.message as Json | undefined;
  const chunk = { id: answer.id, object: "chat.completion.chunk", model: answer.model };
  res.write(`data: ${JSON.stringify({ ...chunk, choices: [{ index: 0, delta: message }] })}\n\n`);
  res.end("data: [DONE]\n\n");
}

/** Whether every tool call of the request's assistant turns, and every tool result, carries its id. */
function toolTurnsNamed(body: Json): boolean {
  return ((body.messages ?? []) as Json[]).every(
    (m) =>
      (m.role !== "tool" || (typeof m.tool_call_id === "string" && m.tool_call_id !== "")) &&
      ((m.tool_calls ?? []) as Json[]).every((call) => typeof call.id === "string" && call.id !== ""),
  );
}

/** A text reply as a reasoning model writes it, when the shape asks for one. */
function shapedText(
  reply: ScriptedReply,
  conversation: Conversation,
  think: ScriptedReplyShape["think"],
): ScriptedReply {
  if (think === undefined || reply.kind !== "text") return reply;
  const labels = latestDecision(conversation)?.context.labels ?? [];
  const choice = reply.text.split("\n").at(-1) ?? "";
  if (!labels.includes(choice)) return reply;
  if (think === "unclosed")
    return { kind: "text", text: `<think>\nMy answer is ${choice}. Let me check the` };
  const other = labels.find((label) => label !== choice) ?? choice;
  return {
    kind: "text",
    text: `<think>\nMy answer is ${other}.\nWait: the payoffs favour the other option.\n</think>\n\nI choose ${choice}.`,
  };
}

/** The API's reply body reshaped as the shape asks: cut off, without usage, llama.cpp's tool calls. */
function reshaped(api: "openai" | "anthropic", answer: Json, shape: ScriptedReplyShape, k: number): Json {
  if (
    shape.noUsage ||
    (shape.noUsageEvery !== undefined && shape.noUsageEvery > 0 && k % shape.noUsageEvery === 0)
  )
    delete answer.usage;
  if (shape.usageAsStrings && answer.usage) {
    answer.usage = Object.fromEntries(
      Object.entries(answer.usage as Json).map(([name, count]) => [name, String(count)]),
    );
  }
  const cut = shape.cutOffEvery !== undefined && shape.cutOffEvery > 0 && k % shape.cutOffEvery === 0;
  if (api === "anthropic") {
    if (cut) answer.stop_reason = "max_tokens";
    return answer;
  }
  for (const choice of answer.choices as Json[]) {
    if (cut) choice.finish_reason = "length";
    for (const call of ((choice.message as Json).tool_calls ?? []) as Json[]) {
      const fn = call.function as Json;
      if (shape.toolArgumentsAsObject) {
        try {
          fn.arguments = JSON.parse(String(fn.arguments));
        } catch {
          // Malformed arguments stay the text they are.
        }
      }
      if (shape.toolCallsWithoutId) delete call.id;
    }
  }
  return answer;
}

/** The reference agent's reply to one request of a batch, drawn from that request alone (see batchDraw). */
export function scriptedBatchAnswer(api: "openai" | "anthropic", customId: string, body: Json): Json {
  const conversation = api === "openai" ? openAiConversation(body) : anthropicConversation(body);
  return scriptedAnswer(api, body, scriptedReply(conversation, batchDraw(customId, body)));
}

/**
 * A batch line's draw: its custom_id and its content, so every line of a batch draws afresh as direct
 * requests do (a random agent stays random in batch mode), and the same batch sent again is answered the same.
 */
function batchDraw(customId: string, body: Json): string {
  const digest = createHash("sha256")
    .update(JSON.stringify(body.messages ?? []))
    .digest("hex");
  return `batch:${customId}:${digest.slice(0, 16)}`;
}

/** The API's reply body to one request: the reference agent's reply with the usage a real endpoint reports. */
export function scriptedAnswer(
  api: "openai" | "anthropic",
  body: Json,
  reply: ScriptedReply,
  k = 0,
  promptTokensPerFourChars = 1,
): Json {
  const promptTokens = Math.ceil((JSON.stringify(body.messages ?? []).length * promptTokensPerFourChars) / 4);
  const completionTokens = Math.ceil((reply.kind === "text" ? reply.text : reply.arguments).length / 4) + 1;
  const model = `${String(body.model)}-scripted-0001`;
  return api === "openai"
    ? openAiReply(model, reply, k, promptTokens, completionTokens)
    : anthropicReply(model, reply, k, promptTokens, completionTokens);
}

function openAiConversation(body: Json): Conversation {
  const messages = (body.messages ?? []) as Json[];
  const texts = messages
    .filter((m) => m.role === "user" || m.role === "tool")
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
  const system = messages.find((m) => m.role === "system")?.content;
  return {
    model: String(body.model),
    system: typeof system === "string" ? system : "",
    texts,
    toolsOffered: Array.isArray(body.tools) && body.tools.length > 0,
  };
}

function anthropicConversation(body: Json): Conversation {
  const texts: string[] = [];
  for (const message of (body.messages ?? []) as Json[]) {
    if (message.role !== "user") continue;
    if (typeof message.content === "string") {
      texts.push(message.content);
      continue;
    }
    for (const block of message.content as Json[]) {
      if (block.type === "text") texts.push(String(block.text));
      if (block.type === "tool_result") {
        const content = block.content;
        texts.push(
          typeof content === "string"
            ? content
            : (content as Json[]).map((c) => String(c.text ?? "")).join("\n"),
        );
      }
    }
  }
  return {
    model: String(body.model),
    system: typeof body.system === "string" ? body.system : "",
    texts,
    toolsOffered: Array.isArray(body.tools) && body.tools.length > 0,
  };
}

function openAiReply(
  model: string,
  reply: ScriptedReply,
  k: number,
  prompt: number,
  completion: number,
): Json {
  const message =
    reply.kind === "text"
      ? { role: "assistant", content: reply.text }
      : {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: `call_${k}`, type: "function", function: { name: reply.name, arguments: reply.arguments } },
          ],
        };
  return {
    id: `chatcmpl-${k}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message, finish_reason: reply.kind === "text" ? "stop" : "tool_calls" }],
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  };
}

function anthropicReply(
  model: string,
  reply: ScriptedReply,
  k: number,
  prompt: number,
  completion: number,
): Json {
  let input: unknown = {};
  if (reply.kind === "tool") {
    try {
      input = JSON.parse(reply.arguments);
    } catch {
      // The Messages API always sends an object; a malformed call shows up as wrong fields instead.
      input = { match_id: reply.arguments };
    }
  }
  const content =
    reply.kind === "text"
      ? [{ type: "text", text: reply.text }]
      : [{ type: "tool_use", id: `toolu_${k}`, name: reply.name, input }];
  return {
    id: `msg_${k}`,
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason: reply.kind === "text" ? "end_turn" : "tool_use",
    stop_sequence: null,
    usage: { input_tokens: prompt, output_tokens: completion },
  };
}
