import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { connectHttp } from "./support/http-client.js";
import { startServerProcess } from "./support/server-process.js";

// A replica stopped while a long call runs: past --drain-timeout the call is cut off, and its client must
// hear so on the call's own stream — an error it can fail over on — not see the stream end with no answer
// and wait out its 60 s request timeout.

const TOKEN = "drain-test-token-0123456789";
// Power by simulation, 5,000 data sets of 5,000 trials: a minute or more of work (2,000 of 1,000 trials
// take 6 s here), far past the 1 s drain.
const LONG_POWER = { baseline: 0.5, delta: 0.2, n: 5000, simulations: 5000, seed: 1 };

const dir = mkdtempSync(join(tmpdir(), "same-game-drain-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("answers a call cut off by the drain timeout with a shutdown error, within seconds, and logs it", async () => {
  const tokens = join(dir, "tokens");
  writeFileSync(tokens, `${TOKEN}\n`);
  const server = await startServerProcess(join(dir, "record.db"), [
    "--token-file",
    tokens,
    "--drain-timeout",
    "1",
  ]);
  const { client } = await connectHttp(server.url, { token: TOKEN });
  let firstProgress: () => void = () => {};
  const working = new Promise<void>((resolve) => {
    firstProgress = resolve;
  });
  const call = client.callTool(
    { name: "power", arguments: LONG_POWER },
    {
      timeout: 30_000,
      onprogress: () => firstProgress(),
    },
  );
  const settled = call.then(
    () => ({ error: null }),
    (error: Error) => ({ error }),
  );
  await working;
  const stoppedAt = performance.now();
  server.child.kill("SIGTERM");
  const { error } = await settled;
  const waitedMs = performance.now() - stoppedAt;
  expect(error?.message).toMatch(
    /The server is shutting down: this call did not finish within its 1 s drain timeout and was stopped; retry it on another replica/,
  );
  // 1 s of drain and the answer's flush, not the client's request timeout (30 s here, 60 s by default).
  expect(waitedMs).toBeLessThan(10_000);
  expect(await server.exited).toBe(0);
  expect(server.stderr()).toMatch(
    /drain timeout \(1 s\): abandoned tools\/call power \(request id \d+, session [0-9a-f-]+\)/,
  );
  expect(server.stderr()).not.toContain(TOKEN);
}, 60_000);
