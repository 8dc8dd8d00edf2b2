import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseCountsCsv } from "../../src/imports/counts-csv.js";
import { reportData } from "../../src/queries/report-data-query.js";
import { renderReportHtml } from "../../src/report/render-report.js";
import { tempDeps } from "../support/harness.js";

// Battle-of-the-sexes and matching-pennies have no cooperative action: no cooperation rate, shift or λ,
// but R and the equilibrium comparison are defined for them, and a record of only such games must show
// those (as `analyze robustness` and the report's own leaderboard do), not read as a record without play.

let deps: ReturnType<typeof tempDeps>;
beforeEach(() => {
  deps = tempDeps();
});
afterEach(() => deps.dispose());

describe("a report of games without a cooperative action", () => {
  it("shows their players, robustness R (no shift) and equilibrium comparison", async () => {
    // The same counts under both framings: R = 1 in each game. Matching pennies 2 heads, 2 tails is its
    // mixed equilibrium (½, ½): total variation 0.
    const csv = [
      "player,game,framing,action,count",
      "p,battle-of-the-sexes,abstract-matrix,opera,3",
      "p,battle-of-the-sexes,abstract-matrix,football,1",
      "p,battle-of-the-sexes,neutral-narrative,opera,3",
      "p,battle-of-the-sexes,neutral-narrative,football,1",
      "p,matching-pennies,abstract-matrix,heads,2",
      "p,matching-pennies,abstract-matrix,tails,2",
      "p,matching-pennies,neutral-narrative,heads,2",
      "p,matching-pennies,neutral-narrative,tails,2",
    ].join("\n");
    deps.store.importCounts("two-games", parseCountsCsv(csv, "two-games.csv", deps.catalog), "2026-01-01");

    const data = reportData(deps, { bootstrap: 200 });
    expect(data.header.players).toEqual(["p"]);
    expect(data.cooperation).toEqual([]);
    expect(data.robustness?.games.map((g) => [g.game, g.R.estimate, g.shift])).toEqual([
      ["battle-of-the-sexes", 1, null],
      ["matching-pennies", 1, null],
    ]);
    const pennies = data.equilibrium?.filter((c) => c.game === "matching-pennies") ?? [];
    expect(pennies.map((c) => c.framing)).toEqual(["abstract-matrix", "neutral-narrative"]);
    for (const cell of pennies) expect(cell.total_variation).toBeCloseTo(0, 12);
    expect(data.equilibrium?.some((c) => c.game === "battle-of-the-sexes")).toBe(true);

    const page = await renderReportHtml(data);
    expect(page).toContain("<dt>Players</dt><dd><bdi>p</bdi>");
    expect(page).not.toContain("No one-shot decisions were recorded");
    expect(page).not.toContain("Robustness not computed");
    expect(page).toContain(
      "No cooperation rates to show: battle-of-the-sexes, matching-pennies have no cooperative action",
    );
    expect(page).not.toContain("No one-shot cells to compare");
    expect(page).not.toContain("Shift = cooperation under");
  });
});
