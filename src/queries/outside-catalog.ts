import { type Catalog, UnknownCatalogIdError } from "../domain/catalog.js";
import { splitPresentationId } from "../domain/label-sets.js";
import type { Store } from "../store/store.js";
import { UsageError } from "../usage-error.js";

// A record played with a user's catalog (`--catalog DIR`) names games and framings the shipped catalog
// lacks. Read without that catalog, the first lookup of one of them fails deep in an analysis; the user
// never typed its id, so "Unknown game" alone would not tell them what to do.

/** The games and framing files a record (its play, imports and study designs) names beyond the catalog. */
export interface OutsideCatalog {
  readonly games: readonly string[];
  readonly framings: readonly string[];
}

/** What of the record the catalog cannot read: games, and framing files by id (label sets aside). */
export function recordOutsideCatalog(store: Store, catalog: Catalog): OutsideCatalog {
  const { games, framings } = store.recordedGamesAndFramings();
  const named = { games: new Set(games), framings: new Set(framings) };
  for (const study of store.listStudies()) {
    const design = JSON.parse(study.design_json) as { games?: unknown; framings?: unknown };
    for (const game of Array.isArray(design.games) ? design.games : []) named.games.add(String(game));
    for (const framing of Array.isArray(design.framings) ? design.framings : [])
      named.framings.add(String(framing));
  }
  return outsideOf(catalog, [...named.games], [...named.framings]);
}

/** Which of these games and framings (presentation ids or framing ids) the catalog does not hold. */
export function outsideOf(
  catalog: Catalog,
  games: readonly string[],
  framings: readonly string[],
): OutsideCatalog {
  const knownGames = new Set(catalog.games.map((game) => game.id));
  const knownFramings = new Set(catalog.framings.map((framing) => framing.presentation.framing));
  const files = framings.map((id) => splitPresentationId(id).framing);
  return {
    games: [...new Set(games)].filter((id) => !knownGames.has(id)).sort(),
    framings: [...new Set(files)].filter((id) => !knownFramings.has(id)).sort(),
  };
}

/** "games asym-three, tri-weighted and framings garden-tri": what is missing, named. */
export function outsideCatalogNames(outside: OutsideCatalog): string {
  const parts = [
    outside.games.length > 0 ? `game${outside.games.length > 1 ? "s" : ""} ${outside.games.join(", ")}` : "",
    outside.framings.length > 0
      ? `framing${outside.framings.length > 1 ? "s" : ""} ${outside.framings.join(", ")}`
      : "",
  ].filter((part) => part !== "");
  return parts.join(" and ");
}

/** The sentence for a record read without the catalog it was played with. */
export function outsideCatalogText(outside: OutsideCatalog, catalog: Catalog): string {
  const loaded =
    catalog.userDir === null ? "the shipped catalog" : `the loaded catalog (with ${catalog.userDir})`;
  return `The record holds ${outsideCatalogNames(outside)} not in ${loaded}; pass --catalog DIR, the folder of games and framings it was played with (or set SAME_GAME_CATALOG).`;
}

/**
 * Runs `work`; an unknown game or framing it meets that the record itself names (not one the user typed)
 * becomes the sentence above, naming everything of the record the catalog lacks.
 */
export async function withCatalogGapsNamed<T>(
  store: Store,
  catalog: Catalog,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw catalogGapNamed(store, catalog, error);
  }
}

/** The error to show for `error`: the sentence above when it is an id the record holds, else itself. */
export function catalogGapNamed(store: Store, catalog: Catalog, error: unknown): unknown {
  if (!(error instanceof UnknownCatalogIdError) || error.entry === null) return error;
  const outside = recordOutsideCatalog(store, catalog);
  const id = error.entry === "game" ? error.id : splitPresentationId(error.id).framing;
  const held = error.entry === "game" ? outside.games : outside.framings;
  return held.includes(id) ? new UsageError(outsideCatalogText(outside, catalog)) : error;
}
