import { basename } from "node:path";
import { loadCatalog } from "../domain/catalog.js";
import { parseCountsCsv } from "../imports/counts-csv.js";
import { differentCountsError, sameCounts } from "../imports/counts-source.js";
import { readImportFile } from "../imports/import-file.js";
import { refuseCellsWithLivePlay } from "../imports/live-cell-clash.js";
import { checkSourceLabel } from "../imports/source-label.js";
import { logInfo } from "../log.js";
import { printable } from "../queries/format.js";
import { referenceDataset } from "../reference-data/reference-data.js";
import { UsageError } from "../usage-error.js";
import { type ParsedArgs, stringFlag } from "./command.js";
import { withDeps } from "./open-deps.js";

/**
 * `import counts FILE.csv | --reference ID [--source LABEL] [--replace] [--free-framings]`: published aggregate counts
 * (or counts per session of another harness) beside live play. Every row is checked against the catalog
 * (game, variant, action, framing) before anything is written. A source label that holds counts already
 * takes the same file again as a no-op, and different counts only with --replace (see counts-source.ts).
 */
export async function importCounts(args: ParsedArgs, file: string | undefined): Promise<void> {
  const { path, source } = importedFile(args, file, "counts");
  const text = readImportFile(path);
  // Checked before the record is opened: a refused file must not leave a new, empty record behind.
  const catalog = loadCatalog();
  const rows = parseCountsCsv(text, path, catalog, { freeFramings: args.values["free-framings"] === true });
  await withDeps(
    args,
    ({ store }, dbPath) => {
      const stored = store.importedCountsOf(source);
      if (stored.length > 0 && sameCounts(stored, rows)) {
        logInfo(
          `${printable(path)} holds exactly the ${rows.length} count rows already imported as "${printable(source)}" into ${dbPath}; nothing changed.`,
        );
        return;
      }
      store.transaction(() => {
        // Read again inside the transaction: what the refusal names is what the record holds.
        const held = store.importedCountsOf(source);
        if (held.length > 0 && args.values.replace !== true) throw differentCountsError(path, source, held);
        refuseCellsWithLivePlay(store, rows, path, "edit the player column of the CSV");
        store.importCounts(source, rows, store.nowIso());
      });
      const decisions = rows.reduce((sum, r) => sum + r.count, 0);
      // A session is a label of one player (the same label under two players is two sessions).
      const sessions = new Set(
        rows.filter((r) => r.session !== undefined).map((r) => JSON.stringify([r.player, r.session])),
      ).size;
      const replaced = stored.length > 0 ? `, replacing its ${stored.length} earlier rows` : "";
      logInfo(
        `imported ${rows.length} count rows (${decisions} decisions${sessions > 0 ? `, ${sessions} sessions` : ""}) from ${printable(path)} as "${source}" into ${dbPath}${replaced}`,
      );
    },
    { create: true, catalog },
  );
}

/** The file an import reads, from FILE or --reference ID, and the source label it is stored under. */
export function importedFile(
  args: ParsedArgs,
  file: string | undefined,
  kind: "counts" | "matches",
): { path: string; source: string } {
  const reference = stringFlag(args, "reference");
  if (reference !== undefined) {
    if (file !== undefined)
      throw new UsageError(`import ${kind} takes a file or --reference, not both (got "${file}").`);
    const dataset = referenceDataset(reference, kind);
    return { path: dataset.path, source: checkSourceLabel(stringFlag(args, "source") ?? dataset.id) };
  }
  if (file === undefined) throw new UsageError(`import ${kind} needs a file name or --reference ID.`);
  return { path: file, source: checkSourceLabel(stringFlag(args, "source") ?? basename(file)) };
}
