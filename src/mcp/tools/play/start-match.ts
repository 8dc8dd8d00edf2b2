import type { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { HISTORY_MODES, OpponentChoiceSchema } from "../../../domain/study-design.js";
import { PROMPT_STYLES, VARIANT_IDS } from "../../../domain/types.js";
import { resolveBlindGame } from "../../../play/blind-games.js";
import { playerLabel } from "../../../play/caller.js";
import { DEFAULT_OPPONENT, ensureCallerSession, newSeed, startMatch } from "../../../play/start-match.js";
import { UsageError } from "../../../usage-error.js";
import type { ToolContext } from "../../tool-context.js";
import { answering, toolAnswer } from "../../tool-result.js";
import { advertisedOutputSchema } from "../advertised-schema.js";
import { RECORDING } from "../annotations.js";
import { playerSchema, roundViewSchema, roundViewText } from "./play-schemas.js";

const id = z.string().trim().min(1).max(100);

const inputSchema = z.object({
  game: id.describe("A game id from list_games, e.g. prisoners-dilemma"),
  variant: z.enum(VARIANT_IDS).default("base").describe("base, or a counterfactual: label, payoff, joint"),
  framing: id
    .optional()
    .describe("A framing id that certifies for the game variant; drawn at random when absent"),
  opponent: id.default(DEFAULT_OPPONENT).describe("An opponent id from list_games"),
  opponent_params: OpponentChoiceSchema.shape.params.describe(
    'Parameters of the opponent, checked when the match starts, e.g. {"probabilities": {"cooperate": 0.3, "defect": 0.7}} for random',
  ),
  style: z.enum(PROMPT_STYLES).default("zero-shot").describe("Prompting style of the rendered prompt"),
  player: playerSchema,
  seed: z
    .union([z.number().int(), z.string().trim().min(1).max(100)])
    .optional()
    .describe("Seed of the match's random choices (framing draw, action order, opponent); drawn when absent"),
  history_mode: z
    .enum(HISTORY_MODES)
    .default("full")
    .describe("Repeated games: which past rounds the prompt shows"),
  reveal_horizon: z.boolean().default(false).describe("Repeated games: tell the agent the number of rounds"),
  forfeit_after_seconds: z
    .number()
    .int()
    .min(1)
    .max(86_400)
    .optional()
    .describe(
      'Opponent "agent": seconds a seat may keep the other waiting before it forfeits the round (default 300)',
    ),
});

/** The player's start_match: a game handle from list_games and who plays the other side; nothing more. */
const blindInputSchema = z.object({
  game: id.describe("A game id from list_games"),
  opponent: z
    .enum(["computer", "agent"])
    .default("computer")
    .describe("computer: the server plays the other side; agent: another player takes it with join_match"),
  player: playerSchema,
  seed: z
    .union([z.number().int(), z.string().trim().min(1).max(100)])
    .optional()
    .describe("Seed of the match's random choices; drawn when absent"),
});

export function registerStartMatch(server: McpServer, context: ToolContext): void {
  if (context.toolsets.blind) registerBlindStartMatch(server, context);
  else registerFullStartMatch(server, context);
}

function registerBlindStartMatch(server: McpServer, { deps, caller }: ToolContext): void {
  server.registerTool(
    "start_match",
    {
      title: "Start a match",
      description:
        "Starts one match of a game from list_games and returns its id and the first round's prompt. Answer each round with submit_move.",
      inputSchema: blindInputSchema,
      outputSchema: advertisedOutputSchema(roundViewSchema),
      annotations: RECORDING,
    },
    async (args) =>
      answering("start_match", async () => {
        // The session row first, committed on its own as before; the match then commits with the group.
        const game = resolveBlindGame(deps.catalog, args.game);
        // Refused here in the agent's own terms: the full surface's refusal names the game and opponents
        // this surface does not offer.
        if (args.opponent === "agent" && deps.catalog.variant(game, "base").columnPayoffs !== null) {
          throw new UsageError(
            `Game "${args.game}" cannot be played with opponent "agent": its two seats have different payoffs, so the other player would see another game. Valid opponents for it: computer.`,
          );
        }
        ensureCallerSession(deps, caller, playerLabel(caller, args.player));
        const view = await deps.store.groupCommit(() =>
          startMatch(deps, caller, args.player, {
            game,
            variant: "base",
            style: "zero-shot",
            opponent: { id: args.opponent === "agent" ? "agent" : DEFAULT_OPPONENT, params: {} },
            seed: String(args.seed ?? newSeed()),
            history_mode: "full",
            reveal_horizon: false,
          }),
        );
        return toolAnswer({ ...view }, roundViewText(view));
      }),
  );
}

function registerFullStartMatch(server: McpServer, { deps, caller }: ToolContext): void {
  server.registerTool(
    "start_match",
    {
      title: "Start a match",
      description:
        "Starts one match of a game and returns its id and the first round's prompt. Answer each round with submit_move.",
      inputSchema,
      outputSchema: advertisedOutputSchema(roundViewSchema),
      annotations: RECORDING,
    },
    async (args) =>
      answering("start_match", async () => {
        // The session row first, committed on its own as before; the match then commits with the group.
        ensureCallerSession(deps, caller, playerLabel(caller, args.player));
        const view = await deps.store.groupCommit(() =>
          startMatch(deps, caller, args.player, {
            game: args.game,
            variant: args.variant,
            framing: args.framing,
            style: args.style,
            opponent: { id: args.opponent, params: args.opponent_params },
            seed: String(args.seed ?? newSeed()),
            history_mode: args.history_mode,
            reveal_horizon: args.reveal_horizon,
            forfeit_after_seconds: args.forfeit_after_seconds,
          }),
        );
        return toolAnswer({ ...view }, roundViewText(view));
      }),
  );
}
