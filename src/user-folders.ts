import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";

// The user's data and cache folders, read the same way by every part of same-game. The XDG Base Directory
// specification says a variable set to an empty or a relative path is to be ignored, as if unset: taken
// as given, `XDG_DATA_HOME=` would put the default record in whatever folder a command happens to run in.

/** The folder a variable names, when it names one absolutely; undefined when unset, empty or relative. */
function absoluteFolder(value: string | undefined): string | undefined {
  return value !== undefined && isAbsolute(value) ? value : undefined;
}

/**
 * Where the user's data lives: `$XDG_DATA_HOME` or ~/.local/share on Linux, ~/Library/Application
 * Support on macOS, `%APPDATA%` on Windows.
 */
export function userDataFolder(env: NodeJS.ProcessEnv = process.env): string {
  if (process.platform === "win32")
    return absoluteFolder(env.APPDATA) ?? join(homedir(), "AppData", "Roaming");
  if (process.platform === "darwin") return join(homedir(), "Library", "Application Support");
  return absoluteFolder(env.XDG_DATA_HOME) ?? join(homedir(), ".local", "share");
}

/** `$XDG_CACHE_HOME`, else ~/.cache, on every platform. */
export function xdgCacheFolder(env: NodeJS.ProcessEnv = process.env): string {
  return absoluteFolder(env.XDG_CACHE_HOME) ?? join(homedir(), ".cache");
}

/** Where the user's caches live: `%LOCALAPPDATA%` on Windows, `$XDG_CACHE_HOME` or ~/.cache elsewhere. */
export function userCacheFolder(env: NodeJS.ProcessEnv = process.env): string {
  if (process.platform === "win32")
    return absoluteFolder(env.LOCALAPPDATA) ?? join(homedir(), "AppData", "Local");
  return xdgCacheFolder(env);
}
