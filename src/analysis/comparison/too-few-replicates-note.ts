import type { ComparedPair } from "./compare-groups.js";

const show = (x: number) => Number(x.toPrecision(3)).toString();

/**
 * A pair's bootstrap p-value is never below 1/(1 + B) (its tail counts the estimate itself), so over a
 * family of m pairs Holm's smallest adjusted p is m/(1 + B). When that is above 1 − confidence no pair can
 * be significant whatever the record, while its intervals and ranks still look decisive: the note says so.
 * Null when B lets the largest family reach the level.
 */
export function tooFewReplicatesNote(
  pairs: readonly Pick<ComparedPair, "measure">[],
  bootstrap: number,
  confidence: number,
): string | null {
  const alpha = 1 - confidence;
  const family = new Map<string, number>();
  for (const p of pairs) family.set(p.measure, (family.get(p.measure) ?? 0) + 1);
  const m = Math.max(0, ...family.values());
  if (m === 0 || Math.min(1, m / (1 + bootstrap)) <= alpha) return null;
  // The fewest replicates that pass the same comparison (m/α − 1, give or take α's last bit).
  let needed = Math.max(1, Math.floor(m / alpha - 1));
  while (m / (1 + needed) > alpha) needed++;
  const pairsText = m === 1 ? "the only pair of a measure" : `the ${m} pairs of a measure`;
  return (
    `With ${bootstrap} bootstrap replicate${bootstrap === 1 ? "" : "s"} a pair's p-value is at least ` +
    `1/${bootstrap + 1} = ${show(1 / (bootstrap + 1))}, so Holm's adjusted p over ${pairsText} is at least ` +
    `${show(Math.min(1, m / (bootstrap + 1)))}, above 1 − confidence = ${show(alpha)}: no pair can be significant ` +
    `at this level whatever the record, and the intervals and ranks rest on too few replicates to trust. ` +
    `Ask for ${needed} or more (bootstrap, 10000 by default).`
  );
}
