import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cacheDisabledByEnvironment } from "../../src/mcp/analysis-call/result-cache.js";
import { requireBuiltCli, runCli } from "../support/built-cli.js";

// SAME_GAME_CACHE turns the analysis result cache off. A value it does not know used to be read as "on":
// an operator who wrote SAME_GAME_CACHE=disabled (or =none) got cached answers without a word.

describe("SAME_GAME_CACHE", () => {
  it("reads off, 0, false, no as off and on, 1, true, yes, empty or unset as on, in any case and spacing", () => {
    for (const value of ["off", "0", "false", "no", " OFF ", "No"]) {
      expect(cacheDisabledByEnvironment({ SAME_GAME_CACHE: value })).toBe(true);
    }
    for (const value of ["on", "1", "true", "yes", "", " TRUE "]) {
      expect(cacheDisabledByEnvironment({ SAME_GAME_CACHE: value })).toBe(false);
    }
    expect(cacheDisabledByEnvironment({})).toBe(false);
  });

  it("refuses any other value, naming it and the valid ones", () => {
    expect(() => cacheDisabledByEnvironment({ SAME_GAME_CACHE: "disabled" })).toThrow(
      'SAME_GAME_CACHE is "disabled"; valid values: off, 0, false, no (the result cache off) or on, 1, true, yes (on, as when it is not set).',
    );
  });

  it("stops serve before it serves anything: exit 2 and one line", () => {
    requireBuiltCli();
    const dir = mkdtempSync(join(tmpdir(), "same-game-cache-env-"));
    try {
      for (const args of [["serve"], ["serve", "--http", "--port", "0"]]) {
        const run = runCli([...args, "--db", join(dir, "record.db")], { SAME_GAME_CACHE: "disabled" });
        expect(run.status).toBe(2);
        expect(run.stdout).toBe("");
        expect(run.stderr).toBe(
          'same-game: SAME_GAME_CACHE is "disabled"; valid values: off, 0, false, no (the result cache off) or on, 1, true, yes (on, as when it is not set).\n',
        );
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
