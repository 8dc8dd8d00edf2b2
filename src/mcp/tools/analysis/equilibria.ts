import type { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { VARIANT_IDS } from "../../../domain/types.js";
import { equilibriaReport, equilibriaText } from "../../../queries/equilibria-query.js";
import type { ToolContext } from "../../tool-context.js";
import { analysisAnswer, answering } from "../../tool-result.js";
import { advertisedOutputSchema } from "../advertised-schema.js";
import { READ_ONLY } from "../annotations.js";

const distribution = z.record(z.string(), z.number());

const outputSchema = z.object({
  game: z.string(),
  variant: z.string(),
  actions: z.array(z.string()),
  payoffs: z.object({ row: z.array(z.array(z.number())), column: z.array(z.array(z.number())) }),
  degenerate: z.boolean(),
  note: z.string().nullable(),
  equilibria: z.array(
    z.object({
      kind: z.enum(["pure", "mixed"]),
      row: distribution,
      column: distribution,
      payoffs: z.object({ row: z.number(), column: z.number() }),
    }),
  ),
});

export function registerEquilibria(server: McpServer, { deps }: ToolContext): void {
  server.registerTool(
    "equilibria",
    {
      title: "Nash equilibria",
      description:
        "Every Nash equilibrium (pure and mixed) of a catalog game's stage game, by support enumeration.",
      inputSchema: z.object({
        game: z.string().trim().min(1).max(100).describe("A game id from list_games, e.g. snowdrift"),
        variant: z
          .enum(VARIANT_IDS)
          .default("base")
          .describe("Which variant's payoffs: base, label, payoff, joint"),
      }),
      outputSchema: advertisedOutputSchema(outputSchema),
      annotations: READ_ONLY,
    },
    async ({ game, variant }) =>
      answering("equilibria", () => {
        const report = equilibriaReport(deps, game, variant);
        return analysisAnswer({ ...report }, equilibriaText(report));
      }),
  );
}
