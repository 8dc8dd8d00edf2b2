import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { parseCommandArgs } from "../../src/cli/command.js";
import { importCommand } from "../../src/cli/import.js";
import type { EngineKind } from "../../src/store/engines/engine.js";
import { tempDeps } from "../support/harness.js";
import { describeEachEngine } from "../support/postgres.js";

// The default source label of `import counts` is the file's base name, so the exports of two machines,
// both `counts.csv`, arrive under one label. Importing the same content again changes nothing; different
// content under a label that holds counts is refused until the user says which they meant: another
// --source to add it, or --replace.

const HEADER = "player,game,framing,action,count";
const MACHINE_A = `${HEADER}\nmodel-A,prisoners-dilemma,business,cooperate,3\nmodel-A,prisoners-dilemma,friend-sharing,cooperate,5\n`;
const MACHINE_B = `${HEADER}\nmodel-B,prisoners-dilemma,business,cooperate,4\nmodel-B,prisoners-dilemma,friend-sharing,defect,4\n`;

const importCounts = async (argv: string[]) =>
  importCommand.run(parseCommandArgs(importCommand, ["counts", ...argv]));

describeEachEngine("import counts under a source label that holds counts", (engine: EngineKind) => {
  let deps: ReturnType<typeof tempDeps>;
  let a: string;
  let b: string;
  /** source, player and decisions of every stored row, in a fixed order. */
  const stored = () =>
    deps.store
      .importedCountSources()
      .flatMap((s) =>
        deps.store
          .importedCountsOf(s.source)
          .map((r) => `${s.source} ${r.player} ${r.framing} ${r.action} ${r.count}`),
      )
      .sort();
  const A_ROWS = ["counts.csv model-A business cooperate 3", "counts.csv model-A friend-sharing cooperate 5"];

  beforeEach(async () => {
    deps = tempDeps(engine);
    for (const [machine, text] of [
      ["machA", MACHINE_A],
      ["machB", MACHINE_B],
    ] as const) {
      mkdirSync(join(deps.dir, machine));
      writeFileSync(join(deps.dir, machine, "counts.csv"), text);
    }
    a = join(deps.dir, "machA", "counts.csv");
    b = join(deps.dir, "machB", "counts.csv");
    await importCounts([a, "--db", deps.dbPath]);
  });
  afterEach(() => deps.dispose());

  it("takes the same content again as a no-op", async () => {
    const version = deps.store.recordVersion();
    // Another copy of the same rows, in another order, is the same content.
    const shuffled = join(deps.dir, "counts.csv");
    writeFileSync(
      shuffled,
      `${HEADER}\nmodel-A,prisoners-dilemma,friend-sharing,cooperate,5\nmodel-A,prisoners-dilemma,business,cooperate,3\n`,
    );
    await importCounts([a, "--db", deps.dbPath]);
    await importCounts([shuffled, "--db", deps.dbPath]);
    expect(stored()).toEqual(A_ROWS);
    expect(deps.store.recordVersion()).toBe(version);
  });

  it("refuses other counts under that label, naming what it holds and both ways forward, and changes nothing", async () => {
    await expect(importCounts([b, "--db", deps.dbPath])).rejects.toThrow(
      `${b}: the source "counts.csv" already holds other counts (2 rows, 8 decisions; player model-A); nothing was imported: pass --source OTHER to add this file beside them, or --replace to replace them with this file.`,
    );
    expect(stored()).toEqual(A_ROWS);
  });

  it("adds the other file under another --source, or replaces the first with --replace", async () => {
    await importCounts([b, "--source", "machB/counts.csv", "--db", deps.dbPath]);
    expect(stored()).toEqual([
      ...A_ROWS,
      "machB/counts.csv model-B business cooperate 4",
      "machB/counts.csv model-B friend-sharing defect 4",
    ]);
    await importCounts([b, "--replace", "--db", deps.dbPath]);
    expect(stored()).toEqual([
      "counts.csv model-B business cooperate 4",
      "counts.csv model-B friend-sharing defect 4",
      "machB/counts.csv model-B business cooperate 4",
      "machB/counts.csv model-B friend-sharing defect 4",
    ]);
  });
});
