import type { McpServer, RegisteredTool } from "@modelcontextprotocol/server";
import { z } from "zod";
import { VARIANT_IDS } from "../../../domain/types.js";
import { loadStudy } from "../../../play/studies.js";
import { printable } from "../../../queries/format.js";
import type { MatchSummaryRow } from "../../../store/store.js";
import { UsageError } from "../../../usage-error.js";
import type { ToolContext } from "../../tool-context.js";
import { answering, toolAnswer } from "../../tool-result.js";
import { advertisedOutputSchema } from "../advertised-schema.js";
import { READ_ONLY } from "../annotations.js";

const id = z.string().trim().min(1).max(200);

const inputSchema = z.object({
  player: id.optional().describe("Only this player's matches"),
  game: id.optional().describe("Only matches of this game, e.g. prisoners-dilemma"),
  variant: z.enum(VARIANT_IDS).optional().describe("Only this variant"),
  framing: id.optional().describe("Only matches played under this framing (or import label)"),
  study_id: id.optional().describe("Only the matches of this study"),
  opponent: id
    .optional()
    .describe(
      "Only matches against this opponent, by its id (e.g. tit-for-tat): one repeated-play cell of repeated_metrics",
    ),
  limit: z.number().int().min(1).max(500).default(50).describe("At most this many matches, newest first"),
  offset: z
    .number()
    .int()
    .min(0)
    .max(10_000_000)
    .default(0)
    .describe("Skip this many of the newest first (the next page starts at offset + limit)"),
});

const outputSchema = z.object({
  matches: z.array(
    z.object({
      match_id: z.string(),
      player: z.string(),
      game: z.string(),
      variant: z.string(),
      framing: z.string(),
      opponent: z.string(),
      status: z.enum(["open", "finished"]),
      rounds_played: z.number(),
      started_at: z.string(),
    }),
  ),
  total: z.number().int().describe("How many matches pass the filters; more than listed means more pages"),
  offset: z.number().int(),
});

function listText(matches: readonly MatchSummaryRow[], total: number, offset: number): string {
  if (total === 0) return "No match this connection may open passes these filters.";
  if (matches.length === 0) return `No matches past offset ${offset}: ${total} match(es) pass these filters.`;
  // A player label, an import's framing label or opponent is the client's text: escaped, so an escape
  // sequence is shown, never run, and a line break cannot forge a line of the listing.
  const lines = matches.map(
    (m) =>
      `${m.match_id} | ${printable(m.player)} | ${printable(m.game)}/${m.variant} | ${printable(m.framing)} | vs ${printable(m.opponent)} | ${m.status}, ${m.rounds_played} round(s) | ${m.started_at}`,
  );
  const shown =
    matches.length === total
      ? `${total} match(es), newest first:`
      : `Matches ${offset + 1}–${offset + matches.length} of ${total}, newest first${offset + matches.length < total ? ` (offset ${offset + matches.length} lists the next)` : ""}:`;
  return [shown, ...lines].join("\n");
}

/**
 * The matches behind an analysis cell, for the operator: only this connection's principal's matches (the
 * same rule as get_match and same-game://matches/{id}), so one tenant never lists another's play. Without
 * tokens every connection is the principal `local`, which also owns imported transcripts.
 */
export function registerListMatches(server: McpServer, { deps, caller }: ToolContext): RegisteredTool {
  return server.registerTool(
    "list_matches",
    {
      title: "List matches",
      description:
        "The recorded matches this connection may open that pass the filters (player, game, variant, framing, study, opponent), newest first: id, condition, opponent, status, rounds played and start time, and how many pass in all (total; page with offset and limit). Without tokens (stdio, or HTTP on loopback) that is every match started without a token, by any client, and every imported transcript; over HTTP with a bearer token, only the matches started with that token. Open one with get_match or the resource same-game://matches/{id}.",
      inputSchema,
      outputSchema: advertisedOutputSchema(outputSchema),
      annotations: READ_ONLY,
    },
    async (args) =>
      answering("list_matches", () => {
        // A mistyped study is named, not answered as an empty list.
        if (args.study_id !== undefined) loadStudy(deps, args.study_id);
        const filter = {
          principal: caller.principal,
          players: args.player ? [args.player] : undefined,
          games: args.game ? [args.game] : undefined,
          variants: args.variant ? [args.variant] : undefined,
          framings: args.framing ? [args.framing] : undefined,
          study_id: args.study_id,
          opponent: args.opponent,
        };
        const matches = deps.store.listMatchSummaries({ ...filter, limit: args.limit, offset: args.offset });
        const total = deps.store.countMatchSummaries(filter);
        const unheld = total === 0 ? unheldValues({ deps }, caller.principal, args) : [];
        const text = listText(matches, total, args.offset);
        return toolAnswer(
          { matches, total, offset: args.offset },
          unheld.length === 0 ? text : `${text.replace(/\.$/, "")}: ${unheld.join("; ")}.`,
        );
      }),
  );
}

/**
 * When nothing passes, which filter value alone matches nothing this connection may open: an empty list
 * must not read as "none yet" for a mistyped game. A game or framing that is neither in the catalog nor
 * in the record is refused, naming the catalog's; a player the record does not hold is named.
 */
function unheldValues(
  { deps }: Pick<ToolContext, "deps">,
  principal: string,
  args: { player?: string; game?: string; framing?: string },
): string[] {
  const none = (filter: { players?: string[]; games?: string[]; framings?: string[] }) =>
    deps.store.countMatchSummaries({ principal, ...filter }) === 0;
  const { catalog } = deps;
  if (
    args.game !== undefined &&
    !catalog.games.some((g) => g.id === args.game) &&
    none({ games: [args.game] })
  ) {
    throw new UsageError(
      `Unknown game "${printable(args.game)}"; games: ${catalog.games.map((g) => g.id).join(", ")}.`,
    );
  }
  // An import's framing label is the record's as much as a catalog framing: imported transcripts (held by
  // the principal "local") enter every principal's analyses, so a token host that sees the label in an
  // analysis and asks for its matches is told why none is listed, not that the label is unknown.
  const imported = (framing: string) =>
    principal !== "local" && deps.store.countMatchSummaries({ principal: "local", framings: [framing] }) > 0;
  if (
    args.framing !== undefined &&
    !catalog.framings.some((f) => f.id === args.framing) &&
    none({ framings: [args.framing] }) &&
    !imported(args.framing)
  ) {
    throw new UsageError(
      `Unknown framing "${printable(args.framing)}": no catalog framing and no import label of a match this connection may open; framings: ${catalog.framings.map((f) => f.id).join(", ")}.`,
    );
  }
  const unheld: string[] = [];
  if (args.player !== undefined && none({ players: [args.player] })) {
    unheld.push(`none is of player "${printable(args.player)}"`);
  }
  if (args.game !== undefined && none({ games: [args.game] })) {
    unheld.push(`none is of game ${args.game}`);
  }
  if (args.framing !== undefined && none({ framings: [args.framing] })) {
    unheld.push(`none was played under framing ${printable(args.framing)}`);
  }
  return unheld;
}
