import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { dashboardData, namesIn } from "../../src/app/dashboard-data.js";
import { toolArguments, UNTOUCHED } from "../../src/app/filters.js";
import { leaderboard } from "../../src/queries/leaderboard-query.js";
import { connectClient, tempDeps } from "../support/harness.js";
import { importCounts } from "../support/imported-counts.js";

// What the dashboard makes of a compare result (the tool's structuredContent through the SDK Client), and the
// arguments its filters call compare with. The browser half is test/app/dashboard-view.test.ts.

let deps: ReturnType<typeof tempDeps>;
beforeEach(() => {
  deps = tempDeps();
});
afterEach(() => deps.dispose());

describe("the dashboard's compare view data", () => {
  it("builds the very leaderboard the report and the export show, and offers the players as the filter's choices", async () => {
    // R: dominant 1 (always defects), the twins 1 − JSD((0.1, 0.9), (0.9, 0.1)) / ln 2 = 0.469 each.
    await importCounts(deps, {
      twin: { business: 3, friend: 27 },
      dominant: { business: 0, friend: 0 },
      "twin-too": { business: 3, friend: 27 },
    });
    const client = await connectClient(deps, { clientName: "dashboard-host" });
    try {
      await client.listTools();
      const result = await client.callTool({ name: "compare", arguments: { bootstrap: 500, seed: 3 } });
      const data = dashboardData(result.structuredContent as Record<string, unknown>);
      expect(data?.source).toBe("compare");
      expect(data?.leaderboard).toEqual(leaderboard(deps, { bootstrap: 500, seed: 3 }));
      expect(
        data?.leaderboard?.rows.filter((r) => r.measure === "R").map((r) => [r.group, r.rank.ci]),
      ).toEqual([
        ["dominant", [1, 1]],
        ["twin", [2, 3]],
        ["twin-too", [2, 3]],
      ]);
      // 3 pairs of each compared measure; the one-shot record skips repeated play's three.
      expect(data?.comparison?.pairs.filter((p) => p.measure === "R")).toHaveLength(3);
      expect(data?.comparison?.skipped.map((s) => s.measure)).toEqual(
        expect.arrayContaining(["points", "cooperation", "comprehension_m"]),
      );
      expect(data && namesIn(data)).toEqual({
        players: ["dominant", "twin", "twin-too"],
        games: ["prisoners-dilemma"],
        framings: ["business", "friend-sharing"],
        repeatedFramings: [],
      });
    } finally {
      await client.close();
    }
  });

  it("a comparison by style names no player; the filters pass games, study and framings, never one player", () => {
    const byStyle = dashboardData({
      by: "style",
      confidence: 0.95,
      bootstrap: 100,
      seed: 1,
      variant: "base",
      study_id: null,
      framings: ["business", "team"],
      ranked_games: ["prisoners-dilemma"],
      groups: ["cot", "zero-shot"],
      pairs: [],
      ranks: [
        {
          measure: "R",
          group: "zero-shot",
          estimate: 0.5,
          ci: [0.4, 0.6],
          rank: { estimate: 2, ci: [2, 2] },
          tied_group: 2,
        },
        {
          measure: "R",
          group: "cot",
          estimate: 0.9,
          ci: [0.8, 1],
          rank: { estimate: 1, ci: [1, 1] },
          tied_group: 1,
        },
      ],
      skipped: [],
    });
    // Sorted best first, as the report sorts.
    expect(byStyle?.leaderboard?.rows.map((r) => r.group)).toEqual(["cot", "zero-shot"]);
    expect(byStyle && namesIn(byStyle).players).toEqual([]);
    const filters = {
      ...UNTOUCHED,
      player: "cot",
      group: "cot",
      game: "pd",
      study: "s1",
      baseline: "team",
      comparison: "business",
    };
    expect(toolArguments("compare", { by: "style", bootstrap: 100, players: ["a", "b"] }, filters)).toEqual({
      by: "style",
      bootstrap: 100,
      players: ["a", "b"],
      games: ["pd"],
      study_id: "s1",
      framings: ["team", "business"],
    });
  });
});
