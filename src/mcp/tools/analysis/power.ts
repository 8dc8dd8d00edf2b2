import type { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { trueRProblem } from "../../../analysis/power/power.js";
import { powerText } from "../../../queries/power-text.js";
import { UsageError } from "../../../usage-error.js";
import { callAnalysis } from "../../analysis-call/call-analysis.js";
import { preparedAnswer } from "../../prepared-answer/prepared-answer.js";
import type { ToolContext } from "../../tool-context.js";
import { analysisAnswer, answering } from "../../tool-result.js";
import { advertisedOutputSchema } from "../advertised-schema.js";
import { READ_ONLY } from "../annotations.js";
import { bootstrapShape } from "./analysis-schemas.js";
import { withLongCallNote } from "./long-call-note.js";

const rate = z.number().min(0).max(1);

export const powerInputShape = {
  baseline: rate.describe("Cooperation rate under the baseline framing"),
  delta: z.number().min(-1).max(1).optional().describe("The shift to detect (comparison rate − baseline)"),
  comparison: rate.optional().describe("Cooperation rate under the comparison framing (instead of delta)"),
  alpha: z.number().gt(0).lt(1).default(0.05).describe("Two-sided significance level of the shift test"),
  power: z
    .number()
    .gt(0)
    .lt(1)
    .default(0.8)
    .describe("Wanted probability of detecting the shift; must be above alpha"),
  n: z.number().int().min(1).max(100_000).optional().describe("Trials per framing for the R2 precision"),
  simulations: z
    .number()
    .int()
    .min(10)
    .max(5_000)
    .default(200)
    .describe("Simulated studies for the R2 precision"),
  bootstrap: z
    .number()
    .int()
    .min(100)
    .max(10_000)
    .default(1_000)
    .describe("Bootstrap replicates per simulated study"),
  seed: bootstrapShape.seed,
  decisions_per_session: z
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(1)
    .describe("Decisions each session makes per framing (sets the design effect with rho)"),
  rho: z.number().min(0).max(1).default(0).describe("Intra-session correlation of decisions"),
  true_r: z
    .number()
    .min(0)
    .lt(1)
    .optional()
    .describe("A true robustness R < 1: trials per framing for the invariance test to exclude R = 1"),
};

/** The shift to plan for, from `delta` or `comparison` (exactly one of them). */
export function plannedShift(args: { baseline: number; delta?: number; comparison?: number }): number {
  if ((args.delta === undefined) === (args.comparison === undefined)) {
    throw new UsageError("Give exactly one of delta (the shift) or comparison (the other framing's rate).");
  }
  const shift = args.delta ?? (args.comparison as number) - args.baseline;
  if (shift === 0 || args.baseline + shift < 0 || args.baseline + shift > 1) {
    throw new UsageError(
      `A shift of ${shift} from a baseline of ${args.baseline} is not a rate change in (0, 1]; choose another.`,
    );
  }
  return shift;
}

/** A true R the plan can reach from this baseline (`true_r` is optional); refused by name otherwise. */
export function checkTrueR(args: { baseline: number; true_r?: number }): void {
  const problem = args.true_r === undefined ? null : trueRProblem(args.true_r, args.baseline);
  if (problem !== null) throw new UsageError(problem);
}

const outputSchema = z.looseObject({ shift_test: z.looseObject({}), r2_precision: z.looseObject({}) });

export function registerPower(server: McpServer, context: ToolContext): void {
  server.registerTool(
    "power",
    {
      title: "Power and precision",
      description: withLongCallNote(
        "Planning numbers: trials per framing needed to detect a cooperation shift (two-proportion z test) and the expected 95% CI half-width of R2 at that many trials, by simulation with the same bootstrap.",
      ),
      inputSchema: z.object(powerInputShape),
      outputSchema: advertisedOutputSchema(outputSchema),
      annotations: READ_ONLY,
    },
    async (args, ctx) =>
      answering("power", async () => {
        checkTrueR(args);
        const { result, meta } = await callAnalysis(context, ctx, "power", {
          baselineRate: args.baseline,
          shift: plannedShift(args),
          alpha: args.alpha,
          power: args.power,
          n: args.n,
          simulations: args.simulations,
          bootstrap: args.bootstrap,
          seed: args.seed,
          decisionsPerSession: args.decisions_per_session,
          intraSessionCorrelation: args.rho,
          trueR: args.true_r,
        });
        return {
          ...preparedAnswer(result, () =>
            analysisAnswer({ ...result } as Record<string, unknown>, powerText(result)),
          ),
          _meta: meta,
        };
      }),
  );
}
