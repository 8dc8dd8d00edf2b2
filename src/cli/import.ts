import { UsageError } from "../usage-error.js";
import type { Command } from "./command.js";
import { importCounts } from "./import-counts.js";
import { importMatchesFile } from "./import-matches.js";

/** What `import` can read: published counts, or match transcripts played elsewhere. */
const IMPORT_KINDS: Record<string, (args: Parameters<Command["run"]>[0], file: string) => Promise<void>> = {
  counts: importCounts,
  matches: importMatchesFile,
};

export const importCommand: Command = {
  name: "import",
  summary: "import published counts (CSV) or match transcripts (JSONL) into the record",
  usage: "same-game import counts FILE.csv | matches FILE.jsonl [--source LABEL] [--db PATH]",
  options: { db: { type: "string" }, source: { type: "string" } },
  async run(args) {
    const [kind, file, ...extra] = args.positionals;
    const kinds = Object.keys(IMPORT_KINDS).join(", ");
    if (!kind || !IMPORT_KINDS[kind])
      throw new UsageError(`import needs a kind (${kinds}), got "${kind ?? ""}".`);
    if (!file) throw new UsageError(`import ${kind} needs a file name.`);
    if (extra.length > 0) throw new UsageError(`import takes one file, got also "${extra.join(" ")}".`);
    await IMPORT_KINDS[kind](args, file);
  },
};
