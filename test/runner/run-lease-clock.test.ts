import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, expect, it } from "vitest";
import { recordName } from "../../src/cli/database-path.js";
import { startScriptedEndpoint } from "../../src/scripted-models/scripted-endpoint.js";
import { type RunLeaseRow, Store } from "../../src/store/store.js";
import { describeOnPostgres, freshPostgresDatabase, type TestRecord } from "../support/postgres.js";
import {
  pdDesign,
  registerStudy,
  runCliAsync,
  scriptedRunArgs,
  startCli,
  useRunSandbox,
} from "./runner-harness.js";

// Runs on several machines share one PostgreSQL record, and machines' clocks disagree. A run's lease used to
// be written and judged by each runner's own wall clock: a runner on a host five minutes ahead took a live
// run's lease for expired, took it over, and both runs played the same trials and paid for the same
// replies (16 model calls for a study of 10). A lease's times are now the record's clock (PostgreSQL's).

/** The clock under test: the second runner's process (and the server it spawns) sees its wall clock off. */
const SKEWED_CLOCK = fileURLToPath(new URL("../support/skewed-clock.mjs", import.meta.url));
const skewed = (offsetMs: number) => ({
  NODE_OPTIONS: `--import ${SKEWED_CLOCK}`,
  SAME_GAME_CLOCK_OFFSET_MS: String(offsetMs),
});

const box = useRunSandbox("same-game-lease-clock-");

describeOnPostgres("run leases on the record's clock", () => {
  let record: TestRecord;
  beforeEach(() => {
    record = freshPostgresDatabase();
  });
  afterEach(() => record.dispose());

  const leaseOf = (study: string, player: string): RunLeaseRow | null => {
    const store = new Store(record.location);
    try {
      return store.runLease(study, player);
    } finally {
      store.close();
    }
  };

  it("a runner whose clock is 5 minutes ahead is refused the live run's lease; every trial is paid once", async () => {
    // Ten trials one at a time, half a second each: the first run is still playing when the second starts.
    box.endpoint = await startScriptedEndpoint({ delayMs: 500 });
    const study = registerStudy(record.location, pdDesign("lease clock", 5, 41));
    const args = scriptedRunArgs(box, study, ["--concurrency", "1"], record.location);
    const first = startCli(args);
    const deadline = Date.now() + 60_000;
    let held: RunLeaseRow | null = null;
    while (Date.now() < deadline && held === null) {
      await sleep(50);
      held = leaseOf(study, "scripted/payoff-reader");
    }
    expect(held?.pid).toBe(first.child.pid);
    // Written on the database's clock, which is this machine's: a minute ahead of now, give or take.
    const expiresIn = Date.parse(held?.expires_at ?? "") - Date.now();
    expect(expiresIn).toBeGreaterThan(50_000);
    expect(expiresIn).toBeLessThanOrEqual(60_000);

    const ahead = await runCliAsync(args, skewed(5 * 60_000));
    expect(ahead.stderr.trim()).toBe(
      `same-game: study ${study} is being run for player "scripted/payoff-reader" in ${recordName(record.location)} by pid ${first.child.pid} on ${hostname()} since ${held?.since}: let it finish, or stop it (the same command then resumes where it stopped), or play another --player; if that run is gone, its lease expires at ${held?.expires_at} (60 s after its last heartbeat).`,
    );
    expect(ahead.status).toBe(2);

    const done = await first.done;
    expect(done.status, done.stderr).toBe(0);
    expect(done.stdout).toContain(
      "Trials played: 10 this run; 10 of 10 done (study complete for this player).",
    );
    // One request per trial (the Prisoner's Dilemma is one round): none paid for twice.
    expect(box.endpoint.requests).toHaveLength(10);
  }, 120_000);

  it("a runner whose machine slept past its lease stops within seconds of waking when another run took over", async () => {
    // 40 trials one at a time, half a second each: the run is still playing long after the wake below.
    box.endpoint = await startScriptedEndpoint({ delayMs: 500 });
    const study = registerStudy(record.location, pdDesign("lease sleep", 20, 43));
    const args = scriptedRunArgs(box, study, ["--concurrency", "1"], record.location);
    // The clock under test jumps two hours ahead on SIGUSR2, with no time passing for the process's
    // monotonic clock and timers: what a laptop waking from a two-hour sleep sees.
    const sleeper = startCli(args, {
      NODE_OPTIONS: `--import ${SKEWED_CLOCK}`,
      SAME_GAME_CLOCK_JUMP_MS: String(2 * 60 * 60_000),
    });
    const deadline = Date.now() + 60_000;
    let held: RunLeaseRow | null = null;
    while (Date.now() < deadline && held === null) {
      await sleep(50);
      held = leaseOf(study, "scripted/payoff-reader");
    }
    if (held === null) throw new Error("the run took no lease");
    await sleep(1_500);
    // Meanwhile, as the lease expired during the sleep, a run on another machine took it over.
    const store = new Store(record.location);
    try {
      const now = new Date(store.now());
      const takeover = {
        ...held,
        holder: "a-run-on-another-machine",
        pid: 4242,
        host: "ci-runner-7",
        pid_scope: "ci-runner-7",
        since: now.toISOString(),
        renewed_at: now.toISOString(),
        expires_at: new Date(now.getTime() + 60_000).toISOString(),
      };
      expect(store.takeOverRunLease(held, takeover)).toBe(true);
    } finally {
      store.close();
    }
    const callsAtWake = box.endpoint.requests.length;
    sleeper.child.kill("SIGUSR2");
    const done = await sleeper.done;
    const callsAfterWake = box.endpoint.requests.length - callsAtWake;
    expect(done.stderr).toContain(
      `another run took over study ${study} for player "scripted/payoff-reader" while this one did not renew its lease; stopping.`,
    );
    expect(done.status).toBe(1);
    // Within a second or so of waking: the trial in play and perhaps one more, not the 15 s until the
    // next heartbeat (some 25 trials of this study) that the run used to play on.
    expect(callsAfterWake).toBeLessThanOrEqual(4);
  }, 120_000);

  it("a runner whose clock is 5 minutes behind writes a lease that others see live for its 60 s", async () => {
    box.endpoint = await startScriptedEndpoint({ delayMs: 500 });
    const study = registerStudy(record.location, pdDesign("lease clock behind", 5, 42));
    const args = scriptedRunArgs(box, study, ["--concurrency", "1"], record.location);
    const behind = startCli(args, skewed(-5 * 60_000));
    const deadline = Date.now() + 60_000;
    let held: RunLeaseRow | null = null;
    while (Date.now() < deadline && held === null) {
      await sleep(50);
      held = leaseOf(study, "scripted/payoff-reader");
    }
    // On the runner's own clock it would have expired four minutes before it was written.
    const expiresIn = Date.parse(held?.expires_at ?? "") - Date.now();
    expect(expiresIn).toBeGreaterThan(50_000);
    expect(expiresIn).toBeLessThanOrEqual(60_000);
    const second = await runCliAsync(args);
    expect(second.status, second.stderr).toBe(2);
    const done = await behind.done;
    expect(done.status, done.stderr).toBe(0);
    expect(box.endpoint.requests).toHaveLength(10);
  }, 120_000);
});
