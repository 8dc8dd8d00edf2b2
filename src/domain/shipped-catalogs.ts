import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { packageRoot } from "../package-root.js";

// Catalogs the package ships beside its default one but does not load by default: the 144
// ordinal 2×2 games would multiply the start-up certification of every `serve`, so a study asks for them
// by name, `--catalog ordinal-2x2`, exactly as it would name a folder of its own.

/** The folder of the shipped catalogs: `catalogs/NAME/`. */
export function shippedCatalogsDir(): string {
  return join(packageRoot(), "catalogs");
}

/** The names of the shipped catalogs, sorted. */
export function shippedCatalogNames(): string[] {
  const dir = shippedCatalogsDir();
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => statSync(join(dir, name)).isDirectory())
    .sort();
}

/**
 * The folder a `--catalog` / `SAME_GAME_CATALOG` value names: an existing folder as given (relative to the
 * working folder), else a shipped catalog by name. Anything else is returned resolved, for the loader to
 * refuse with the shipped names listed.
 */
export function resolveCatalogDir(value: string): string {
  const asPath = resolve(value);
  if (existsSync(asPath)) return asPath;
  if (/^[a-z0-9]+(-[a-z0-9]+)*$/.test(value) && shippedCatalogNames().includes(value)) {
    return join(shippedCatalogsDir(), value);
  }
  return asPath;
}

/**
 * How a printed command names a catalog folder: a shipped catalog by its name (the command then works
 * from any installation), any other folder by its path.
 */
export function catalogArgument(dir: string): string {
  const name = basename(dir);
  return dir === join(shippedCatalogsDir(), name) && shippedCatalogNames().includes(name) ? name : dir;
}
