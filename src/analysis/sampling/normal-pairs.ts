// Standard normals for the normal approximations (the cluster bootstrap's session sums, the session-design
// null's framing sums): Box–Muller pairs from a seeded stream's uniforms, read a block at a time, so one
// seed gives the same draws whichever approximation asks.
import type { UniformSource } from "./fast-rng.js";

/** Uniforms per block (two per pair of normals). */
const BLOCK = 1 << 14;

/** A reader of `rng`'s uniforms in order, filling a block of them at a time. */
export function blockUniforms(rng: UniformSource): () => number {
  const uniforms = new Float64Array(BLOCK);
  let used = BLOCK;
  return () => {
    if (used === BLOCK) {
      rng.fill(uniforms, BLOCK);
      used = 0;
    }
    return uniforms[used++] as number;
  };
}

/** normals[0 .. count) (count rounded up to even: `normals` holds one more) by Box–Muller, two uniforms a pair. */
export function fillNormalPairs(normals: Float64Array, count: number, nextUniform: () => number): void {
  for (let c = 0; c < count; c += 2) {
    const radius = Math.sqrt(-2 * Math.log(1 - nextUniform()));
    const angle = 2 * Math.PI * nextUniform();
    normals[c] = radius * Math.cos(angle);
    normals[c + 1] = radius * Math.sin(angle);
  }
}
