/**
 * An interval's level as the view writes it: 0.95 → "95%", 0.8 → "80%", 0.975 → "97.5%". The tools take
 * any confidence in (0, 1), so the view reads it from the result instead of assuming 95%, and never rounds
 * a level to one the interval was not computed at.
 */
export function intervalLevel(confidence: number): string {
  return `${Number((confidence * 100).toFixed(2))}%`;
}
