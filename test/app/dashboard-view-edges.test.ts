import type { Client } from "@modelcontextprotocol/client";
import type { Frame } from "puppeteer-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { importMatches, parseMatchesJsonl } from "../../src/imports/matches-jsonl.js";
import { call, tempDeps } from "../support/harness.js";
import { describeWithChromium } from "./chromium.js";
import { connectHost, screenshot, startViewHarness, type ViewHarness } from "./view-harness.js";

// The dashboard view at the edges of a record, in headless Chromium (view-harness.ts): a study the model
// named, a (player, game) left out of robustness, a cell of more matches than one listing shows, and
// tool calls that fail or that the host refuses.

/** Imported repeated-pd transcripts of one cell: more than list_matches' default page of 50. */
const IMPORTED = 60;

let deps: ReturnType<typeof tempDeps>;
let client: Client;
let harness: ViewHarness;
let studyId: string;

/**
 * The record: study-agent plays the two trials of a registered study (prisoners-dilemma under business and
 * team, one trial each); half-agent plays the prisoner's dilemma under business only, twice; 60 repeated-pd
 * matches of imported-agent under their-prompt are imported from a transcript file.
 */
async function playEdgeRecord(): Promise<void> {
  const study = await call<{ study_id: string }>(client, "register_study", {
    name: "edge-study",
    games: ["prisoners-dilemma"],
    framings: ["business", "team"],
    trials_per_cell: 1,
    seed: 5,
  });
  studyId = study.study_id;
  for (let trial = 0; trial < 2; trial++) {
    const player = await connectHost(deps, "study-player");
    const next = await call<{ trial: { match_id: string; labels: string[] } }>(player, "next_trial", {
      study_id: studyId,
      player: "study-agent",
    });
    await call(player, "submit_move", {
      match_id: next.trial.match_id,
      round: 1,
      choice: next.trial.labels[0],
    });
    await player.close();
  }
  for (let i = 0; i < 2; i++) {
    const player = await connectHost(deps, "half-player");
    const view = await call<{ match_id: string; labels: string[] }>(player, "start_match", {
      game: "prisoners-dilemma",
      framing: "business",
      player: "half-agent",
      seed: i,
    });
    await call(player, "submit_move", { match_id: view.match_id, round: 1, choice: view.labels[0] });
    await player.close();
  }
  const round = { move: "cooperate", opponent_move: "cooperate", payoff: 4, opponent_payoff: 4 };
  const line = JSON.stringify({
    player: "imported-agent",
    game: "repeated-pd",
    variant: "base",
    framing: "their-prompt",
    opponent: "tft-elsewhere",
    rounds: Array.from({ length: 16 }, () => round),
  });
  const text = Array.from({ length: IMPORTED }, () => line).join("\n");
  importMatches(deps, parseMatchesJsonl(text, "elsewhere.jsonl", deps.catalog), "elsewhere");
}

describeWithChromium("the dashboard view at the record's edges", () => {
  beforeAll(async () => {
    deps = tempDeps();
    client = await connectHost(deps, "chromium-host");
    await client.listTools();
    await playEdgeRecord();
    harness = await startViewHarness(client);
  }, 120_000);

  afterAll(async () => {
    await harness?.close();
    await client?.close();
    deps?.dispose();
  });

  it("report of the model's study: the study shows in its field and stays when the analyst picks a framing pair", async () => {
    const { page, view } = await harness.open(
      "report",
      { bootstrap: 200, study_id: studyId },
      { theme: "light", width: 760 },
    );
    const field = () => view.$eval("input[name=study]", (i) => (i as unknown as { value: string }).value);
    const source = () => view.$eval("header [data-source]", (p) => p.textContent);
    expect(await field()).toBe(studyId);
    expect(await source()).toBe("report · business → team · study edge-study");
    const from = harness.calls.length;
    await view.select('select[name="baseline"]', "team");
    await view.select('select[name="comparison"]', "business");
    const rerun = await harness.waitForCall("report", from);
    expect(rerun.arguments).toEqual({ bootstrap: 200, study_id: studyId, framings: ["team", "business"] });
    await view.waitForFunction(
      'document.querySelector("header [data-source]").textContent.includes("team → business")',
    );
    // Still the study's one player, not the whole record's.
    expect(await source()).toBe("report · team → business · study edge-study");
    expect(await field()).toBe(studyId);
    await screenshot(page, "model-study-kept", 400);
    await page.close();
  });

  it("robustness says which (player, game) it left out for a missing framing, as its text twin does", async () => {
    const result = await client.callTool({ name: "robustness", arguments: { bootstrap: 200 } });
    expect((result.structuredContent as { skipped: unknown }).skipped).toEqual([
      { player: "half-agent", game: "prisoners-dilemma", missing: ["team"] },
    ]);
    const { page, view } = await harness.open(
      "robustness",
      { bootstrap: 200 },
      { theme: "light", width: 760 },
    );
    const said = () =>
      view.$$eval("[data-section=robustness] [data-note=robustness_coverage]", (notes) =>
        notes.map((n) => n.textContent),
      );
    expect(await said()).toEqual([
      "Left out of robustness: half-agent / prisoners-dilemma (no decisions under team).",
    ]);
    await screenshot(page, "robustness-left-out", 500);
    // The report says it in the same place, in the same words.
    const report = await harness.open("report", { bootstrap: 200 }, { theme: "light", width: 760 });
    expect(
      await report.view.$$eval("[data-section=robustness] [data-note=robustness_coverage]", (notes) =>
        notes.map((n) => n.textContent),
      ),
    ).toEqual(["Left out of robustness: half-agent / prisoners-dilemma (no decisions under team)."]);
    await report.page.close();
    await page.close();
  });

  it("a list_matches call the host refuses: the panel and the status line say so instead of Loading…", async () => {
    const { page, view } = await harness.open(
      "repeated_metrics",
      {},
      {
        theme: "light",
        width: 760,
        answer: async (call) => {
          if (call.name === "list_matches") throw new Error("The user declined this tool call.");
          return undefined;
        },
      },
    );
    await view.click(`[data-cell="${IMPORTED_CELL}"]`);
    await view.waitForSelector("[data-section=matches] [data-failure]", { timeout: 10_000 });
    const panel = await view.$eval("[data-section=matches]", (s) => s.textContent ?? "");
    expect(panel).not.toContain("Loading");
    expect(panel).toContain("The user declined this tool call.");
    expect(await statusLine(view)).toContain("The user declined this tool call.");
    await screenshot(page, "matches-refused");
    await page.close();
  });

  it("a list_matches call that fails: the panel shows the tool's sentence instead of Loading…", async () => {
    const sentence = "The record is being restored; list the matches again in a minute.";
    const { page, view } = await harness.open(
      "repeated_metrics",
      {},
      {
        theme: "light",
        width: 760,
        answer: async (call) =>
          call.name === "list_matches"
            ? { content: [{ type: "text", text: sentence }], isError: true }
            : undefined,
      },
    );
    await view.click(`[data-cell="${IMPORTED_CELL}"]`);
    await view.waitForFunction('document.querySelector("[role=status]").textContent !== ""');
    await view.waitForSelector("[data-section=matches] [data-failure]", { timeout: 10_000 });
    const panel = await view.$eval("[data-section=matches]", (s) => s.textContent ?? "");
    expect(panel).not.toContain("Loading");
    expect(panel).toContain(sentence);
    expect(await statusLine(view)).toBe(sentence);
    await page.close();
  });

  it("a first call that fails: the view shows the server's sentence, not a wait for a result", async () => {
    const args = { bootstrap: 200, study_id: "no-such-study" };
    const failure = await client.callTool({ name: "report", arguments: args });
    expect(failure.isError).toBe(true);
    const sentence = (failure.content as { text: string }[]).map((c) => c.text).join(" ");
    expect(sentence).toContain("no-such-study");
    const { page, view } = await harness.open("report", args, { theme: "light", width: 760, drawn: false });
    expect(await statusLine(view)).toBe(sentence);
    expect(await view.$eval("header [data-source]", (p) => p.textContent)).toBe("report failed");
    expect(await view.evaluate("document.body.dataset.ready")).toBe("error");
    await screenshot(page, "first-call-failed", 300);
    await page.close();
  });

  it("lists a cell of 60 imported matches 50 at a time with whole, distinct ids, and says 50 of 60", async () => {
    const { page, view } = await harness.open("repeated_metrics", {}, { theme: "light", width: 760 });
    const from = harness.calls.length;
    await view.click(`[data-cell="${IMPORTED_CELL}"]`);
    await view.waitForSelector("[data-list=matches] li");
    expect((await harness.waitForCall("list_matches", from)).arguments).toEqual({
      player: "imported-agent",
      game: "repeated-pd",
      framing: "their-prompt",
      variant: "base",
      opponent: "tft-elsewhere",
      limit: 50,
      offset: 0,
    });
    const ids = () =>
      view.$$eval("[data-list=matches] li button", (bs) => bs.map((b) => b.textContent ?? ""));
    const count = () => view.$eval("[data-count]", (p) => p.textContent);
    // One import's ids share their batch and differ in the line number at their end.
    const first = await ids();
    expect(first).toHaveLength(50);
    expect(new Set(first).size).toBe(50);
    expect(first.every((id) => /^imp-[0-9a-f]{12}-\d{7}$/.test(id))).toBe(true);
    // When each started, in UTC and saying so (the record's times are UTC, the reader's zone is not).
    const lines = await view.$$eval("[data-list=matches] li", (items) =>
      items.map((li) => li.textContent ?? ""),
    );
    expect(lines.every((line) => / · \d{4}-\d\d-\d\d \d\d:\d\d UTC$/.test(line))).toBe(true);
    expect(await count()).toBe(`50 of ${IMPORTED} matches, newest first.`);
    expect(
      await view.$eval("[data-more]", (b) => [b.textContent, (b as unknown as { hidden: boolean }).hidden]),
    ).toEqual(["Show 10 more", false]);
    await screenshot(page, "matches-partial");
    await view.click("[data-more]");
    await view.waitForFunction('document.querySelectorAll("[data-list=matches] li").length === 60');
    const all = await ids();
    expect(new Set(all).size).toBe(IMPORTED);
    expect(all.slice(0, 50)).toEqual(first);
    expect(await count()).toBe(`${IMPORTED} match(es), newest first.`);
    expect(await view.$eval("[data-more]", (b) => (b as unknown as { hidden: boolean }).hidden)).toBe(true);
    // The transcript names its match by the whole id too.
    await view.click(`[data-match="${all[59]}"]`);
    await view.waitForSelector("[data-table=transcript] tbody tr");
    expect(await view.$eval("[data-transcript] h3", (h) => h.textContent)).toContain(all[59]);
    expect(await view.$$eval("[data-table=transcript] tbody tr", (rows) => rows.length)).toBe(16);
    await page.close();
  });
  it("a cell with nothing to list says why truthfully: a token host analyses imported matches but lists none", async () => {
    const tokenHost = await connectHost(deps, "token-host", "tenant-with-token");
    try {
      const { page, view } = await harness.open(
        "repeated_metrics",
        {},
        { theme: "light", width: 760, host: tokenHost },
      );
      // The analysis counts the 60 imported matches for every principal…
      expect(await view.$eval(`[data-cell="${IMPORTED_CELL}"] td:nth-child(5)`, (td) => td.textContent)).toBe(
        String(IMPORTED),
      );
      await view.click(`[data-cell="${IMPORTED_CELL}"]`);
      await view.waitForSelector("[data-section=matches] .no-data");
      // …but list_matches shows a token only the matches started with it.
      expect(await view.$eval("[data-section=matches] .no-data", (p) => p.textContent)).toBe(
        "No match of this cell to list: imported counts have no transcripts, and over HTTP with a token only the matches started with that token are listed.",
      );
      await page.close();
    } finally {
      await tokenHost.close();
    }
  });

  it("robustness at another confidence says that level, and its table carries the pooled row the chart draws", async () => {
    const args = { bootstrap: 200, confidence: 0.9 };
    const json = (await client.callTool({ name: "robustness", arguments: args })).structuredContent as {
      pooled: {
        R: { estimate: number; ci: [number, number] };
        shift: { estimate: number; ci: [number, number] };
      };
    };
    const { page, view } = await harness.open("robustness", args, { theme: "light", width: 760 });
    const captions = await view.$$eval("[data-section=robustness] figcaption", (fs) =>
      fs.map((f) => f.textContent ?? ""),
    );
    expect(captions[0]).toMatch(/^Each row: R with its 90% interval; /);
    expect(
      await view.$$eval("[data-table=robustness] thead th", (ths) => ths.map((th) => th.textContent)),
    ).toEqual(["Player", "Game", "R", "90% CI", "Shift", "90% CI"]);
    // study-agent's one decision per framing leaves it alone in robustness: its two rows, then the pool.
    const fixed = (x: number) => x.toFixed(3);
    const { R, shift } = json.pooled;
    expect(
      await view.$$eval("[data-table=robustness] tbody tr", (trs) =>
        trs.map((tr) => [tr.getAttribute("data-cell"), ...[...tr.children].map((td) => td.textContent)]),
      ),
    ).toContainEqual([
      "pooled",
      "all players (pooled)",
      "all games",
      fixed(R.estimate),
      `[${fixed(R.ci[0])}, ${fixed(R.ci[1])}]`,
      fixed(shift.estimate),
      `[${fixed(shift.ci[0])}, ${fixed(shift.ci[1])}]`,
    ]);
    // The pooled row belongs to no player: it opens nothing, and is not announced as a button.
    expect(
      await view.$eval('[data-table=robustness] tr[data-cell="pooled"]', (tr) => tr.getAttribute("role")),
    ).toBe(null);
    await page.close();
  });

  it("a pair of one framing chosen twice is refused in the view at once, without a call", async () => {
    const { view } = await harness.open("robustness", { bootstrap: 200 }, { theme: "light", width: 760 });
    const from = harness.calls.length;
    await view.select('select[name="baseline"]', "team");
    expect(await statusLine(view)).toBe(
      "Choose both framings of the pair (or neither for the default pair).",
    );
    await view.select('select[name="comparison"]', "team");
    expect(await statusLine(view)).toBe(
      "Choose two different framings: team is both the baseline and the comparison. The result shown is for no filter.",
    );
    await view.select('select[name="comparison"]', "business");
    expect((await harness.waitForCall("robustness", from)).arguments).toEqual({
      bootstrap: 200,
      framings: ["team", "business"],
    });
    expect(harness.calls.slice(from).filter((c) => c.name === "robustness")).toHaveLength(1);
    await view.page().close();
  });

  it("two cells clicked in turn list the second's matches, even when the first's answer comes last", async () => {
    let slowFirst = true;
    const { page, view } = await harness.open(
      "report",
      { bootstrap: 200 },
      {
        theme: "light",
        width: 760,
        // The host answers the first list_matches after the second (hosts may answer in any order).
        answer: async (call) => {
          if (call.name !== "list_matches" || !slowFirst) return undefined;
          slowFirst = false;
          await new Promise((resolve) => setTimeout(resolve, 1500));
          return undefined;
        },
      },
    );
    await view.$eval("[data-chart-table=cooperation]", (d) => {
      (d as unknown as { open: boolean }).open = true;
    });
    const from = harness.calls.length;
    await view.click('[data-table=cooperation] tr[data-cell="study-agent|prisoners-dilemma|business"]');
    await view.click('[data-table=cooperation] tr[data-cell="half-agent|prisoners-dilemma|business"]');
    await view.waitForSelector("[data-list=matches] li");
    // Past the slow answer: the panel must still be the second cell's.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(harness.calls.slice(from).filter((c) => c.name === "list_matches")).toHaveLength(2);
    expect(await view.$eval("[data-section=matches] h2", (h) => h.textContent)).toBe(
      "Matches: half-agent · prisoners-dilemma · business",
    );
    expect(await view.$eval("[data-count]", (p) => p.textContent)).toBe("2 match(es), newest first.");
    await page.close();
  });

  it("a repeated-play row lists its own opponent's matches: as many as its Matches column says", async () => {
    // duo plays repeated-pd under repeated-plain twice against tit-for-tat and once against always-defect:
    // two cells of one player, game and framing.
    const player = await connectHost(deps, "duo-player");
    for (const [opponent, seed] of [
      ["tit-for-tat", 1],
      ["tit-for-tat", 2],
      ["always-defect", 3],
    ] as const) {
      const match = await call<{ match_id: string; labels: string[] }>(player, "start_match", {
        game: "repeated-pd",
        framing: "repeated-plain",
        opponent,
        player: "duo",
        seed,
      });
      for (let round = 1; round <= 16; round++) {
        await call(player, "submit_move", { match_id: match.match_id, round, choice: match.labels[0] });
      }
    }
    await player.close();
    const { page, view } = await harness.open(
      "repeated_metrics",
      { players: ["duo"] },
      { theme: "light", width: 760 },
    );
    const row = (opponent: string) =>
      `[data-table=repeated] tr[data-cell="duo|repeated-pd|repeated-plain"][data-opponent="${opponent}"]`;
    expect(await view.$eval(`${row("always-defect")} td:nth-child(5)`, (td) => td.textContent)).toBe("1");
    const from = harness.calls.length;
    await view.click(row("always-defect"));
    expect((await harness.waitForCall("list_matches", from)).arguments).toMatchObject({
      player: "duo",
      framing: "repeated-plain",
      opponent: "always-defect",
    });
    await view.waitForSelector("[data-list=matches] li");
    expect(await view.$eval("[data-section=matches] h2", (h) => h.textContent)).toBe(
      "Matches: duo · repeated-pd · repeated-plain vs always-defect",
    );
    expect(await view.$eval("[data-count]", (p) => p.textContent)).toBe("1 match(es), newest first.");
    expect(
      await view.$$eval("[data-list=matches] li", (items) =>
        items.map((li) => li.textContent?.includes(" vs always-defect · ")),
      ),
    ).toEqual([true]);
    // The other row, likewise: its two matches.
    await view.click(row("tit-for-tat"));
    await view.waitForFunction(
      'document.querySelector("[data-section=matches] h2").textContent.endsWith("vs tit-for-tat")',
    );
    await view.waitForSelector("[data-count]");
    expect(await view.$eval("[data-count]", (p) => p.textContent)).toBe("2 match(es), newest first.");
    await page.close();
  });

  it("each chart is named for a screen reader by its caption, not as one more 'Vega visualization'", async () => {
    const { page, view } = await harness.open("report", { bootstrap: 200 }, { theme: "light", width: 760 });
    const named = await view.$$eval("figure", (figures) =>
      figures.map((f) => [
        f.querySelector("[data-chart]")?.getAttribute("data-chart"),
        f.querySelector("[role=graphics-document]")?.getAttribute("aria-label") ===
          f.querySelector("figcaption")?.textContent,
      ]),
    );
    expect(named).toEqual([
      ["cooperation", true],
      ["robustness-forest", true],
      ["shift-forest", true],
      ["sensitivity", true],
      ["comprehension", true],
    ]);
    await page.close();
  });
});

const IMPORTED_CELL = "imported-agent|repeated-pd|their-prompt";

const statusLine = (view: Frame) => view.$eval("[role=status]", (s) => s.textContent ?? "");
