import { type McpServer, ResourceNotFoundError, ResourceTemplate } from "@modelcontextprotocol/server";
import { printable } from "../../queries/format.js";
import type { ToolContext } from "../tool-context.js";
import { templateVariable } from "./template-variable.js";

/** How many of the newest matches resources/list shows; older ones are still read by id. */
const MATCH_LISTING_LIMIT = 200;
/** Completion answers are short lists (the specification caps them at 100). */
const COMPLETION_LIMIT = 100;

/**
 * `same-game://matches/{id}`: the full record of a match for the operator — condition, seed, action order,
 * every round and every attempt verbatim. Resources are read by the host application, not chosen by the
 * model, so unlike the play tools this view names the game, variant and framing.
 */
export function registerMatchResource(server: McpServer, { deps, caller }: ToolContext): void {
  server.registerResource(
    "match",
    new ResourceTemplate("same-game://matches/{id}", {
      // Only this principal's matches, newest first: to another token they do not exist.
      list: () => ({
        resources: deps.store.listPrincipalMatches(caller.principal, MATCH_LISTING_LIMIT).map((m) => ({
          uri: `same-game://matches/${m.id}`,
          name: m.id,
          title: `${m.game} / ${m.variant} / ${m.framing} — ${m.player} (${m.status})`,
          mimeType: "application/json",
        })),
      }),
      complete: {
        id: (typed) =>
          deps.store.listPrincipalMatches(caller.principal, COMPLETION_LIMIT, typed ?? "").map((m) => m.id),
      },
    }),
    {
      title: "Match record",
      description: "A match with its full provenance and every attempt",
      mimeType: "application/json",
    },
    async (uri, variables) => {
      const id = templateVariable(uri, variables, "id");
      const match = deps.store.getMatch(id);
      if (!match || match.principal !== caller.principal) {
        throw new ResourceNotFoundError(uri.href, `No match with id "${printable(id)}" for this client.`);
      }
      // Each round with the exact prompt text it answered (stored once per distinct text, by hash).
      const rounds = deps.store.listDecisions(match.id).map((decision) => ({
        ...decision,
        prompt: decision.prompt_hash ? (deps.store.getPrompt(decision.prompt_hash) ?? null) : null,
        attempts: deps.store.listAttempts(match.id, decision.round),
      }));
      const text = JSON.stringify({ match, rounds }, null, 2);
      return { contents: [{ uri: uri.href, mimeType: "application/json", text }] };
    },
  );
}
