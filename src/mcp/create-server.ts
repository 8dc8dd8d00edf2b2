import { randomUUID } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/server";
import type { Caller } from "../play/caller.js";
import type { PlayDeps } from "../play/play-deps.js";
import { SERVER_VERSION } from "../server-version.js";
import { registerPlayPrompt } from "./prompts/play-prompt.js";
import { registerCatalogResources } from "./resources/catalog-resources.js";
import { registerMatchResource } from "./resources/match-resource.js";
import { registerStudyReport } from "./resources/study-report.js";
import type { ToolContext } from "./tool-context.js";
import { registerEquilibria } from "./tools/equilibria.js";
import { registerEquilibriumDeviation } from "./tools/equilibrium-deviation.js";
import { registerGetMatch } from "./tools/get-match.js";
import { registerJoinMatch } from "./tools/join-match.js";
import { registerListGames } from "./tools/list-games.js";
import { registerNextTrial } from "./tools/next-trial.js";
import { registerPayoffSensitivity } from "./tools/payoff-sensitivity.js";
import { registerPower } from "./tools/power.js";
import { registerRegisterStudy } from "./tools/register-study.js";
import { registerRepeatedMetrics } from "./tools/repeated-metrics.js";
import { registerReport } from "./tools/report.js";
import { registerRobustness } from "./tools/robustness.js";
import { registerStartMatch } from "./tools/start-match.js";
import { registerSubmitMove } from "./tools/submit-move.js";

export interface ConnectionOptions {
  readonly transport: Caller["transport"];
  /** Access-control owner of this connection's matches; 'local' when the server runs without tokens. */
  readonly principal?: string;
  /** `serve --player NAME`. */
  readonly player?: string | null;
  /** Reuse an MCP session id the transport already assigned (HTTP); a new UUID otherwise. */
  readonly sessionId?: string;
}

export { SERVER_VERSION };

/**
 * One McpServer per MCP connection (DESIGN.md): the tools, prompts and resources of same-game over the
 * shared record and catalog. The connection's session id links its decisions for the cluster bootstrap.
 */
export function createServer(deps: PlayDeps, connection: ConnectionOptions): McpServer {
  const server = new McpServer(
    { name: "same-game", version: SERVER_VERSION },
    {
      instructions:
        "same-game presents strategic decisions as tools. Start with next_trial (for a registered study) or start_match, read the prompt, and answer each round with submit_move using one of the listed labels.",
    },
  );
  const caller: Caller = {
    sessionId: connection.sessionId ?? randomUUID(),
    transport: connection.transport,
    principal: connection.principal ?? "local",
    configuredPlayer: connection.player ?? null,
    clientInfo: () => {
      const info = server.server.getClientVersion();
      return info ? { name: info.name, version: info.version } : null;
    },
  };
  const context: ToolContext = { deps, caller };
  registerListGames(server, context);
  registerStartMatch(server, context);
  registerSubmitMove(server, context);
  registerGetMatch(server, context);
  registerRegisterStudy(server, context);
  registerNextTrial(server, context);
  registerRobustness(server, context);
  registerPayoffSensitivity(server, context);
  registerEquilibria(server, context);
  registerPower(server, context);
  registerReport(server, context);
  registerRepeatedMetrics(server, context);
  registerJoinMatch(server, context);
  registerEquilibriumDeviation(server, context);
  registerPlayPrompt(server, context);
  registerCatalogResources(server, context);
  registerMatchResource(server, context);
  registerStudyReport(server, context);
  return server;
}
