import type { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { VARIANT_IDS } from "../../../domain/types.js";
import type { CellDeviation } from "../../../queries/equilibrium-deviation-query.js";
import { fixed } from "../../../queries/format.js";
import { callAnalysis } from "../../analysis-call/call-analysis.js";
import { preparedAnswer } from "../../prepared-answer/prepared-answer.js";
import type { ToolContext } from "../../tool-context.js";
import { analysisAnswer, answering } from "../../tool-result.js";
import { advertisedOutputSchema } from "../advertised-schema.js";
import { READ_ONLY } from "../annotations.js";

const id = z.string().trim().min(1).max(200);

const inputSchema = z.object({
  game: id.describe("A game id from list_games, e.g. repeated-pd"),
  player: id.optional().describe("Only this player (all when absent)"),
  variant: z.enum(VARIANT_IDS).optional().describe("Only this variant: base, label, payoff, joint"),
  framing: id.optional().describe("Only this framing (or import provenance label)"),
  study_id: id.optional().describe("Only the decisions of this study"),
});

const distribution = z.record(z.string(), z.number());
const equilibrium = z.object({
  row: distribution,
  column: distribution,
  payoffs: z.object({ row: z.number(), column: z.number() }),
  kind: z.enum(["pure", "mixed"]),
});
const deviation = z.object({
  distribution,
  nearest_equilibrium: equilibrium,
  equilibrium_strategy: distribution,
  total_variation: z.number(),
  jsd: z.number(),
  jsd_strategy: distribution,
  exploitability: z.object({
    opponent_best_response_payoff: z.number(),
    opponent_equilibrium_payoff: z.number(),
    best_response_gain: z.number(),
    raw: z.number(),
    normalized: z.number().nullable(),
    tied_values: z.array(z.number()),
  }),
  tied_points: z.number(),
  tie_rule: z.string().nullable(),
  degenerate: z.boolean(),
  note: z.string().nullable(),
});

const outputSchema = z.object({
  cells: z.array(
    z.object({
      player: z.string(),
      game: z.string(),
      variant: z.string(),
      framing: z.string(),
      decisions: z.number(),
      counts: z.record(z.string(), z.number()),
      distribution,
      equilibria: z.array(equilibrium),
      deviation,
      base_game: z.object({ base: deviation, template_persistence: z.boolean() }).nullable(),
    }),
  ),
});

/** A tie among nearest equilibria, said where the number is: every tied value, and which one is reported. */
function tieText(cell: CellDeviation): string {
  const { tied_points, exploitability } = cell.deviation;
  if (tied_points <= 1) return "";
  return `; ${tied_points} equilibrium points tied nearest, exploitability ${exploitability.tied_values.map((v) => fixed(v)).join(" / ")} points, the smallest reported`;
}

/**
 * Exploitability as the report and compare give it (a share of the opponent's payoff range), with the
 * payoff points beside it: a bare "exploitability" number here was the points, the report's the share.
 */
function exploitabilityText(cell: CellDeviation): string {
  const { raw, normalized } = cell.deviation.exploitability;
  const points = `${fixed(raw)} points`;
  return normalized === null
    ? `exploitability ${points} (the opponent's payoffs are all equal, so no share of their range)`
    : `exploitability ${fixed(normalized)} of the opponent's payoff range (${points})`;
}

function cellText(cell: CellDeviation): string {
  const share = (d: Record<string, number>) =>
    Object.entries(d)
      .map(([a, p]) => `${a} ${p.toFixed(2)}`)
      .join(", ");
  const base =
    cell.base_game === null
      ? ""
      : `; base game: TV ${fixed(cell.base_game.base.total_variation)} to ${share(cell.base_game.base.equilibrium_strategy)}${cell.base_game.template_persistence ? " — template persistence" : ""}`;
  return `${cell.player} | ${cell.game}/${cell.variant} | ${cell.framing} | n=${cell.decisions}: play ${share(cell.distribution)}; nearest equilibrium ${share(cell.deviation.equilibrium_strategy)} (TV ${fixed(cell.deviation.total_variation)}, ${exploitabilityText(cell)}${tieText(cell)})${base}`;
}

export function registerEquilibriumDeviation(server: McpServer, context: ToolContext): void {
  server.registerTool(
    "equilibrium_deviation",
    {
      title: "Equilibrium deviation of play",
      description:
        "For each (player, game, variant, framing) cell: the empirical action distribution over valid decisions (one-shot and repeated, live and imported) beside the stage game's Nash equilibria, with total variation and JSD to the nearest equilibrium strategy and the exploitability of the play. For payoff and joint counterfactuals also against the base game's equilibria: staying nearer those is the template-persistence signature.",
      inputSchema,
      outputSchema: advertisedOutputSchema(outputSchema),
      annotations: READ_ONLY,
    },
    async (args, ctx) =>
      answering("equilibrium_deviation", async () => {
        const { result, meta } = await callAnalysis(context, ctx, "equilibrium_deviation", args);
        const answer = preparedAnswer(result, () => {
          const { cells } = result;
          const text =
            cells.length === 0
              ? `No valid decisions of ${args.game} match these filters.`
              : cells.map(cellText).join("\n");
          return analysisAnswer({ cells }, text);
        });
        return { ...answer, _meta: meta };
      }),
  );
}
