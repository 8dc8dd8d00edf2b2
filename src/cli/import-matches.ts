import { basename } from "node:path";
import { importMatches, parseMatchesJsonl } from "../imports/matches-jsonl.js";
import { logInfo } from "../log.js";
import { type ParsedArgs, stringFlag } from "./command.js";
import { readText } from "./import-counts.js";
import { withDeps } from "./open-deps.js";

/**
 * `import matches FILE.jsonl [--source LABEL]`: transcripts of repeated games played elsewhere, validated
 * line by line against the catalog and stored all or nothing under the source (default: the file's name).
 */
export async function importMatchesFile(args: ParsedArgs, file: string): Promise<void> {
  const text = readText(file);
  const source = stringFlag(args, "source") ?? basename(file);
  await withDeps(args, (deps, dbPath) => {
    const matches = parseMatchesJsonl(text, basename(file), deps.catalog);
    const count = importMatches(deps, matches, source);
    logInfo(`imported ${count} match(es) from ${file} as source "${source}" into ${dbPath}`);
  });
}
