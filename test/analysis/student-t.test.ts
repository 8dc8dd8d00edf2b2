import { describe, expect, it } from "vitest";
import { studentQuantile, studentUpperTail } from "../../src/analysis/sampling/student-t.js";

describe("Student's t", () => {
  it("gives the textbook two-sided 95% quantiles and their tails", () => {
    // t_{0.975}: ν = 1 → 12.706, 2 → 4.303, 10 → 2.228, 30 → 2.042; ν → ∞ → 1.960.
    expect(studentQuantile(0.025, 1)).toBeCloseTo(12.7062, 3);
    expect(studentQuantile(0.025, 2)).toBeCloseTo(4.3027, 3);
    expect(studentQuantile(0.025, 10)).toBeCloseTo(2.2281, 3);
    expect(studentQuantile(0.025, 30)).toBeCloseTo(2.0423, 3);
    expect(studentQuantile(0.025, 1e7)).toBeCloseTo(1.96, 3);
    // ν = 1 is Cauchy: P(T ≥ 1) = ¼.
    expect(studentUpperTail(1, 1)).toBeCloseTo(0.25, 12);
    expect(studentUpperTail(0, 5)).toBe(0.5);
  });
});
