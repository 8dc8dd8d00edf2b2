// Gamma draws for the Dirichlet propensities of simulated sessions (the session-design null and the
// benches that simulate its records), from a seeded stream's uniforms.
import type { UniformSource } from "./fast-rng.js";

/** Gamma(shape, 1): Marsaglia & Tsang (2000), with u^(1/shape) for shapes below 1. */
export function gamma(shape: number, rng: UniformSource): number {
  if (shape < 1) return gamma(shape + 1, rng) * (1 - rng.next()) ** (1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = 1 - rng.next();
    if (u < 1 - 0.0331 * x ** 4 || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}
