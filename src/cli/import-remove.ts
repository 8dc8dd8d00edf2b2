import { logInfo } from "../log.js";
import { printable } from "../queries/format.js";
import { UsageError } from "../usage-error.js";
import { type ParsedArgs, stringFlag } from "./command.js";
import { withDeps } from "./open-deps.js";

/**
 * `import remove --source LABEL`: deletes everything imported under one source label (its counts and its
 * transcripts), so a wrong import can be taken out — a matches source can be imported only once, and
 * imported decisions in a cell with live ones stop the analyses until they are gone. Live play is never
 * touched.
 */
export async function removeImport(args: ParsedArgs, file: string | undefined): Promise<void> {
  if (file !== undefined)
    throw new UsageError(`import remove takes no file, only --source LABEL (got "${printable(file)}").`);
  for (const flag of ["reference", "free-framings"] as const) {
    if (args.values[flag] !== undefined) throw new UsageError(`--${flag} does not apply to import remove.`);
  }
  const source = stringFlag(args, "source");
  if (source === undefined) throw new UsageError("import remove needs --source LABEL, the import to remove.");
  await withDeps(
    args,
    ({ store }, dbPath) => {
      const sources = [
        ...new Set([
          ...store.importedCountSources().map((s) => s.source),
          ...store.importedMatchSources().map((s) => s.source),
        ]),
      ].sort();
      if (!sources.includes(source)) {
        throw new UsageError(
          `No import under source "${printable(source)}" in ${dbPath}; ${sources.length === 0 ? "the record holds no imports" : `its sources: ${sources.map((s) => `"${printable(s)}"`).join(", ")}`}.`,
        );
      }
      const removed = store.removeImportedSource(source);
      const parts = [
        ...(removed.count_rows > 0 ? [`${removed.count_rows} count rows`] : []),
        ...(removed.matches > 0 ? [`${removed.matches} match(es) with ${removed.decisions} decisions`] : []),
      ];
      logInfo(`removed source "${printable(source)}" (${parts.join(" and ")}) from ${dbPath}`);
    },
    { write: true },
  );
}
