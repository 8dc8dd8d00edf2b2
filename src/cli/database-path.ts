import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { isPostgresUrl, redactUrl } from "../store/engines/database-location.js";
import { UsageError } from "../usage-error.js";
import { userDataFolder } from "../user-folders.js";
import { unwritableFolderReason } from "../writable-folder.js";

/**
 * Where the record lives: `--db`, else `SAME_GAME_DB` (when not empty), else a file in the user's data directory
 * (XDG_DATA_HOME or ~/.local/share on Linux, ~/Library/Application Support on macOS, %APPDATA% on Windows;
 * see user-folders.ts).
 * The parent folder is created (for the verbs that create a record) so a first run just works; one that
 * cannot be (a read-only home folder in CI, say) is refused in one sentence that names it and the way out. A
 * postgres:// (or postgresql://) URL names a PostgreSQL database instead and is returned as given.
 */
export function resolveDatabasePath(
  flag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  options: { create?: boolean } = { create: true },
): string {
  // An empty SAME_GAME_DB (`SAME_GAME_DB= same-game …`) is unset, as an empty XDG folder is: resolving ""
  // would put the record in whatever folder the command ran from.
  const fromEnv = env.SAME_GAME_DB === "" ? undefined : env.SAME_GAME_DB;
  const chosen = flag ?? fromEnv ?? join(userDataFolder(env), "same-game", "same-game.db");
  if (isPostgresUrl(chosen)) return chosen;
  const path = resolve(chosen);
  if (options.create !== false) {
    const problem = unwritableFolderReason(dirname(path));
    if (problem !== null) {
      throw new UsageError(
        `Cannot create the folder of the record ${path}: ${problem}. Give the record another place with --db FILE (or SAME_GAME_DB=FILE).`,
      );
    }
  }
  return path;
}

/** The record's location as logs and reports may show it: a path, or a URL with its password hidden. */
export function recordName(location: string): string {
  return isPostgresUrl(location) ? redactUrl(location) : location;
}

/** True when the location is a file that does not exist (a server's database is checked on connect). */
export function isMissingFile(location: string): boolean {
  return !isPostgresUrl(location) && !existsSync(location);
}
