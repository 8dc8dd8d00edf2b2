import { completable, type McpServer, ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { z } from "zod";
import { VARIANT_IDS } from "../../domain/types.js";
import { printable } from "../../queries/format.js";
import { startingWith } from "../resources/catalog-resources.js";
import type { ToolContext } from "../tool-context.js";

// Prompt `play`, for hosts that surface prompts (slash commands). Getting a prompt is a read: it writes
// nothing. It tells the agent how to begin, and the agent's first tool call starts (and records) the
// match. On the player's surface it takes only a study id; with an operator toolset on it also takes the
// game, framing and variant an operator may choose. Every argument is optional on both surfaces, so a
// host that gets the prompt without asking for any (as a slash command may) is told how to begin too.

function userMessage(text: string) {
  return { messages: [{ role: "user" as const, content: { type: "text" as const, text } }] };
}

function invalid(message: string): never {
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, message);
}

const ANSWERING =
  "Read each prompt and answer every round with the submit_move tool (match_id, round, and your choice as one of the listed labels), until the match is over.";

/** Neither a study nor a game given: the agent picks a game itself. */
const PICK_A_GAME = `Call list_games, then start_match with one of its game ids. ${ANSWERING}`;

export function registerPlayPrompt(server: McpServer, context: ToolContext): void {
  if (context.toolsets.blind) registerPlayerPrompt(server, context);
  else registerOperatorPrompt(server, context);
}

function studyIdCompleter({ deps, caller }: ToolContext) {
  return (typed: string | undefined) =>
    startingWith(
      deps.store
        .scopedTo(caller.principal)
        .listStudies()
        .map((s) => s.id),
      typed ?? "",
    );
}

function checkStudy({ deps, caller }: ToolContext, studyId: string): void {
  if (!deps.store.scopedTo(caller.principal).getStudy(studyId)) {
    invalid(
      `Unknown study_id "${printable(studyId)}"; use the study id you were given (completion lists them).`,
    );
  }
}

function registerPlayerPrompt(server: McpServer, context: ToolContext): void {
  server.registerPrompt(
    "play",
    {
      title: "Play",
      description:
        "Tells the agent how to begin playing: the assigned trials of a study, or a match of its choice.",
      argsSchema: z.object({
        study_id: completable(z.string().describe("The study id you were given"), studyIdCompleter(context))
          .optional()
          .describe("The study id you were given; empty to pick a game yourself"),
      }),
    },
    ({ study_id }) => {
      if (study_id) {
        checkStudy(context, study_id);
        return userMessage(
          `Take your assigned trials: call next_trial with study_id "${study_id}". ${ANSWERING} Then call next_trial again, until it says you are done.`,
        );
      }
      return userMessage(PICK_A_GAME);
    },
  );
}

function registerOperatorPrompt(server: McpServer, context: ToolContext): void {
  const { catalog } = context.deps;
  const gameIds = catalog.games.map((g) => g.id);
  const framingIds = catalog.framings.map((f) => f.id);
  server.registerPrompt(
    "play",
    {
      title: "Play a framed game",
      description:
        "Tells the agent to start a match of a game (optionally in a given framing and variant) with start_match, or of a game it picks from list_games, or to take a study's trials with next_trial, and to play it.",
      argsSchema: z.object({
        game: completable(z.string().describe("A game id, e.g. prisoners-dilemma"), (typed) =>
          startingWith(gameIds, typed ?? ""),
        )
          .optional()
          .describe("A game id, e.g. prisoners-dilemma; empty to let the agent pick one (or with study_id)"),
        framing: completable(z.string().describe("A framing id"), (typed, ctx) => {
          const game = catalog.games.find((g) => g.id === ctx?.arguments?.game);
          const variant = ctx?.arguments?.variant || "base";
          const valid =
            game && game.variants[variant as keyof typeof game.variants] !== undefined
              ? catalog.framingsFor(game.id, variant).map((f) => f.id)
              : framingIds;
          return startingWith(valid, typed ?? "");
        })
          .optional()
          .describe("A framing id; drawn at random when empty"),
        variant: completable(z.string().describe("base, label, payoff or joint"), (typed) =>
          startingWith([...VARIANT_IDS], typed ?? ""),
        )
          .optional()
          .describe("base (default), label, payoff or joint"),
        study_id: completable(z.string().describe("A registered study id"), studyIdCompleter(context))
          .optional()
          .describe("A registered study id: the agent takes its trials instead of one match"),
      }),
    },
    ({ game, framing, variant, study_id }) => {
      if (study_id) {
        checkStudy(context, study_id);
        return userMessage(
          `Take your assigned trials: call next_trial with study_id "${study_id}". ${ANSWERING} Then call next_trial again, until it says you are done.`,
        );
      }
      if (!game) {
        // A framing or variant alone cannot be checked, nor passed on: which ones exist depends on the game.
        if (framing || variant) {
          invalid(
            `A ${framing ? "framing" : "variant"} goes with a game (one of ${gameIds.join(", ")}); give one, or leave every argument empty to let the agent pick.`,
          );
        }
        return userMessage(PICK_A_GAME);
      }
      if (!gameIds.includes(game))
        invalid(`Unknown game "${printable(game)}"; games: ${gameIds.join(", ")}.`);
      const chosenVariant = variant || "base";
      if (!(VARIANT_IDS as readonly string[]).includes(chosenVariant)) {
        invalid(`Unknown variant "${printable(chosenVariant)}"; variants: ${VARIANT_IDS.join(", ")}.`);
      }
      const entry = catalog.game(game);
      if (entry.variants[chosenVariant as keyof typeof entry.variants] === undefined) {
        invalid(
          `${game} has no ${chosenVariant} variant; its variants: ${Object.keys(entry.variants).join(", ")}.`,
        );
      }
      const valid = catalog.framingsFor(game, chosenVariant).map((f) => f.id);
      if (framing && !valid.includes(framing)) {
        invalid(
          `Framing "${printable(framing)}" does not present ${game} (${chosenVariant}); framings: ${valid.join(", ")}.`,
        );
      }
      const args = [
        `game "${game}"`,
        chosenVariant === "base" ? null : `variant "${chosenVariant}"`,
        framing ? `framing "${framing}"` : null,
      ].filter((a) => a !== null);
      return userMessage(`Call start_match with ${args.join(", ")}. ${ANSWERING}`);
    },
  );
}
