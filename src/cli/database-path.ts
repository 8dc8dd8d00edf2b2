import { mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";

/**
 * Where the record lives: `--db`, else `SAME_GAME_DB`, else a file in the user's data directory
 * (XDG_DATA_HOME or ~/.local/share on Linux, ~/Library/Application Support on macOS, %APPDATA% on Windows).
 * The parent folder is created (for the verbs that create a record) so a first run just works.
 */
export function resolveDatabasePath(
  flag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  options: { create?: boolean } = { create: true },
): string {
  const chosen = flag ?? env.SAME_GAME_DB ?? join(userDataDirectory(env), "same-game", "same-game.db");
  const path = resolve(chosen);
  if (options.create !== false) mkdirSync(dirname(path), { recursive: true });
  return path;
}

function userDataDirectory(env: NodeJS.ProcessEnv): string {
  if (process.platform === "win32") return env.APPDATA ?? join(homedir(), "AppData", "Roaming");
  if (process.platform === "darwin") return join(homedir(), "Library", "Application Support");
  return env.XDG_DATA_HOME ?? join(homedir(), ".local", "share");
}
