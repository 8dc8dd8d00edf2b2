import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { userCacheFolder } from "../user-folders.js";
import type { Framing } from "./framing.js";
import type { Game } from "./game.js";

// Certification renders every prompt of every (game, variant, framing, label set) and reads the payoffs
// back by meaning: some 1,500 prompts, over a second of CPU; validating the files alone costs some 35 ms.
// A host starts one server per conversation and the demo thirty, so repeating either at every start would
// make same-game start many times slower than a bare MCP server. A catalog that loaded and certified once
// is therefore remembered, its validated games and framings with it, under the SHA-256 of everything
// loading depends on: the bytes and names of every game and framing file exactly as read (a user's catalog
// included), in order, and the text of the code that validates, renders and reads them (every module of
// this folder, and zod's version). Any edit to a file, any new release, gives a new key and a full load; the cache never
// vouches for a text it did not see certified, and a cache that cannot be read or written is simply not
// used.

/** `SAME_GAME_CERT_CACHE=0` turns the cache off; any other value names the folder to keep it in. */
function cacheDir(env: NodeJS.ProcessEnv = process.env): string | null {
  const setting = env.SAME_GAME_CERT_CACHE;
  if (setting === "0" || setting === "off") return null;
  if (setting !== undefined && setting.trim() !== "") return setting;
  return join(userCacheFolder(env), "same-game", "certified");
}

/**
 * Set by the bundler (scripts/build-bundles.mjs) to the SHA-256 of this folder's sources: inside a bundle
 * the folder beside this module holds the whole bundle (megabytes to hash at every start), not this code.
 */
declare const SAME_GAME_CERTIFIER_CODE: string | undefined;

let codeHash: string | undefined;

/**
 * SHA-256 of every module (.js or .ts) directly in `dir`, names and bytes in name order: the code key
 * of the cache, here at run time and in scripts/build-bundles.mjs at build time.
 */
export function moduleFolderHash(dir: string): string {
  const hash = createHash("sha256");
  for (const name of readdirSync(dir).sort()) {
    if (!/\.(js|ts)$/.test(name)) continue;
    hash
      .update(name)
      .update("\0")
      .update(readFileSync(join(dir, name)))
      .update("\0");
  }
  return hash.digest("hex");
}

/** The certifier's own code: the text of every module beside this one, so a changed renderer or reader
 * never reuses a verdict of the old one. */
function certifierCode(): string {
  if (typeof SAME_GAME_CERTIFIER_CODE === "string") return SAME_GAME_CERTIFIER_CODE;
  codeHash ??= moduleFolderHash(dirname(fileURLToPath(import.meta.url)));
  return codeHash;
}

/** One catalog file as read: where it came from (as errors name it), its file name, its text. */
export interface CatalogFileText {
  readonly source: string;
  readonly name: string;
  readonly text: string;
}

/**
 * The key of one catalog: the certifier's code and the zod that validates for it (a zod that read the same
 * file differently must not be handed the old reading), then every file's source, name and text, in order.
 */
export function certificationKey(files: {
  readonly games: readonly CatalogFileText[];
  readonly framings: readonly CatalogFileText[];
}): string {
  const hash = createHash("sha256")
    .update("catalog v2\0")
    .update(certifierCode())
    .update(JSON.stringify(z.core.version));
  for (const [kind, list] of [
    ["games", files.games],
    ["framings", files.framings],
  ] as const) {
    hash.update(`\0${kind}\0${list.length}`);
    for (const file of list) {
      for (const part of [file.source, file.name, file.text]) hash.update(`\0${part.length}\0`).update(part);
    }
  }
  return hash.digest("hex");
}

/** A catalog as it last loaded and certified: its validated files and how many prompts certified. */
export interface RememberedCatalog {
  readonly games: Game[];
  readonly framingBases: Framing[];
  readonly prompts: number;
}

/** The catalog remembered under this key, or undefined (load and certify it now). */
export function rememberedCertification(key: string): RememberedCatalog | undefined {
  const dir = cacheDir();
  if (dir === null) return undefined;
  try {
    const entry = JSON.parse(readFileSync(join(dir, `${key}.json`), "utf8")) as Partial<RememberedCatalog>;
    const whole =
      typeof entry.prompts === "number" && Array.isArray(entry.games) && Array.isArray(entry.framingBases);
    return whole ? (entry as RememberedCatalog) : undefined;
  } catch {
    return undefined;
  }
}

/** Notes that this catalog passed certification; written atomically, so parallel starts never read half. */
export function rememberCertification(key: string, catalog: RememberedCatalog): void {
  const dir = cacheDir();
  if (dir === null) return;
  try {
    mkdirSync(dir, { recursive: true });
    const temporary = join(dir, `${key}.${process.pid}.tmp`);
    writeFileSync(temporary, JSON.stringify({ ...catalog, certified_at: new Date().toISOString() }));
    renameSync(temporary, join(dir, `${key}.json`));
  } catch {
    // A read-only home or a full disk only costs the next start a full load.
  }
}
