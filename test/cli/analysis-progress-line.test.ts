import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateRecord } from "../../bench/scale/generate-record.js";
import { CLI, requireBuiltCli, runCli } from "../support/built-cli.js";
import { tempDeps } from "../support/harness.js";

// The CLI's analysis progress: one line redrawn on stderr when stderr is a terminal (run here under a
// pseudo-terminal by util-linux `script`), and not a byte of it when stderr is a pipe.

const SCRIPT = "/usr/bin/script";
let deps: ReturnType<typeof tempDeps>;

beforeAll(() => {
  requireBuiltCli();
  deps = tempDeps();
  generateRecord(deps.store, 2_000);
  deps.store.close();
});
afterAll(() => {
  deps.dispose();
});

describe("analyze robustness progress on stderr", () => {
  it("writes nothing of it to a pipe", () => {
    const run = runCli(["analyze", "robustness", "--db", deps.dbPath, "--bootstrap", "2000", "--json"]);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).bootstrap).toBe(2000);
    expect(run.stderr).not.toMatch(/bootstrap \(2,000 replicates\)/);
    expect(run.stderr).not.toContain("\r");
  });

  it.runIf(existsSync(SCRIPT))("redraws one line on a terminal, and clears it at the end", () => {
    const command = [
      process.execPath,
      CLI,
      "analyze",
      "robustness",
      "--db",
      deps.dbPath,
      "--bootstrap",
      "2000",
    ]
      .map((a) => `'${a}'`)
      .join(" ");
    // stdout to /dev/null inside the terminal: what is left on it is stderr.
    const run = spawnSync(SCRIPT, ["-qec", `${command} > /dev/null`, "/dev/null"], {
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/\rsame-game: bootstrap \(2,000 replicates\): cell \d+ of \d+/);
    // The last thing written clears the line (carriage return, erase to end of line).
    expect(run.stdout.endsWith("\r\u001b[K")).toBe(true);
  });
});
