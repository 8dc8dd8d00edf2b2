import type { Client } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { call, callError, connectClient, tempDeps } from "../support/harness.js";

let deps: ReturnType<typeof tempDeps>;
let client: Client;

beforeEach(async () => {
  deps = tempDeps();
  client = await connectClient(deps, { player: "scripted" });
});
afterEach(async () => {
  await client.close();
  deps.dispose();
});

const design = {
  name: "business vs friends",
  games: ["prisoners-dilemma", "stag-hunt"],
  // The familiar labels, so the scripted player can answer Cooperate / Defect by name.
  framings: ["business+familiar", "friend-sharing+familiar"],
  trials_per_cell: 3,
  seed: 11,
  planned_contrasts: [{ baseline: "business+familiar", comparison: "friend-sharing+familiar" }],
};

interface Trial {
  complete: boolean;
  trial_index: number | null;
  trials_per_player: number;
  trial: { match_id: string; round: number; prompt: string; labels: string[] } | null;
}

/** A player swayed by the story alone: cooperates when the prompt talks of friends, defects otherwise. */
function storySwayedChoice(prompt: string): string {
  return /friend/i.test(prompt) ? "Cooperate" : "Defect";
}

describe("a pre-registered one-shot study over MCP", () => {
  it("registers, schedules balanced blocks, records every trial and analyses the planned contrast", async () => {
    const study = await call<{
      study_id: string;
      cells: number;
      trials_per_player: number;
      design_hash: string;
    }>(client, "register_study", design);
    // 2 games × 2 framings × 1 style × 1 opponent = 4 cells; 3 trials each.
    expect(study).toMatchObject({ cells: 4, trials_per_player: 12, created: true });
    const again = await call<{ study_id: string; created: boolean }>(client, "register_study", design);
    expect(again).toMatchObject({ study_id: study.study_id, created: false });

    const cellsByBlock: string[][] = [[], [], []];
    const ordersByCell = new Map<string, string[]>();
    for (let t = 0; t < 12; t++) {
      const next = await call<Trial>(client, "next_trial", { study_id: study.study_id });
      expect(next.trial_index).toBe(t);
      const trial = next.trial as NonNullable<Trial["trial"]>;
      const match = deps.store.getMatch(trial.match_id);
      cellsByBlock[Math.floor(t / 4)]?.push(`${match?.game}/${match?.framing}`);
      const cellKey = `${match?.game}/${match?.framing}`;
      ordersByCell.set(cellKey, [
        ...(ordersByCell.get(cellKey) ?? []),
        (match?.action_order ?? []).join(","),
      ]);
      await call(client, "submit_move", {
        match_id: trial.match_id,
        round: 1,
        choice: storySwayedChoice(trial.prompt),
      });
    }
    // Permuted blocks: every block of 4 trials holds each of the 4 cells exactly once.
    for (const block of cellsByBlock) expect(new Set(block).size).toBe(4);
    // Balanced action order: a cell's first two trials list the two actions in both orders.
    for (const orders of ordersByCell.values()) {
      expect(orders).toHaveLength(3);
      expect(new Set(orders.slice(0, 2)).size).toBe(2);
    }
    expect(await call<Trial>(client, "next_trial", { study_id: study.study_id })).toMatchObject({
      complete: true,
    });

    const report = await call<{
      order_effect: { player: string; decisions: number; first_listed_rate: { estimate: number } }[];
      contrast: string;
      framings: string[];
      games: { game: string; R: { estimate: number }; shift: { estimate: number } }[];
      checks: { name: string; ok: boolean }[];
      decisions: number;
    }>(client, "robustness", { study_id: study.study_id, bootstrap: 200 });
    expect(report.contrast).toBe("planned");
    expect(report.framings).toEqual(["business+familiar", "friend-sharing+familiar"]);
    expect(report.decisions).toBe(12);
    // The story-swayed player ignores the order: in each cell's balanced pair of trials its choice is
    // listed first once, and the third trial adds 0 or 1, so 4 to 8 of 12 decisions chose the first-listed.
    expect(report.order_effect).toHaveLength(1);
    expect(report.order_effect[0]?.decisions).toBe(12);
    const first = (report.order_effect[0]?.first_listed_rate.estimate ?? 0) * 12;
    expect(Math.round(first)).toBeGreaterThanOrEqual(4);
    expect(Math.round(first)).toBeLessThanOrEqual(8);
    // All-defect under business, all-cooperate with friends: disjoint distributions, R = 0, shift = +1.
    for (const g of report.games) {
      expect(g.R.estimate).toBe(0);
      expect(g.shift.estimate).toBe(1);
    }
    const design_check = report.checks.find((c) => /design|cells|decisions/i.test(c.name));
    expect(design_check?.ok).toBe(true);

    const everything = await call<{
      header: { players: string[]; study: { id: string } };
      cooperation: { game: string; framing: string; rate: number; n: number }[];
    }>(client, "report", { study_id: study.study_id, bootstrap: 200 });
    expect(everything.header).toMatchObject({ players: ["scripted"], study: { id: study.study_id } });
    // 3 trials per cell, story-swayed: 0 of 3 cooperate under business, 3 of 3 with friends.
    for (const cell of everything.cooperation) {
      expect(cell).toMatchObject({ n: 3, rate: cell.framing === "business+familiar" ? 0 : 1 });
    }
  });

  it("resumes an unfinished trial instead of handing out a new one, and refuses unknown studies", async () => {
    const study = await call<{ study_id: string }>(client, "register_study", design);
    const first = await call<Trial>(client, "next_trial", { study_id: study.study_id });
    const again = await call<Trial & { resumed: boolean }>(client, "next_trial", {
      study_id: study.study_id,
    });
    expect(again.resumed).toBe(true);
    expect(again.trial?.match_id).toBe(first.trial?.match_id);
    expect(await callError(client, "next_trial", { study_id: "study-x" })).toMatch(
      /No study with id "study-x"/,
    );
    expect(
      await callError(client, "register_study", { ...design, framings: ["business", "rps-plain"] }),
    ).toMatch(/rps-plain/);
  });
});
