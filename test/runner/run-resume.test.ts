import { existsSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { startScriptedEndpoint } from "../../src/scripted-models/scripted-endpoint.js";
import {
  finishedMatches,
  finishedPerCell,
  pdDesign,
  query,
  registerStudy,
  runCliAsync,
  startCli,
  useRunSandbox,
} from "./runner-harness.js";

// A run stopped anywhere — killed, out of quota, refused — continues where it stopped, and never leaks
// the key it was given.

const box = useRunSandbox("same-game-resume-");

const design = (trials: number) => pdDesign("resume test", trials, 9);

const finished = () => finishedMatches(box.db);

/** Every byte the record holds on disk (database and write-ahead log). */
function recordBytes(): string {
  return ["", "-wal"]
    .map((suffix) => (existsSync(box.db + suffix) ? readFileSync(box.db + suffix, "latin1") : ""))
    .join("");
}

describe("same-game run, stopped and resumed", () => {
  it("killed half way (SIGKILL) and run again, ends with exactly the designed trials per cell", async () => {
    box.endpoint = await startScriptedEndpoint({ delayMs: 150 });
    const study = registerStudy(box.db, design(8));
    const args = [
      "run",
      "--study",
      study,
      "--model",
      "scripted/story-swayed",
      "--base-url",
      box.endpoint.openAiBaseUrl,
      "--mode",
      "text",
      "--concurrency",
      "2",
      "--db",
      box.db,
    ];
    const first = startCli(args);
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && (!existsSync(box.db) || finished() < 5)) await sleep(100);
    first.child.kill("SIGKILL");
    const killed = await first.done;
    expect(killed.signal).toBe("SIGKILL");
    const before = finished();
    expect(before).toBeGreaterThanOrEqual(5);
    expect(before).toBeLessThan(16);

    const second = await runCliAsync(args);
    expect(second.status, second.stderr).toBe(0);
    expect(second.stdout).toContain(`this run; 16 of 16 done (study complete for this player).`);
    expect(finishedPerCell(box.db, study)).toEqual({
      "scripted/story-swayed/business": 8,
      "scripted/story-swayed/friend-sharing": 8,
    });
    // No duplicate and no lost trial: 16 matches, schedule positions 0..15 each once, none left open.
    const matches = query<{ trial_index: number; status: string }>(
      box.db,
      "SELECT trial_index, status FROM matches WHERE study_id = ? ORDER BY trial_index",
      study,
    );
    expect(matches.map((m) => m.trial_index)).toEqual([...Array(16).keys()]);
    expect(matches.every((m) => m.status === "finished")).toBe(true);
  });

  it("stops with the reason when the quota is exhausted, and a later run finishes the study", async () => {
    box.endpoint = await startScriptedEndpoint({ faults: { quotaAfter: 3 } });
    const study = registerStudy(box.db, design(3));
    const args = (url: string) => [
      "run",
      "--study",
      study,
      "--model",
      "scripted/payoff-reader",
      "--base-url",
      url,
      "--mode",
      "text",
      "--concurrency",
      "1",
      "--db",
      box.db,
    ];
    const stopped = await runCliAsync(args(box.endpoint.openAiBaseUrl));
    expect(stopped.status).toBe(1);
    expect(stopped.stderr).toContain("quota or credit is exhausted 3 times in a row");
    expect(finished()).toBe(3);
    await box.endpoint.close();
    box.endpoint = await startScriptedEndpoint();
    const resumed = await runCliAsync(args(box.endpoint.openAiBaseUrl));
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(finishedPerCell(box.db, study)).toEqual({
      "scripted/payoff-reader/business": 3,
      "scripted/payoff-reader/friend-sharing": 3,
    });
    expect(query<{ n: number }>(box.db, "SELECT count(*) AS n FROM matches")[0]?.n).toBe(6);
  });

  it("stops after repeated auth refusals, and never writes the key to the record, stdout or stderr", async () => {
    const right = "sk-right-KEY-0123456789";
    const wrong = "sk-wrong-SECRET-4242";
    box.endpoint = await startScriptedEndpoint({ apiKey: right });
    const study = registerStudy(box.db, design(2));
    const args = [
      "run",
      "--study",
      study,
      "--model",
      "scripted/payoff-reader",
      "--base-url",
      box.endpoint.openAiBaseUrl,
      "--api-key-env",
      "MY_MODEL_KEY",
      "--concurrency",
      "1",
      "--db",
      box.db,
    ];
    const refused = await runCliAsync(args, { MY_MODEL_KEY: wrong });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("refused the credentials 3 times in a row");
    // The endpoint echoed the wrong key in its 401 body; the runner redacted it everywhere.
    expect(box.endpoint.requests.filter((r) => r.status === 401).length).toBe(3);
    expect(refused.stderr).toContain("[redacted]");
    for (const text of [refused.stdout, refused.stderr, recordBytes()]) expect(text).not.toContain(wrong);

    const ok = await runCliAsync(args, { MY_MODEL_KEY: right });
    expect(ok.status, ok.stderr).toBe(0);
    expect(finished()).toBe(4);
    for (const text of [ok.stdout, ok.stderr, recordBytes()]) expect(text).not.toContain(right);
  });
});
