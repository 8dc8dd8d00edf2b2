import type { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { compareText } from "../../../queries/compare-text.js";
import { COMPARISON_FACTORS } from "../../../store/store.js";
import { callAnalysis } from "../../analysis-call/call-analysis.js";
import { DASHBOARD_TOOL_META } from "../../app/dashboard-app.js";
import { preparedAnswer } from "../../prepared-answer/prepared-answer.js";
import type { ToolContext } from "../../tool-context.js";
import { analysisAnswer, answering } from "../../tool-result.js";
import { advertisedOutputSchema, interval } from "../advertised-schema.js";
import { READ_ONLY } from "../annotations.js";
import { analysisFilterShape, bootstrapShape } from "./analysis-schemas.js";

const inputSchema = z.object({
  by: z
    .enum(COMPARISON_FACTORS)
    .default("player")
    .describe(
      "What a group is: the player, the prompting style, the MCP client (name and version), the model",
    ),
  ...analysisFilterShape,
  framings: z
    .array(z.string().trim().min(1).max(200))
    .min(2)
    .max(50)
    .optional()
    .describe("Framings compared; the first two are the planned pair (shift = second minus first)"),
  ...bootstrapShape,
});

/** A (game, framing) cell; for repeated play a condition, with its opponent. */
const cell = z.object({ game: z.string(), framing: z.string(), opponent: z.string().optional() });
const measure = z.enum([
  "R",
  "shift",
  "lambda",
  "exploitability",
  "points",
  "cooperation",
  "comprehension_m",
]);

/** A group's rank: its measure with the interval, the simultaneous rank interval, its tier (also the leaderboard's row). */
export const rankSchema = z.looseObject({
  measure,
  group: z.string(),
  estimate: z.number(),
  ci: interval,
  rank: z.object({ estimate: z.number(), ci: interval }),
  tied_group: z.number().int(),
});

/** The `compare` contract: pairs (a − b with CI, p, Holm-adjusted p), ranks (rank interval, tier), skipped. */
export const compareOutputSchema = z.looseObject({
  by: z.enum(COMPARISON_FACTORS),
  confidence: z.number(),
  groups: z.array(z.string()),
  pairs: z.array(
    z.looseObject({
      measure,
      a: z.string(),
      b: z.string(),
      difference: z.object({ estimate: z.number(), ci: interval }),
      p_value: z.number(),
      p_adjusted: z.number(),
      paired: z.boolean(),
      cells_used: z.array(cell),
      cells_left_out: z.array(cell),
    }),
  ),
  ranks: z.array(rankSchema),
  skipped: z.array(z.object({ measure, reason: z.string() })),
});

export function registerCompare(server: McpServer, context: ToolContext): void {
  server.registerTool(
    "compare",
    {
      title: "Compare groups",
      description:
        "Which player (or prompting style, MCP client, model) is more robust: pairwise differences of R, the planned shift, λ and exploitability on the cells both played, and of repeated play's total points, cooperation rate and comprehension m on the (game, framing, opponent) conditions both played, with bootstrap intervals (paired where both played the same schedule), p-values and Holm-adjusted p-values, and simultaneous rank intervals with statistically tied tiers.",
      inputSchema,
      outputSchema: advertisedOutputSchema(compareOutputSchema),
      annotations: READ_ONLY,
      _meta: DASHBOARD_TOOL_META,
    },
    async (args, ctx) =>
      answering("compare", async () => {
        const { result: report, meta } = await callAnalysis(context, ctx, "compare", args);
        return {
          ...preparedAnswer(report, () => analysisAnswer({ ...report }, compareText(report))),
          _meta: meta,
        };
      }),
  );
}
