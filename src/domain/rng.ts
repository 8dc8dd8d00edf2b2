import seedrandom from "seedrandom";

/** A uniform generator on [0, 1). Every random choice of the server goes through one of these. */
export type Rng = () => number;

/** The one seeded generator a match, study or bootstrap uses; the same seed gives the same stream. */
export function createRng(seed: string | number): Rng {
  const generator = seedrandom(String(seed));
  return () => generator.quick();
}

/** A uniform integer in [0, n). */
export function randomIndex(rng: Rng, n: number): number {
  return Math.floor(rng() * n);
}

/** A new array with the items in a uniformly random order (Fisher–Yates). */
export function shuffled<T>(rng: Rng, items: readonly T[]): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomIndex(rng, i + 1);
    const tmp = out[i] as T;
    out[i] = out[j] as T;
    out[j] = tmp;
  }
  return out;
}
