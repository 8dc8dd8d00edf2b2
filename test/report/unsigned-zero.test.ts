import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCountsCsv } from "../../src/imports/counts-csv.js";
import { fixed } from "../../src/queries/format.js";
import { reportData } from "../../src/queries/report-data-query.js";
import { robustnessReport } from "../../src/queries/robustness-query.js";
import { robustnessText } from "../../src/queries/robustness-text.js";
import { renderReportHtml } from "../../src/report/render-report.js";
import { tempDeps } from "../support/harness.js";

// One number, one text on every surface. zed's shift is +1/3 in the prisoner's dilemma (0/3 → 1/3
// cooperate) and −1/3 in the stag hunt (3/3 → 2/3), so its player shift, the mean, is 0 — which floating
// point computes as 1/3 + (2/3 − 1) = −2.8e−17. The dashboard always printed that as 0.000; the CLI's
// table, the tools' text and the HTML report printed -0.000, a sign that is rounding noise, not a direction.

let deps: ReturnType<typeof tempDeps>;
beforeAll(() => {
  deps = tempDeps();
  const csv = [
    "player,game,framing,action,count",
    "zed,prisoners-dilemma,business,cooperate,0",
    "zed,prisoners-dilemma,business,defect,3",
    "zed,prisoners-dilemma,friend-sharing,cooperate,1",
    "zed,prisoners-dilemma,friend-sharing,defect,2",
    "zed,stag-hunt,business,cooperate,3",
    "zed,stag-hunt,business,defect,0",
    "zed,stag-hunt,friend-sharing,cooperate,2",
    "zed,stag-hunt,friend-sharing,defect,1",
  ].join("\n");
  deps.store.importCounts("zed", parseCountsCsv(csv, "zed.csv", deps.catalog), "2026-01-01");
});
afterAll(() => deps.dispose());

describe("a shift that rounds to zero", () => {
  it("is 0.000 in the CLI's table and the tools' text, and in the one formatter every surface uses", () => {
    const report = robustnessReport(deps, { bootstrap: 100, framings: ["business", "friend-sharing"] });
    const shift = report.players[0]?.shift?.estimate as number;
    // The JSON keeps the value computed (the checks compare it with the unrounded mean of its games).
    expect(shift).toBeLessThan(0);
    expect(shift).toBeGreaterThan(-1e-12);
    // The CLI's tables, the report and the dashboard write numbers with this one function.
    expect(fixed(shift)).toBe("0.000");
    const text = robustnessText(report);
    const row = text.split("\n").find((l) => l.startsWith("zed") && l.includes("(all games)")) ?? "";
    expect(row.split(/\s{2,}/)[6]).toBe("0.000");
    expect(text).not.toContain("-0.000");
  });

  it("is 0.000 in the HTML report's robustness table", async () => {
    const page = await renderReportHtml(reportData(deps, { bootstrap: 100 }));
    const section = /<section id="robustness">[\s\S]*?<\/section>/.exec(page)?.[0] ?? "";
    // zed's "all games" row: R, its interval, then the shift.
    expect(section).toMatch(
      /all games<\/em><\/td>(<td[^>]*>[^<]*<\/td>){2}<td[^>]*data-label="Shift">0\.000<\/td>/,
    );
    expect(page).not.toContain("-0.000");
  });
});
