import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { pValue } from "../../src/queries/format.js";
import { robustnessReport } from "../../src/queries/robustness-query.js";
import { robustnessText } from "../../src/queries/robustness-text.js";
import { tempDeps } from "../support/harness.js";
import { importCounts } from "../support/imported-counts.js";

// A permutation p-value is (1 + #)/(1 + B), never 0: the text tables print it as "< 0.001", not 0.000.

let deps: ReturnType<typeof tempDeps>;
beforeEach(() => {
  deps = tempDeps();
});
afterEach(() => deps.dispose());

describe("p-values in text", () => {
  it("print below 0.001 as < 0.001 and otherwise with three decimals", () => {
    expect(pValue(1 / 2001)).toBe("< 0.001");
    expect(pValue(0.001)).toBe("0.001");
    expect(pValue(0.0426)).toBe("0.043");
    expect(pValue(0.00004, 4)).toBe("< 0.0001");
    expect(pValue(null)).toBe("—");
  });

  it("in analyze robustness's table: 3 of 30 cooperate under business, 27 of 30 among friends", async () => {
    await importCounts(deps, { swayed: { business: 3, friend: 27 } });
    const report = robustnessReport(deps, { bootstrap: 2000, seed: 1 });
    // No permutation of these counts comes near the observed divergence: p = 1/2001.
    expect(report.games[0]?.invariance.p_value).toBeCloseTo(1 / 2001, 10);
    const row = robustnessText(report)
      .split("\n")
      .find((l) => l.startsWith("swayed") && l.includes("prisoners-dilemma"));
    expect(row).toMatch(/\] {2}< 0\.001 {7}/);
    expect(row).not.toContain("0.000 ");
  });
});
