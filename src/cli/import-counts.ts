import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { parseCountsCsv } from "../imports/counts-csv.js";
import { UsageError } from "../usage-error.js";
import { type ParsedArgs, stringFlag } from "./command.js";
import { withDeps } from "./open-deps.js";

/**
 * `import counts FILE.csv [--source LABEL]`: published aggregate counts beside live play. Every row is
 * checked against the catalog (game, variant, action) before anything is written; re-importing the same
 * source replaces its rows.
 */
export async function importCounts(args: ParsedArgs, file: string): Promise<void> {
  const text = readText(file);
  const source = stringFlag(args, "source") ?? basename(file);
  const rows = parseCountsCsv(text, file);
  await withDeps(args, ({ store, catalog }, dbPath) => {
    rows.forEach((row, i) => {
      const where = `${file}: line ${i + 2}`;
      const game = catalog.games.find((g) => g.id === row.game);
      if (!game)
        throw new UsageError(
          `${where}: unknown game "${row.game}"; valid: ${catalog.games.map((g) => g.id).join(", ")}.`,
        );
      if (!game.variants[row.variant as keyof typeof game.variants]) {
        throw new UsageError(
          `${where}: game ${row.game} has no variant "${row.variant}"; valid: ${Object.keys(game.variants).join(", ")}.`,
        );
      }
      if (!game.actions.includes(row.action)) {
        throw new UsageError(
          `${where}: "${row.action}" is not an action of ${row.game}; valid: ${game.actions.join(", ")}.`,
        );
      }
    });
    store.importCounts(source, rows, new Date().toISOString());
    const decisions = rows.reduce((sum, r) => sum + r.count, 0);
    process.stderr.write(
      `same-game: imported ${rows.length} count rows (${decisions} decisions) from ${file} as "${source}" into ${dbPath}\n`,
    );
  });
}

export function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`Cannot read ${file}${code ? ` (${code})` : ""}.`);
  }
}
