import { describe, expect, it } from "vitest";
import { type ScriptedFaults, startScriptedEndpoint } from "../../src/scripted-models/scripted-endpoint.js";
import {
  finishedPerCell,
  pdDesign,
  query,
  registerStudy,
  runCliAsync,
  useRunSandbox,
} from "./runner-harness.js";

// `same-game run` against an endpoint that is broken or hostile: a reply of megabytes, a body that drips,
// a Retry-After of a day, a 200 with no choice, a model that never submits. Each run ends, on time, with
// every call it made in the record.

const box = useRunSandbox("same-game-hostile-");

const pd = (trials: number) => pdDesign("hostile endpoint", trials, 3);

async function run(faults: ScriptedFaults, trials: number, extra: string[]) {
  box.endpoint = await startScriptedEndpoint({ faults });
  const study = registerStudy(box.db, pd(trials));
  const started = performance.now();
  const result = await runCliAsync([
    "run",
    "--study",
    study,
    "--model",
    "scripted/payoff-reader",
    "--base-url",
    box.endpoint.openAiBaseUrl,
    "--concurrency",
    "1",
    "--db",
    box.db,
    ...extra,
  ]);
  return { study, result, seconds: (performance.now() - started) / 1000 };
}

describe("same-game run against a hostile endpoint", () => {
  it("a 5 MB reply is cut to the server's 20,000 characters, recorded with its length and hash, and the trial ends", async () => {
    const { result, seconds } = await run({ hugeReplyEvery: 1, hugeReplyChars: 5_000_000 }, 1, [
      "--mode",
      "text",
    ]);
    expect(result.status, result.stderr).toBe(0);
    // 20,000 x's hold no label: each reply is refused, and after 5 the round is void (the trial is over).
    const decisions = query<{ status: string; invalid_attempts: number }>(
      box.db,
      "SELECT status, invalid_attempts FROM decisions",
    );
    expect(decisions).toEqual([
      { status: "void", invalid_attempts: 5 },
      { status: "void", invalid_attempts: 5 },
    ]);
    const calls = query<{ raw_reply: string; raw_text: string }>(
      box.db,
      "SELECT c.raw_reply, a.raw_text FROM model_calls c JOIN attempts a ON a.id = c.attempt_id",
    );
    expect(calls).toHaveLength(10);
    for (const call of calls) {
      const raw = JSON.parse(call.raw_reply) as {
        text: string;
        truncated: { chars: number; sha256: string };
      };
      expect(raw.text).toBe("x".repeat(20_000));
      expect(call.raw_text).toBe(raw.text);
      // The whole reply: 5,000,000 x's, a newline, the label ("Undercut" or "Keep it"), and its JSON wrapping.
      expect(raw.truncated.chars).toBeGreaterThan(5_000_008);
      expect(raw.truncated.chars).toBeLessThan(5_000_040);
      expect(raw.truncated.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(seconds).toBeLessThan(45);
  });

  it("--timeout bounds a body that drips one byte a second; the call is retried as a timeout", async () => {
    const { study, result, seconds } = await run({ dripEvery: 2, dripMs: 1000 }, 2, [
      "--mode",
      "text",
      "--timeout",
      "1",
    ]);
    expect(result.status, result.stderr).toBe(0);
    expect(finishedPerCell(box.db, study)).toEqual({
      "scripted/payoff-reader/business": 2,
      "scripted/payoff-reader/friend-sharing": 2,
    });
    // Requests 2, 4 and 6 dripped: 3 timeouts, each cut at 1 s (a dripped body of ~300 bytes takes 300 s).
    expect(result.stdout).toContain("retries: 3 (timeout 3)");
    expect(seconds).toBeLessThan(30);
  });

  it("obeys a Retry-After of a day only up to --max-wait, and counts each as a retry", async () => {
    const { study, result, seconds } = await run({ rateLimitEvery: 2, retryAfterSeconds: 86_400 }, 2, [
      "--mode",
      "text",
      "--max-wait",
      "0.3",
    ]);
    expect(result.status, result.stderr).toBe(0);
    expect(Object.values(finishedPerCell(box.db, study))).toEqual([2, 2]);
    expect(result.stdout).toContain("retries: 3 (rate 3)");
    expect(seconds).toBeLessThan(30);
  });

  it("a 200 with `choices: []` is a failed call, retried; no empty reply is submitted", async () => {
    const { study, result } = await run({ emptyChoicesEvery: 2 }, 2, ["--mode", "text", "--samples", "3"]);
    expect(result.status, result.stderr).toBe(0);
    expect(Object.values(finishedPerCell(box.db, study))).toEqual([2, 2]);
    expect(result.stdout).toContain("invalid replies: 0;");
    expect(result.stdout).toMatch(/retries: \d+ \(server \d+\)/);
    const attempts = query<{ raw_text: string; action: string | null }>(
      box.db,
      "SELECT raw_text, action FROM attempts",
    );
    expect(attempts).toHaveLength(4);
    for (const attempt of attempts) expect(attempt.action).toBe("defect");
  });

  it("in tools mode, a model that never submits a readable move has every call recorded and its round voided", async () => {
    const { result } = await run({ malformedToolEvery: 1 }, 1, ["--mode", "tools"]);
    expect(result.status, result.stderr).toBe(0);
    expect(query<{ status: string }>(box.db, "SELECT status FROM decisions")).toEqual([
      { status: "void" },
      { status: "void" },
    ]);
    // Every request the endpoint answered is a model call in the record, behind one of the attempts.
    const recorded = query<{ n: number }>(box.db, "SELECT count(*) AS n FROM model_calls")[0]?.n;
    expect(recorded).toBe(box.endpoint?.requests.length);
    expect(recorded).toBeGreaterThanOrEqual(2 * 12);
    const attempts = query<{ n: number }>(box.db, "SELECT count(*) AS n FROM attempts")[0]?.n;
    expect(attempts).toBe(10);
  });
});
