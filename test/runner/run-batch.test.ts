import { rmSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type ScriptedEndpoint, startScriptedEndpoint } from "../../src/scripted-models/scripted-endpoint.js";
import { requireBuiltCli } from "../support/built-cli.js";
import { query, registerStudy, runCliAsync, startCli, tempDir } from "./runner-harness.js";

// `same-game run --batch` against the scripted endpoint's OpenAI Batch API and Anthropic Message Batches:
// a 320-trial study ends with exactly one decision per trial even when the run is killed while its
// batches are in flight and started again, without the restarted run submitting those batches again.

let dir: string;
let endpoint: ScriptedEndpoint | undefined;
beforeAll(requireBuiltCli);
beforeEach(() => {
  dir = tempDir("same-game-batch-");
});
afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const design = (trialsPerCell: number) => ({
  name: "batch",
  games: ["prisoners-dilemma"],
  framings: ["business", "friend-sharing"],
  trials_per_cell: trialsPerCell,
  seed: 28,
});

const batchArgs = (db: string, study: string, provider: "openai" | "anthropic", ...extra: string[]) => [
  "run",
  "--study",
  study,
  "--model",
  "scripted/payoff-reader",
  "--provider",
  provider,
  "--base-url",
  provider === "openai"
    ? (endpoint as ScriptedEndpoint).openAiBaseUrl
    : (endpoint as ScriptedEndpoint).origin,
  "--batch",
  "--max-wait",
  "0.5",
  "--db",
  db,
  ...extra,
];

const creates = () => (endpoint as ScriptedEndpoint).batches.calls.filter((c) => c.kind === "create");

/** Decisions of the record: how many, and how many matches hold more than one. */
function decisionCounts(db: string) {
  const [total] = query<{ n: number }>(db, "SELECT count(*) AS n FROM decisions");
  const doubled = query<{ n: number }>(
    db,
    "SELECT count(*) AS n FROM decisions GROUP BY match_id, round HAVING count(*) > 1",
  );
  const [finished] = query<{ n: number }>(db, "SELECT count(*) AS n FROM matches WHERE status = 'finished'");
  return { decisions: total?.n, doubled: doubled.length, finished: finished?.n };
}

describe("same-game run --batch", () => {
  for (const provider of ["openai", "anthropic"] as const) {
    it(`${provider}: a 320-trial study killed while its batches are in flight ends, started again, with one decision per trial and no batch submitted twice`, async () => {
      // The second batch expires half done (its other half is asked directly); results come back in reverse
      // order, with one result for an id no request had.
      endpoint = await startScriptedEndpoint({
        batches: { batchMs: 2500, faults: { expireHalfEvery: 2, outOfOrder: true, strayResult: true } },
      });
      const db = join(dir, "record.db");
      const study = registerStudy(db, design(160));
      const first = startCli(batchArgs(db, study, provider, "--batch-size", "100"));
      // 320 trials in chunks of 100: four batches. Kill once all four are in the record and in flight.
      for (let waited = 0; ; waited += 50) {
        const kept = query<{ n: number }>(db, "SELECT count(*) AS n FROM runner_batches")[0]?.n ?? 0;
        if (creates().length === 4 && kept === 4) break;
        if (waited > 90_000) throw new Error(`no 4 batches in flight after 90 s: ${creates().length}`);
        await sleep(50);
      }
      first.child.kill("SIGKILL");
      const killed = await first.done;
      expect(killed.signal).toBe("SIGKILL");
      expect(decisionCounts(db).decisions).toBe(0);
      expect(creates().map((c) => c.requests)).toEqual([100, 100, 100, 20]);

      const second = await runCliAsync(batchArgs(db, study, provider, "--batch-size", "100"));
      expect(second.status, second.stderr).toBe(0);
      // The restarted run waited for the four batches by id: none was created again.
      expect(creates()).toHaveLength(4);
      expect(decisionCounts(db)).toEqual({ decisions: 320, doubled: 0, finished: 320 });
      // The second and fourth batches expired half done (50 of 100, 10 of 20 answered): the other 60
      // requests were made directly.
      expect(endpoint.requests).toHaveLength(60);
      expect(second.stdout).toContain("Batches: 0 submitted this run; replies by batch: 260;");
      expect(second.stdout).toContain("made directly: 60.");
      expect(second.stdout).toContain("320 of 320 done (study complete for this player)");
      expect(second.stderr).toContain('returned a result for "not-a-request-of-this-batch"');
      const calls = query<{ batch_id: string | null; n: number }>(
        db,
        "SELECT batch_id, count(*) AS n FROM model_calls GROUP BY batch_id ORDER BY batch_id",
      );
      const batchIds = creates().map((c) => c.id);
      expect(calls).toEqual([
        { batch_id: null, n: 60 },
        { batch_id: batchIds[0], n: 100 },
        { batch_id: batchIds[1], n: 50 },
        { batch_id: batchIds[2], n: 100 },
        { batch_id: batchIds[3], n: 10 },
      ]);
      expect(query(db, "SELECT count(*) AS n FROM runner_batches WHERE ended_at IS NULL")).toEqual([
        { n: 0 },
      ]);
      expect(query(db, "SELECT count(*) AS n FROM runner_batch_requests WHERE recorded_at IS NULL")).toEqual([
        { n: 0 },
      ]);
    }, 240_000);
  }
});
