import type { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { callAnalysis } from "../../analysis-call/call-analysis.js";
import { DASHBOARD_TOOL_META } from "../../app/dashboard-app.js";
import type { ToolContext } from "../../tool-context.js";
import { analysisAnswer, answering } from "../../tool-result.js";
import { advertisedOutputSchema } from "../advertised-schema.js";
import { READ_ONLY } from "../annotations.js";
import { bootstrapShape } from "./analysis-schemas.js";

const id = z.string().trim().min(1).max(200);

const outputSchema = z.looseObject({
  header: z.looseObject({ title: z.string(), players: z.array(z.string()) }),
  checks: z.array(z.object({ name: z.string(), ok: z.boolean(), detail: z.string() })).optional(),
});

export function registerReport(server: McpServer, context: ToolContext): void {
  server.registerTool(
    "report",
    {
      title: "Report",
      description:
        "Everything the record says about a study (or the whole record): cooperation by framing with CIs, robustness and shifts, payoff sensitivity, repeated-play metrics, and a verification section listing every check. The same data the HTML report (resource same-game://studies/{id}/report) draws.",
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
        const checks = [...(data.robustness?.checks ?? []), ...(data.checks ?? [])];
        const failed = checks.filter((c) => !c.ok);
        const text = [
          `${data.header.title}: ${data.header.players.length} player(s) (${data.header.players.join(", ")}).`,
          data.robustness
            ? `Pooled R ${data.robustness.pooled.R.estimate.toFixed(3)} over ${data.robustness.framings.join(" → ")}.`
            : "No robustness analysis (needs one-shot decisions in two framings).",
          `${data.repeated?.length ?? 0} repeated-play cell(s).`,
          failed.length === 0
            ? `Verification: all ${checks.length} checks ok.`
            : `Verification: ${failed.length} of ${checks.length} checks FAILED — ${failed.map((c) => `${c.name}: ${c.detail}`).join("; ")}`,
        ].join("\n");
        return { ...analysisAnswer({ ...data } as Record<string, unknown>, text), _meta: meta };
      }),
  );
}
