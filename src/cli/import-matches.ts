import { basename } from "node:path";
import { loadCatalog } from "../domain/catalog.js";
import { readImportFile } from "../imports/import-file.js";
import { refuseCellsWithLivePlay } from "../imports/live-cell-clash.js";
import { importMatches, parseMatchesJsonl } from "../imports/matches-jsonl.js";
import { logInfo } from "../log.js";
import { printable } from "../queries/format.js";
import type { ParsedArgs } from "./command.js";
import { importedFile } from "./import-counts.js";
import { withDeps } from "./open-deps.js";

/**
 * `import matches FILE.jsonl | --reference ID [--source LABEL]`: transcripts of repeated games played
 * elsewhere, validated line by line against the catalog and stored all or nothing under the source
 * (default: the file's name, or the reference id).
 */
export async function importMatchesFile(args: ParsedArgs, file: string | undefined): Promise<void> {
  const { path, source } = importedFile(args, file, "matches");
  const text = readImportFile(path);
  // Checked before the record is opened: a refused file must not leave a new, empty record behind.
  const catalog = loadCatalog();
  const matches = parseMatchesJsonl(text, basename(path), catalog);
  await withDeps(
    args,
    (deps, dbPath) => {
      const count = deps.store.transaction(() => {
        // A match without a framing is stored as "unspecified", a framing live play never has.
        const framed = matches.flatMap((m) =>
          m.framing === undefined ? [] : [{ ...m, framing: m.framing }],
        );
        refuseCellsWithLivePlay(deps.store, framed, basename(path), "edit the player field of those lines");
        return importMatches(deps, matches, source);
      });
      logInfo(`imported ${count} match(es) from ${printable(path)} as source "${source}" into ${dbPath}`);
    },
    { create: true, catalog },
  );
}
