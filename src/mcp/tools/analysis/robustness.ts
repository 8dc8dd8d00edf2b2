import type { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { robustnessText } from "../../../queries/robustness-text.js";
import { callAnalysis } from "../../analysis-call/call-analysis.js";
import { DASHBOARD_TOOL_META } from "../../app/dashboard-app.js";
import { preparedAnswer } from "../../prepared-answer/prepared-answer.js";
import type { ToolContext } from "../../tool-context.js";
import { analysisAnswer, answering } from "../../tool-result.js";
import { advertisedOutputSchema } from "../advertised-schema.js";
import { READ_ONLY } from "../annotations.js";
import { analysisFilterShape, bootstrapShape, robustnessOutputSchema } from "./analysis-schemas.js";
import { withLongCallNote } from "./long-call-note.js";

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

export function registerRobustness(server: McpServer, context: ToolContext): void {
  server.registerTool(
    "robustness",
    {
      title: "Strategic robustness",
      description: withLongCallNote(
        "Strategic robustness of one-shot play across framings: R = 1 − max JSD / ln 2 per (player, game), per player and pooled, the cooperation shift between the first two framings, percentile-bootstrap CIs (by session when decisions share MCP sessions), and verification checks.",
      ),
      inputSchema,
      outputSchema: advertisedOutputSchema(robustnessOutputSchema),
      annotations: READ_ONLY,
      _meta: DASHBOARD_TOOL_META,
    },
    async (args, ctx) =>
      answering("robustness", async () => {
        const { result: report, meta } = await callAnalysis(context, ctx, "robustness", args);
        return {
          ...preparedAnswer(report, () => analysisAnswer({ ...report }, robustnessText(report))),
          _meta: meta,
        };
      }),
  );
}
