/**
 * The most decisions one cell (player × game × variant × framing) may hold. The bootstrap's exact Binomial
 * sampler keeps a table of about 24 bytes per possible count, so a cell of 10⁶ decisions costs 24 MB; an
 * import above this is refused rather than crashing the analysis later.
 */
export const MAX_CELL_DECISIONS = 1_000_000;
