import { randomUUID } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/server";
import { type Caller, SERVER_NAME } from "../play/caller.js";
import { cleanClientInfo } from "../play/client-identity.js";
import type { PlayDeps } from "../play/play-deps.js";
import { SERVER_VERSION } from "../server-version.js";
import { analysisCacheOf, cacheDisabledByEnvironment } from "./analysis-call/result-cache.js";
import type { AnalysisRunner } from "./analysis-runner.js";
import { inlineAnalysis } from "./analysis-runner.js";
import { guardListCursors } from "./list-cursor-guard.js";
import { listPortableInputSchemas } from "./portable-tool-list.js";
import { guardPromptGets } from "./prompt-get-guard.js";
import { registerPlayPrompt } from "./prompts/play-prompt.js";
import { guardRequestParams } from "./request-params-guard.js";
import { registerCatalogResources } from "./resources/catalog-resources.js";
import { registerMatchResource } from "./resources/match-resource.js";
import { registerStudyReport } from "./resources/study-report.js";
import { guardToolCalls } from "./tool-call-guard.js";
import type { ToolContext } from "./tool-context.js";
import { explainToolInputErrors } from "./tool-input-errors.js";
import { registerAnalysisToolset } from "./tools/analysis/index.js";
import { registerPlayToolset } from "./tools/play/index.js";
import { registerStudiesToolset } from "./tools/studies/index.js";
import { DEFAULT_TOOLSETS, type ToolsetName, toolsetsOf } from "./toolsets.js";

export interface ConnectionOptions {
  readonly transport: Caller["transport"];
  /** Access-control owner of this connection's matches; 'local' when the server runs without tokens. */
  readonly principal?: string;
  /** `serve --player NAME`. */
  readonly player?: string | null;
  /** Reuse an MCP session id the transport already assigned (HTTP); a new UUID otherwise. */
  readonly sessionId?: string;
  /** `serve --toolsets`; default the player's surface (play alone, blind). */
  readonly toolsets?: readonly ToolsetName[];
  /** Where analyses run; default inline on this thread (`serve` passes its worker pool). */
  readonly analysis?: AnalysisRunner;
  /** `serve --no-cache` (false): analyses always recompute. Default on, unless SAME_GAME_CACHE=off. */
  readonly cache?: boolean;
}

/** What the player's surface says about itself: how to play, nothing about what is measured. */
const PLAYER_INSTRUCTIONS =
  "same-game presents decisions as tools. If you were given a study id, call next_trial with it; otherwise call list_games and start_match. Read the prompt and answer each round with submit_move using one of the listed labels, until the tool says you are done.";

const OPERATOR_INSTRUCTIONS =
  "same-game presents framed strategic games as tools and records every choice. Players: next_trial (for a registered study) or start_match, then submit_move with one of the listed labels. Operators: register_study to pre-register a design; the analysis tools (robustness, payoff_sensitivity, equilibria, equilibrium_deviation, repeated_metrics, power, report) read this client's part of the record.";

export { SERVER_VERSION };

/**
 * One McpServer per MCP connection (DESIGN.md): the tools, prompts and resources of the chosen toolsets
 * over the shared record and catalog. The connection's session id links its decisions for the cluster
 * bootstrap; its principal is the wall between clients.
 */
export function createServer(deps: PlayDeps, connection: ConnectionOptions): McpServer {
  const toolsets = toolsetsOf(connection.toolsets ?? DEFAULT_TOOLSETS);
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION },
    { instructions: toolsets.blind ? PLAYER_INSTRUCTIONS : OPERATOR_INSTRUCTIONS },
  );
  const caller: Caller = {
    sessionId: connection.sessionId ?? randomUUID(),
    transport: connection.transport,
    principal: connection.principal ?? "local",
    configuredPlayer: connection.player ?? null,
    clientInfo: () => {
      const info = server.server.getClientVersion();
      return info ? cleanClientInfo(info) : null;
    },
  };
  const analysis = connection.analysis ?? inlineAnalysis(deps);
  const cache =
    connection.cache === false || cacheDisabledByEnvironment()
      ? null
      : analysisCacheOf(deps.store, deps.catalog.fingerprint);
  const context: ToolContext = { deps, caller, toolsets, analysis, cache };
  if (toolsets.play) {
    registerPlayToolset(server, context);
    registerPlayPrompt(server, context);
  }
  if (toolsets.studies) registerStudiesToolset(server, context);
  if (toolsets.analysis) {
    registerAnalysisToolset(server, context);
    registerCatalogResources(server, context);
    registerMatchResource(server, context);
    registerStudyReport(server, context);
  }
  guardToolCalls(server);
  guardPromptGets(server);
  guardListCursors(server);
  explainToolInputErrors(server);
  listPortableInputSchemas(server, deps.catalog);
  guardRequestParams(server);
  return server;
}
