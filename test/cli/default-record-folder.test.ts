import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireBuiltCli, runCli } from "../support/built-cli.js";

// Without --db the record lives in the user's data folder, which a CI runner may not let anyone write (a
// read-only home). The verbs that create a record say so in one line naming the folder and the way out,
// instead of an internal failure with a stack. The home here is a regular file, so its .local/share
// cannot be created even by root.

let work: string;
let home: string;
let design: string;

beforeAll(() => {
  requireBuiltCli();
  work = mkdtempSync(join(tmpdir(), "same-game-default-folder-"));
  home = join(work, "home");
  writeFileSync(home, "a file where the home folder should be");
  design = join(work, "study.json");
  writeFileSync(
    design,
    JSON.stringify({
      name: "ci",
      games: ["prisoners-dilemma"],
      framings: ["business"],
      trials_per_cell: 1,
      seed: 1,
    }),
  );
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The CLI with no record named anywhere, so the default folder under HOME is used. */
const withoutDb = (args: string[]) =>
  runCli(args, { HOME: home, XDG_DATA_HOME: "", SAME_GAME_DB: "", SAME_GAME_CERT_CACHE: "0" });

describe("the default record's folder cannot be created", () => {
  const expected = (): string =>
    `same-game: Cannot create the folder of the record ${join(home, ".local", "share", "same-game", "same-game.db")}: ${home} is a file, not a folder. Give the record another place with --db FILE (or SAME_GAME_DB=FILE).\n`;

  it.skipIf(process.platform !== "linux")("study register says so in one line, exit 2", () => {
    const run = withoutDb(["study", "register", design]);
    expect(run.stderr).toBe(expected());
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
  });

  it.skipIf(process.platform !== "linux")("import counts --reference says so in one line, exit 2", () => {
    const run = withoutDb(["import", "counts", "--reference", "lore-heydari-2024"]);
    expect(run.stderr).toBe(expected());
    expect(run.status).toBe(2);
  });
});
