import { expect, it } from "vitest";
import { TOOLSET_NAMES } from "../../src/mcp/toolsets.js";
import { connectClient, tempDeps } from "../support/harness.js";

// A host shows the agent each tool's description and nothing else before the call. The long analyses
// must say there that they can take seconds and that asking the same of an unchanged record gives the
// same numbers from a cache (an agent re-asking for "another draw" must change the seed), within the 1,024
// characters a provider allows a function description.

const LONG = ["robustness", "compare", "report", "power", "payoff_sensitivity"];

it("the long analyses' listed descriptions say a call takes seconds and repeats come from the cache", async () => {
  const deps = tempDeps();
  try {
    const client = await connectClient(deps, { toolsets: TOOLSET_NAMES });
    const { tools } = await client.listTools();
    for (const name of LONG) {
      const description = tools.find((t) => t.name === name)?.description ?? "";
      expect(description, name).toMatch(/Takes seconds on a large record/);
      expect(description, name).toMatch(/answered from a cache with the same numbers, and another seed/);
      expect(description.length, name).toBeLessThanOrEqual(1024);
    }
    // A play tool is quick and not cached: it says nothing of the kind.
    expect(tools.find((t) => t.name === "submit_move")?.description).not.toMatch(/cache/);
    await client.close();
  } finally {
    deps.dispose();
  }
});
