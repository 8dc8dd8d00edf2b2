import { z } from "zod";
import { VARIANT_IDS } from "../../../domain/types.js";
import { interval } from "../advertised-schema.js";

const id = z.string().trim().min(1).max(200);

/** Filters shared by the analysis tools; absent = everything in the record. */
export const analysisFilterShape = {
  players: z.array(id).max(100).optional().describe("Only these players"),
  games: z.array(id).max(50).optional().describe("Only these games"),
  variant: z.enum(VARIANT_IDS).default("base").describe("Which variant of the games to analyse"),
  study_id: id.optional().describe("Only the decisions of this study (its planned contrast is the default)"),
};

export const bootstrapShape = {
  bootstrap: z.number().int().min(1).max(100_000).default(10_000).describe("Bootstrap replicates B"),
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .default(1)
    .describe("Seed of the bootstrap"),
  confidence: z.number().gt(0).lt(1).default(0.95).describe("Confidence level of the intervals"),
};

const estimate = z.looseObject({ estimate: z.number(), ci: interval });
/** A shift also names the cooperative action it counts. */
const shiftEstimate = estimate.extend({ cooperative_action: z.string().optional() });
/** An invariant of the result: on healthy data it passes. */
export const checkSchema = z.object({ name: z.string(), ok: z.boolean(), detail: z.string() });
/** Information about the result (e.g. where an interval sits): never a failure. */
export const noteSchema = z.object({ name: z.string(), detail: z.string() });

/** The DESIGN.md `analyze robustness --json` contract; further keys pass through. */
export const robustnessOutputSchema = z.looseObject({
  unit: z.enum(["decision", "session"]),
  attenuation: z.number(),
  bootstrap: z.number(),
  seed: z.number(),
  framings: z.array(z.string()),
  games: z.array(
    z.looseObject({ player: z.string(), game: z.string(), R: estimate, shift: shiftEstimate.nullable() }),
  ),
  players: z.array(z.looseObject({ player: z.string(), R: estimate, shift: shiftEstimate.nullable() })),
  pooled: z.looseObject({ R: estimate, shift: shiftEstimate.nullable() }),
  checks: z.array(checkSchema),
  notes: z.array(noteSchema),
});
