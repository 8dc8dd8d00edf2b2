import { completable, type McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { VARIANT_IDS } from "../../domain/types.js";
import { DEFAULT_OPPONENT, newSeed, startMatch } from "../../play/start-match.js";
import { startingWith } from "../resources/catalog-resources.js";
import type { ToolContext } from "../tool-context.js";

/**
 * Prompt `play`: for hosts that surface prompts (slash commands). Choosing it starts a match and hands the
 * agent a user message with the first round — blind, like every play result: the message names neither
 * the game nor the framing, only the match id, the situation and the choices.
 */
export function registerPlayPrompt(server: McpServer, { deps, caller }: ToolContext): void {
  const gameIds = deps.catalog.games.map((g) => g.id);
  const framingIds = deps.catalog.framings.map((f) => f.id);
  server.registerPrompt(
    "play",
    {
      title: "Play a framed game",
      description:
        "Starts a match of a game (optionally in a given framing and variant) and asks the agent to play it.",
      argsSchema: z.object({
        game: completable(z.string().describe("A game id, e.g. prisoners-dilemma"), (typed) =>
          startingWith(gameIds, typed),
        ),
        framing: completable(
          z.string().optional().describe("A framing id; drawn at random when empty"),
          (typed) => startingWith(framingIds, typed ?? ""),
        ),
        variant: completable(
          z.string().optional().describe("base (default), label, payoff or joint"),
          (typed) => startingWith([...VARIANT_IDS], typed ?? ""),
        ),
      }),
    },
    ({ game, framing, variant }) => {
      const chosenVariant = (VARIANT_IDS as readonly string[]).includes(variant ?? "")
        ? (variant as (typeof VARIANT_IDS)[number])
        : "base";
      const view = startMatch(deps, caller, undefined, {
        game,
        variant: chosenVariant,
        framing: framing || undefined,
        style: "zero-shot",
        opponent: { id: DEFAULT_OPPONENT, params: {} },
        seed: newSeed(),
        history_mode: "full",
        reveal_horizon: false,
      });
      const text = [
        view.prompt,
        "",
        `Answer with the submit_move tool: match_id "${view.match_id}", round ${view.round}, and your choice as one of ${view.labels.map((l) => `"${l}"`).join(", ")}. Keep answering each new round it gives you until the match is over.`,
      ].join("\n");
      return { messages: [{ role: "user" as const, content: { type: "text" as const, text } }] };
    },
  );
}
