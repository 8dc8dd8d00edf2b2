import type { Client } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { confidenceLevel } from "../../src/queries/format.js";
import { storyLabelReport, storyLabelText } from "../../src/queries/story-label-query.js";
import { connectClient, tempDeps } from "../support/harness.js";
import { importCounts } from "../support/imported-counts.js";

// The text twin of an analysis names the level its intervals were computed at: the level asked for, to the
// digits it was asked in. The robustness and payoff-sensitivity tables said "95% CI" at any confidence,
// and compare and story-labels rounded to a whole percent ("100%" for 0.999, "98%" for 0.975).

let deps: ReturnType<typeof tempDeps>;
let client: Client;
beforeEach(async () => {
  deps = tempDeps();
  await importCounts(deps, {
    swayed: { business: 3, friend: 27 },
    steady: { business: 15, friend: 16 },
  });
  client = await connectClient(deps);
});
afterEach(async () => {
  await client.close();
  deps.dispose();
});

/** The first content block of a tool's answer, with the level its structured result reports. */
async function answer(name: string, confidence: number): Promise<{ text: string; level: unknown }> {
  const result = await client.callTool({ name, arguments: { confidence, bootstrap: 200 } });
  expect(result.isError).toBeFalsy();
  const [first] = result.content as { type: string; text: string }[];
  return {
    text: first?.text ?? "",
    level: (result.structuredContent as { confidence?: unknown }).confidence,
  };
}

describe("the confidence level in text", () => {
  it("is written to the digits it was given in", () => {
    expect(confidenceLevel(0.95)).toBe("95%");
    expect(confidenceLevel(0.8)).toBe("80%");
    expect(confidenceLevel(0.999)).toBe("99.9%");
    expect(confidenceLevel(0.975)).toBe("97.5%");
    expect(confidenceLevel(0.5)).toBe("50%");
    expect(confidenceLevel(0.9999)).toBe("99.99%");
  });

  for (const [confidence, level] of [
    [0.999, "99.9%"],
    [0.5, "50%"],
  ] as const) {
    it(`heads the interval columns of robustness, payoff_sensitivity and compare at ${confidence}`, async () => {
      const robustness = await answer("robustness", confidence);
      expect(robustness.level).toBe(confidence);
      expect(robustness.text).toContain(`R ${level} CI`);
      expect(robustness.text).toContain(`shift ${level} CI`);
      expect(robustness.text).not.toContain("95%");

      const sensitivity = await answer("payoff_sensitivity", confidence);
      expect(sensitivity.level).toBe(confidence);
      expect(sensitivity.text).toContain(`pooled λ  ${level} CI`);
      expect(sensitivity.text).not.toContain("95%");

      const compare = await answer("compare", confidence);
      expect(compare.level).toBe(confidence);
      expect(compare.text).toContain(`simultaneous ${level} rank intervals`);
      expect(compare.text).toContain(`R ${level} CI`);
      expect(compare.text).not.toMatch(/\b(95|100)% /);
    });
  }

  it("states story-labels' level as given", () => {
    const report = storyLabelReport(deps, { bootstrap: 200, confidence: 0.999 });
    expect(storyLabelText(report)).toContain("seed 1, 99.9% intervals.");
  });
});
