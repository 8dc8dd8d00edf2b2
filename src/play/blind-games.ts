import { createHash } from "node:crypto";
import type { Catalog } from "../domain/catalog.js";
import { printable } from "../queries/format.js";
import { UsageError } from "../usage-error.js";

/**
 * The player's surface names no game: a game is shown as an opaque, stable handle derived from its id,
 * so an agent under evaluation cannot read what it is playing from the tool it calls.
 */
export function blindGameId(gameId: string): string {
  return `game-${createHash("sha256").update(gameId, "utf8").digest("hex").slice(0, 8)}`;
}

/** The catalog id behind a handle (or a catalog id given as such); unknown ones list the handles. */
export function resolveBlindGame(catalog: Catalog, handle: string): string {
  const game = catalog.games.find((g) => g.id === handle || blindGameId(g.id) === handle);
  if (!game) {
    throw new UsageError(
      `Unknown game "${printable(handle)}"; games: ${catalog.games.map((g) => blindGameId(g.id)).join(", ")} (from list_games).`,
    );
  }
  return game.id;
}
