import type { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { listOpponents, opponentsFor } from "../../../domain/opponents/index.js";
import { PROMPT_STYLES, VARIANT_IDS } from "../../../domain/types.js";
import { blindGameId } from "../../../play/blind-games.js";
import type { ToolContext } from "../../tool-context.js";
import { answering, toolAnswer } from "../../tool-result.js";
import { advertisedOutputSchema } from "../advertised-schema.js";
import { READ_ONLY } from "../annotations.js";

const outputSchema = z.object({
  games: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      actions: z.array(z.string()),
      cooperative_action: z.string().nullable(),
      rounds: z.number(),
      variants: z.array(z.object({ id: z.string(), framings: z.array(z.string()) })),
      opponents: z.array(z.string()),
    }),
  ),
  opponents: z.array(z.object({ id: z.string(), description: z.string(), algorithmic: z.boolean() })),
  styles: z.array(z.string()),
});

const blindOutputSchema = z.object({
  games: z.array(
    z.object({
      id: z.string().describe("Pass this to start_match as game"),
      rounds: z
        .number()
        .optional()
        .describe(
          "1 for a one-round game; absent for a game of several rounds, whose number you are not told",
        ),
      choices: z.number(),
    }),
  ),
});

export function registerListGames(server: McpServer, context: ToolContext): void {
  if (context.toolsets.blind) registerBlindListGames(server, context);
  else registerFullListGames(server, context);
}

/**
 * The player's view: opaque handles, one round or several, and how many choices — nothing that names a
 * game. A repeated game's number of rounds is the horizon the agent is not told (SPEC §2): the blind
 * start_match never reveals it, and a study that does reveals it in the trial's own prompt.
 */
function registerBlindListGames(server: McpServer, { deps }: ToolContext): void {
  server.registerTool(
    "list_games",
    {
      title: "List games",
      description:
        "The games you can start with start_match: an id for each, whether it is one round or several, and how many choices a round offers.",
      outputSchema: advertisedOutputSchema(blindOutputSchema),
      annotations: READ_ONLY,
    },
    async () =>
      answering("list_games", () => {
        const games = deps.catalog.games.map((game) => ({
          id: blindGameId(game.id),
          ...(game.rounds === 1 ? { rounds: 1 } : {}),
          choices: game.actions.length,
        }));
        const text = games
          .map((g) => `${g.id}: ${g.rounds === 1 ? "one round" : "several rounds"}, ${g.choices} choices`)
          .join("\n");
        return toolAnswer({ games }, text);
      }),
  );
}

function registerFullListGames(server: McpServer, { deps }: ToolContext): void {
  server.registerTool(
    "list_games",
    {
      title: "List games",
      description:
        "The catalog: every game with its actions, rounds and variants (base, label, payoff, joint), the framings that certify for each variant, the opponents that can play it, and the prompting styles.",
      outputSchema: advertisedOutputSchema(outputSchema),
      annotations: READ_ONLY,
    },
    async () =>
      answering("list_games", () => {
        const { catalog } = deps;
        const games = catalog.games.map((game) => ({
          id: game.id,
          title: game.title,
          actions: [...game.actions],
          cooperative_action: game.cooperativeAction,
          rounds: game.rounds,
          variants: VARIANT_IDS.filter((v) => game.variants[v] !== undefined).map((v) => ({
            id: v,
            framings: catalog.framingsFor(game.id, v).map((f) => f.id),
          })),
          opponents: opponentsFor({
            stage: catalog.stageGame(game.id, "base"),
            cooperativeAction: game.cooperativeAction,
          }).map((o) => o.id),
        }));
        const opponents = listOpponents().map((o) => ({
          id: o.id,
          description: o.description,
          algorithmic: o.algorithmic,
        }));
        const text = games
          .map(
            (g) =>
              `${g.id} (${g.rounds === 1 ? "one-shot" : `${g.rounds} rounds`}; actions ${g.actions.join("/")}): ` +
              g.variants.map((v) => `${v.id} → ${v.framings.join(", ")}`).join("; "),
          )
          .join("\n");
        return toolAnswer(
          { games, opponents, styles: [...PROMPT_STYLES] },
          `${text}\nOpponents: ${opponents.map((o) => o.id).join(", ")}`,
        );
      }),
  );
}
