import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseCountsCsv } from "../../src/imports/counts-csv.js";
import { reportData } from "../../src/queries/report-data-query.js";
import { robustnessReport } from "../../src/queries/robustness-query.js";
import { robustnessText } from "../../src/queries/robustness-text.js";
import { renderReportHtml } from "../../src/report/render-report.js";
import { tempDeps } from "../support/harness.js";

// A player is resampled by session only where one of its sessions made several decisions; the captions
// say which players were resampled how when a record holds both kinds.

let deps: ReturnType<typeof tempDeps>;
beforeEach(() => {
  deps = tempDeps();
  // mixed|agent: session s2 made 3 decisions under plain (resampled by session); det-bot and gamma have
  // no sessions (resampled by decision).
  const csv = [
    "player,game,framing,session,action,count",
    "det-bot,prisoners-dilemma,plain,,defect,3",
    "det-bot,prisoners-dilemma,ta|le,,defect,2",
    "mixed|agent,prisoners-dilemma,plain,s1,cooperate,2",
    "mixed|agent,prisoners-dilemma,plain,s2,cooperate,2",
    "mixed|agent,prisoners-dilemma,plain,s2,defect,1",
    "mixed|agent,prisoners-dilemma,ta|le,s1,cooperate,1",
    "mixed|agent,prisoners-dilemma,ta|le,s3,defect,3",
    "gamma,stag-hunt,plain,,cooperate,1",
    "gamma,stag-hunt,ta|le,,defect,1",
  ].join("\n");
  deps.store.importCounts(
    "hand",
    parseCountsCsv(csv, "hand.csv", deps.catalog, { freeFramings: true }),
    "2026-01-01",
  );
});
afterEach(() => deps.dispose());

describe("the resampling unit in captions", () => {
  it("names each unit's players where they differ", async () => {
    const query = { framings: ["plain", "ta|le"], bootstrap: 200, seed: 1 };
    const report = robustnessReport(deps, query);
    expect(report.players.map((p) => [p.player, p.unit])).toEqual([
      ["det-bot", "decision"],
      ["gamma", "decision"],
      ["mixed|agent", "session"],
    ]);
    expect(robustnessText(report).split("\n")[1]).toBe(
      "Bootstrap B = 200, seed 1, unit session (mixed|agent) and decision (det-bot, gamma), attenuation 1.",
    );
    const page = await renderReportHtml(reportData(deps, query));
    expect(page).toContain(
      "200 bootstrap replicates resampling by session (mixed|agent) and decision (det-bot, gamma), seed 1;",
    );
  });
});
