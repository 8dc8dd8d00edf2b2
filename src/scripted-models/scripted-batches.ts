import type { IncomingMessage } from "node:http";
import { scriptedBatchAnswer } from "./scripted-endpoint.js";

// The batch APIs of the scripted endpoint, on the same loopback server: OpenAI's Batch API (POST /v1/files
// with purpose "batch", POST /v1/batches, GET /v1/batches/{id}, GET /v1/files/{id}/content) and
// Anthropic's Message Batches (POST /v1/messages/batches, GET /v1/messages/batches/{id} and its
// results_url). A batch stays in flight for `batchMs`, then every request in it is answered by the same
// reference agent as a direct call — unless a fault says the batch expires half done, or its results come
// back in another order than they were sent, or with a result for an id no request had.

export interface ScriptedBatchFaults {
  /** Every n-th batch created ends expired with only the first half of its requests answered. */
  readonly expireHalfEvery?: number;
  /** Results are returned in the reverse of the order the requests were sent. */
  readonly outOfOrder?: boolean;
  /** Every result file also carries one result for a custom_id that no request had. */
  readonly strayResult?: boolean;
}

export interface ScriptedBatchOptions {
  /** How long a batch stays in flight before it ends. */
  readonly batchMs?: number;
  readonly faults?: ScriptedBatchFaults;
}

/** A call to a batch API, kept for tests to count (a batch created twice is paid for twice). */
export interface BatchCall {
  readonly api: "openai" | "anthropic";
  readonly kind: "upload" | "create" | "status" | "results";
  /** The batch (or file) the call was about; for a create, the new batch and the number of requests. */
  readonly id: string;
  readonly requests?: number;
}

type Json = Record<string, unknown>;

interface ScriptedBatch {
  readonly id: string;
  readonly api: "openai" | "anthropic";
  readonly lines: readonly { custom_id: string; body: Json }[];
  readonly createdAt: number;
  readonly expiresHalf: boolean;
  readonly json: Json;
}

const ANTHROPIC_CUSTOM_ID = /^[a-zA-Z0-9_-]{1,64}$/;

export class ScriptedBatches {
  readonly calls: BatchCall[] = [];
  private readonly files = new Map<string, string>();
  private readonly batches = new Map<string, ScriptedBatch>();
  private created = 0;

  constructor(
    private readonly options: ScriptedBatchOptions,
    private readonly origin: () => string,
  ) {}

  /** Answers a batch API request; null when the path is not one of the batch APIs. */
  async handle(
    req: IncomingMessage,
    readBody: () => Promise<string>,
  ): Promise<{ status: number; body: unknown; text?: string } | null> {
    const path = (req.url ?? "").split("?")[0] as string;
    const method = req.method ?? "GET";
    if (method === "POST" && path === "/v1/files") return this.upload(req, await readBody());
    if (method === "POST" && path === "/v1/batches")
      return this.createOpenAi(JSON.parse(await readBody()) as Json);
    if (method === "POST" && path === "/v1/messages/batches") {
      return this.createAnthropic(JSON.parse(await readBody()) as Json);
    }
    let match = /^\/v1\/files\/([^/]+)\/content$/.exec(path);
    if (method === "GET" && match) {
      const text = this.files.get(match[1] as string);
      this.calls.push({ api: "openai", kind: "results", id: match[1] as string });
      return text === undefined ? notFound() : { status: 200, body: null, text };
    }
    match = /^\/v1\/batches\/([^/]+)$/.exec(path);
    if (method === "GET" && match) return this.status("openai", match[1] as string);
    match = /^\/v1\/messages\/batches\/([^/]+)$/.exec(path);
    if (method === "GET" && match) return this.status("anthropic", match[1] as string);
    match = /^\/v1\/messages\/batches\/([^/]+)\/results$/.exec(path);
    if (method === "GET" && match) return this.anthropicResults(match[1] as string);
    return null;
  }

  /** A multipart upload of a JSONL file (the `file` part), as the OpenAI client sends it. */
  private upload(req: IncomingMessage, raw: string) {
    const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(String(req.headers["content-type"] ?? ""));
    const marker = `--${boundary?.[1] ?? boundary?.[2] ?? ""}`;
    const parts = raw.split(marker);
    const filePart = parts.find((part) => /name="file"/.test(part));
    const purposePart = parts.find((part) => /name="purpose"/.test(part));
    const content = (part: string) => part.slice(part.indexOf("\r\n\r\n") + 4).replace(/\r\n$/, "");
    if (!filePart || !purposePart || content(purposePart) !== "batch") {
      return { status: 400, body: { error: { message: 'an upload needs a file and purpose "batch"' } } };
    }
    const id = `file-${this.files.size + 1}`;
    const text = content(filePart);
    this.files.set(id, text);
    this.calls.push({ api: "openai", kind: "upload", id });
    return {
      status: 200,
      body: {
        id,
        object: "file",
        bytes: Buffer.byteLength(text),
        created_at: now(),
        filename: "batch.jsonl",
        purpose: "batch",
        status: "processed",
      },
    };
  }

  private createOpenAi(body: Json) {
    const text = this.files.get(String(body.input_file_id));
    if (text === undefined)
      return { status: 400, body: { error: { message: `no file ${String(body.input_file_id)}` } } };
    if (body.endpoint !== "/v1/chat/completions" || body.completion_window !== "24h") {
      return {
        status: 400,
        body: { error: { message: "endpoint must be /v1/chat/completions, completion_window 24h" } },
      };
    }
    const lines = text
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as { custom_id: string; url: string; body: Json });
    if (lines.some((line) => line.url !== "/v1/chat/completions")) {
      return { status: 400, body: { error: { message: "every line's url must be /v1/chat/completions" } } };
    }
    const id = `batch_${++this.created}`;
    const json: Json = {
      id,
      object: "batch",
      endpoint: body.endpoint,
      errors: null,
      input_file_id: body.input_file_id,
      completion_window: "24h",
      created_at: now(),
    };
    return this.create("openai", id, lines, json);
  }

  private createAnthropic(body: Json) {
    const requests = (body.requests ?? []) as { custom_id: string; params: Json }[];
    const bad = requests.find((r) => !ANTHROPIC_CUSTOM_ID.test(String(r.custom_id)));
    if (requests.length === 0 || bad) {
      return {
        status: 400,
        body: {
          type: "error",
          error: { type: "invalid_request_error", message: `custom_id must match ${ANTHROPIC_CUSTOM_ID}` },
        },
      };
    }
    const id = `msgbatch_${++this.created}`;
    const json: Json = {
      id,
      type: "message_batch",
      created_at: new Date().toISOString(),
      cancel_initiated_at: null,
      archived_at: null,
    };
    return this.create(
      "anthropic",
      id,
      requests.map((r) => ({ custom_id: r.custom_id, body: r.params })),
      json,
    );
  }

  private create(api: "openai" | "anthropic", id: string, lines: ScriptedBatch["lines"], json: Json) {
    const every = this.options.faults?.expireHalfEvery;
    const expiresHalf = every !== undefined && every > 0 && this.created % every === 0;
    const batch: ScriptedBatch = { id, api, lines, createdAt: Date.now(), expiresHalf, json };
    this.batches.set(id, batch);
    this.calls.push({ api, kind: "create", id, requests: lines.length });
    return { status: 200, body: this.view(batch) };
  }

  private ended(batch: ScriptedBatch): boolean {
    return Date.now() - batch.createdAt >= (this.options.batchMs ?? 300);
  }

  /** The lines answered: all of them, or the first half of a batch that expires half done. */
  private answered(batch: ScriptedBatch): number {
    return batch.expiresHalf ? Math.floor(batch.lines.length / 2) : batch.lines.length;
  }

  private status(api: "openai" | "anthropic", id: string) {
    const batch = this.batches.get(id);
    this.calls.push({ api, kind: "status", id });
    return batch && batch.api === api ? { status: 200, body: this.view(batch) } : notFound();
  }

  private view(batch: ScriptedBatch): Json {
    const ended = this.ended(batch);
    const done = ended ? this.answered(batch) : 0;
    const missed = ended ? batch.lines.length - done : 0;
    if (batch.api === "anthropic") {
      return {
        ...batch.json,
        processing_status: ended ? "ended" : "in_progress",
        request_counts: {
          processing: ended ? 0 : batch.lines.length,
          succeeded: done,
          errored: 0,
          canceled: 0,
          expired: missed,
        },
        ended_at: ended ? new Date().toISOString() : null,
        expires_at: new Date(batch.createdAt + 86_400_000).toISOString(),
        results_url: ended ? `${this.origin()}/v1/messages/batches/${batch.id}/results` : null,
      };
    }
    if (ended && !this.files.has(`${batch.id}-output`)) this.writeOpenAiFiles(batch);
    return {
      ...batch.json,
      status: ended ? (batch.expiresHalf ? "expired" : "completed") : "in_progress",
      output_file_id: ended ? `${batch.id}-output` : null,
      error_file_id: ended && missed > 0 ? `${batch.id}-errors` : null,
      request_counts: { total: batch.lines.length, completed: done, failed: 0 },
    };
  }

  /** The lines in the order the results are returned: as sent, or reversed (out of order). */
  private ordered<T>(lines: readonly T[]): T[] {
    return this.options.faults?.outOfOrder ? [...lines].reverse() : [...lines];
  }

  private writeOpenAiFiles(batch: ScriptedBatch): void {
    const done = this.answered(batch);
    const output = batch.lines.slice(0, done).map((line, i) => ({
      id: `batch_req_${i}`,
      custom_id: line.custom_id,
      response: {
        status_code: 200,
        request_id: `req_${i}`,
        body: scriptedBatchAnswer("openai", line.custom_id, line.body),
      },
      error: null,
    }));
    if (this.options.faults?.strayResult) {
      output.push({
        ...(output[0] ?? {
          id: "batch_req_x",
          response: { status_code: 200, request_id: "req_x", body: {} },
          error: null,
        }),
        custom_id: "not-a-request-of-this-batch",
      });
    }
    const errors = batch.lines.slice(done).map((line, i) => ({
      id: `batch_req_e${i}`,
      custom_id: line.custom_id,
      response: null,
      error: {
        code: "batch_expired",
        message: "This request could not be executed before the completion window expired.",
      },
    }));
    this.files.set(`${batch.id}-output`, jsonl(this.ordered(output)));
    if (errors.length > 0) this.files.set(`${batch.id}-errors`, jsonl(this.ordered(errors)));
  }

  private anthropicResults(id: string) {
    const batch = this.batches.get(id);
    this.calls.push({ api: "anthropic", kind: "results", id });
    if (batch?.api !== "anthropic" || !this.ended(batch)) return notFound();
    const done = this.answered(batch);
    const results: Json[] = batch.lines.map((line, i) => ({
      custom_id: line.custom_id,
      result:
        i < done
          ? { type: "succeeded", message: scriptedBatchAnswer("anthropic", line.custom_id, line.body) }
          : { type: "expired" },
    }));
    if (this.options.faults?.strayResult) {
      results.push({
        custom_id: "not-a-request-of-this-batch",
        result: {
          type: "errored",
          error: { type: "error", error: { type: "invalid_request_error", message: "stray" } },
        },
      });
    }
    return { status: 200, body: null, text: jsonl(this.ordered(results)) };
  }
}

function jsonl(lines: readonly unknown[]): string {
  return `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`;
}

function now(): number {
  return Math.floor(Date.now() / 1000);
}

function notFound() {
  return { status: 404, body: { error: { type: "not_found_error", message: "no such batch or file" } } };
}
