import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// Certification renders every prompt of every (game, variant, framing, label set) and reads the payoffs
// back by meaning: some 1,500 prompts, over a second of CPU. A host starts one server per conversation and
// the demo thirty, so repeating it at every start would make same-game start many times slower than a
// bare MCP server. A catalog that certified once is therefore remembered, under the SHA-256 of everything
// certification depends on: the games and framings exactly as loaded (a user's catalog included) and the
// text of the code that renders and reads them (every module of this folder). Any edit to a file, any new
// release, gives a new key and a full certification; the cache never vouches for a text it did not see
// certified, and a cache that cannot be read or written is simply not used.

/** `SAME_GAME_CERT_CACHE=0` turns the cache off; any other value names the folder to keep it in. */
function cacheDir(env: NodeJS.ProcessEnv = process.env): string | null {
  const setting = env.SAME_GAME_CERT_CACHE;
  if (setting === "0" || setting === "off") return null;
  if (setting !== undefined && setting.trim() !== "") return setting;
  const base =
    process.platform === "win32"
      ? (env.LOCALAPPDATA ?? join(homedir(), "AppData", "Local"))
      : (env.XDG_CACHE_HOME ?? join(homedir(), ".cache"));
  return join(base, "same-game", "certified");
}

let codeHash: string | undefined;

/** The certifier's own code: the text of every module beside this one, so a changed renderer or reader
 * never reuses a verdict of the old one. */
function certifierCode(): string {
  if (codeHash === undefined) {
    const dir = dirname(fileURLToPath(import.meta.url));
    const hash = createHash("sha256");
    for (const name of readdirSync(dir).sort()) {
      if (!/\.(js|ts)$/.test(name)) continue;
      hash
        .update(name)
        .update("\0")
        .update(readFileSync(join(dir, name)))
        .update("\0");
    }
    codeHash = hash.digest("hex");
  }
  return codeHash;
}

/** The key of one catalog's certification: its loaded content and the certifier's code. */
export function certificationKey(content: unknown): string {
  return createHash("sha256").update(certifierCode()).update(JSON.stringify(content)).digest("hex");
}

/** How many prompts this catalog certified with when it last passed, or undefined (certify it now). */
export function rememberedCertification(key: string): number | undefined {
  const dir = cacheDir();
  if (dir === null) return undefined;
  try {
    const entry = JSON.parse(readFileSync(join(dir, `${key}.json`), "utf8")) as { prompts?: unknown };
    return typeof entry.prompts === "number" ? entry.prompts : undefined;
  } catch {
    return undefined;
  }
}

/** Notes that this catalog passed certification; written atomically, so parallel starts never read half. */
export function rememberCertification(key: string, prompts: number): void {
  const dir = cacheDir();
  if (dir === null) return;
  try {
    mkdirSync(dir, { recursive: true });
    const temporary = join(dir, `${key}.${process.pid}.tmp`);
    writeFileSync(temporary, JSON.stringify({ prompts, certified_at: new Date().toISOString() }));
    renameSync(temporary, join(dir, `${key}.json`));
  } catch {
    // A read-only home or a full disk only costs the next start a certification.
  }
}
