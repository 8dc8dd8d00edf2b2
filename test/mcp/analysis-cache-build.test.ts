import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { AnalysisResultCache } from "../../src/mcp/analysis-call/result-cache.js";
import { tempDeps } from "../support/harness.js";

// A rebuilt server keeps its package version, so the cache is keyed by the build's digest too: what an
// older build computed and left in the record is never served by a newer one.

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

it("answers from the record only for the build that stored the result", () => {
  const deps = tempDeps();
  cleanups.push(() => deps.dispose());
  const version = deps.store.recordVersion();
  const older = new AnalysisResultCache(deps.store, "catalog", "build-a");
  older.save(older.key("robustness", { bootstrap: 300 }, "local"), version, { R: 0.5 });

  const same = new AnalysisResultCache(deps.store, "catalog", "build-a");
  expect(same.lookup(same.key("robustness", { bootstrap: 300 }, "local"), version)).toEqual({
    result: { R: 0.5 },
    outcome: "record",
  });
  const rebuilt = new AnalysisResultCache(deps.store, "catalog", "build-b");
  expect(rebuilt.lookup(rebuilt.key("robustness", { bootstrap: 300 }, "local"), version)).toBeUndefined();
});

it("gives a build folder a digest that changes with any file's content or name", () => {
  const dist = mkdtempSync(join(tmpdir(), "same-game-build-id-"));
  cleanups.push(() => rmSync(dist, { recursive: true, force: true }));
  mkdirSync(join(dist, "cli"));
  writeFileSync(join(dist, "cli", "main.js"), "console.log(1);\n");
  const digest = (): string => {
    const run = spawnSync(process.execPath, ["scripts/build-id.mjs", dist], { encoding: "utf8" });
    expect(run.status).toBe(0);
    return (JSON.parse(readFileSync(join(dist, "build-id.json"), "utf8")) as { build: string }).build;
  };
  const first = digest();
  expect(first).toMatch(/^[0-9a-f]{16}$/);
  // Its own output is not part of what it digests: running again gives the same id.
  expect(digest()).toBe(first);
  writeFileSync(join(dist, "cli", "main.js"), "console.log(2);\n");
  const changed = digest();
  expect(changed).not.toBe(first);
  rmSync(join(dist, "cli", "main.js"));
  writeFileSync(join(dist, "cli", "other.js"), "console.log(2);\n");
  expect(digest()).not.toBe(changed);
});
