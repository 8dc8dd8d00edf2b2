import { readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { MODEL_CALLS_META_KEY, type ModelCall } from "../domain/model-call.js";
import { OutsideFailure } from "../outside-failure.js";
import { packageRoot } from "../package-root.js";
import { isPostgresUrl } from "../store/engines/database-location.js";
import { isPassingRecordRefusal } from "../store/engines/passing-record-refusal.js";
import { UsageError } from "../usage-error.js";
import { endpointWords, redact, type ToolSpec } from "./endpoint.js";
import { DEFAULT_RETRY, type RetryPolicy } from "./retry.js";
import { fetchWaitingOnBusyServer, type ServerWaitListener } from "./server-busy-retry.js";

/** Where the runner's MCP server is: a `same-game serve` it spawns over stdio, or a Streamable HTTP URL. */
export type ServerTarget =
  | {
      readonly kind: "stdio";
      readonly dbPath: string;
      /** The user's catalog folder the run was given (`--catalog`), which the record's games may need. */
      readonly catalog?: string;
      readonly cliPath?: string;
    }
  | { readonly kind: "http"; readonly url: string; readonly token?: string };

/**
 * The only tools the model is ever shown, by name, with the description and schema the server lists.
 * The runner itself calls next_trial (and join_match for a second seat) so assignment stays the
 * server's, and no other tool's name or description reaches the model.
 */
export const MODEL_TOOLS = ["submit_move", "get_match"] as const;

const RUNNER_VERSION: string = (
  JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version: string }
).version;

/** The variables of the runner's environment its spawned server also reads (never a key). */
const PASSED_ON_ENVIRONMENT = ["SAME_GAME_CERT_CACHE", "XDG_CACHE_HOME"] as const;

function passedOn(env: NodeJS.ProcessEnv, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.flatMap((name) => (env[name] === undefined ? [] : [[name, env[name]]])));
}

export type Structured = Record<string, unknown>;

export interface ToolAnswer {
  readonly isError: boolean;
  readonly text: string;
  readonly structured: Structured | null;
}

/** How the runner waits out the server's busy answers and passing refusals of the record. */
interface BusyWaits {
  retry: RetryPolicy;
  onWait: ServerWaitListener;
  signal?: AbortSignal;
}

/**
 * Whether a request failed because the HTTP server no longer knows the session: 404 with the protocol's
 * "session not found" (-32001). The server expired it (no request for its --idle-timeout: the runner's
 * machine slept, or a model took longer than that to answer) or it was ended; nothing of the request was
 * processed, so the request may be sent again in a new session.
 */
export function isSessionGone(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  const message = error instanceof Error ? error.message : "";
  return status === 404 && /-32001|Session not found/.test(message);
}

/**
 * One MCP connection of the runner: one seat (player label), one server session. Over HTTP a session the
 * server expired is replaced by a new one, once per request, and the request is sent again in it: the
 * runner passes what it holds (`held`, the match ids) with every call, so nothing of a trial lived in the
 * old session.
 */
export class ServerConnection {
  private constructor(
    private client: Client,
    readonly player: string,
    private readonly busy: BusyWaits,
    private readonly reopen: (() => Promise<Client>) | null,
    /**
     * The bearer token sent with every request (HTTP): whatever the server answers passes through here
     * with it replaced, since a server (or a proxy before it) may quote the Authorization header it was
     * sent, and the runner prints the answers of failed calls to a terminal and a CI log.
     */
    private readonly token?: string,
    /** How errors name the server: "the MCP server at --server URL", or the server the run started. */
    private readonly where = "the same-game server this run started",
  ) {}

  static async open(
    target: ServerTarget,
    player: string,
    /** Over HTTP: how long and how often to wait when the server says it is busy (429/503 + Retry-After). */
    busy: BusyWaits = {
      retry: DEFAULT_RETRY,
      onWait: () => {},
    },
  ): Promise<ServerConnection> {
    if (target.kind === "http") {
      const connect = () => ServerConnection.connectHttp(target, busy);
      return new ServerConnection(
        await connect(),
        player,
        busy,
        connect,
        target.token,
        `the MCP server at --server ${target.url}`,
      );
    }
    const client = new Client({ name: "same-game-runner", version: RUNNER_VERSION });
    const cliPath = target.cliPath ?? join(packageRoot(), "dist", "cli", "main.js");
    // The spawned server gets the SDK's reduced environment: no API key reaches it. What shapes the
    // record it writes is passed on by name: the run's catalog (a study of the user's games is unknown
    // to a server without it) and where certified catalogs are remembered (or that they are not).
    const catalog = target.catalog === undefined ? [] : ["--catalog", target.catalog];
    // A process's arguments are readable by every local user (ps, /proc/PID/cmdline), its environment
    // only by its owner: a PostgreSQL URL, which may hold a password, goes to the server as SAME_GAME_DB.
    const record: { args: string[]; env: Record<string, string> } = isPostgresUrl(target.dbPath)
      ? { args: [], env: { SAME_GAME_DB: target.dbPath } }
      : { args: ["--db", target.dbPath], env: {} };
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [cliPath, "serve", ...record.args, "--player", player, ...catalog],
        env: { ...getDefaultEnvironment(), ...passedOn(process.env, PASSED_ON_ENVIRONMENT), ...record.env },
        stderr: "ignore",
      }),
    );
    return new ServerConnection(client, player, busy, null);
  }

  /** A client with a new session at the HTTP server, or a UsageError saying why there is none. */
  private static async connectHttp(
    target: Extract<ServerTarget, { kind: "http" }>,
    busy: BusyWaits,
  ): Promise<Client> {
    const client = new Client({ name: "same-game-runner", version: RUNNER_VERSION });
    const headers: Record<string, string> = target.token ? { authorization: `Bearer ${target.token}` } : {};
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(target.url), {
          requestInit: { headers },
          fetch: fetchWaitingOnBusyServer(busy.retry, busy.onWait, busy.signal),
        }),
      );
    } catch (error) {
      // The SDK's message quotes the server's answer, which is the server's to write: one that echoes
      // the Authorization header it was sent would put the token on the operator's terminal (and a CI
      // log), as an endpoint that echoes an API key would.
      const reason = endpointWords(error instanceof Error ? error.message : String(error), target.token);
      throw new UsageError(`cannot open an MCP session at --server ${target.url}: ${reason}`);
    }
    return client;
  }

  /**
   * Runs `request` (`what` it asks, for errors) with this connection's client; when the server says the
   * session is gone, once more in a new session (the old client is let go without a DELETE: there is
   * nothing left to end). A request the server fails is an `OutsideFailure` naming the server, the request
   * and the server's answer, without the token.
   */
  private async inSession<T>(what: string, request: (client: Client) => Promise<T>): Promise<T> {
    try {
      return await request(this.client);
    } catch (error) {
      if (this.reopen === null || !isSessionGone(error)) throw this.failure(what, error);
      const gone = this.client;
      this.client = await this.reopen();
      void gone.close().catch(() => {});
      return request(this.client).catch((again: unknown) => {
        throw this.failure(what, again);
      });
    }
  }

  /**
   * What the runner's user is told when the server fails a request (an HTTP error status, a connection
   * that closed, a JSON-RPC error): one line naming the server, the request and its answer. The record
   * keeps what the server recorded, so the same command goes on from there. A run being stopped (its
   * waits aborted) keeps its own error.
   */
  private failure(what: string, error: unknown): unknown {
    if (!(error instanceof Error) || error.name === "AbortError" || this.busy.signal?.aborted) {
      return this.withoutToken(error);
    }
    const status = (error as { status?: unknown }).status;
    const answer = typeof status === "number" ? `HTTP ${status}: ${error.message}` : error.message;
    const cause = (error as { cause?: unknown }).cause;
    const why = cause instanceof Error && cause.message !== error.message ? ` (${cause.message})` : "";
    return new OutsideFailure(
      `${this.where} failed ${what}: ${endpointWords(answer + why, this.token)}; the record keeps what it recorded, and the same command goes on from there.`,
    );
  }

  /** The error with the token replaced in its message (the same error when the message has none). */
  private withoutToken(error: unknown): unknown {
    if (!this.token || !(error instanceof Error) || !error.message.includes(this.token)) return error;
    const cleaned = new Error(redact(error.message, this.token));
    cleaned.name = error.name;
    const { status, code } = error as { status?: unknown; code?: unknown };
    return Object.assign(cleaned, { status, code });
  }

  /** The whitelisted play tools as the server lists them; the run cannot go on without submit_move. */
  async modelTools(): Promise<ToolSpec[]> {
    const { tools } = await this.inSession("tools/list", (client) => client.listTools());
    const offered = tools.filter((t) => (MODEL_TOOLS as readonly string[]).includes(t.name));
    if (!offered.some((t) => t.name === "submit_move")) {
      throw new Error("The server lists no submit_move tool; is this a same-game server?");
    }
    return offered.map((t) => ({
      name: t.name,
      description: t.description ?? "",
      inputSchema: t.inputSchema as Record<string, unknown>,
    }));
  }

  /**
   * Calls a tool; `modelCalls` travel in the request `_meta` for the server to record beside the reply. A
   * call the record refused for a passing reason (a full disk, another process's lock, a database
   * restarting: nothing of it was recorded) is made again after a wait, as a busy server's is, so a
   * passing fault neither ends the run nor loses the model calls the call carries.
   */
  async call(name: string, args: Structured, modelCalls: readonly ModelCall[] = []): Promise<ToolAnswer> {
    for (let retry = 0; ; retry++) {
      const answer = await this.callOnce(name, args, modelCalls);
      if (!answer.isError || !isPassingRecordRefusal(answer.text) || retry >= this.busy.retry.retries) {
        return answer;
      }
      const delay = Math.min(this.busy.retry.baseDelayMs * 2 ** retry, this.busy.retry.maxDelayMs);
      this.busy.onWait(503, delay);
      await sleep(delay, undefined, this.busy.signal ? { signal: this.busy.signal } : undefined);
    }
  }

  private async callOnce(
    name: string,
    args: Structured,
    modelCalls: readonly ModelCall[],
  ): Promise<ToolAnswer> {
    const result = await this.inSession(`tools/call ${name}`, (client) =>
      client.callTool({
        name,
        arguments: args,
        ...(modelCalls.length > 0 ? { _meta: { [MODEL_CALLS_META_KEY]: modelCalls } } : {}),
      }),
    );
    const text = redact(
      ((result.content ?? []) as { type: string; text?: string }[]).map((c) => c.text ?? "").join("\n"),
      this.token,
    );
    return {
      isError: result.isError === true,
      text,
      structured: (result.structuredContent as Structured | undefined) ?? null,
    };
  }

  /**
   * A call the runner makes for itself: an error result (an unknown study, say) is the user's to fix, a
   * UsageError with the server's words.
   */
  async require(name: string, args: Structured): Promise<Structured> {
    const answer = await this.call(name, args);
    if (answer.isError || answer.structured === null) throw new UsageError(`${name}: ${answer.text}`);
    return answer.structured;
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
