import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseCountsCsv } from "../../src/imports/counts-csv.js";
import { reportData } from "../../src/queries/report-data-query.js";
import { renderReportHtml } from "../../src/report/render-report.js";
import { tempDeps } from "../support/harness.js";

// An imported framing is free text and may hold a line break; the report's charts name framings in
// their titles, and a chart must still be drawn.

let deps: ReturnType<typeof tempDeps>;
beforeEach(() => {
  deps = tempDeps();
});
afterEach(() => deps.dispose());

describe("a framing whose name holds a line break", () => {
  it("gets its report, the shift chart titled with the break shown escaped", async () => {
    const csv = [
      "player,game,framing,action,count",
      'bob,prisoners-dilemma,"fr\nA",cooperate,3',
      "bob,prisoners-dilemma,frB,defect,2",
    ].join("\n");
    const rows = parseCountsCsv(csv, "nl.csv", deps.catalog, { freeFramings: true });
    deps.store.importCounts("nl.csv", rows, "2026-01-01");
    const page = await renderReportHtml(reportData(deps, { bootstrap: 100 }));
    expect(page).toContain("Planned shift fr\\x0aA → frB with 95% intervals");
  });
});
