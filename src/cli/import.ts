import { UsageError } from "../usage-error.js";
import type { Command } from "./command.js";
import { importCounts } from "./import-counts.js";
import { importMatchesFile } from "./import-matches.js";
import { removeImport } from "./import-remove.js";

/** What `import` can read (published counts, match transcripts played elsewhere), and taking an import out again. */
const IMPORT_KINDS: Record<
  string,
  (args: Parameters<Command["run"]>[0], file: string | undefined) => Promise<void>
> = {
  counts: importCounts,
  matches: importMatchesFile,
  remove: removeImport,
};

export const importCommand: Command = {
  name: "import",
  usage: [
    "same-game import counts FILE.csv | --reference lore-heydari-2024 [--source LABEL] [--replace] [--free-framings] [--db PATH]",
    "       same-game import matches FILE.jsonl | --reference llm-gm-thesis-2026[-invalid-rounds] [--source LABEL] [--db PATH]",
    "       same-game import remove --source LABEL [--db PATH]",
  ].join("\n"),
  options: {
    db: { type: "string" },
    source: { type: "string" },
    reference: { type: "string" },
    "free-framings": { type: "boolean" },
    replace: { type: "boolean" },
  },
  async run(args) {
    const [kind, file, ...extra] = args.positionals;
    const kinds = Object.keys(IMPORT_KINDS).join(", ");
    if (!kind || !IMPORT_KINDS[kind])
      throw new UsageError(`import needs a kind (${kinds}), got "${kind ?? ""}".`);
    if (extra.length > 0) throw new UsageError(`import takes one file, got also "${extra.join(" ")}".`);
    if (kind !== "counts" && args.values.replace !== undefined)
      throw new UsageError(
        `--replace applies to import counts only; a matches source is imported once (take it out with import remove --source LABEL, then import the corrected file).`,
      );
    if (kind === "matches" && args.values["free-framings"] !== undefined)
      throw new UsageError(
        "--free-framings applies to import counts only (a match's framing is always free).",
      );
    await IMPORT_KINDS[kind](args, file);
  },
};
