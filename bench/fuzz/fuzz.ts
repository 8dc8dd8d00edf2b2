/**
 * `npm run fuzz`: 10,000 fuzzed tools/call requests per transport (stdio, then HTTP) against the built
 * server, as the hostile audit ran them; prints the tally of each and exits 1 on any crash (a hang, a lost
 * connection, an internal error, a stack trace) or a server that stopped serving. `FUZZ_CALLS=N` changes
 * the count, `FUZZ_SEED=S` the seed. The test suite runs the same with a few hundred calls.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fuzzLine, fuzzOverHttp, fuzzOverStdio } from "../../test/support/fuzz-servers.js";

const calls = Number(process.env.FUZZ_CALLS ?? 10_000);
const seed = Number(process.env.FUZZ_SEED ?? 20261202);

const dir = mkdtempSync(join(tmpdir(), "same-game-fuzz-"));
let failed = false;
try {
  for (const fuzz of [fuzzOverStdio, fuzzOverHttp]) {
    const run = await fuzz(dir, calls, seed);
    process.stdout.write(`${fuzzLine(run)}\n`);
    for (const crash of run.crashes.slice(0, 20)) process.stdout.write(`  crash: ${crash}\n`);
    if (run.crashes.length > 0 || !run.aliveAfter) failed = true;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
