import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { importMatches, parseMatchesJsonl } from "../../src/imports/matches-jsonl.js";
import { packageRoot } from "../../src/package-root.js";
import { reportData } from "../../src/queries/report-data-query.js";
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
});
