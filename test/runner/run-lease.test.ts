import { spawnSync } from "node:child_process";
import { readlinkSync } from "node:fs";
import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, beforeEach, expect, it } from "vitest";
import { recordName } from "../../src/cli/database-path.js";
import { startScriptedEndpoint } from "../../src/scripted-models/scripted-endpoint.js";
import { type RunLeaseRow, Store } from "../../src/store/store.js";
import { CLI } from "../support/built-cli.js";
import { describeEachEngine, freshRecord, type TestRecord } from "../support/postgres.js";
import {
  pdDesign,
  registerStudy,
  runCliAsync,
  scriptedRunArgs,
  startCli,
  useRunSandbox,
} from "./runner-harness.js";

// One `same-game run` at a time plays a study for a player in a record. Two CI jobs started on the same
// record, study and player used to be handed each other's open trials: the second paid for replies it
// could not record and reported a study half done that was complete. The second is now refused up front,
// naming the run that holds the study, while other players of the study still run beside it.

const box = useRunSandbox("same-game-lease-");

describeEachEngine("one run per (record, study, player)", (engine) => {
  let record: TestRecord;
  beforeEach(() => {
    record = freshRecord(engine);
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
  const writeLease = (lease: RunLeaseRow) => {
    const store = new Store(record.location);
    try {
      expect(store.insertRunLease(lease)).toBe(true);
    } finally {
      store.close();
    }
  };
  const finished = (study: string) =>
    spawnSync(process.execPath, [CLI, "study", "show", study, "--db", record.location]).stdout.toString();
  const args = (study: string, extra: string[] = [], model?: string) =>
    scriptedRunArgs(
      box,
      study,
      extra.includes("--concurrency") ? extra : ["--concurrency", "2", ...extra],
      record.location,
      model,
    );

  it("a second run of the same player is refused with exit 2 naming the first; the first plays every trial once", async () => {
    // Ten trials one at a time, half a second each: the first run is still playing when the second starts.
    box.endpoint = await startScriptedEndpoint({ delayMs: 500 });
    const study = registerStudy(record.location, pdDesign("lease", 5, 31));
    const first = startCli(args(study, ["--concurrency", "1"]));
    const deadline = Date.now() + 60_000;
    let held: RunLeaseRow | null = null;
    while (Date.now() < deadline && held === null) {
      await sleep(50);
      held = leaseOf(study, "scripted/payoff-reader");
    }
    expect(held?.pid).toBe(first.child.pid);
    expect(held?.host).toBe(hostname());

    const second = await runCliAsync(args(study));
    expect(second.status).toBe(2);
    expect(second.stdout).toBe("");
    expect(second.stderr.trim().split("\n")).toEqual([
      `same-game: study ${study} is being run for player "scripted/payoff-reader" in ${recordName(record.location)} by pid ${first.child.pid} on ${hostname()} since ${held?.since}: let it finish, or stop it (the same command then resumes where it stopped), or play another --player; if that run is gone, its lease expires at ${held?.expires_at} (60 s after its last heartbeat).`,
    ]);

    const done = await first.done;
    expect(done.status, done.stderr).toBe(0);
    expect(done.stdout).toContain("10 of 10 done (study complete for this player)");
    // One request per trial (the Prisoner's Dilemma is one round): none paid for twice.
    expect(box.endpoint.requests).toHaveLength(10);
    expect(finished(study)).toContain("player scripted/payoff-reader: 10/10 finished, 0 open");
    // The run that ended let go of the study: the same command runs at once (nothing left to play).
    expect(leaseOf(study, "scripted/payoff-reader")).toBeNull();
    const again = await runCliAsync(args(study));
    expect(again.status, again.stderr).toBe(0);
  });

  it("other players of the same study run at the same time", async () => {
    box.endpoint = await startScriptedEndpoint({ delayMs: 100 });
    const study = registerStudy(record.location, pdDesign("lease players", 3, 32));
    const [a, b] = await Promise.all([
      runCliAsync(args(study, ["--player", "gate-a"])),
      runCliAsync(args(study, ["--player", "gate-b"])),
    ]);
    expect(a.status, a.stderr).toBe(0);
    expect(b.status, b.stderr).toBe(0);
    const shown = finished(study);
    expect(shown).toContain("player gate-a: 6/6 finished, 0 open");
    expect(shown).toContain("player gate-b: 6/6 finished, 0 open");
  });

  it("the lease of a run that died is taken over: at once from this host, after it expires from another", async () => {
    box.endpoint = await startScriptedEndpoint();
    const study = registerStudy(record.location, pdDesign("lease takeover", 1, 33));
    const player = "scripted/payoff-reader";
    const now = Date.now();
    const at = (ms: number) => new Date(now + ms).toISOString();
    const lease = (over: Partial<RunLeaseRow>): RunLeaseRow => ({
      study_id: study,
      player,
      holder: "a-run-that-died",
      pid: deadPid(),
      host: hostname(),
      pid_scope: `${hostname()} ${readlinkSync("/proc/self/ns/pid")}`,
      since: at(-5_000),
      renewed_at: at(-5_000),
      expires_at: at(55_000),
      ...over,
    });

    const deleteLease = () => {
      const store = new Store(record.location);
      try {
        store.deleteRunLease(study, player, "a-run-that-died");
      } finally {
        store.close();
      }
    };

    // Killed on this host (its process is gone): taken over at once.
    writeLease(lease({}));
    const resumed = await runCliAsync(args(study, ["--max-trials", "1"]));
    expect(resumed.status, resumed.stderr).toBe(0);

    // Another container with this host's name: its pid means nothing here, so it waits for the expiry.
    writeLease(lease({ pid_scope: `${hostname()} pid:[1]` }));
    const otherContainer = await runCliAsync(args(study));
    expect(otherContainer.status).toBe(2);
    deleteLease();

    // Alive on another host, as far as the record can tell: refused until its lease expires.
    writeLease(lease({ host: "ci-runner-7", pid_scope: "ci-runner-7", pid: 4242 }));
    const refused = await runCliAsync(args(study));
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(`by pid 4242 on ci-runner-7 since ${at(-5_000)}`);
    expect(refused.stderr).toContain(`its lease expires at ${at(55_000)}`);
    deleteLease();
    writeLease(
      lease({
        host: "ci-runner-7",
        pid_scope: "ci-runner-7",
        pid: 4242,
        renewed_at: at(-61_000),
        expires_at: at(-1_000),
      }),
    );
    const afterExpiry = await runCliAsync(args(study));
    expect(afterExpiry.status, afterExpiry.stderr).toBe(0);
    expect(afterExpiry.stdout).toContain("2 of 2 done (study complete for this player)");
    expect(leaseOf(study, player)).toBeNull();
  });
});

/** The pid of a process that has just ended (so no process has it, barring reuse within milliseconds). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  return Number(child.stdout.toString());
}
