import { z } from "zod";
import { INVALID_ROUND_SCORINGS } from "../analysis/repeated/invalid-round-scoring.js";

// The filters and options of the repeated-play analysis: the MCP tool advertises them, the CLI and the
// report parse them, so they live below all three.
const id = z.string().trim().min(1).max(200);
const filterList = z.array(id).max(100).optional();

export const repeatedMetricsInputSchema = z.object({
  players: filterList.describe("Only these players (all when absent)"),
  games: filterList.describe("Only these repeated games, e.g. repeated-pd"),
  variants: filterList.describe("Only these variants: base, label, payoff, joint"),
  framings: filterList.describe("Only these framings (or import provenance labels)"),
  opponents: filterList.describe("Only these opponents (or import provenance labels)"),
  study_id: id.optional().describe("Only the matches of this study"),
  rule: z
    .enum(["match", "beat"])
    .default("match")
    .describe("Comprehension success: match = x_r ≥ u1(o_r, o_r); beat = x_r ≥ the opponent's payoff"),
  threshold: z.number().gt(0).max(1).default(0.9).describe("Comprehension threshold t in (0, 1]"),
  invalid_rounds: z
    .enum(INVALID_ROUND_SCORINGS)
    .default("loss")
    .describe(
      "Rounds without a valid move: loss = a loss and an unsuccessful round (SPEC §6); counterfactual-study = as that study's code scores them (either side missing: a 0–0 tie; comprehension success in RPS; in the PD family the missing own move read as the non-cooperative action, a missing opponent move a failure; failure rate over either side)",
    ),
});
