import { loadCatalog } from "../domain/catalog.js";
import { logInfo } from "../log.js";
import { cacheDisabledByEnvironment } from "../mcp/analysis-call/result-cache.js";
import { AnalysisPool } from "../mcp/analysis-pool/worker-pool.js";
import { createServer } from "../mcp/create-server.js";
import { PreparedStdioTransport } from "../mcp/prepared-answer/stdio-transport.js";
import { stdioSizeGuard } from "../mcp/stdio-size-guard.js";
import { DEFAULT_TOOLSETS, parseToolsets } from "../mcp/toolsets.js";
import { isPostgresUrl } from "../store/engines/database-location.js";
import { canWriteRecord } from "../store/open-record.js";
import { Store } from "../store/store.js";
import { type Command, stringFlag } from "./command.js";
import { isMissingFile, recordName, resolveDatabasePath } from "./database-path.js";
import { exitWhenFlushed } from "./exit-when-flushed.js";
import { HTTP_SERVE_FLAGS, HTTP_SERVE_USAGE, refuseHttpFlagsWithoutHttp, serveHttp } from "./serve-http.js";

export const serveCommand: Command = {
  name: "serve",
  usage: `same-game serve [--db PATH] [--player NAME] [--toolsets play|studies|analysis|all] [--no-cache]\n       ${HTTP_SERVE_USAGE} [--no-cache]`,
  options: {
    db: { type: "string" },
    player: { type: "string" },
    toolsets: { type: "string" },
    // Analyses recompute on every call instead of answering an unchanged record from the cache.
    "no-cache": { type: "boolean" },
    ...HTTP_SERVE_FLAGS,
  },
  async run(args) {
    // A mistyped SAME_GAME_CACHE is refused before anything is served (exit 2, one line).
    cacheDisabledByEnvironment();
    if (args.values.http === true) return serveHttp(args);
    refuseHttpFlagsWithoutHttp(args);
    const toolsetsFlag = stringFlag(args, "toolsets");
    const toolsets = toolsetsFlag === undefined ? DEFAULT_TOOLSETS : parseToolsets(toolsetsFlag);
    const dbPath = resolveDatabasePath(stringFlag(args, "db"));
    // A record on read-only media, in a write-protected folder or in a read-only file is served read-only:
    // the analysis tools answer from it and nothing is written beside it; play is refused, one sentence.
    const readonly = !isMissingFile(dbPath) && !isPostgresUrl(dbPath) && !canWriteRecord(dbPath);
    const store = new Store(dbPath, { readonly });
    if (readonly) {
      logInfo(
        `the record ${dbPath} cannot be written here: serving it read-only (analysis answers; play and study registration are refused)`,
      );
    }
    const deps = { store, catalog: loadCatalog() };
    // Analyses run in worker threads, so a long one never delays this connection's protocol traffic.
    const analysis = toolsets.includes("analysis") ? new AnalysisPool(dbPath) : undefined;
    const server = createServer(deps, {
      transport: "stdio",
      player: stringFlag(args, "player") ?? null,
      toolsets,
      analysis,
      cache: args.values["no-cache"] !== true,
    });
    // Oversize lines are answered with an error here rather than closing the transport (and the server);
    // so are lines that are no JSON-RPC message, which the SDK's transport would drop without an answer.
    const stdin = process.stdin.pipe(
      stdioSizeGuard((reply, reason) => {
        logInfo(reason);
        if (reply !== undefined) process.stdout.write(reply);
      }),
    );
    const transport = new PreparedStdioTransport(stdin, process.stdout);
    // stdout carries JSON-RPC only; every word for a person goes to stderr.
    logInfo(`serving on stdio; toolsets: ${toolsets.join(", ")}; record: ${recordName(dbPath)}`);
    const shutdown = async () => {
      await server.close();
      await analysis?.close();
      store.close();
      process.exit(0);
    };
    process.once("SIGINT", shutdown);
    process.once("SIGTERM", shutdown);
    // The host closed stdin: the session is over. The process ends once what it wrote has gone out (or
    // after EXIT_FLUSH_MS), not when stderr's reader gets round to it: a pipe nobody reads would keep the
    // event loop waiting on its queued lines forever.
    transport.onclose = () => {
      store.close();
      void (analysis?.close() ?? Promise.resolve()).finally(() => exitWhenFlushed());
    };
    await server.connect(transport);
  },
};
