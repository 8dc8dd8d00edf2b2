// The body of the thread that owns the PostgreSQL connection (see postgres-engine.ts for why a thread).
// It is started from its source text (`new Worker(code, { eval: true })`), so the same code runs from the
// TypeScript sources under the tests and from dist/ when installed: it must not use imports or anything
// outside this function, and gets the `pg` module's resolved path from the main thread.

import type { MessagePort } from "node:worker_threads";

/**
 * A statement to run: `statement` numbers its SQL text (with $n parameters), which travels once, with the
 * statement's first request; later requests carry the number alone (see postgres-engine.ts).
 */
export type QueryRequest = {
  op: "query";
  statement: number;
  text?: string;
  values: unknown[];
  mode: "run" | "get" | "all";
};

export type WorkerRequest =
  | { op: "connect" }
  | QueryRequest
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
  /** The SQL text of each statement number the main thread has sent. */
  const texts = new Map<number, string>();
  /** The name of each statement prepared on the current connection. */
  let prepared = new Map<number, string>();
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
      // A batch's statements go out together and are answered in order (see pipelined).
      pipeline: true,
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

  // biome-ignore lint/suspicious/noExplicitAny: the driver's client (see above)
  async function query(connection: any, request: QueryRequest): Promise<unknown> {
    // Named statements are parsed and planned once per connection, as better-sqlite3 prepares once.
    const text = texts.get(request.statement);
    let name = prepared.get(request.statement);
    if (name === undefined) {
      named += 1;
      name = `s${named}`;
      prepared.set(request.statement, name);
    }
    try {
      const result = await connection.query({ name, text, values: request.values });
      if (request.mode === "run") return { changes: result.rowCount ?? 0 };
      return request.mode === "get" ? result.rows[0] : result.rows;
    } catch (error) {
      prepared.delete(request.statement);
      throw error;
    }
  }

  async function end(text: "COMMIT" | "ROLLBACK"): Promise<null> {
    try {
      if (client === null) {
        if (text === "ROLLBACK") return null;
        throw lostError();
      }
      await client.query(text);
      return null;
    } finally {
      inTransaction = false;
    }
  }

  /**
   * A batch in one round trip: every statement is written to the socket at once (the client runs in
   * pipeline mode, each statement with its own Sync) and the answers are read as they come. The batch is
   * always part of one transaction (it starts with the queued BEGIN or runs inside one), so a statement that
   * fails aborts the transaction and every later one fails with it or, a COMMIT, ends it rolled back: the
   * outcome equals stopping at the first failure, whose error is the batch's.
   */
  async function pipelined(requests: WorkerRequest[]): Promise<unknown> {
    const connection = await ready();
    const answers: Promise<unknown>[] = [];
    connection.connection.stream.cork();
    try {
      for (const each of requests) {
        if (each.op === "query") answers.push(query(connection, each));
        else if (each.op === "end") answers.push(end(each.text));
        else if (each.op === "begin" || each.op === "exec") {
          if (each.op === "begin") inTransaction = true;
          answers.push(connection.query(each.text).then(() => null));
        } else answers.push(handle(each));
      }
    } finally {
      connection.connection.stream.uncork();
    }
    const settled = await Promise.allSettled(answers);
    for (const each of settled) if (each.status === "rejected") throw each.reason;
    const last = settled.at(-1);
    return last?.status === "fulfilled" ? last.value : null;
  }

  async function handle(request: WorkerRequest): Promise<unknown> {
    switch (request.op) {
      case "connect":
        await ready();
        return null;
      case "query":
        return query(await ready(), request);
      case "exec":
        await (await ready()).query(request.text);
        return null;
      case "begin":
        await (await ready()).query(request.text);
        inTransaction = true;
        return null;
      case "end":
        return end(request.text);
      case "batch":
        return pipelined(request.requests);
      case "close":
        if (client !== null) await client.end().catch(() => undefined);
        client = null;
        return null;
    }
  }

  /** Keeps the SQL texts a request brings, before anything can fail: later requests name them by number. */
  function learn(request: WorkerRequest): void {
    if (request.op === "query" && request.text !== undefined) texts.set(request.statement, request.text);
    else if (request.op === "batch") for (const each of request.requests) learn(each);
  }

  port.on("message", async (request: NumberedRequest) => {
    let reply: WorkerReply;
    learn(request);
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
