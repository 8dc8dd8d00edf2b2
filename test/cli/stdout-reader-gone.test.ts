import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, requireBuiltCli, runCli } from "../support/built-cli.js";
import { tempDeps } from "../support/harness.js";

// `same-game export decisions | head -1`: the reader takes what it wants and closes the pipe. The CLI ends
// quietly (exit 0, nothing on stderr) instead of dying on EPIPE with a stack trace and exit 1.

let deps: ReturnType<typeof tempDeps>;
beforeAll(() => {
  requireBuiltCli();
  deps = tempDeps();
  // The 20 reference logs under 8 sources: about 1 MB of decisions as CSV, far more than a pipe holds
  // (64 kB), so the export is still writing when the reader goes.
  for (let copy = 1; copy <= 8; copy++) {
    const reference = "llm-gm-thesis-2026-invalid-rounds";
    const args = [
      "import",
      "matches",
      "--reference",
      reference,
      "--source",
      `copy-${copy}`,
      "--db",
      deps.dbPath,
    ];
    const imported = runCli(args);
    expect(imported.status, imported.stderr).toBe(0);
  }
});
afterAll(() => deps.dispose());

/** Runs the built CLI with a reader that closes stdout after the first chunk; its exit code and stderr. */
function readFirstChunkThenClose(
  args: string[],
): Promise<{ code: number | null; stderr: string; read: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    let read = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.stdout.once("data", (chunk: Buffer) => {
      read = chunk.toString("utf8");
      child.stdout.destroy();
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr, read }));
  });
}

describe("a reader that closes stdout early", () => {
  for (const format of ["csv", "jsonl"]) {
    it(`ends export decisions --format ${format} quietly with exit 0`, async () => {
      const run = await readFirstChunkThenClose([
        "export",
        "decisions",
        "--db",
        deps.dbPath,
        "--format",
        format,
      ]);
      expect(run.read.length).toBeGreaterThan(0);
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
    }, 60_000);
  }
});
