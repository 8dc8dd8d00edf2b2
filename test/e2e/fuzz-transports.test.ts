import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireBuiltCli } from "../support/built-cli.js";
import { fuzzLine, fuzzOverHttp, fuzzOverStdio, type TransportFuzz } from "../support/fuzz-servers.js";

// The built server over each real transport takes a few hundred fuzzed tools/call requests — hostile
// arguments, hostile names, arguments that are not an object — and answers every one cleanly (a result,
// a tool error or an invalid-params refusal), never a hang, a dropped connection, an internal error or a
// stack trace, and is still serving after. `npm run fuzz` does the same with 10,000 calls per transport.

const CALLS = 300;
let dir: string;
beforeAll(() => {
  requireBuiltCli();
  dir = mkdtempSync(join(tmpdir(), "same-game-fuzz-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function expectClean(run: TransportFuzz): void {
  process.stderr.write(`fuzz ${fuzzLine(run)}\n`);
  expect(run.crashes).toEqual([]);
  expect(run.aliveAfter).toBe(true);
  expect(run.calls).toBe(CALLS);
  expect(run.results + run.toolErrors + run.protocolErrors).toBe(CALLS);
  // The mix reached past validation into the tools, and the odd calls were refused at the door.
  expect(run.results).toBeGreaterThan(0);
  expect(run.protocolErrors).toBeGreaterThan(0);
}

describe("fuzzed tools/call over each transport", () => {
  it(`stdio: ${CALLS} calls, 0 crashes`, async () => {
    expectClean(await fuzzOverStdio(dir, CALLS, 20261202));
  }, 180_000);

  it(`HTTP: ${CALLS} calls, 0 crashes`, async () => {
    expectClean(await fuzzOverHttp(dir, CALLS, 20261202));
  }, 180_000);
});
