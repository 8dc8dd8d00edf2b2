import { withProgress } from "../analysis/progress/analysis-progress.js";
import { type Catalog, loadCatalog } from "../domain/catalog.js";
import type { PlayDeps } from "../play/play-deps.js";
import { printableLines } from "../queries/format.js";
import { withCatalogGapsNamed } from "../queries/outside-catalog.js";
import { Store } from "../store/store.js";
import { UsageError } from "../usage-error.js";
import { analysisProgressLine } from "./analysis-progress-line.js";
import { type ParsedArgs, stringFlag } from "./command.js";
import { isMissingFile, recordName, resolveDatabasePath } from "./database-path.js";
import { requireStudy, withStudyIdsNamed } from "./unknown-study.js";

export interface OpenOptions {
  /** Verbs that record (import) create the file; every other verb reads an existing record read-only. */
  create?: boolean;
  /** A verb that changes a record that must exist already (import remove): writable, never created. */
  write?: boolean;
  /** The catalog the verb already loaded to check its input before any record is opened (or created). */
  catalog?: Catalog;
}

/** Opens the record named by --db / SAME_GAME_DB / the default, with the certified catalog, for one verb. */
export async function withDeps<T>(
  args: ParsedArgs,
  /** `dbPath` is the record as it may be printed (a PostgreSQL URL without its password). */
  work: (deps: PlayDeps, dbPath: string) => T | Promise<T>,
  options: OpenOptions = {},
): Promise<T> {
  const dbPath = resolveDatabasePath(stringFlag(args, "db"), process.env, {
    create: options.create === true,
  });
  if (!options.create && isMissingFile(dbPath)) {
    throw new UsageError(
      `No record at ${dbPath}; check --db (only serve, import, demo and study register create a record).`,
    );
  }
  const store = new Store(dbPath, { readonly: !options.create && !options.write });
  // The analysis runs synchronously inside `work` (before its first await): its progress, on a terminal.
  const line = analysisProgressLine();
  try {
    const catalog = options.catalog ?? loadCatalog();
    return await withStudyIdsNamed(store, async () => {
      if (!options.create) requireStudy(store, stringFlag(args, "study"));
      return await withCatalogGapsNamed(store, catalog, async () =>
        withProgress(line?.listener ?? null, () => work({ store, catalog }, recordName(dbPath))),
      );
    });
  } finally {
    line?.done();
    store.close();
  }
}

/** Writes a command's result: the tool's structured object with --json, the readable text otherwise. */
export function printResult(args: ParsedArgs, structured: unknown, text: string): void {
  process.stdout.write(
    args.values.json ? `${JSON.stringify(structured, null, 2)}\n` : `${printableLines(text)}\n`,
  );
}
