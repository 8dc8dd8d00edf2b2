import { UsageError } from "../usage-error.js";

/** Who is calling a play tool: one MCP connection, and the player it plays for. */
export interface Caller {
  /** The MCP session (one per connection); decisions of one session are linked for the cluster bootstrap. */
  readonly sessionId: string;
  readonly transport: "stdio" | "http" | "memory";
  /** Access-control owner of the matches this caller creates ('local' without tokens). */
  readonly principal: string;
  /** `serve --player NAME`: when set, it labels every decision of this server, whatever the client says. */
  readonly configuredPlayer: string | null;
  /** What the MCP client reported about itself at initialization, if anything. */
  clientInfo(): { name: string; version: string } | null;
}

/** The name this server gives itself at initialization (create-server.ts). */
export const SERVER_NAME = "same-game";

/**
 * The player label of a decision: the server's configuration first (the operator decides what is being
 * evaluated), then the tool's `player` argument, then the MCP client's own name and version. A client
 * that introduces itself with this server's own name (the OpenAI Agents SDK names its client after the
 * server it connects to) says nothing about the model behind it, so that name is never used as a label:
 * the call is refused with the two ways to name the player.
 */
export function playerLabel(caller: Caller, requested: string | undefined): string {
  if (caller.configuredPlayer) return caller.configuredPlayer;
  if (requested && requested.trim() !== "") return requested.trim();
  const client = caller.clientInfo();
  if (client && isServerOwnName(client.name)) {
    throw new UsageError(
      `This client introduces itself as "${client.name}@${client.version}", the server's own name, which cannot tell one model from another; pass "player" (the model's name, say) to this tool, or start the server with \`same-game serve --player LABEL\`.`,
    );
  }
  return client ? `${client.name}@${client.version}` : "anonymous";
}

/** The label of a session that only continues matches it did not start (their player is already set). */
export function sessionLabel(caller: Caller): string {
  if (caller.configuredPlayer) return caller.configuredPlayer;
  const client = caller.clientInfo();
  return client && !isServerOwnName(client.name) ? `${client.name}@${client.version}` : "anonymous";
}

function isServerOwnName(name: string): boolean {
  return name.trim().toLowerCase() === SERVER_NAME;
}
