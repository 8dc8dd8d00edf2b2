import type { McpServer } from "@modelcontextprotocol/server";
import { registerDashboardApp } from "../../app/dashboard-app.js";
import type { ToolContext } from "../../tool-context.js";
import { registerCompare } from "./compare.js";
import { registerEquilibria } from "./equilibria.js";
import { registerEquilibriumDeviation } from "./equilibrium-deviation.js";
import { registerListMatches } from "./list-matches.js";
import { registerPayoffSensitivity } from "./payoff-sensitivity.js";
import { registerPower } from "./power.js";
import { registerRepeatedMetrics } from "./repeated-metrics.js";
import { registerReport } from "./report.js";
import { registerRobustness } from "./robustness.js";

/** Toolset `analysis`: read-only analyses of the caller's part of the record. */
export function registerAnalysisToolset(server: McpServer, context: ToolContext): void {
  registerRobustness(server, context);
  registerCompare(server, context);
  registerPayoffSensitivity(server, context);
  registerEquilibria(server, context);
  registerPower(server, context);
  registerReport(server, context);
  registerRepeatedMetrics(server, context);
  registerEquilibriumDeviation(server, context);
  registerListMatches(server, context);
  // The MCP App view of robustness, report and repeated_metrics: analysts only, never the player surface.
  registerDashboardApp(server, context);
}
