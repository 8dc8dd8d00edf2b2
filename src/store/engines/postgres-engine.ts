import { createRequire } from "node:module";
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from "node:worker_threads";
import { DatabaseOutage } from "./database-outage.js";
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from "./database-unavailable.js";
import type { Engine, Statement } from "./engine.js";
import { postgresWorker, type WorkerReply, type WorkerRequest } from "./postgres-worker.js";
import { type NumberedSql, numberParameters, orderValues } from "./sql-params.js";

// Why a thread: every caller of the Store is synchronous (the play loop runs one tool call as one
// transaction in one synchronous function; queries, CLI verbs and tests read it the same way), and every
// PostgreSQL driver is asynchronous. Rather than turning ~80 call sites async, the connection lives in a
// worker thread and the main thread waits for each statement: it posts the statement on a MessagePort and
// sleeps on a shared flag (Atomics.wait) until the worker has put the reply on the port, then takes the
// reply with receiveMessageOnPort, without a turn of the event loop. A process thus executes one statement
// at a time, exactly as it does with SQLite; a service grows by adding processes (stateless replicas), and
// the database's transactions and constraints keep them consistent with each other.
//
// Each wait costs both threads a wake-up and the reply a copy, so statements nobody waits on travel
// together: a transaction's BEGIN, the writes whose changed-row count is not read (Statement.defer) and
// savepoints queue up and go out with the next statement that waits for an answer, at the latest the COMMIT.
// One decision is then a handful of hops, not one per statement; the worker writes a hop's statements to
// the socket together (the driver's pipeline mode), so a hop is also one round trip to the server. A
// statement's SQL text crosses to the worker once; later requests name it by number.

/** A statement PostgreSQL refused, with its SQLSTATE (23505 unique_violation, 40001 serialization_failure, …). */
export class PostgresError extends Error {
  override readonly name = "PostgresError";
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly detail?: string,
    readonly constraint?: string,
  ) {
    super(message);
  }
}

/** SERIALIZABLE conflicts and deadlocks: the transaction did nothing and is run again from the start. */
const RETRYABLE = new Set(["40001", "40P01"]);
const MAX_TRIES = 30;
/** The longest one statement may take before the main thread gives up on the worker. */
const REPLY_TIMEOUT_MS = 10 * 60_000;

export class PostgresEngine implements Engine {
  readonly kind = "postgres" as const;
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly flag: Int32Array;
  /** A flag no one raises: waiting on it is a nap of a set length (see awaitReply). Made once, not per call. */
  private readonly nap = new Int32Array(new SharedArrayBuffer(4));
  private depth = 0;
  private closed = false;
  /** The number of the last request posted (see call). */
  private requests = 0;
  /** Set once the first connection is made: from then on a lost database is a passing outage. */
  private connected = false;
  /** Logs a mid-service outage once when it starts and once when it ends. */
  private readonly outage = new DatabaseOutage();
  /** Statements of the open transaction not sent yet: they go first with the next call (see call). */
  private pending: WorkerRequest[] = [];
  /** The SQL text of each prepared statement, by number; a text crosses to the worker once (see withText). */
  private readonly texts: string[] = [];
  private readonly numbers = new Map<string, number>();
  /** The statement numbers whose text the worker has been sent. */
  private readonly textsSent = new Set<number>();

  /** Connects (throwing a PostgresError when the server cannot be reached or refuses the login). */
  constructor(url: string, options: { readonly: boolean }) {
    const signal = new SharedArrayBuffer(4);
    this.flag = new Int32Array(signal);
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    const pgPath = createRequire(import.meta.url).resolve("pg");
    // In a bundle (scripts/build-bundles.mjs) esbuild spells the function's require() calls __require().
    this.worker = new Worker(`const __require = require;\n(${postgresWorker.toString()})()`, {
      eval: true,
      workerData: { port: port2, signal, pgPath, url, readonly: options.readonly },
      transferList: [port2],
    });
    // The worker never keeps a process alive on its own: close() ends it, and exit ends it regardless.
    this.worker.unref();
    try {
      this.call({ op: "connect" });
      this.connected = true;
    } catch (error) {
      this.stop();
      throw error;
    }
  }

  private call(request: WorkerRequest): unknown {
    if (this.closed) throw new Error("The PostgreSQL record is closed.");
    this.requests += 1;
    const id = this.requests;
    Atomics.store(this.flag, 0, 0);
    if (this.pending.length > 0) {
      // The queued statements run first, in order; the first that fails fails the batch with its error.
      const requests = [...this.pending, request];
      for (const each of requests) this.withText(each);
      this.port.postMessage({ op: "batch", requests, id });
      this.pending = [];
    } else this.port.postMessage({ ...this.withText(request), id });
    const deadline = performance.now() + REPLY_TIMEOUT_MS;
    if (Atomics.wait(this.flag, 0, 0, REPLY_TIMEOUT_MS) === "timed-out") {
      throw new PostgresError(`PostgreSQL did not answer within ${REPLY_TIMEOUT_MS / 1000} s.`, "57014");
    }
    const reply = this.awaitReply(id, deadline);
    if (!reply.ok) {
      const { message, code, detail, constraint } = reply.error;
      const error = new PostgresError(message, code, detail, constraint);
      // Mid-service, an unreachable or restarting database is said in one sentence wherever the error
      // surfaces (a tool result, a resource read, an HTTP answer); the driver's words go to the log only.
      if (this.connected && isDatabaseUnavailable(error)) {
        this.outage.failed(message);
        throw new PostgresError(DATABASE_UNAVAILABLE_MESSAGE, code, message);
      }
      throw error;
    }
    // A ROLLBACK with no connection is answered by the worker itself: it says nothing of the database.
    if (!(request.op === "end" && request.text === "ROLLBACK") && request.op !== "close")
      this.outage.answered();
    return reply.result;
  }

  /**
   * Adds a statement's SQL text to the first request of it that goes out: the worker keeps the text by
   * number, so each later request copies across the thread a number and its values, not its SQL.
   */
  private withText(request: WorkerRequest): WorkerRequest {
    if (request.op === "query" && !this.textsSent.has(request.statement)) {
      request.text = this.texts[request.statement];
      this.textsSent.add(request.statement);
    }
    return request;
  }

  /**
   * Takes the reply to request `id` off the port. Seen under heavy load: the flag can wake the main thread
   * a moment before the posted reply is visible to receiveMessageOnPort, so an empty port is polled again
   * (1 ms naps) rather than taken for a lost reply; and a late reply to a call that timed out earlier is
   * dropped, never handed to the wrong call.
   */
  private awaitReply(id: number, deadline: number): WorkerReply {
    const nap = this.nap;
    for (;;) {
      const reply = receiveMessageOnPort(this.port)?.message as WorkerReply | undefined;
      if (reply !== undefined && reply.id === id) return reply;
      if (reply !== undefined) continue;
      if (performance.now() > deadline) {
        throw new PostgresError(`PostgreSQL did not answer within ${REPLY_TIMEOUT_MS / 1000} s.`, "57014");
      }
      Atomics.wait(nap, 0, 0, 1);
    }
  }

  prepare(sql: string): Statement {
    const numbered: NumberedSql = numberParameters(sql);
    // One number per distinct text, however often it is prepared: the worker prepares it once per connection.
    let statement = this.numbers.get(numbered.text);
    if (statement === undefined) {
      statement = this.texts.push(numbered.text) - 1;
      this.numbers.set(numbered.text, statement);
    }
    const request = (mode: "run" | "get" | "all", params: unknown[]): WorkerRequest => ({
      op: "query",
      statement,
      values: orderValues(numbered, params),
      mode,
    });
    return {
      run: (...params) => this.call(request("run", params)) as { changes: number },
      get: (...params) => this.call(request("get", params)),
      all: (...params) => this.call(request("all", params)) as unknown[],
      defer: (...params) => {
        if (this.depth === 0) this.call(request("run", params));
        else this.pending.push(request("run", params));
      },
    };
  }

  exec(sql: string): void {
    this.call({ op: "exec", text: sql });
  }

  /**
   * One SERIALIZABLE transaction: PostgreSQL guarantees the outcome of concurrent transactions (other
   * replicas) equals some serial order, which is what SQLite's one writer at a time gives a single server.
   * A transaction PostgreSQL aborts for a conflict (40001) or deadlock (40P01) wrote nothing and is run
   * again from the start, so `work` must touch nothing but the record (every caller's work is that).
   * Nested calls are savepoints, as in better-sqlite3.
   */
  transaction<T>(work: () => T): T {
    if (this.depth > 0) return this.savepoint(work);
    for (let attempt = 1; ; attempt += 1) {
      // Sent with the transaction's first statement that waits for an answer.
      this.pending.push({ op: "begin", text: "BEGIN ISOLATION LEVEL SERIALIZABLE" });
      this.depth = 1;
      try {
        const result = work();
        this.call({ op: "end", text: "COMMIT" });
        return result;
      } catch (error) {
        // Unsent statements are dropped; a transaction whose BEGIN never went out has nothing to roll back.
        const begun = this.pending[0]?.op !== "begin";
        this.pending = [];
        try {
          if (begun) this.call({ op: "end", text: "ROLLBACK" });
        } catch {
          // The connection is gone: the server has rolled the transaction back already.
        }
        if (!(error instanceof PostgresError && RETRYABLE.has(error.code ?? "") && attempt < MAX_TRIES)) {
          throw error;
        }
        // A short random pause so two replicas that collided do not collide again in lockstep.
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.random() * 2 * attempt);
      } finally {
        this.depth = 0;
      }
    }
  }

  private savepoint<T>(work: () => T): T {
    const name = `sp${this.depth}`;
    const queuedAt = this.pending.length;
    this.pending.push({ op: "exec", text: `SAVEPOINT ${name}` });
    this.depth += 1;
    try {
      const result = work();
      // Waited for: a queued statement of this savepoint that fails must fail it here, where its caller
      // can catch the failure with only the savepoint undone.
      this.call({ op: "exec", text: `RELEASE SAVEPOINT ${name}` });
      return result;
    } catch (error) {
      // What was queued inside the savepoint is dropped unsent; when the SAVEPOINT itself was still queued,
      // nothing of it reached the server and there is nothing to undo.
      const queued = this.pending[queuedAt];
      const sent = !(queued?.op === "exec" && queued.text === `SAVEPOINT ${name}`);
      this.pending = sent ? [] : this.pending.slice(0, queuedAt);
      // A conflict aborts the whole transaction (the outermost call retries it); anything else undoes only
      // this savepoint, and a lost connection has undone everything already.
      if (sent && !(error instanceof PostgresError && RETRYABLE.has(error.code ?? ""))) {
        try {
          this.call({ op: "exec", text: `ROLLBACK TO SAVEPOINT ${name}` });
        } catch {
          // Nothing left to undo on this connection.
        }
      }
      throw error;
    } finally {
      this.depth -= 1;
    }
  }

  close(): void {
    if (this.closed) return;
    try {
      this.call({ op: "close" });
    } finally {
      this.stop();
    }
  }

  private stop(): void {
    this.closed = true;
    this.port.close();
    void this.worker.terminate();
  }
}
