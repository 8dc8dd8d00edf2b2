import type { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { modelCallsFromMeta } from "../../../domain/model-call.js";
import { sessionLabel } from "../../../play/caller.js";
import { ensureCallerSession } from "../../../play/start-match.js";
import { submitMove } from "../../../play/submit-move.js";
import { callerForMatch } from "../../../play/trial-sessions.js";
import type { ToolContext } from "../../tool-context.js";
import { answering, toolAnswer } from "../../tool-result.js";
import { advertisedOutputSchema } from "../advertised-schema.js";
import { RECORDING } from "../annotations.js";
import { MAX_REPLY_CHARS, matchIdSchema, roundViewSchema, roundViewText } from "./play-schemas.js";

const inputSchema = z.object({
  match_id: matchIdSchema,
  round: z.number().int().min(1).max(10_000).describe("The round being answered (from the prompt)"),
  choice: z
    .string()
    .max(MAX_REPLY_CHARS, `choice is limited to ${MAX_REPLY_CHARS} characters`)
    .describe("Your answer: one of the labels the prompt lists"),
  rationale: z
    .string()
    .max(MAX_REPLY_CHARS, `rationale is limited to ${MAX_REPLY_CHARS} characters`)
    .optional()
    .describe("Optional reasoning, recorded beside the choice"),
  tokens: z.number().int().min(0).max(1e9).optional().describe("Tokens spent on this reply, if known"),
});

const outputSchema = z.object({
  match_id: z.string(),
  round: z.number(),
  status: z.enum(["decided", "void", "pending", "forfeit"]),
  your_choice: z.string().nullable(),
  opponent_choice: z.string().nullable(),
  your_points: z.number(),
  opponent_points: z.number(),
  outcome: z.string(),
  replayed: z.boolean(),
  finished: z.boolean(),
  total_points: z.number().nullable(),
  next: roundViewSchema.nullable(),
});

export function registerSubmitMove(server: McpServer, { deps, caller }: ToolContext): void {
  server.registerTool(
    "submit_move",
    {
      title: "Submit a move",
      description:
        "Answers one round of a match. The reply is read through the labels the prompt lists; an unclear reply is refused with the valid labels and may be answered again. Returns the round's outcome and the next round's prompt. Sending the same choice for a decided round returns the recorded outcome.",
      inputSchema,
      outputSchema: advertisedOutputSchema(outputSchema),
      // Not idempotent as MCP means it: the same unreadable reply sent again is another invalid reply
      // (recorded, and the fifth voids the round). A decided round's resend is answered from the record.
      annotations: RECORDING,
    },
    async (args, ctx) =>
      answering("submit_move", async () => {
        // A runner (`same-game run`) reports the model calls behind the reply here; hosts send nothing.
        const model_calls = modelCallsFromMeta(ctx.mcpReq._meta as Record<string, unknown> | undefined);
        const playing = callerForMatch(caller, args.match_id);
        // The session row first, committed on its own as before; the move then commits with the group.
        ensureCallerSession(deps, playing, sessionLabel(playing));
        const outcome = await deps.store.groupCommit(() =>
          submitMove(deps, playing, { ...args, model_calls }),
        );
        if (outcome.kind === "invalid") {
          return { content: [{ type: "text" as const, text: outcome.message }], isError: true };
        }
        const result = outcome.result;
        const tail = result.next
          ? `\n\n${roundViewText(result.next)}`
          : result.total_points !== null
            ? `\n\nThe match is over. Your total: ${result.total_points}.`
            : "";
        return toolAnswer(
          { ...result },
          `${result.replayed ? "(already recorded) " : ""}${result.outcome}${tail}`,
        );
      }),
  );
}
