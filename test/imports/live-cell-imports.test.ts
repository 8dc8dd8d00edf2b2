import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { parseCommandArgs } from "../../src/cli/command.js";
import { importCommand } from "../../src/cli/import.js";
import { oneShotCells } from "../../src/queries/one-shot-cells.js";
import type { EngineKind } from "../../src/store/engines/engine.js";
import { tempDeps } from "../support/harness.js";
import { describeEachEngine } from "../support/postgres.js";
import { playSmallRecord } from "../support/small-one-shot-record.js";

// Imported and live decisions may not share a one-shot cell: an analysis resamples a cell by its live
// sessions or by its imported records, never both. An import that would make such a cell is refused before
// anything is written; a record an older version let one into names the import and `import remove` takes
// it out. The live record is the small one of playSmallRecord: p plays prisoners-dilemma business 4 times
// (1 cooperate, 3 defect) and friend-sharing once; q plays business once.

const importCli = async (argv: string[]) => importCommand.run(parseCommandArgs(importCommand, argv));

const oneShotLine = (player: string, framing: string) =>
  JSON.stringify({
    player,
    game: "prisoners-dilemma",
    variant: "base",
    framing,
    opponent: "always-defect",
    rounds: [{ move: "cooperate", opponent_move: "defect", payoff: 2, opponent_payoff: 10 }],
  });

describeEachEngine("imports into cells of live play", (engine: EngineKind) => {
  let deps: ReturnType<typeof tempDeps>;
  const file = (name: string, text: string) => {
    const path = join(deps.dir, name);
    writeFileSync(path, text);
    return path;
  };
  const cellsOf = (player: string) =>
    oneShotCells(deps.store, { players: [player], variants: ["base"] }).map((c) => [c.framing, c.counts]);

  beforeEach(() => {
    deps = tempDeps(engine);
    playSmallRecord(deps.store);
  });
  afterEach(() => deps.dispose());

  it("refuses counts for a cell with live decisions, naming the cell, and stores none of the file", async () => {
    const csv = file(
      "counts.csv",
      "player,game,framing,action,count\nq,prisoners-dilemma,business,cooperate,3\nq,prisoners-dilemma,friend-sharing,defect,2\n",
    );
    await expect(importCli(["counts", csv, "--db", deps.dbPath])).rejects.toThrow(
      /live decisions in the cell \(player \/ game \/ variant \/ framing\) q \/ prisoners-dilemma \/ base \/ business, .*nothing was imported: give the imported decisions another player label \(edit the player column of the CSV\)/,
    );
    expect(deps.store.importedCountSources()).toEqual([]);
    expect(cellsOf("q")).toEqual([["business", { cooperate: 1 }]]);
    // Under another player label the same counts sit beside live play.
    const renamed = file(
      "renamed.csv",
      "player,game,framing,action,count\nq-published,prisoners-dilemma,business,cooperate,3\n",
    );
    await importCli(["counts", renamed, "--db", deps.dbPath]);
    expect(cellsOf("q-published")).toEqual([["business", { cooperate: 3 }]]);
  });

  it("refuses a one-shot transcript for a cell with live decisions, and its source stays free", async () => {
    const jsonl = file(
      "transcripts.jsonl",
      `${oneShotLine("elsewhere", "business")}\n${oneShotLine("p", "friend-sharing")}\n`,
    );
    await expect(importCli(["matches", jsonl, "--db", deps.dbPath])).rejects.toThrow(
      /cell \(player \/ game \/ variant \/ framing\) p \/ prisoners-dilemma \/ base \/ friend-sharing, .*\(edit the player field of those lines\)/,
    );
    expect(deps.store.importedMatchSources()).toEqual([]);
    const corrected = file(
      "fixed.jsonl",
      `${oneShotLine("elsewhere", "business")}\n${oneShotLine("p-elsewhere", "friend-sharing")}\n`,
    );
    await importCli(["matches", corrected, "--source", "transcripts.jsonl", "--db", deps.dbPath]);
    expect(deps.store.importedMatchSources().map((s) => [s.source, s.matches])).toEqual([
      ["transcripts.jsonl", 2],
    ]);
  });

  it("names the import that an older version let into a live cell, and import remove takes it out", async () => {
    // What an older version stored without asking: counts of p in p's live business cell.
    deps.store.importCounts(
      "old counts.csv",
      [
        {
          player: "p",
          game: "prisoners-dilemma",
          variant: "base",
          framing: "business",
          action: "cooperate",
          count: 4,
        },
      ],
      "2026-12-02T00:00:00.000Z",
    );
    expect(() => cellsOf("p")).toThrow(
      `Player "p" has both live and imported decisions for prisoners-dilemma / business (imported from source "old counts.csv"), which no analysis can resample together; run same-game import remove --source 'old counts.csv', then import that file again under another player label (until then, --players without this player analyses the others).`,
    );
    await importCli(["remove", "--source", "old counts.csv", "--db", deps.dbPath]);
    expect(cellsOf("p")).toEqual([
      ["business", { cooperate: 1, defect: 3 }],
      ["friend-sharing", { cooperate: 1 }],
    ]);
    expect(deps.store.importedCountSources()).toEqual([]);
  });

  it("removes an imported source's transcripts with their decisions and tallies, so it can be imported again", async () => {
    const jsonl = file(
      "t.jsonl",
      `${oneShotLine("elsewhere", "business")}\n${oneShotLine("elsewhere", "business")}\n`,
    );
    await importCli(["matches", jsonl, "--db", deps.dbPath]);
    expect(cellsOf("elsewhere")).toEqual([["business", { cooperate: 2 }]]);
    await expect(importCli(["matches", jsonl, "--db", deps.dbPath])).rejects.toThrow(
      /already imported \(2 matches\)/,
    );
    await importCli(["remove", "--source", "t.jsonl", "--db", deps.dbPath]);
    expect(cellsOf("elsewhere")).toEqual([]);
    expect(deps.store.importedMatchSources()).toEqual([]);
    // The live play is all still there: the 6 matches of p and q.
    expect(deps.store.listMatches({}).map((m) => m.id)).toEqual(["m1", "m2", "m3", "m4", "m5", "m6"]);
    await importCli(["matches", jsonl, "--db", deps.dbPath]);
    expect(cellsOf("elsewhere")).toEqual([["business", { cooperate: 2 }]]);
    await expect(importCli(["remove", "--source", "nothing.csv", "--db", deps.dbPath])).rejects.toThrow(
      'No import under source "nothing.csv" in',
    );
  });
});
