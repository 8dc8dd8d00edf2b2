import { describe, expect, it } from "vitest";
import { startScriptedEndpoint } from "../../src/scripted-models/scripted-endpoint.js";
import {
  pdDesign,
  query,
  registerStudy,
  runCliAsync,
  scriptedRunArgs,
  useRunSandbox,
} from "./runner-harness.js";

// The summary's "invalid replies" are every reply that gave its round no valid move, split as the record
// keeps them: the invalid attempts (the decisions' `invalid_attempts`), and the tool calls refused with no
// attempt recorded, which the record holds only among its model calls.

const box = useRunSandbox("same-game-invalid-replies-");

function invalidLine(stdout: string): string {
  return /invalid replies: ([^;]*);/.exec(stdout)?.[1] ?? stdout;
}

const recordedInvalidAttempts = () =>
  query<{ n: number }>(box.db, "SELECT coalesce(sum(invalid_attempts), 0) AS n FROM decisions")[0]?.n;

describe("same-game run's count of invalid replies", () => {
  it("counts the tool calls whose arguments are not JSON, as the record's model calls show them", async () => {
    // Every 4th request of the endpoint sends submit_move arguments cut off mid-object.
    box.endpoint = await startScriptedEndpoint({ faults: { malformedToolEvery: 4 } });
    const study = registerStudy(box.db, pdDesign("malformed calls", 5, 7));
    const run = await runCliAsync(scriptedRunArgs(box, study, ["--mode", "tools", "--concurrency", "2"]));
    expect(run.status, run.stderr).toBe(0);

    const calls = query<{ raw_reply: string }>(box.db, "SELECT raw_reply FROM model_calls");
    // Every request the endpoint answered is a model call of the record, the malformed ones included.
    expect(calls).toHaveLength(box.endpoint.requests.length);
    const unreadable = calls
      .flatMap((c) => (JSON.parse(c.raw_reply) as { tool_calls: { arguments: string }[] }).tool_calls)
      .filter((call) => {
        try {
          JSON.parse(call.arguments);
          return false;
        } catch {
          return true;
        }
      }).length;
    // 10 trials of one submit_move each, one request in 4 malformed and answered again: at least 3.
    expect(unreadable).toBeGreaterThanOrEqual(3);
    // The payoff reader's readable calls all choose a label: no invalid attempt is recorded.
    expect(recordedInvalidAttempts()).toBe(0);
    expect(invalidLine(run.stdout)).toBe(
      `${unreadable} (0 invalid attempts, ${unreadable} refused tool calls)`,
    );
  }, 60_000);

  it("counts the reply that voided a round, as the record's invalid attempts do", async () => {
    // 20,000 x's hold no label: each reply is refused, and the fifth voids the round (decided, not refused).
    box.endpoint = await startScriptedEndpoint({ faults: { hugeReplyEvery: 1, hugeReplyChars: 5_000_000 } });
    const study = registerStudy(box.db, pdDesign("voided rounds", 1, 3));
    const run = await runCliAsync(scriptedRunArgs(box, study, ["--concurrency", "1"]));
    expect(run.status, run.stderr).toBe(0);
    // Two trials, each round void after 5 invalid replies: 10 in the record and in the summary.
    expect(recordedInvalidAttempts()).toBe(10);
    expect(invalidLine(run.stdout)).toBe("10");
  }, 60_000);
});
