import type { Catalog } from "../domain/catalog.js";

/**
 * Why an imported row's framing cannot be the one its game variant was shown under, or null if it can.
 *
 * A catalog framing id means that framing: the analyses read its story and labels (story-label effects,
 * robustness between framings), so it must be one that certifies for the game variant, as `list_games`
 * reports them — a two-action story cannot have presented a three-action game, nor a repeated-play framing
 * a one-shot game. A label the catalog does not know is a free provenance label only where the import says
 * so (`freeLabels`: `import counts --free-framings`; always for transcripts).
 */
export function importedFramingProblem(
  catalog: Catalog,
  game: string,
  variant: string,
  framing: string,
  freeLabels: boolean,
): string | null {
  const fitting = catalog.framingsFor(game, variant).map((f) => f.id);
  if (fitting.includes(framing)) return null;
  const known = catalog.framings.some((f) => f.id === framing);
  if (!known && freeLabels) return null;
  const valid = `framings that certify for ${game} (${variant}): ${fitting.join(", ") || "none"}`;
  return known
    ? `framing "${framing}" does not present ${game} (${variant}); ${valid}.`
    : `unknown framing "${framing}"; ${valid} (or pass --free-framings to keep the study's own labels).`;
}
