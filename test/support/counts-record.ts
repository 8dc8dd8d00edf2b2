import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { runCli } from "./built-cli.js";

/**
 * A record in `dir` holding these count rows (`player,game,framing,action,count` lines), imported through
 * the built CLI as a user would; returns its path. `freeFramings`: the framings are labels of the file's
 * own (`--free-framings`), not the catalog's.
 */
export function countsRecord(
  dir: string,
  name: string,
  rows: readonly string[],
  { freeFramings = false } = {},
): string {
  const csv = join(dir, `${name}.csv`);
  writeFileSync(csv, `player,game,framing,action,count\n${rows.join("\n")}\n`);
  const db = join(dir, `${name}.db`);
  const run = runCli(["import", "counts", csv, ...(freeFramings ? ["--free-framings"] : []), "--db", db]);
  expect(run.status, run.stderr).toBe(0);
  return db;
}
