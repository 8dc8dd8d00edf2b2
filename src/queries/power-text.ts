import type { PowerResult } from "../analysis/power/power.js";
import { fixed } from "./format.js";

export function powerText(result: PowerResult): string {
  const t = result.shift_test as unknown as Record<string, number | string>;
  const r = result.r2_precision as unknown as Record<string, number | string>;
  return [
    `Shift test: ${t.test}.`,
    ...Object.entries(t)
      .filter(([k]) => k !== "test")
      .map(([k, v]) => `  ${k}: ${typeof v === "number" && !Number.isInteger(v) ? fixed(v, 4) : v}`),
    "R2 precision (by simulation with the same bootstrap):",
    ...Object.entries(r).map(
      ([k, v]) => `  ${k}: ${typeof v === "number" && !Number.isInteger(v) ? fixed(v, 4) : v}`,
    ),
    ...(result.invariance_test === null
      ? []
      : [
          `Invariance test (exclude R = 1 at true R = ${result.invariance_test.true_r}): ${result.invariance_test.test}.`,
          ...Object.entries(result.invariance_test as unknown as Record<string, number | string>)
            .filter(([k]) => k !== "test" && k !== "true_r")
            .map(([k, v]) => `  ${k}: ${typeof v === "number" && !Number.isInteger(v) ? fixed(v, 4) : v}`),
        ]),
  ].join("\n");
}
