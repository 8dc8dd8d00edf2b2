import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseCountsCsv } from "../../src/imports/counts-csv.js";
import { importMatches, parseMatchesJsonl } from "../../src/imports/matches-jsonl.js";
import { packageRoot } from "../../src/package-root.js";
import { reportData } from "../../src/queries/report-data-query.js";
import { renderReportHtml } from "../../src/report/render-report.js";
import { tempDeps } from "../support/harness.js";

// The report's provenance names every source of imported data — match transcripts as well as counts —
// and says whether counts came per session, so a reviewer never takes imported play for live play.

let deps: ReturnType<typeof tempDeps>;
beforeEach(() => {
  deps = tempDeps();
});
afterEach(() => deps.dispose());

describe("the report's provenance of imported data", () => {
  it("lists transcripts and per-session counts as what they are", async () => {
    const text = readFileSync(join(packageRoot(), "test", "fixtures", "imported-matches.jsonl"), "utf8");
    importMatches(deps, parseMatchesJsonl(text, "imported-matches.jsonl", deps.catalog), "hand");
    // Two sessions of one player: 3 + 2 decisions under business, 4 under friend-sharing.
    const csv = [
      "player,session,game,framing,action,count",
      "p,s1,prisoners-dilemma,business,cooperate,3",
      "p,s2,prisoners-dilemma,business,defect,2",
      "p,s1,prisoners-dilemma,friend-sharing,cooperate,4",
    ].join("\n");
    deps.store.importCounts("mine", parseCountsCsv(csv, "mine.csv", deps.catalog), "2026-01-01");

    const imported = reportData(deps, { bootstrap: 100 }).header.provenance?.imported ?? [];
    expect(imported.map(({ citation, ...s }) => s)).toEqual([
      { source: "mine", kind: "counts", rows: 3, decisions: 9, sessions: 2, players: ["p"] },
      {
        source: "hand",
        kind: "transcripts",
        rows: 2,
        decisions: expect.any(Number),
        players: ["model-x"],
        sessions: null,
      },
    ]);
    const page = await renderReportHtml(reportData(deps, { bootstrap: 100 }));
    expect(page).toMatch(
      /<strong><bdi>mine<\/bdi><\/strong>: 3 count rows \(counts of 2 sessions\), 9 decisions, players <bdi>p<\/bdi>\./,
    );
    expect(page).toMatch(
      /<strong><bdi>hand<\/bdi><\/strong>: 2 match transcripts, \d+ decisions, players <bdi>model-x<\/bdi>\./,
    );
    expect(page).not.toContain("No imported data");
  });

  it("marks an imported transcript's player in the repeated-play table, as it marks imported counts' players", async () => {
    const text = readFileSync(join(packageRoot(), "test", "fixtures", "imported-matches.jsonl"), "utf8");
    importMatches(deps, parseMatchesJsonl(text, "imported-matches.jsonl", deps.catalog), "hand");
    const page = await renderReportHtml(reportData(deps, { bootstrap: 100 }));
    const repeated = /<section id="repeated">.*?<\/section>/s.exec(page)?.[0] ?? "";
    expect(repeated).toContain(
      '<tr><td>model-x <span class="imported" title="imported data">(imported: hand)</span></td><td>repeated-pd</td>',
    );
  });
});
