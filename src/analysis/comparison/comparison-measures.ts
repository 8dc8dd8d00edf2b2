/**
 * The measures a comparison can hold, in the order it reports them. A module of its own (no imports) so the
 * dashboard's browser bundle can order a leaderboard the same way without pulling in the analysis.
 */
export const COMPARISON_MEASURES = [
  "R",
  "shift",
  "lambda",
  "exploitability",
  "points",
  "cooperation",
  "comprehension_m",
] as const;
export type ComparisonMeasure = (typeof COMPARISON_MEASURES)[number];
