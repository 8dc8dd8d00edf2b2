import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { InvarianceEProcess } from "../../src/domain/adaptive/invariance-e-process.js";
import { anytimeRInterval } from "../../src/domain/adaptive/r-confidence-sequence.js";
import { type ScriptedEndpoint, startScriptedEndpoint } from "../../src/scripted-models/scripted-endpoint.js";
import {
  finishedPerCell,
  query,
  registerStudy,
  runCliAsync,
  startCli,
  useRunSandbox,
} from "./runner-harness.js";

// Adaptive stopping end to end: the built CLI runs a study against a scripted model endpoint through
// `same-game serve` over stdio; the server's next_trial decides when a (player, game) is done.

const box = useRunSandbox("same-game-adaptive-");

const MAX_BLOCKS = 40;
const design = {
  name: "adaptive runner test",
  games: ["prisoners-dilemma"],
  framings: ["business", "friend-sharing"],
  trials_per_cell: MAX_BLOCKS,
  seed: 5,
  adaptive: { rule: "invariance", alpha: 0.05 },
};

const run = (study: string, model: string, player: string, concurrency: number) =>
  runCliAsync([
    "run",
    "--study",
    study,
    "--model",
    `scripted/${model}`,
    "--player",
    player,
    "--base-url",
    (box.endpoint as ScriptedEndpoint).openAiBaseUrl,
    "--mode",
    "text",
    "--concurrency",
    String(concurrency),
    "--db",
    box.db,
  ]);

/** The player's first-round choices per framing, block by block (trial_index order). */
function choicesByBlock(study: string, player: string): { framing: string; action: string; block: number }[] {
  return query<{ framing: string; action: string; trial_index: number }>(
    box.db,
    `SELECT m.framing, d.action, m.trial_index FROM matches m JOIN decisions d ON d.match_id = m.id AND d.round = 1
     WHERE m.study_id = ? AND m.player = ? ORDER BY m.trial_index`,
    study,
    player,
  ).map((r) => ({ framing: r.framing, action: r.action, block: Math.floor(r.trial_index / 2) }));
}

/** The e-value of the first `blocks` blocks, recomputed from the record. */
function eAfter(choices: { framing: string; action: string; block: number }[], blocks: number): number {
  const e = new InvarianceEProcess(2);
  for (const c of choices) if (c.block < blocks) e.add("", c.framing, c.action === "cooperate" ? 0 : 1);
  return e.eValue();
}

describe("same-game run under adaptive stopping", () => {
  it("stops the story-swayed model early, balanced across framings, and plays the payoff reader's every trial", async () => {
    box.endpoint = await startScriptedEndpoint();
    const study = registerStudy(box.db, design);

    const swayed = await run(study, "story-swayed", "swayed", 1);
    expect(swayed.status, swayed.stderr).toBe(0);
    const show = await runCliAsync(["study", "show", study, "--db", box.db, "--json"]);
    const progress = JSON.parse(show.stdout) as {
      adaptive: {
        player: string;
        games: {
          game: string;
          stopped: { block: number; e_value: number; blocks_played: number; reason: string } | null;
        }[];
      }[];
    };
    const stop = progress.adaptive.find((p) => p.player === "swayed")?.games[0]?.stopped;
    expect(stop).toBeTruthy();
    const { block, blocks_played } = stop as { block: number; blocks_played: number };
    // The scripted story-swayed model (one trial at a time, so its replies are reproducible) cooperated
    // 8 of 31 times in business and 23 of 31 in friend-sharing when the rule fired.
    expect(block).toBe(31);
    // Balanced at the stop: every framing played the same number of trials, the blocks under way included.
    expect(finishedPerCell(box.db, study)).toEqual({
      "swayed/business": blocks_played,
      "swayed/friend-sharing": blocks_played,
    });
    // One trial at a time: no block was under way when the rule fired.
    expect(blocks_played).toBe(block);
    // The stop is the first look whose e-value reached 20, recomputed here from the recorded choices.
    const choices = choicesByBlock(study, "swayed");
    const tally: Record<string, number> = {};
    for (const c of choices) tally[`${c.framing}/${c.action}`] = (tally[`${c.framing}/${c.action}`] ?? 0) + 1;
    expect(tally).toEqual({
      "business/cooperate": 8,
      "business/defect": 23,
      "friend-sharing/cooperate": 23,
      "friend-sharing/defect": 8,
    });
    expect(eAfter(choices, block)).toBeGreaterThanOrEqual(20);
    for (let b = 1; b < block; b++) expect(eAfter(choices, b)).toBeLessThan(20);
    expect(stop?.e_value).toBeCloseTo(eAfter(choices, block), 9);
    // With the interval valid after the stop (r-confidence-sequence.ts) on the same choices: 8 of 31
    // against 23 of 31 leave each framing's rate of cooperation in [0.066, 0.555] and [0.445, 0.934]
    // (overlapping, so R reaches 1), and R ≥ 1 − JSD(0.066, 0.934)/ln 2 = 0.350.
    const e = new InvarianceEProcess(2);
    for (const c of choices) e.add("", c.framing, c.action === "cooperate" ? 0 : 1);
    const interval = anytimeRInterval(e.cells(), ["business", "friend-sharing"], 2, 0.05, 2);
    expect([interval.lower, interval.upper]).toEqual([expect.closeTo(0.35, 2), 1]);
    expect(stop?.reason).toBe(
      `invariance rejected after block ${block} (e = ${eAfter(choices, block).toFixed(1)} ≥ 20); R in [${interval.lower.toFixed(3)}, 1.000] (anytime-valid 95%)`,
    );
    expect(swayed.stdout).toContain(
      `study complete for this player (${2 * block} of at most ${2 * MAX_BLOCKS} trials): adaptive stopping ended prisoners-dilemma early, invariance rejected after block ${block}`,
    );

    const reader = await run(study, "payoff-reader", "reader", 3);
    expect(reader.status, reader.stderr).toBe(0);
    expect(reader.stdout).toContain(
      `${2 * MAX_BLOCKS} of ${2 * MAX_BLOCKS} done (study complete for this player)`,
    );
    const text = await runCliAsync(["study", "show", study, "--db", box.db]);
    expect(text.stdout).toContain(
      `swayed prisoners-dilemma: stopped early: invariance rejected after block ${block}`,
    );
    // The payoff reader always defects: e = KT(40, 0)² / 1 = 0.0079 at the last look, far from 20.
    expect(text.stdout).toContain(
      `reader prisoners-dilemma: not stopped: ${MAX_BLOCKS} complete block(s), e = 0.01`,
    );
    // Running the stopped player again plays nothing: the study is complete for it.
    const again = await run(study, "story-swayed", "swayed", 1);
    // …and counts what was played before it (62), not the 80 positions of the schedule.
    expect(again.stdout).toContain(
      `Trials played: 0 this run; study complete for this player (${2 * block} of at most ${2 * MAX_BLOCKS} trials)`,
    );
    expect(box.endpoint.requests.length).toBe(2 * blocks_played + 2 * MAX_BLOCKS);
  }, 120_000);

  it("--batch submits wave by wave, one look apart, and a stopped game gets no further batch, across a kill", async () => {
    box.endpoint = await startScriptedEndpoint({ batches: { batchMs: 1500 } });
    const endpoint = box.endpoint;
    // A look every 2 blocks of 2 cells (business, friend-sharing): each wave is 2 blocks, 4 requests.
    const study = registerStudy(box.db, {
      ...design,
      name: "adaptive batch test",
      adaptive: { rule: "invariance", look_every_blocks: 2 },
    });
    const args = [
      "run",
      "--study",
      study,
      "--model",
      "scripted/story-swayed",
      "--base-url",
      endpoint.openAiBaseUrl,
      "--batch",
      "--max-wait",
      "0.5",
      "--db",
      box.db,
    ];
    const creates = () => endpoint.batches.calls.filter((c) => c.kind === "create");
    const first = startCli(args);
    // Killed while its third batch is in flight (kept in the record, not ended).
    for (let waited = 0; ; waited += 50) {
      const open = query<{ n: number }>(
        box.db,
        "SELECT count(*) AS n FROM runner_batches WHERE ended_at IS NULL",
      );
      if ((creates().length >= 3 || (creates()[0]?.requests ?? 0) > 4) && open[0]?.n === 1) break;
      if (waited > 60_000) throw new Error(`no third batch in flight after 60 s: ${creates().length}`);
      await sleep(50);
    }
    first.child.kill("SIGKILL");
    await first.done;
    expect(creates().map((c) => c.requests)).toEqual([4, 4, 4]);

    const second = await runCliAsync(args);
    expect(second.status, second.stderr).toBe(0);
    const show = await runCliAsync(["study", "show", study, "--db", box.db, "--json"]);
    const stop = (
      JSON.parse(show.stdout) as {
        adaptive: { games: { stopped: { block: number; blocks_played: number } | null }[] }[];
      }
    ).adaptive[0]?.games[0]?.stopped;
    expect(stop).toBeTruthy();
    const { block, blocks_played } = stop as { block: number; blocks_played: number };
    // The rule looked after every second block, and the game played no block after the one it stopped at.
    expect(block % 2).toBe(0);
    expect(blocks_played).toBe(block);
    expect(finishedPerCell(box.db, study)).toEqual({
      "scripted/story-swayed/business": block,
      "scripted/story-swayed/friend-sharing": block,
    });
    // One batch of 4 requests per wave, the one in flight at the kill waited for by id, not sent again.
    expect(creates().map((c) => c.requests)).toEqual(Array.from({ length: block / 2 }, () => 4));
    expect(new Set(creates().map((c) => c.id)).size).toBe(block / 2);
    expect(query(box.db, "SELECT count(*) AS n FROM runner_batches")).toEqual([{ n: block / 2 }]);
    expect(second.stdout).toContain(
      `study complete for this player (${2 * block} of at most ${2 * MAX_BLOCKS} trials): adaptive stopping ended prisoners-dilemma early, invariance rejected after block ${block}`,
    );
    expect(endpoint.requests).toHaveLength(0);
  }, 180_000);
});
