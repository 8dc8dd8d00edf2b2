import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The folder that holds same-game's package.json, found by walking up from this module. The catalog
 * (games/, framings/) and the migrations (db/) live there, both when running from src/ under vitest and
 * from dist/ after a build or an `npm install`.
 */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error("same-game cannot find its package folder (no package.json above it).");
    dir = parent;
  }
  return dir;
}
