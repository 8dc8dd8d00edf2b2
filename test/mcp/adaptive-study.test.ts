import type { Client } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { call, callError, connectClient, tempDeps } from "../support/harness.js";
import { describeEachEngine } from "../support/postgres.js";

// Adaptive stopping over MCP, on both engines: register_study takes the rule, next_trial applies it.

const design = {
  name: "business vs friends",
  games: ["prisoners-dilemma", "stag-hunt"],
  // The familiar labels, so the scripted player can answer Cooperate / Defect by name.
  framings: ["business+familiar", "friend-sharing+familiar"],
  trials_per_cell: 3,
  seed: 11,
};

interface Trial {
  complete: boolean;
  trial: { match_id: string; prompt: string } | null;
  stopped_early?: { game: string; block: number; reason: string; r_interval: Record<string, number> }[];
  trials_per_player: number;
  trials_planned: number;
}

/** A player swayed by the story alone: cooperates when the prompt talks of friends, defects otherwise. */
function storySwayedChoice(prompt: string): string {
  return /friend/i.test(prompt) ? "Cooperate" : "Defect";
}

/** Plays the study's trials as the story-swayed player until next_trial says it is complete. */
async function playStorySwayed(client: Client, studyId: string): Promise<{ played: number; next: Trial }> {
  let played = 0;
  for (;;) {
    const next = await call<Trial>(client, "next_trial", { study_id: studyId });
    if (next.complete) return { played, next };
    const trial = next.trial as NonNullable<Trial["trial"]>;
    await call(client, "submit_move", {
      match_id: trial.match_id,
      round: 1,
      choice: storySwayedChoice(trial.prompt),
    });
    played++;
  }
}

describeEachEngine("adaptive stopping over MCP", (engine) => {
  let deps: ReturnType<typeof tempDeps>;
  let client: Client;
  beforeEach(async () => {
    deps = tempDeps(engine);
    client = await connectClient(deps, { player: "scripted" });
  });
  afterEach(async () => {
    await client.close();
    deps.dispose();
  });

  it("under adaptive stopping, stops both games after block 5 (e = 62.0) and says so when complete", async () => {
    const adaptive = { ...design, name: "adaptive", trials_per_cell: 20, adaptive: { rule: "invariance" } };
    const study = await call<{ study_id: string; design_hash: string }>(client, "register_study", adaptive);
    const fixed = await call<{ design_hash: string }>(client, "register_study", {
      ...adaptive,
      adaptive: undefined,
    });
    // The rule is part of the frozen design: another rule, another hash.
    expect(study.design_hash).not.toBe(fixed.design_hash);
    const { played, next } = await playStorySwayed(client, study.study_id);
    // Cooperate in every friend-sharing trial, defect in every business one: after b blocks
    // e = KT(b, 0)² · 2^(2b) per game, 19.1 after 4 blocks and 62.0 after 5, so both stop at 5.
    expect(next.stopped_early?.map((s) => [s.game, s.block, s.reason])).toEqual([
      [
        "prisoners-dilemma",
        5,
        "invariance rejected after block 5 (e = 62.0 ≥ 20); R in [0.000, 1.000] (anytime-valid 95%)",
      ],
      [
        "stag-hunt",
        5,
        "invariance rejected after block 5 (e = 62.0 ≥ 20); R in [0.000, 1.000] (anytime-valid 95%)",
      ],
    ]);
    // R's interval at the stop, valid after it: 5 C against 5 D leave R anywhere in [0, 1]
    // (test/domain/adaptive-stopping.test.ts works it out by hand).
    expect(next.stopped_early?.[0]?.r_interval).toEqual({ lower: 0, upper: 1, width: 1 });
    // The player will have played 5 blocks of 4 cells, not the 80 positions of the schedule.
    expect([next.trials_per_player, next.trials_planned]).toEqual([80, 20]);
    // 5 blocks of the 4 cells, of the 80 the design allows.
    expect(played).toBe(20);
    // The analysis says where and why, and checks the record against the design as stopped (5 blocks).
    const robustness = await call<{
      decisions: number;
      checks: { name: string; ok: boolean; detail: string }[];
      notes: { name: string; detail: string }[];
    }>(client, "robustness", { study_id: study.study_id, bootstrap: 200 });
    expect(robustness.decisions).toBe(20);
    expect(robustness.checks.find((c) => c.name === "design_decisions")).toMatchObject({
      ok: true,
      detail: "20 decisions analysed; the design says 20.",
    });
    const stoppedEarly =
      "Adaptive stopping (rule invariance, alpha 0.05) stopped early: scripted / prisoners-dilemma after block 5 of 20 (invariance rejected after block 5 (e = 62.0 ≥ 20); R in [0.000, 1.000] (anytime-valid 95%); 5 blocks played); scripted / stag-hunt after block 5 of 20 (invariance rejected after block 5 (e = 62.0 ≥ 20); R in [0.000, 1.000] (anytime-valid 95%); 5 blocks played). Its framings stay balanced (whole blocks). The intervals of R above are fixed-n intervals, whose coverage nothing bounds after an early stop: quote the anytime-valid interval given here.";
    expect(robustness.notes.find((n) => n.name === "adaptive_stopping")?.detail).toBe(stoppedEarly);
    // Over the whole record, no study named, the same decisions are analysed: the note names the study.
    const whole = await call<{ notes: { name: string; detail: string }[] }>(client, "robustness", {
      bootstrap: 200,
    });
    expect(whole.notes.find((n) => n.name === "adaptive_stopping")?.detail).toBe(
      `Study adaptive (${study.study_id}): ${stoppedEarly}`,
    );
    // The report (and its HTML page, which lists the robustness notes under Verification) says it too.
    const report = await client.callTool({
      name: "report",
      arguments: { study_id: study.study_id, bootstrap: 200 },
    });
    const robustnessNotes = (report.structuredContent as { robustness: { notes: { name: string }[] } })
      .robustness.notes;
    expect(robustnessNotes.some((n) => n.name === "adaptive_stopping")).toBe(true);
    expect(JSON.stringify(report.content)).toContain(
      "Adaptive stopping (rule invariance, alpha 0.05) stopped early",
    );
    const result = await client.callTool({ name: "next_trial", arguments: { study_id: study.study_id } });
    expect(JSON.stringify(result.content)).toContain(
      "prisoners-dilemma: stopped early, invariance rejected after block 5",
    );
  });

  it("a rule that rejects at the design's last block stopped nothing early, and the note says so", async () => {
    // 5 blocks planned, and the rule fires after block 5 (e = 62.0, as above): every block was played.
    const adaptive = {
      ...design,
      name: "adaptive, 5 blocks",
      trials_per_cell: 5,
      adaptive: { rule: "invariance" },
    };
    const study = await call<{ study_id: string }>(client, "register_study", adaptive);
    const { played } = await playStorySwayed(client, study.study_id);
    expect(played).toBe(20);
    const atLast =
      "Adaptive stopping (rule invariance, alpha 0.05): no (player, game) stopped early; rejected at the last block, so played in full: scripted / prisoners-dilemma after block 5 of 5 (invariance rejected after block 5 (e = 62.0 ≥ 20); R in [0.000, 1.000] (anytime-valid 95%); every block played); scripted / stag-hunt after block 5 of 5 (invariance rejected after block 5 (e = 62.0 ≥ 20); R in [0.000, 1.000] (anytime-valid 95%); every block played).";
    for (const args of [{ study_id: study.study_id }, {}]) {
      const robustness = await call<{ notes: { name: string; detail: string }[] }>(client, "robustness", {
        ...args,
        bootstrap: 200,
      });
      const note = robustness.notes.find((n) => n.name === "adaptive_stopping")?.detail;
      expect(note).toBe(
        "study_id" in args ? atLast : `Study adaptive, 5 blocks (${study.study_id}): ${atLast}`,
      );
    }
  });

  it("under the within-block permutation test, stops both games after block 6 (e = 20.29) and names the test", async () => {
    const adaptive = {
      ...design,
      name: "adaptive, permutation test",
      trials_per_cell: 20,
      adaptive: { rule: "invariance", test: "within_block_permutation" },
    };
    const study = await call<{ study_id: string }>(client, "register_study", adaptive);
    const { played, next } = await playStorySwayed(client, study.study_id);
    // Each block's factor is 1, 8/5, 9/5, 32/17, 50/26, 72/37 (worked out by hand in
    // test/domain/permutation-e-process.test.ts): 10.43 after 5 blocks, 20.29 after 6.
    expect(next.stopped_early?.map((s) => [s.game, s.block, s.reason.split(";")[0]])).toEqual([
      [
        "prisoners-dilemma",
        6,
        "invariance rejected by within_block_permutation after block 6 (e = 20.3 ≥ 20)",
      ],
      ["stag-hunt", 6, "invariance rejected by within_block_permutation after block 6 (e = 20.3 ≥ 20)"],
    ]);
    expect([next.trials_per_player, next.trials_planned]).toEqual([80, 24]);
    expect(played).toBe(24);
    const robustness = await call<{ notes: { name: string; detail: string }[] }>(client, "robustness", {
      study_id: study.study_id,
      bootstrap: 200,
    });
    expect(robustness.notes.find((n) => n.name === "adaptive_stopping")?.detail).toContain(
      "Adaptive stopping (rule invariance, test within_block_permutation, alpha 0.05) stopped early: scripted / prisoners-dilemma after block 6 of 20",
    );
  });

  it("refuses an adaptive rule it does not know, naming the ones it does, and a bad width target", async () => {
    const error = await callError(client, "register_study", { ...design, adaptive: { rule: "power" } });
    expect(error).toContain("invariance");
    expect(error).toContain("invariance_or_width");
    const missing = await callError(client, "register_study", { ...design, adaptive: { rule: "width" } });
    expect(missing).toContain("adaptive.rule width needs adaptive.width_target, a width in (0, 1)");
    const wide = await callError(client, "register_study", {
      ...design,
      adaptive: { rule: "width", width_target: 1.5 },
    });
    expect(wide).toContain("adaptive.width_target 1.5 is outside (0, 1)");
    const late = await callError(client, "register_study", {
      ...design,
      adaptive: { rule: "invariance", min_blocks: 4 },
    });
    expect(late).toContain("adaptive.min_blocks 4 is more than trials_per_cell 3");
  });
});

describe("adaptive stopping on the player's surface", () => {
  let deps: ReturnType<typeof tempDeps>;
  let operator: Client;
  let player: Client;
  beforeEach(async () => {
    deps = tempDeps();
    operator = await connectClient(deps, { player: "operator" });
    // The default `serve --player X`: play alone, the blind surface the agent under evaluation gets.
    player = await connectClient(deps, { player: "blind-agent", toolsets: ["play"] });
  });
  afterEach(async () => {
    await Promise.all([operator.close(), player.close()]);
    deps.dispose();
  });

  it("stops the story-swayed player as the operator's surface does, and next_trial tells it nothing of why", async () => {
    const adaptive = {
      ...design,
      name: "blind adaptive",
      trials_per_cell: 20,
      adaptive: { rule: "invariance" },
    };
    const study = await call<{ study_id: string }>(operator, "register_study", adaptive);
    // Every next_trial answer the player gets, its stimulus (the trial's prompt, the measured material) aside.
    const answers: unknown[] = [];
    let played = 0;
    for (;;) {
      const result = await player.callTool({ name: "next_trial", arguments: { study_id: study.study_id } });
      expect(result.isError).toBeFalsy();
      const next = result.structuredContent as unknown as Trial;
      answers.push({ content: result.content, structured: { ...next, trial: next.trial && "a trial" } });
      if (next.complete) {
        // Stopped after block 5 of 20, as on the operator's surface (the test above): 20 of 80 played.
        expect([next.trials_per_player, next.trials_planned, played]).toEqual([80, 20, 20]);
        expect(next).not.toHaveProperty("stopped_early");
        expect(result.content).toEqual([
          {
            type: "text",
            text: `Study ${study.study_id} is complete for this player: it needs no more trials (20 of at most 80 played).`,
          },
        ]);
        break;
      }
      const trial = next.trial as NonNullable<Trial["trial"]>;
      await call(player, "submit_move", {
        match_id: trial.match_id,
        round: 1,
        choice: storySwayedChoice(trial.prompt),
      });
      played++;
    }
    const listed = (await player.listTools()).tools.find((t) => t.name === "next_trial");
    const seen = JSON.stringify({ answers, listed }).toLowerCase();
    const ids = [...deps.catalog.games.map((g) => g.id), ...deps.catalog.framings.map((f) => f.id)];
    const leaked = [
      ...ids.filter((id) =>
        new RegExp(`(^|[^a-z0-9+-])${id.replace(/\+/g, "\\+")}($|[^a-z0-9+-])`).test(seen),
      ),
      ...["invariance", "robustness", "framing", "e_value", "r_interval", "stopped_early"].filter((w) =>
        seen.includes(w),
      ),
    ];
    expect(leaked).toEqual([]);
    // Not vacuous: the operator's surface, for the same player, names them in its schema and its answer.
    const full = await connectClient(deps, { player: "blind-agent" });
    const operatorNext = await full.callTool({ name: "next_trial", arguments: { study_id: study.study_id } });
    const operatorListed = JSON.stringify(
      (await full.listTools()).tools.find((t) => t.name === "next_trial"),
    );
    await full.close();
    expect(JSON.stringify(operatorNext)).toContain("invariance rejected after block 5");
    expect(operatorListed).toContain("e_value");
  });
});
