import type { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { verificationText } from "../../../queries/verification-text.js";
import { reportChecks, reportNotes } from "../../../report/report-data.js";
import { callAnalysis } from "../../analysis-call/call-analysis.js";
import { DASHBOARD_TOOL_META } from "../../app/dashboard-app.js";
import { preparedAnswer } from "../../prepared-answer/prepared-answer.js";
import type { ToolContext } from "../../tool-context.js";
import { analysisAnswer, answering } from "../../tool-result.js";
import { advertisedOutputSchema } from "../advertised-schema.js";
import { READ_ONLY } from "../annotations.js";
import { bootstrapShape, checkSchema, noteSchema } from "./analysis-schemas.js";
import { rankSchema } from "./compare.js";
import { withLongCallNote } from "./long-call-note.js";

const id = z.string().trim().min(1).max(200);

const outputSchema = z.looseObject({
  header: z.looseObject({ title: z.string(), players: z.array(z.string()) }),
  checks: z.array(checkSchema).optional(),
  notes: z.array(noteSchema).optional(),
  /** The players ranked by R (null with fewer than two; `missing` says why): the dashboard's leaderboard. */
  leaderboard: z
    .looseObject({
      by: z.string(),
      confidence: z.number(),
      framings: z.array(z.string()),
      games: z.array(z.string()),
      rows: z.array(rankSchema),
    })
    .nullable()
    .optional(),
});

export function registerReport(server: McpServer, context: ToolContext): void {
  server.registerTool(
    "report",
    {
      title: "Report",
      description: withLongCallNote(
        "Everything the record says about a study (or the whole record): cooperation by framing with CIs, robustness and shifts, the leaderboard of players by R, λ, exploitability and repeated play's points, cooperation and comprehension m (the ranks of compare), payoff sensitivity, repeated-play metrics, and a verification section listing every check. The same data the HTML report (resource same-game://studies/{id}/report) draws.",
      ),
      inputSchema: z.object({
        study_id: id.optional().describe("Only this study (the whole record when absent)"),
        framings: z.array(id).min(2).max(50).optional().describe("Framings to compare, baseline first"),
        bootstrap: z.number().int().min(1).max(100_000).default(2_000).describe("Bootstrap replicates B"),
        seed: bootstrapShape.seed,
      }),
      outputSchema: advertisedOutputSchema(outputSchema),
      annotations: READ_ONLY,
      _meta: DASHBOARD_TOOL_META,
    },
    async (args, ctx) =>
      answering("report", async () => {
        const { result: data, meta } = await callAnalysis(context, ctx, "report", args);
        const answer = preparedAnswer(data, () => {
          const checks = reportChecks(data);
          const notes = reportNotes(data);
          const text = [
            `${data.header.title}: ${data.header.players.length} player(s) (${data.header.players.join(", ")}).`,
            data.robustness
              ? `Pooled R ${data.robustness.pooled.R.estimate.toFixed(3)} over ${data.robustness.framings.join(" → ")}.`
              : "No robustness analysis (needs one-shot decisions in two framings).",
            `${data.repeated?.length ?? 0} repeated-play cell(s).`,
            verificationText(checks, notes),
          ].join("\n");
          return analysisAnswer({ ...data } as Record<string, unknown>, text);
        });
        return { ...answer, _meta: meta };
      }),
  );
}
