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
import { withLongCallNote } from "./long-call-note.js";

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

/** A (game, framing) cell; for repeated play a condition, with its opponent and the opponent's params. */
const cell = z.object({
  game: z.string(),
  framing: z.string(),
  opponent: z.string().optional(),
  opponent_params: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      "A repeated condition's opponent params, where it has any: one opponent with other params is another condition",
    ),
});
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

const cells = z.array(cell);

/**
 * The `compare` contract, every field it returns: pairs (a − b with CI, p, Holm-adjusted p), ranks (rank
 * interval, tier), skipped measures, and what the comparison was made on and how. Declared whole, so a
 * client reading the schema knows every field; the server checks each result against it.
 */
export const compareOutputSchema = z.looseObject({
  by: z.enum(COMPARISON_FACTORS),
  variant: z.string(),
  study_id: z.string().nullable(),
  confidence: z.number(),
  bootstrap: z.number().int(),
  seed: z.number(),
  framings: z.array(z.string()).describe("The framings compared; the first two are the planned pair"),
  groups: z.array(z.string()),
  group_details: z
    .array(
      z.looseObject({
        group: z.string(),
        unit: z.enum(["decision", "session", "trial"]),
        cells: z.number().int(),
        decisions: z.number().int(),
      }),
    )
    .describe("Each group's one-shot play: the unit its bootstrap resamples, its cells and decisions"),
  pairs: z.array(
    z.looseObject({
      measure,
      a: z.string(),
      b: z.string(),
      difference: z.object({ estimate: z.number(), ci: interval }),
      p_value: z.number(),
      p_adjusted: z.number(),
      paired: z.boolean(),
      cells_used: cells,
      cells_left_out: cells,
    }),
  ),
  ranks: z.array(rankSchema),
  ranked_games: z
    .array(z.string())
    .describe("The games every group played under every framing: the one-shot ranks' cells"),
  family: z.string().describe("The pairs each measure's Holm adjustment is over"),
  method: z.string(),
  notes: z
    .array(z.string())
    .describe(
      "Sentences, never a failure: why no ranks are given, pairs that share no condition, a repeated condition a group played in one match (in no pair or rank), blocks drawn from the normal approximation, too few bootstrap replicates for any pair to be significant",
    ),
  skipped: z.array(z.object({ measure, reason: z.string() })),
  ranked_conditions: z
    .object({ points: cells.optional(), cooperation: cells.optional(), comprehension_m: cells.optional() })
    .optional()
    .describe("With repeated play: the (game, framing, opponent) conditions every group played, per measure"),
  repeated_units: z
    .array(
      z.looseObject({
        group: z.string(),
        unit: z.enum(["match", "session", "trial"]),
        matches: z.number().int(),
      }),
    )
    .optional()
    .describe("With repeated play: what each group's matches were resampled by, and how many it played"),
  left_out: z
    .array(z.looseObject({ group: z.string(), reason: z.string() }))
    .optional()
    .describe(
      "Players of the filters with matches but no valid decision (every round void …), in no group and no rank, with why; absent when none",
    ),
});

export function registerCompare(server: McpServer, context: ToolContext): void {
  server.registerTool(
    "compare",
    {
      title: "Compare groups",
      description: withLongCallNote(
        "Which player (or prompting style, MCP client, model) is more robust: pairwise differences of R, the planned shift, λ and exploitability on the cells both played, and of repeated play's total points, cooperation rate and comprehension m on the (game, framing, opponent) conditions both played, with bootstrap intervals (paired where both played the same schedule), p-values and Holm-adjusted p-values, and simultaneous rank intervals with statistically tied tiers.",
      ),
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
