// Sessions written out one by one in a test, as the flat arrays the test inversion reads.
import type { FramingSessions } from "../../src/analysis/robustness/framing-sessions.js";

/** Sessions listed one by one (`id`, if any, a number shared across framings) as `FramingSessions`. */
export function framingSessions(
  list: readonly { readonly id?: number; readonly x: number; readonly n: number; readonly weight: number }[],
): FramingSessions {
  const x = Float64Array.from(list, (s) => s.x);
  const n = Float64Array.from(list, (s) => s.n);
  const weight = Float64Array.from(list, (s) => s.weight);
  if (list.some((s) => s.id === undefined)) return { x, n, weight };
  return { x, n, weight, id: Int32Array.from(list, (s) => s.id as number) };
}
