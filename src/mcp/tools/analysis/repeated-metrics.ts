import type { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { INVALID_ROUND_SCORINGS } from "../../../analysis/repeated/invalid-round-scoring.js";
import { opponentLabel } from "../../../domain/opponent-label.js";
import { fixed, printable } from "../../../queries/format.js";
import { repeatedMetricsInputSchema } from "../../../queries/repeated-metrics-input.js";
import type { RepeatedMetricsReport } from "../../../queries/repeated-metrics-query.js";
import { callAnalysis } from "../../analysis-call/call-analysis.js";
import { DASHBOARD_TOOL_META } from "../../app/dashboard-app.js";
import { preparedAnswer } from "../../prepared-answer/prepared-answer.js";
import type { ToolContext } from "../../tool-context.js";
import { analysisAnswer, answering } from "../../tool-result.js";
import { advertisedOutputSchema } from "../advertised-schema.js";
import { READ_ONLY } from "../annotations.js";

const summary = z.object({ mean: z.number(), sd: z.number().nullable(), n: z.number() });
const wlt = <T extends z.ZodType>(value: T) => z.object({ win: value, loss: value, tie: value });
const cellKeys = {
  player: z.string(),
  game: z.string(),
  variant: z.string(),
  framing: z.string(),
  opponent: z.string(),
  opponent_params: z
    .record(z.string(), z.unknown())
    .describe(
      "The opponent's params ({} for none, and for an imported transcript): one opponent id with other params is another cell",
    ),
};

const outputSchema = z.object({
  comprehension_rule: z.enum(["match", "beat"]),
  comprehension_threshold: z.number(),
  invalid_rounds: z.enum(INVALID_ROUND_SCORINGS),
  matches: z.array(
    z.object({
      match_id: z.string(),
      ...cellKeys,
      source: z.string().nullable(),
      study_id: z.string().nullable(),
      rounds: z.number(),
      total_points: z.number(),
      cooperation_rate: z.number().nullable(),
      action_distribution: z
        .record(z.string(), z.number())
        .nullable()
        .describe("π̂ over the match's valid moves; null when no round had a valid move"),
      win_loss_tie: wlt(z.number()),
      comprehension_round: z.number(),
      comprehension_rule: z.enum(["match", "beat"]),
      comprehension_threshold: z.number(),
      failure_rate: z.number(),
      invalid_attempts: z.number(),
      efficiency: z.number().nullable(),
    }),
  ),
  cells: z.array(
    z.object({
      ...cellKeys,
      matches: z.number(),
      total_points: summary,
      cooperation_rate: summary.nullable(),
      action_distribution: z
        .record(z.string(), summary)
        .nullable()
        .describe(
          "Per action, mean and sd of π̂ over the matches with a valid move (n counts them; a match without one has no π̂ and is left out, so the means sum to 1); null when no match of the cell has a valid move",
        ),
      win_loss_tie: wlt(summary),
      comprehension_round: summary,
      failure_rate: summary,
      invalid_attempts: summary,
      efficiency: summary.nullable(),
      comprehension_curve: z.array(z.number()),
    }),
  ),
});

/** The readable twin: one line per cell (mean ± sd over its matches). */
export function repeatedMetricsText(report: RepeatedMetricsReport): string {
  if (report.cells.length === 0) return "No finished repeated matches match these filters.";
  const fmt = (s: { mean: number; sd: number | null } | null, digits = 2) =>
    s === null ? "—" : `${fixed(s.mean, digits)}${s.sd === null ? "" : ` ± ${fixed(s.sd, digits)}`}`;
  const scoring =
    report.invalid_rounds === "loss" ? "" : `, invalid rounds scored as ${report.invalid_rounds}`;
  const head = `Repeated-play metrics (comprehension rule ${report.comprehension_rule}, t = ${report.comprehension_threshold}${scoring}); ${report.matches.length} match(es):`;
  const lines = report.cells.map(
    (c) =>
      `${printable(c.player)} | ${c.game}/${c.variant} | ${printable(c.framing)} | vs ${printable(opponentLabel(c.opponent, c.opponent_params))} | n=${c.matches} | points ${fmt(c.total_points, 1)} | ` +
      `cooperation ${fmt(c.cooperation_rate)} | win ${fmt(c.win_loss_tie.win)} | comprehension m ${fmt(c.comprehension_round, 1)} | ` +
      `failures ${fmt(c.failure_rate)} | efficiency ${fmt(c.efficiency)}`,
  );
  return [head, ...lines].join("\n");
}

export function registerRepeatedMetrics(server: McpServer, context: ToolContext): void {
  server.registerTool(
    "repeated_metrics",
    {
      title: "Repeated-play metrics",
      description:
        "SPEC §6 metrics of finished repeated matches (live and imported): per match total points, cooperation rate (PD family), action distribution, win/loss/tie rates, opponent-comprehension round m, failure rate, invalid attempts and token efficiency; per (player, game, variant, framing, opponent with its params) their means and sample standard deviations and the mean comprehension curve.",
      inputSchema: repeatedMetricsInputSchema,
      outputSchema: advertisedOutputSchema(outputSchema),
      annotations: READ_ONLY,
      _meta: DASHBOARD_TOOL_META,
    },
    async (args, ctx) =>
      answering("repeated_metrics", async () => {
        const { result: report, meta } = await callAnalysis(context, ctx, "repeated_metrics", args);
        return {
          ...preparedAnswer(report, () => analysisAnswer({ ...report }, repeatedMetricsText(report))),
          _meta: meta,
        };
      }),
  );
}
