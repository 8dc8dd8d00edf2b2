/**
 * The analysis id of an imported session. A label from a file (a conversation id, an epoch "1") is scoped
 * to its import and player: "1" of two imports, or of a counts import and a matches import under one
 * source label, are different sessions. The player is not part of the id because the analyses already
 * match sessions player by player (the joint bootstrap joins a player's cells by id).
 */
export function importedSessionId(kind: "counts" | "matches", source: string, label: string): string {
  return JSON.stringify([kind, source, label]);
}
