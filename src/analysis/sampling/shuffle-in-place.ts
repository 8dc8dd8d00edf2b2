import type { UniformSource } from "./fast-rng.js";

/** A Fisher–Yates shuffle of `order` in place, one uniform per swap from the last place down. */
export function shuffleInPlace(order: Int32Array, rng: UniformSource): void {
  for (let i = order.length - 1; i > 0; i--) {
    const j = (rng.next() * (i + 1)) | 0;
    const swap = order[i] as number;
    order[i] = order[j] as number;
    order[j] = swap;
  }
}
