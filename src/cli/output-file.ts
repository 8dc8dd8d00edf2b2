import { existsSync, statSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { isPostgresUrl } from "../store/engines/database-location.js";
import { UsageError } from "../usage-error.js";

/** The absolute path of an --out FILE, refused up front (before any work) when its folder is missing. */
export function outputPath(flag: string, name = "--out"): string {
  const path = resolve(flag);
  const folder = dirname(path);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    throw new UsageError(`${name} ${flag}: the folder ${folder} does not exist.`);
  }
  if (existsSync(path) && statSync(path).isDirectory()) {
    throw new UsageError(`${name} ${flag} is a folder; give a file name.`);
  }
  return path;
}

/** Writes an output file; a file-system refusal is one sentence naming the path (exit 2), not a stack. */
export function writeOutput(path: string, text: string | Uint8Array): void {
  try {
    writeFileSync(path, text);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`Cannot write ${path}${code ? ` (${code})` : ""}.`);
  }
}

/**
 * Refuses an --out FILE that is the record itself or its -wal or -shm (by path or, through a link, by
 * inode): writing there would overwrite the record, and even opening it outside SQLite would drop the
 * locks SQLite holds on it in this process (see src/store/record-file.ts).
 */
export function refuseRecordAsOutput(out: string, record: string, name = "--out"): void {
  if (isPostgresUrl(record)) return;
  const base = resolve(record);
  for (const file of [base, `${base}-wal`, `${base}-shm`]) {
    if (out === file || sameFile(out, file)) {
      const what = file === base ? "the record" : `the ${file.slice(base.length)} file of the record`;
      throw new UsageError(
        `${name} ${out} is ${what} ${base}: writing it would destroy the record; give another file name.`,
      );
    }
  }
}

function sameFile(a: string, b: string): boolean {
  if (!existsSync(a) || !existsSync(b)) return false;
  const [one, two] = [statSync(a), statSync(b)];
  return one.dev === two.dev && one.ino === two.ino;
}
