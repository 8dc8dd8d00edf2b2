import { describe, expect, it } from "vitest";
import { confidenceLevel } from "../../src/queries/format.js";

describe("the confidence level as the texts and the dashboard write it", () => {
  it("writes the confidence the tool was given, never rounded to another level", () => {
    expect(confidenceLevel(0.95)).toBe("95%");
    expect(confidenceLevel(0.8)).toBe("80%");
    // Math.round would say 98%, an interval the tool did not compute.
    expect(confidenceLevel(0.975)).toBe("97.5%");
    expect(confidenceLevel(0.999)).toBe("99.9%");
    expect(confidenceLevel(0.5)).toBe("50%");
  });
});
