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

/**
 * The player label of a decision: the server's configuration first (the operator decides what is being
 * evaluated), then the tool's `player` argument, then the MCP client's own name and version.
 */
export function playerLabel(caller: Caller, requested: string | undefined): string {
  if (caller.configuredPlayer) return caller.configuredPlayer;
  if (requested && requested.trim() !== "") return requested.trim();
  const client = caller.clientInfo();
  return client ? `${client.name}@${client.version}` : "anonymous";
}
