import type { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { robustnessReport } from "../../queries/robustness-query.js";
import { robustnessText } from "../../queries/robustness-text.js";
import { DASHBOARD_TOOL_META } from "../app/dashboard-app.js";
import type { ToolContext } from "../tool-context.js";
import { answering, toolAnswer } from "../tool-result.js";
import { analysisFilterShape, bootstrapShape, robustnessOutputSchema } from "./analysis-schemas.js";
import { READ_ONLY } from "./annotations.js";

const inputSchema = z.object({
  ...analysisFilterShape,
  framings: z
    .array(z.string().trim().min(1).max(200))
    .min(2)
    .max(50)
    .optional()
    .describe("Framings to compare; the first two are the planned pair (shift = second minus first)"),
  attenuation: z.number().gt(0).max(1).default(1).describe("Conservative reporting factor a in (0, 1]"),
  ...bootstrapShape,
});

export function registerRobustness(server: McpServer, { deps }: ToolContext): void {
  server.registerTool(
    "robustness",
    {
      title: "Strategic robustness",
      description:
        "Strategic robustness of one-shot play across framings: R = 1 − max JSD / ln 2 per (player, game), per player and pooled, the cooperation shift between the first two framings, percentile-bootstrap CIs (by session when decisions share MCP sessions), and verification checks.",
      inputSchema,
      outputSchema: robustnessOutputSchema,
      annotations: READ_ONLY,
      _meta: DASHBOARD_TOOL_META,
    },
    async (args) =>
      answering("robustness", () => {
        const report = robustnessReport(deps, args);
        return toolAnswer({ ...report }, robustnessText(report));
      }),
  );
}
