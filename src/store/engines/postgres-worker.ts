// The body of the thread that owns the PostgreSQL connection (see postgres-engine.ts for why a thread).
// It is started from its source text (`new Worker(code, { eval: true })`), so the same code runs from the
// TypeScript sources under the tests and from dist/ when installed: it must not use imports or anything
// outside this function, and gets the `pg` module's resolved path from the main thread.

import type { MessagePort } from "node:worker_threads";

/** A request from the main thread; `text` is SQL with $n parameters. */
export type WorkerRequest =
  | { op: "connect" }
  | { op: "query"; text: string; values: unknown[]; mode: "run" | "get" | "all" }
  | { op: "exec"; text: string }
  | { op: "begin"; text: string }
  | { op: "end"; text: "COMMIT" | "ROLLBACK" }
  | { op: "close" }
  /** Several requests in order (queued statements, then one that waits): the last one's result. */
  | { op: "batch"; requests: WorkerRequest[] };

/** A request as posted: `id` numbers it, so a reply is matched to the call that waits for it. */
export type NumberedRequest = WorkerRequest & { id: number };

export type WorkerReply = { id: number } & (
  | { ok: true; result: unknown }
  | { ok: false; error: { message: string; code?: string; detail?: string; constraint?: string } }
);

export interface WorkerData {
  port: MessagePort;
  /** Int32 slot 0: set to 1 by the worker once a reply is on the port. */
  signal: SharedArrayBuffer;
  pgPath: string;
  url: string;
  readonly: boolean;
}

export function postgresWorker(): void {
  const { workerData } = require("node:worker_threads");
  const { port, signal, pgPath, url, readonly } = workerData as WorkerData;
  const pg = require(pgPath);
  // count(*) and sum(integer) are bigint, sum(bigint) is numeric: the driver returns both as strings to be
  // safe beyond 2^53. The record's counts stay far below that, and SQLite gives JS numbers: parse them.
  pg.types.setTypeParser(20, (value: string) => Number.parseInt(value, 10));
  pg.types.setTypeParser(1700, (value: string) => Number.parseFloat(value));
  const flag = new Int32Array(signal);

  // biome-ignore lint/suspicious/noExplicitAny: the worker is untyped at run time (eval'd source)
  let client: any = null;
  let inTransaction = false;
  let prepared = new Map<string, string>();
  let named = 0;

  const lostError = () =>
    Object.assign(
      new Error("The connection to PostgreSQL was lost inside a transaction; it was rolled back."),
      {
        code: "08006",
      },
    );

  async function ready() {
    if (client !== null) return client;
    // A connection that died mid-transaction took the transaction with it (the server rolls it back): the
    // rest of that transaction must fail too, never run on a fresh connection as if nothing had happened.
    if (inTransaction) throw lostError();
    const fresh = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: 10_000,
      application_name: "same-game",
    });
    fresh.on("error", () => {
      if (client === fresh) client = null;
    });
    await fresh.connect();
    if (readonly) await fresh.query("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY");
    client = fresh;
    prepared = new Map();
    return client;
  }

  async function handle(request: WorkerRequest): Promise<unknown> {
    switch (request.op) {
      case "connect":
        await ready();
        return null;
      case "query": {
        const connection = await ready();
        // Named statements are parsed and planned once per connection, as better-sqlite3 prepares once.
        let name = prepared.get(request.text);
        if (name === undefined) {
          named += 1;
          name = `s${named}`;
          prepared.set(request.text, name);
        }
        try {
          const result = await connection.query({ name, text: request.text, values: request.values });
          if (request.mode === "run") return { changes: result.rowCount ?? 0 };
          return request.mode === "get" ? result.rows[0] : result.rows;
        } catch (error) {
          prepared.delete(request.text);
          throw error;
        }
      }
      case "exec":
        await (await ready()).query(request.text);
        return null;
      case "begin":
        await (await ready()).query(request.text);
        inTransaction = true;
        return null;
      case "end":
        try {
          if (client === null) {
            if (request.text === "ROLLBACK") return null;
            throw lostError();
          }
          await client.query(request.text);
          return null;
        } finally {
          inTransaction = false;
        }
      case "batch": {
        let result: unknown = null;
        for (const each of request.requests) result = await handle(each);
        return result;
      }
      case "close":
        if (client !== null) await client.end().catch(() => undefined);
        client = null;
        return null;
    }
  }

  port.on("message", async (request: NumberedRequest) => {
    let reply: WorkerReply;
    try {
      reply = { id: request.id, ok: true, result: await handle(request) };
    } catch (error) {
      const e = error as { message?: string; code?: string; detail?: string; constraint?: string };
      reply = {
        id: request.id,
        ok: false,
        error: {
          message: String(e.message ?? error),
          code: e.code,
          detail: e.detail,
          constraint: e.constraint,
        },
      };
    }
    // The reply goes on the port first, then the flag wakes the main thread, which reads it synchronously.
    port.postMessage(reply);
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
  });
}
