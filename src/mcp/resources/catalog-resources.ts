import { type McpServer, ResourceNotFoundError, ResourceTemplate } from "@modelcontextprotocol/server";
import { printable } from "../../queries/format.js";
import type { ToolContext } from "../tool-context.js";
import { templateVariable } from "./template-variable.js";

/** Ids that start with what the user typed, for completion of resource variables and prompt arguments. */
export function startingWith(ids: readonly string[], typed: string): string[] {
  return ids.filter((id) => id.startsWith(typed));
}

function json(uri: URL, value: unknown) {
  return {
    contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(value, null, 2) }],
  };
}

/** `same-game://games/{id}` and `same-game://framings/{id}`: the certified catalog, for people and hosts. */
export function registerCatalogResources(server: McpServer, { deps }: ToolContext): void {
  const { catalog } = deps;
  const gameIds = catalog.games.map((g) => g.id);
  const framingIds = catalog.framings.map((f) => f.id);
  server.registerResource(
    "game",
    new ResourceTemplate("same-game://games/{id}", {
      list: async () => ({
        resources: catalog.games.map((g) => ({
          uri: `same-game://games/${g.id}`,
          name: g.id,
          title: g.title,
        })),
      }),
      complete: { id: (typed) => startingWith(gameIds, typed) },
    }),
    {
      title: "Game",
      description: "A catalog game: actions, rounds, payoffs of every variant",
      mimeType: "application/json",
    },
    async (uri, variables) => {
      const id = templateVariable(uri, variables, "id");
      const game = catalog.games.find((g) => g.id === id);
      if (!game) {
        throw new ResourceNotFoundError(
          uri.href,
          `Unknown game "${printable(id)}"; games: ${gameIds.join(", ")}.`,
        );
      }
      return json(uri, {
        ...game,
        framings: Object.fromEntries(
          Object.keys(game.variants).map((v) => [v, catalog.framingsFor(game.id, v).map((f) => f.id)]),
        ),
      });
    },
  );
  server.registerResource(
    "framing",
    new ResourceTemplate("same-game://framings/{id}", {
      list: async () => ({
        resources: framingIds.map((id) => ({ uri: `same-game://framings/${id}`, name: id })),
      }),
      complete: { id: (typed) => startingWith(framingIds, typed) },
    }),
    {
      title: "Framing",
      description: "A framing: story, labels, units and wording",
      mimeType: "application/json",
    },
    async (uri, variables) => {
      const id = templateVariable(uri, variables, "id");
      const framing = catalog.framings.find((f) => f.id === id);
      if (!framing) {
        throw new ResourceNotFoundError(
          uri.href,
          `Unknown framing "${printable(id)}"; framings: ${framingIds.join(", ")}.`,
        );
      }
      return json(uri, framing);
    },
  );
}
