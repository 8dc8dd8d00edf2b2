import { z } from "zod";
import { objectOfKnownKeys } from "../known-keys.js";
import { namedChoice, namedWholeNumber } from "../named-value-schemas.js";

export const ADAPTIVE_RULES = ["invariance", "width", "invariance_or_width"] as const;
/**
 * The sequential invariance tests. "universal_inference" (invariance-e-process.ts) was the only one, and a
 * design without `test` keeps it, so a study registered before keeps its rule and its hash;
 * "within_block_permutation" (permutation-e-process.ts) bets on the schedule's randomisation and stops
 * sooner against an effect.
 */
export const INVARIANCE_TESTS = ["universal_inference", "within_block_permutation"] as const;
export type InvarianceTest = (typeof INVARIANCE_TESTS)[number];

function widthTargetError(value: unknown): string {
  return `adaptive.width_target ${String(value)} is outside (0, 1): R lies in [0, 1], so its interval's width target must be above 0 and below 1.`;
}

/**
 * Adaptive stopping, opt-in in a study design and frozen (hashed) with it: for each (player, game) the
 * server stops assigning trials once the registered question is answered. The rules:
 * - "invariance": the game's framings are declared to differ when a sequential e-value (see
 *   invariance-e-process.ts) reaches 1/alpha;
 * - "width": R is known closely enough — its anytime-valid interval (r-confidence-sequence.ts, level
 *   1 − alpha) is narrower than `width_target`;
 * - "invariance_or_width": whichever comes first.
 * Both are valid however often they are looked at (Ville's inequality), so looking after every block is
 * allowed and never inflates the false-alarm rate nor breaks the interval.
 */
export const AdaptiveStoppingSchema = objectOfKnownKeys({
  rule: namedChoice(ADAPTIVE_RULES, "rule").describe(
    "invariance: stop a (player, game) once the sequential invariance test rejects (its e-value reaches 1/alpha); width: once R's anytime-valid interval is narrower than width_target; invariance_or_width: whichever comes first",
  ),
  width_target: z
    .number()
    .gt(0, { error: (issue) => widthTargetError(issue.input) })
    .lt(1, { error: (issue) => widthTargetError(issue.input) })
    .optional()
    .describe(
      "Rules width and invariance_or_width: stop once R's anytime-valid (1 − alpha) interval is narrower than this, in (0, 1)",
    ),
  test: namedChoice(INVARIANCE_TESTS, "test")
    .optional()
    .describe(
      "The sequential invariance test (rules invariance and invariance_or_width): universal_inference (when absent) = each framing's KT mixture over the pooled maximum likelihood; within_block_permutation = bets on how each block's choices are arranged over its framings, valid by the schedule's randomisation, stops sooner against an effect",
    ),
  alpha: z
    .number()
    .gt(0)
    .max(0.2)
    .default(0.05)
    .describe("The test's level: it rejects when the e-value reaches 1/alpha (20 at 0.05)"),
  look_every_blocks: namedWholeNumber(1, 100_000)
    .default(1)
    .describe(
      "Look after every k-th complete block (a block holds every cell once); 1 = continuous monitoring",
    ),
  min_blocks: namedWholeNumber(1, 100_000).default(1).describe("No look before this many complete blocks"),
});
export type AdaptiveStopping = z.infer<typeof AdaptiveStoppingSchema>;

/** A width rule needs its target, and the invariance rule has none: the error naming the mismatch, or null. */
export function adaptiveRuleProblem(adaptive: AdaptiveStopping): string | null {
  const usesWidth = adaptive.rule !== "invariance";
  if (usesWidth && adaptive.width_target === undefined) {
    return `adaptive.rule ${adaptive.rule} needs adaptive.width_target, a width in (0, 1) below which R's interval is narrow enough (e.g. 0.2).`;
  }
  if (adaptive.rule === "width" && adaptive.test !== undefined) {
    return `adaptive.test ${adaptive.test} has no effect under rule width (it stops on R's interval alone); use rule invariance_or_width, or drop it.`;
  }
  if (!usesWidth && adaptive.width_target !== undefined) {
    return `adaptive.width_target ${adaptive.width_target} has no effect under rule invariance; use rule width or invariance_or_width, or drop it.`;
  }
  return null;
}

/**
 * The rule as it is frozen and hashed: the default test left out. Other defaults are written in by the
 * schema, but `test` stays absent when not given so that designs registered before it existed keep their
 * hash; spelling out its default must then hash the same as leaving it out, not make a second study.
 */
export function canonicalAdaptive(adaptive: AdaptiveStopping): AdaptiveStopping {
  if (adaptive.test !== "universal_inference") return adaptive;
  const { test: _default, ...rest } = adaptive;
  return rest;
}

/** The design's invariance test: universal_inference unless it names another. */
export function invarianceTestOf(adaptive: AdaptiveStopping): InvarianceTest {
  return adaptive.test ?? "universal_inference";
}

/** The e-value a rule needs to stop: 1/alpha. */
export function rejectionThreshold(adaptive: AdaptiveStopping): number {
  return 1 / adaptive.alpha;
}
