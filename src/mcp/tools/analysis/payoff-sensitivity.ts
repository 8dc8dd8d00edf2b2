import type { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { sensitivityText } from "../../../queries/sensitivity-query.js";
import { callAnalysis } from "../../analysis-call/call-analysis.js";
import { preparedAnswer } from "../../prepared-answer/prepared-answer.js";
import type { ToolContext } from "../../tool-context.js";
import { analysisAnswer, answering } from "../../tool-result.js";
import { advertisedOutputSchema, interval } from "../advertised-schema.js";
import { READ_ONLY } from "../annotations.js";
import { analysisFilterShape, bootstrapShape, checkSchema, noteSchema } from "./analysis-schemas.js";
import { withLongCallNote } from "./long-call-note.js";

const estimate = z.looseObject({ estimate: z.number(), ci: interval });

const outputSchema = z.looseObject({
  bootstrap: z.number(),
  seed: z.number(),
  cells: z.array(
    z.looseObject({
      player: z.string(),
      game: z.string(),
      framing: z.string(),
      lambda: z.number().nullable(),
    }),
  ),
  games: z.array(z.looseObject({ player: z.string(), game: z.string(), v_lambda: z.number().nullable() })),
  pooled: z.array(z.looseObject({ player: z.string(), framing: z.string(), lambda: estimate.nullable() })),
  checks: z.array(checkSchema),
  notes: z.array(noteSchema),
});

export function registerPayoffSensitivity(server: McpServer, context: ToolContext): void {
  server.registerTool(
    "payoff_sensitivity",
    {
      title: "Payoff sensitivity λ",
      description: withLongCallNote(
        "How strongly cooperation follows the payoffs (logit response against a neutral belief): λ̂ per (player, game, framing), V_λ across framings, and the pooled maximum-likelihood λ per (player, framing) across games with a bootstrap CI. λ ≈ 0 means the payoffs are ignored.",
      ),
      inputSchema: z.object({
        ...analysisFilterShape,
        framings: z
          .array(z.string().trim().min(1).max(200))
          .max(50)
          .optional()
          .describe("Only these framings (all when absent)"),
        ...bootstrapShape,
      }),
      outputSchema: advertisedOutputSchema(outputSchema),
      annotations: READ_ONLY,
    },
    async (args, ctx) =>
      answering("payoff_sensitivity", async () => {
        const { result: report, meta } = await callAnalysis(context, ctx, "payoff_sensitivity", args);
        return {
          ...preparedAnswer(report, () => analysisAnswer({ ...report }, sensitivityText(report))),
          _meta: meta,
        };
      }),
  );
}
