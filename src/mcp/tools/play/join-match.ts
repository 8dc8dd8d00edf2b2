import type { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { joinMatch } from "../../../play/agent-match-join.js";
import type { ToolContext } from "../../tool-context.js";
import { answering, toolAnswer } from "../../tool-result.js";
import { advertisedOutputSchema } from "../advertised-schema.js";
import { RECORDING } from "../annotations.js";
import { matchIdSchema, playerSchema, roundViewSchema, roundViewText } from "./play-schemas.js";

const inputSchema = z.object({
  match_id: matchIdSchema.describe('The match_id of a match another player started with opponent "agent"'),
  framing: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe("A framing for your seat that certifies for the game variant; the first seat's when absent"),
  player: playerSchema,
});

const blindInputSchema = inputSchema.omit({ framing: true });

const DESCRIPTION =
  'Takes the second seat of a match another player started with opponent "agent". You get your own match_id and first prompt; answer each round with submit_move on your own match_id. A round is decided once both players have moved: until then submit_move answers status "pending" — send the same choice again (or call get_match) to see the outcome. Neither side sees the other\'s move before both are in; a side that keeps the other waiting too long forfeits the round (0 points for both).';

export function registerJoinMatch(server: McpServer, { deps, caller, toolsets }: ToolContext): void {
  server.registerTool(
    "join_match",
    {
      title: "Join a match against another agent",
      description: DESCRIPTION,
      // The player's surface takes the first seat's presentation; choosing another is the operator's call.
      inputSchema: toolsets.blind ? blindInputSchema : inputSchema,
      outputSchema: advertisedOutputSchema(roundViewSchema),
      annotations: RECORDING,
    },
    async (args) =>
      answering("join_match", () => {
        const view = joinMatch(deps, caller, args as z.infer<typeof inputSchema>);
        return toolAnswer({ ...view }, roundViewText(view));
      }),
  );
}
