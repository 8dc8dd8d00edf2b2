import type { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { matchTranscript } from "../../../play/match-transcript.js";
import type { ToolContext } from "../../tool-context.js";
import { answering, toolAnswer } from "../../tool-result.js";
import { advertisedOutputSchema } from "../advertised-schema.js";
import { READ_ONLY } from "../annotations.js";
import { matchIdSchema } from "./play-schemas.js";

const outputSchema = z.object({
  match_id: z.string(),
  status: z.enum(["open", "finished"]),
  next_round: z.number().nullable(),
  rounds_played: z.number(),
  labels: z.array(z.string()),
  rounds: z.array(
    z.object({
      round: z.number(),
      status: z.string(),
      your_choice: z.string().nullable(),
      opponent_choice: z.string().nullable(),
      your_points: z.number(),
      opponent_points: z.number(),
      invalid_attempts: z.number(),
      provenance: z.object({
        prompt_hash: z.string().nullable(),
        server_version: z.string().nullable(),
        catalog_fingerprint: z.string().nullable(),
      }),
    }),
  ),
  total_points: z.number(),
});

export function registerGetMatch(server: McpServer, { deps, caller }: ToolContext): void {
  server.registerTool(
    "get_match",
    {
      title: "Get a match",
      description: "The transcript of a match so far: every decided round with both choices and points.",
      inputSchema: z.object({ match_id: matchIdSchema }),
      outputSchema: advertisedOutputSchema(outputSchema),
      annotations: READ_ONLY,
    },
    async ({ match_id }) =>
      answering("get_match", () => {
        const transcript = matchTranscript(deps, caller, match_id);
        const lines = transcript.rounds.map(
          (r) =>
            `round ${r.round}: you ${r.your_choice ?? ownMissing(r.status)}, other ${r.opponent_choice ?? "(none)"} → ${r.your_points}`,
        );
        const head = `Match ${transcript.match_id}: ${transcript.status}${transcript.next_round ? `, waiting for round ${transcript.next_round}` : ""}; total ${transcript.total_points}.`;
        return toolAnswer({ ...transcript }, [head, ...lines].join("\n"));
      }),
  );
}

/** Why a round has no choice of the player's own: no valid reply in five tries, or no reply in time. */
function ownMissing(status: string): string {
  return status === "forfeit" ? "(forfeit: no answer in time)" : "(void)";
}
