import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { importMatches, parseMatchesJsonl } from "../../src/imports/matches-jsonl.js";
import { compareReport } from "../../src/queries/compare-query.js";
import { tempDeps } from "../support/harness.js";
import { importCounts } from "../support/imported-counts.js";
import { cooperatorAndDefector } from "../support/tft-transcripts.js";

// `compare`'s framings narrow repeated play too (docs/cli.md). On a record of one-shot counts (business,
// friend-sharing) and repeated transcripts (their-prompt), naming the repeated framing was refused as a
// framing "under which nothing matching was played", listing the one-shot framings only: repeated play
// could not be narrowed by framing at all once the record held one-shot decisions.
// The matches are tft-transcripts.ts's: points, by hand, 193/3 = 64.33 for the cooperator and 110/3 = 36.67
// for the defector.

let deps: ReturnType<typeof tempDeps>;
beforeEach(async () => {
  deps = tempDeps();
  await importCounts(deps, { cooperator: { business: 3, friend: 27 }, defector: { business: 0, friend: 0 } });
  const lines = cooperatorAndDefector().join("\n");
  importMatches(deps, parseMatchesJsonl(lines, "hand.jsonl", deps.catalog), "hand");
});
afterEach(() => deps.dispose());

const points = (report: ReturnType<typeof compareReport>) =>
  report.ranks.filter((r) => r.measure === "points").map((r) => [r.group, r.estimate]);

describe("compare's framings on a record of one-shot and repeated play", () => {
  it("narrows to repeated play when the framings named are repeated play's only", () => {
    const report = compareReport(deps, { framings: ["their-prompt"], bootstrap: 200 });
    expect(points(report)).toEqual([
      ["cooperator", 193 / 3],
      ["defector", 110 / 3],
    ]);
    expect(report.ranks.filter((r) => r.measure === "R")).toEqual([]);
    expect(report.skipped.find((s) => s.measure === "R")?.reason).toBe(
      "No one-shot decisions match the filters; only repeated play is compared.",
    );
  });

  it("ranks one-shot play on its framings and repeated play on its own when both are named", () => {
    const report = compareReport(deps, {
      framings: ["business", "friend-sharing", "their-prompt"],
      bootstrap: 200,
    });
    expect(report.framings).toEqual(["business", "friend-sharing"]);
    expect(report.ranks.filter((r) => r.measure === "R").map((r) => r.group)).toEqual([
      "defector",
      "cooperator",
    ]);
    expect(points(report)).toEqual([
      ["cooperator", 193 / 3],
      ["defector", 110 / 3],
    ]);
  });

  it("refuses a framing played under neither, naming every framing with decisions or matches", () => {
    expect(() => compareReport(deps, { framings: ["business", "nope"], bootstrap: 200 })).toThrow(
      "--framings names nope, under which nothing matching was played; framings with decisions: business, friend-sharing, their-prompt.",
    );
  });

  it("refuses a one-shot framing where only repeated play is in scope, naming repeated play's framing", () => {
    // Narrowed to the repeated game, nothing was played under business: the refusal said only that nothing
    // matched the games and variant, as if the record were empty, without naming the framing at fault.
    expect(() =>
      compareReport(deps, { games: ["repeated-pd"], framings: ["business"], bootstrap: 200 }),
    ).toThrow(
      "--framings names business, under which nothing matching was played; framings with decisions: their-prompt.",
    );
  });
});
