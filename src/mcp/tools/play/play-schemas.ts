import { z } from "zod";
import { PLAYER_LABEL_MAX } from "../../../play/client-identity.js";

/** The longest reply or rationale an agent may submit; longer text is refused, naming this limit. */
export const MAX_REPLY_CHARS = 20_000;

// The match id is described by where the agent reads it, not by the tools that return it: the runner
// offers a model submit_move and get_match alone, and naming start_match, next_trial or join_match there
// would tell it of tools it does not have, and that it plays trials.
export const matchIdSchema = z
  .string()
  .max(100, "match_id is at most 100 characters")
  .describe('The match id, as given with the round\'s prompt ("Match …, round …")');

export const playerSchema = z
  .string()
  .trim()
  .min(1)
  .max(PLAYER_LABEL_MAX)
  .optional()
  .describe("Label of the player being evaluated (the server's --player wins when set)");

export const roundViewSchema = z.object({
  match_id: z.string(),
  round: z.number(),
  rounds: z.number().nullable(),
  prompt: z.string(),
  labels: z.array(z.string()),
});

/** The readable twin of a round to play: the prompt, then the reply the server expects. */
export function roundViewText(view: z.infer<typeof roundViewSchema>): string {
  return `Match ${view.match_id}, round ${view.round}.\n\n${view.prompt}\n\n(Reply with submit_move: match_id "${view.match_id}", round ${view.round}, choice = one of ${view.labels.map((l) => `"${l}"`).join(", ")}.)`;
}
