import type { PlannedContrast, StudyDesign } from "./study-design.js";

/**
 * Whether a planned contrast was registered for every one of these games: one listing `games` was planned
 * there only, one without covers all the design's games. Elsewhere the same pair is exploratory, and a
 * result pooled over games is planned only if every game in it is.
 */
export function contrastCovers(contrast: PlannedContrast, games: readonly string[]): boolean {
  const planned = contrast.games;
  return planned === undefined || games.every((game) => planned.includes(game));
}

/** The default pair of an analysis over these games: the first planned contrast that covers them all. */
export function defaultContrast(
  design: Pick<StudyDesign, "planned_contrasts">,
  games: readonly string[],
): PlannedContrast | undefined {
  return design.planned_contrasts.find((contrast) => contrastCovers(contrast, games));
}

/** Whether baseline → comparison (`framings` [0] → [1]) over these games is a contrast the design planned. */
export function isPlannedPair(
  design: Pick<StudyDesign, "planned_contrasts">,
  framings: readonly string[],
  games: readonly string[],
): boolean {
  return design.planned_contrasts.some(
    (c) => c.baseline === framings[0] && c.comparison === framings[1] && contrastCovers(c, games),
  );
}

/**
 * When the pair analysed is a planned contrast registered for some of the analysed games only: a sentence
 * saying where it was planned and how to analyse exactly that; undefined otherwise.
 */
export function partlyPlannedText(
  design: Pick<StudyDesign, "planned_contrasts">,
  framings: readonly string[],
  games: readonly string[],
): string | undefined {
  if (isPlannedPair(design, framings, games)) return undefined;
  const contrast = design.planned_contrasts.find(
    (c) =>
      c.baseline === framings[0] &&
      c.comparison === framings[1] &&
      games.some((game) => c.games?.includes(game)),
  );
  const planned = contrast?.games;
  if (!contrast || !planned) return undefined;
  const outside = games.filter((game) => !planned.includes(game));
  return `The planned contrast ${contrast.baseline} → ${contrast.comparison} was registered for ${planned.join(", ")} only; over ${outside.join(", ")} it is exploratory, and so is this result pooled over ${games.join(", ")} (--games ${planned.join(",")} analyses the planned contrast alone).`;
}
