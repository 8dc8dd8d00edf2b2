// The layers' arrows run one way: game theory imports nothing of ours, the domain never imports the analysis.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = join(import.meta.dirname, "../../src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/**
 * Every relative import of a folder's files that leaves the given folders, as "file → specifier": static
 * (`from "…"`) and dynamic (`import("…")`, as the lazily loaded verbs use) alike.
 */
function importsLeaving(folder: string, allowed: readonly string[], topLevel = false): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(join(SRC, folder))) {
    for (const [, spec] of readFileSync(file, "utf8").matchAll(/(?:from\s+|import\(\s*)"(\.[^"]+)"/g)) {
      const target = relative(SRC, join(file, "..", spec as string));
      const isTopLevel = !target.includes("/"); // src/usage-error.ts, src/package-root.ts, src/log.ts
      if (!(topLevel && isTopLevel) && !allowed.some((a) => target.startsWith(`${a}/`)))
        found.push(`${relative(SRC, file)} → ${spec}`);
    }
  }
  return found;
}

describe("layering", () => {
  it("src/game-theory/ imports only itself", () => {
    expect(importsLeaving("game-theory", ["game-theory"])).toEqual([]);
  });
  it("src/domain/ imports only itself, game theory and src/*.ts (never analysis, store, play or mcp)", () => {
    expect(importsLeaving("domain", ["domain", "game-theory"], true)).toEqual([]);
  });
});
