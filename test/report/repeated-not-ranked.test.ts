import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { importMatches, parseMatchesJsonl } from "../../src/imports/matches-jsonl.js";
import { packageRoot } from "../../src/package-root.js";
import { compareReport } from "../../src/queries/compare-query.js";
import { reportData } from "../../src/queries/report-data-query.js";
import { renderReportHtml } from "../../src/report/render-report.js";
import { tempDeps } from "../support/harness.js";

// When the leaderboard cannot rank repeated play, its sentence says what the record lacks and what would
// add it: matches of the ranked variant, or a second player.

let deps: ReturnType<typeof tempDeps>;
beforeEach(() => {
  deps = tempDeps();
});
afterEach(() => deps.dispose());

/** Finished repeated transcripts from a file of the package, imported as source "thesis". */
function importTranscripts(...path: string[]): void {
  const text = readFileSync(join(packageRoot(), ...path), "utf8");
  importMatches(deps, parseMatchesJsonl(text, path.join("/"), deps.catalog), "thesis");
}

const repeatedReason = () =>
  reportData(deps, { bootstrap: 100 }).missing?.find((m) => m.section === "leaderboard-repeated")?.reason;

describe("why the report does not rank repeated play", () => {
  it("names the variants the record's matches are of when none is of the ranked one", () => {
    // The shipped thesis traces: claude-sonnet-4's repeated-pd of variant joint and rock-paper-scissors of label.
    importTranscripts("data", "llm-gm-thesis", "traces.jsonl");
    expect(repeatedReason()).toBe(
      "No finished repeated matches match variant base (the record's finished repeated matches are of variants label, joint; repeated play is ranked within one variant, base here, and same-game analyze compare --variant ranks another); play repeated matches of variant base or import transcripts (same-game import matches).",
    );
  });

  it("says a second player is needed when one player alone has matches", () => {
    // Two base-variant repeated-pd matches of model-x only.
    importTranscripts("test", "fixtures", "imported-matches.jsonl");
    expect(repeatedReason()).toBe(
      "The repeated matches cannot be compared: Points needs finished repeated matches of at least two groups; only 'model-x' has some. To rank repeated play, play repeated matches with another player or import transcripts (same-game import matches).",
    );
  });
  it("says no condition was played by every player, as compare does, when the players share none all round", async () => {
    // ann and bob played repeated-pd against "tft" (2 matches each), cy against "defector" only: ann and bob
    // are compared, yet no condition was played by all three, so no ranks. The record has finished
    // repeated matches, so "the record has no finished repeated matches" would be wrong.
    const stage: Record<string, [number, number]> = {
      "cooperate,cooperate": [4, 4],
      "cooperate,defect": [1, 6],
      "defect,cooperate": [6, 1],
      "defect,defect": [2, 2],
    };
    const line = (player: string, opponent: string, own: string, other: string) =>
      JSON.stringify({
        player,
        game: "repeated-pd",
        variant: "base",
        framing: "plain",
        opponent,
        rounds: Array.from({ length: 16 }, () => {
          const [payoff, opponent_payoff] = stage[`${own},${other}`] as [number, number];
          return { move: own, opponent_move: other, payoff, opponent_payoff };
        }),
      });
    const text = [
      line("ann", "tft", "cooperate", "cooperate"),
      line("ann", "tft", "defect", "defect"),
      line("bob", "tft", "cooperate", "cooperate"),
      line("bob", "tft", "cooperate", "defect"),
      line("cy", "defector", "defect", "defect"),
      line("cy", "defector", "cooperate", "defect"),
    ].join("\n");
    importMatches(deps, parseMatchesJsonl(text, "three.jsonl", deps.catalog), "three");
    const why = [
      "Points: no repeated condition was played by every group, so no ranks are given.",
      "Cooperation: no repeated condition was played by every group, so no ranks are given.",
      "Comprehension m: no repeated condition was played by every group, so no ranks are given.",
    ];
    // analyze compare (and the compare tool) says so in its notes …
    expect(compareReport(deps, { one_shot: false, bootstrap: 100 }).notes).toEqual(
      expect.arrayContaining(why),
    );
    // … and the report's leaderboard says the same, in its data and on the page.
    const data = reportData(deps, { bootstrap: 100 });
    expect(data.missing?.find((m) => m.section === "leaderboard-repeated")?.reason).toBe(why.join(" "));
    const section =
      /<section id="leaderboard">[\s\S]*?<\/section>/.exec(await renderReportHtml(data))?.[0] ?? "";
    expect(section).toContain(`Repeated play is not ranked: ${why.join(" ")}`);
    expect(section).not.toContain("no finished repeated matches");
  });
  it("names other variants by model only where a model is recorded for them", () => {
    // Imported transcripts record no model: base (model-x) and label, joint (the thesis traces) alike. So
    // `compare --by model` finds nothing in any variant and must not point to --variant label or joint.
    importTranscripts("data", "llm-gm-thesis", "traces.jsonl");
    importMatches(
      deps,
      parseMatchesJsonl(
        readFileSync(join(packageRoot(), "test", "fixtures", "imported-matches.jsonl"), "utf8"),
        "base.jsonl",
        deps.catalog,
      ),
      "base",
    );
    expect(() => compareReport(deps, { by: "model", bootstrap: 100 })).toThrow(
      "No one-shot decisions or finished repeated matches match variant base with a recorded model; play some trials or import counts (same-game import counts), or play repeated matches of variant base or import transcripts (same-game import matches).",
    );
    // By player the other variants are there to rank, and the refusal says so.
    expect(() => compareReport(deps, { players: ["claude-sonnet-4"], bootstrap: 100 })).toThrow(
      /the record's finished repeated matches are of variants label, joint/,
    );
  });
});
