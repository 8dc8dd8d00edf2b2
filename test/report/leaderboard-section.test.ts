import { Ajv as Ajv07 } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { leaderboard } from "../../src/queries/leaderboard-query.js";
import { reportData } from "../../src/queries/report-data-query.js";
import { renderReportHtml } from "../../src/report/render-report.js";
import { connectClient, tempDeps } from "../support/harness.js";
import { importCounts } from "../support/imported-counts.js";

// The report's leaderboard on hand-checkable records: the ranks of `compare` (one query for the report,
// the dashboard and the export), as a table in rank order and a forest plot, or one sentence with fewer
// than two players.

let deps: ReturnType<typeof tempDeps>;
beforeEach(() => {
  deps = tempDeps();
});
afterEach(() => deps.dispose());

/** The leaderboard table's rows as [rank, player, R, CI, rank interval, tied group] text. */
function tableRows(page: string): string[][] {
  const section = /<section id="leaderboard">[\s\S]*?<\/section>/.exec(page)?.[0] ?? "";
  const table = /<table class="stack leaderboard">[\s\S]*?<\/table>/.exec(section)?.[0] ?? "";
  return [...table.matchAll(/<tr><td[\s\S]*?<\/tr>/g)].map((row) =>
    [...row[0].matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((cell) =>
      (cell[1] as string).replace(/<span[\s\S]*?<\/span>/g, "").trim(),
    ),
  );
}

describe("the report's leaderboard", () => {
  it("ranks an always-dominant player first with the rank interval 1, the tied twins below it together", async () => {
    await importCounts(deps, {
      twin: { business: 3, friend: 27 },
      dominant: { business: 0, friend: 0 },
      "twin-too": { business: 3, friend: 27 },
    });
    const data = reportData(deps, { bootstrap: 2000, seed: 3 });
    // The report shows exactly what the shared query gives under the same settings.
    expect(data.leaderboard).toEqual(leaderboard(deps, { bootstrap: 2000, seed: 3 }));
    const page = await renderReportHtml(data);
    // R of the twins = 1 − JSD((0.1, 0.9), (0.9, 0.1)) / ln 2 = 1 − 0.368 / 0.693 = 0.469, the same for both.
    const rows = tableRows(page);
    expect(rows.map((r) => [r[0], r[1], r[2], r[4], r[5]])).toEqual([
      ["1", "dominant", "1.000", "1", "1"],
      ["2", "twin", "0.469", "2–3", "2"],
      ["2", "twin-too", "0.469", "2–3", "2"],
    ]);
    const section = /<section id="leaderboard">[\s\S]*?<\/section>/.exec(page)?.[0] ?? "";
    // The forest plot: one row per player in rank order, the twins' tier in one colour, named in the legend.
    expect(section).toContain('role="img" aria-label="Leaderboard: R by player with 95% intervals"');
    expect([...section.matchAll(/<text x="-7" y="[\d.]+">([^<]+)<\/text>/g)].map((m) => m[1])).toEqual([
      "dominant",
      "twin",
      "twin-too",
    ]);
    expect(section).toContain(">tier 1</text>");
    expect(section).toContain(">tier 2</text>");
    expect(page).toContain('<a href="#leaderboard">');
  });

  it("comes with the report tool's result, validated against its advertised schema (draft-07 and 2020-12)", async () => {
    await importCounts(deps, { swayed: { business: 3, friend: 27 }, dominant: { business: 0, friend: 0 } });
    const client = await connectClient(deps, { clientName: "dashboard-host" });
    try {
      const { tools } = await client.listTools();
      const schema = tools.find((t) => t.name === "report")?.outputSchema as object;
      const result = await client.callTool({ name: "report", arguments: { bootstrap: 500, seed: 3 } });
      for (const ajv of [new Ajv07({ allErrors: true }), new Ajv2020({ allErrors: true })]) {
        const validate = ajv.compile(schema);
        expect(validate(result.structuredContent), ajv.errorsText(validate.errors)).toBe(true);
      }
      const board = (result.structuredContent as { leaderboard: { rows: { measure: string }[] } })
        .leaderboard;
      expect(board).toEqual(leaderboard(deps, { bootstrap: 500, seed: 3 }));
      expect(board.rows.filter((r) => r.measure === "R")).toMatchObject([
        { group: "dominant", estimate: 1, rank: { estimate: 1, ci: [1, 1] }, tied_group: 1 },
        { group: "swayed", rank: { estimate: 2, ci: [2, 2] }, tied_group: 2 },
      ]);
    } finally {
      await client.close();
    }
  });

  it("is one sentence saying why when the record has a single player", async () => {
    await importCounts(deps, { alone: { business: 20, friend: 10 } });
    const data = reportData(deps, { bootstrap: 200 });
    expect(data.leaderboard).toBeNull();
    const page = await renderReportHtml(data);
    const section = /<section id="leaderboard">[\s\S]*?<\/section>/.exec(page)?.[0] ?? "";
    expect(section).toBe(
      `<section id="leaderboard"><h2>Leaderboard</h2><p class="no-data">No leaderboard: A comparison needs at least two groups; the record has only &#39;alone&#39;.</p></section>`,
    );
  });
});
