import { describe, expect, it } from "vitest";
import { intervalLevel } from "../../src/app/interval-level.js";

describe("the dashboard's interval level", () => {
  it("writes the confidence the tool was given, never rounded to another level", () => {
    expect(intervalLevel(0.95)).toBe("95%");
    expect(intervalLevel(0.8)).toBe("80%");
    // Math.round would say 98%, an interval the tool did not compute.
    expect(intervalLevel(0.975)).toBe("97.5%");
    expect(intervalLevel(0.999)).toBe("99.9%");
  });
});
