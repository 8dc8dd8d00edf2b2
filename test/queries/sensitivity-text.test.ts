import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseCountsCsv } from "../../src/imports/counts-csv.js";
import { sensitivityReport, sensitivityText } from "../../src/queries/sensitivity-query.js";
import { tempDeps } from "../support/harness.js";

// λ is defined for two-action games only. On a record of a three-action game the tables hold dashes; the
// text must say why, as the JSON's `reason` fields do, and not claim to have checked λ values it has none of.

let deps: ReturnType<typeof tempDeps>;
beforeEach(() => {
  deps = tempDeps();
});
afterEach(() => deps.dispose());

describe("analyze sensitivity's text on a record of a three-action game", () => {
  it("says λ needs a two-action game", () => {
    const csv = [
      "player,game,framing,action,count",
      "p,coordination-3x3,abstract-matrix,left,3",
      "p,coordination-3x3,neutral-narrative,middle,3",
    ].join("\n");
    deps.store.importCounts("three", parseCountsCsv(csv, "three.csv", deps.catalog), "2026-01-01");
    const report = sensitivityReport(deps, { bootstrap: 50 });
    const text = sensitivityText(report);
    expect(text).toContain(
      "λ̂ of coordination-3x3 not estimated: λ needs a two-action game; 'coordination-3x3' has 3 actions.",
    );
    expect(text).toContain("No pooled λ for p/abstract-matrix, p/neutral-narrative.");
    expect(report.checks.find((c) => c.name === "lambda_in_range")?.detail).toBe(
      "No λ was estimated, so none to check (the cells' reasons say why).",
    );
  });
});
