import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { loadCatalog } from "../domain/catalog.js";
import { importMatches, parseMatchesJsonl } from "../imports/matches-jsonl.js";
import { logInfo } from "../log.js";
import { Store } from "../store/store.js";
import { UsageError } from "../usage-error.js";
import { type Command, stringFlag } from "./command.js";
import { resolveDatabasePath } from "./database-path.js";

/**
 * `same-game import matches FILE.jsonl`: transcripts of repeated games played elsewhere, validated line by
 * line and stored all or nothing under `--source` (default: the file's name). Positionals: [FILE].
 */
export const importMatchesCommand: Command = {
  name: "import matches",
  summary: "import match transcripts (JSONL, canonical action ids) so repeated_metrics measures them",
  usage: "same-game import matches FILE.jsonl [--source LABEL] [--db PATH]",
  options: {
    db: { type: "string" },
    source: { type: "string" },
  },
  async run(args) {
    const [file, ...extra] = args.positionals;
    if (file === undefined || extra.length > 0) {
      throw new UsageError(
        `same-game import matches takes exactly one FILE.jsonl; got ${args.positionals.length} arguments.`,
      );
    }
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      throw new UsageError(`Cannot read "${file}"; give the path of a JSONL file.`);
    }
    const catalog = loadCatalog();
    const matches = parseMatchesJsonl(text, basename(file), catalog);
    const source = stringFlag(args, "source") ?? basename(file);
    const dbPath = resolveDatabasePath(stringFlag(args, "db"));
    const store = new Store(dbPath);
    try {
      const count = importMatches({ store, catalog }, matches, source);
      logInfo(`imported ${count} match(es) from ${file} as source "${source}" into ${dbPath}`);
    } finally {
      store.close();
    }
  },
};
