import { describe, expect, it } from "vitest";
import { jensenShannon } from "../../src/domain/divergence.js";

describe("jensenShannon", () => {
  it("gives ¾·ln(4/3) for (½, ½) against (1, 0)", () => {
    // m = ((½ + 1)/2, (½ + 0)/2) = (¾, ¼).
    // KL(p‖m) = ½ ln(½ / ¾) + ½ ln(½ / ¼) = ½ ln(2/3) + ½ ln 2 = ½ ln(4/3).
    // KL(q‖m) = 1·ln(1 / ¾) + 0·ln(0 / ¼) = ln(4/3)            (0·log 0 = 0).
    // JSD = ½·½ ln(4/3) + ½·ln(4/3) = ¾ ln(4/3) ≈ 0.215762.
    expect(jensenShannon([0.5, 0.5], [1, 0])).toBeCloseTo(0.75 * Math.log(4 / 3), 14);
    expect(jensenShannon([1, 0], [0.5, 0.5])).toBeCloseTo(0.75 * Math.log(4 / 3), 14);
  });

  it("is 0 for identical distributions and ln 2 for disjoint ones, with any number of actions", () => {
    expect(jensenShannon([0.2, 0.3, 0.5], [0.2, 0.3, 0.5])).toBe(0);
    // Disjoint supports: m puts ½ of each mass where p (or q) has it, so KL(p‖m) = KL(q‖m) = ln 2.
    expect(jensenShannon([0.5, 0.5, 0, 0], [0, 0, 0.25, 0.75])).toBeCloseTo(Math.LN2, 14);
  });

  it("refuses distributions over different numbers of actions", () => {
    expect(() => jensenShannon([1, 0], [1, 0, 0])).toThrow(/2 and 3 actions/);
  });
});
