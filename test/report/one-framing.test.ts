import type { Client } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { reportData } from "../../src/queries/report-data-query.js";
import { call, callError, connectClient, tempDeps } from "../support/harness.js";

// A study after its first trial has decisions under one framing only: the report, the robustness tool and
// the study report resource must say so, not fail with a stack.

let deps: ReturnType<typeof tempDeps>;
let client: Client;
beforeEach(async () => {
  deps = tempDeps();
  client = await connectClient(deps, { clientName: "first-trial" });
});
afterEach(async () => {
  await client.close();
  deps.dispose();
});

describe("a record with one framing so far", () => {
  it("renders what there is and says what is missing", async () => {
    const study = await call<{ study_id: string }>(client, "register_study", {
      name: "just started",
      games: ["prisoners-dilemma"],
      framings: ["business", "friend-sharing"],
      trials_per_cell: 2,
      seed: 4,
      planned_contrasts: [{ baseline: "business", comparison: "friend-sharing" }],
    });
    const next = await call<{ trial: { match_id: string; labels: string[] } }>(client, "next_trial", {
      study_id: study.study_id,
    });
    await call(client, "submit_move", {
      match_id: next.trial.match_id,
      round: 1,
      choice: next.trial.labels[0] as string,
    });
    const framing = deps.store.getMatch(next.trial.match_id)?.framing as string;

    const data = reportData(deps, { study_id: study.study_id, bootstrap: 200 });
    expect(data.robustness).toBeNull();
    expect(data.cooperation?.map((c) => [c.framing, c.n])).toEqual([[framing, 1]]);
    const why = `No (player, game) has decisions in every framing of business, friend-sharing; framings by game: prisoners-dilemma: ${framing}. Name the framings to compare`;
    expect(data.missing?.[0]?.reason).toContain(why);
    expect(data.missing?.[0]?.reason).not.toContain("Robustness not computed");

    // Without the study's planned pair, the framings present are compared: there is one.
    const whole = reportData(deps, { bootstrap: 200 });
    expect(whole.robustness).toBeNull();
    expect(whole.missing?.[0]?.reason).toContain(`the record has decisions under ${framing} only`);

    const read = await client.readResource({ uri: `same-game://studies/${study.study_id}/report` });
    const page = (read.contents[0] as { text: string }).text;
    // Said once, and not the sentence for a record without a second framing: this one has the study's two.
    const section = /<section id="robustness">.*?<\/section>/s.exec(page)?.[0] ?? "";
    expect(section.match(/Robustness not computed/g)?.length).toBe(1);
    expect(page).not.toContain("No game was played under two or more framings");
    expect(page).toContain("Cooperation rate, 95% interval and decisions (n) per cell");

    const refusal = await callError(client, "robustness", { study_id: study.study_id });
    expect(refusal).toContain(why);
  });
});
