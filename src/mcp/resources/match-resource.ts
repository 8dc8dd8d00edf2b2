import {
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  ResourceTemplate,
} from "@modelcontextprotocol/server";
import type { ToolContext } from "../tool-context.js";

/**
 * `same-game://matches/{id}`: the full record of a match for the operator — condition, seed, action order,
 * every round and every attempt verbatim. Resources are read by the host application, not chosen by the
 * model, so unlike the play tools this view names the game, variant and framing.
 */
export function registerMatchResource(server: McpServer, { deps, caller }: ToolContext): void {
  server.registerResource(
    "match",
    new ResourceTemplate("same-game://matches/{id}", { list: undefined }),
    {
      title: "Match record",
      description: "A match with its full provenance and every attempt",
      mimeType: "application/json",
    },
    async (uri, { id }) => {
      const match = deps.store.getMatch(String(id));
      if (!match || match.principal !== caller.principal) {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `No match with id "${String(id)}" for this client.`,
        );
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
