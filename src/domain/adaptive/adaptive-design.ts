import { z } from "zod";

/**
 * Adaptive stopping, opt-in in a study design and frozen (hashed) with it: for each (player, game) the
 * server stops assigning trials once the registered question is answered. The one rule is "invariance":
 * the game's framings are declared to differ when a sequential e-value (see invariance-e-process.ts)
 * reaches 1/alpha — valid however often it is looked at (Ville's inequality), so looking after every
 * block is allowed and never inflates the false-alarm rate.
 */
export const AdaptiveStoppingSchema = z
  .object({
    rule: z
      .enum(["invariance"])
      .describe(
        "invariance: stop a (player, game) once the sequential invariance test rejects (its e-value reaches 1/alpha)",
      ),
    alpha: z
      .number()
      .gt(0)
      .max(0.2)
      .default(0.05)
      .describe("The test's level: it rejects when the e-value reaches 1/alpha (20 at 0.05)"),
    look_every_blocks: z
      .number()
      .int()
      .min(1)
      .max(100_000)
      .default(1)
      .describe(
        "Look after every k-th complete block (a block holds every cell once); 1 = continuous monitoring",
      ),
    min_blocks: z
      .number()
      .int()
      .min(1)
      .max(100_000)
      .default(1)
      .describe("No look before this many complete blocks"),
  })
  .strict();
export type AdaptiveStopping = z.infer<typeof AdaptiveStoppingSchema>;

/** The e-value a rule needs to stop: 1/alpha. */
export function rejectionThreshold(adaptive: AdaptiveStopping): number {
  return 1 / adaptive.alpha;
}
