import { existsSync, statSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
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
