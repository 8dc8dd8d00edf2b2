import type { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { StudyDesignSchema } from "../../../domain/study-design.js";
import { registerStudy } from "../../../play/studies.js";
import type { ToolContext } from "../../tool-context.js";
import { answering, toolAnswer } from "../../tool-result.js";
import { advertisedOutputSchema } from "../advertised-schema.js";
import { IDEMPOTENT_RECORDING } from "../annotations.js";

const outputSchema = z.object({
  study_id: z.string(),
  design_hash: z.string(),
  name: z.string(),
  cells: z.number(),
  trials_per_player: z.number(),
  created: z.boolean(),
});

export function registerRegisterStudy(server: McpServer, { deps, caller }: ToolContext): void {
  server.registerTool(
    "register_study",
    {
      title: "Register a study",
      description:
        "Pre-registers a study design — games × variants × framings × styles × opponents, trials per cell, seed and planned contrasts (baseline → comparison framing) — and freezes it under its SHA-256 hash. Players then take trials with next_trial.",
      inputSchema: StudyDesignSchema,
      outputSchema: advertisedOutputSchema(outputSchema),
      annotations: IDEMPOTENT_RECORDING,
    },
    async (design) =>
      answering("register_study", () => {
        const study = registerStudy(deps, design, caller.principal);
        return toolAnswer(
          { ...study },
          `Study ${study.study_id} (${study.created ? "registered" : "already registered"}): ${study.cells} cells, ${study.trials_per_player} trials per player; design hash ${study.design_hash}.`,
        );
      }),
  );
}
