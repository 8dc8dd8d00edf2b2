import { beforeAll, describe, expect, it } from "vitest";
import { requireBuiltCli } from "../support/built-cli.js";
import { runCliAsync } from "./runner-harness.js";

beforeAll(requireBuiltCli);

describe("same-game demo --runner", () => {
  it("runs same-game run against the built-in scripted endpoint, with no network and no key", async () => {
    const run = await runCliAsync(["demo", "--runner", "--trials", "4"]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Scripted endpoint \(OpenAI-compatible\) at http:\/\/127\.0\.0\.1:\d+\/v1/);
    expect(run.stdout.match(/8 of 8 done \(study complete for this player\)/g)).toHaveLength(2);
    // The payoff-reader defects whatever the story: R = 1 exactly, with each trial its own session.
    expect(run.stdout).toMatch(/scripted\/payoff-reader\s+prisoners-dilemma\s+1\.000/);
    expect(run.stdout).toContain("unit decision");
    // Every check is an invariant and passes; the payoff-reader's R interval reaching 1 is a note.
    expect(run.stdout).toMatch(/All 7 verification checks ok\./);
    expect(run.stdout).not.toContain("FAILED");
    expect(run.stdout).toMatch(/Notes \(information, not failures\):\n- interval_at_boundary: /);
  });
});
