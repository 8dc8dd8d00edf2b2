import type { Client } from "@modelcontextprotocol/client";
import type { Frame } from "puppeteer-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { tempDeps } from "../support/harness.js";
import { describeWithChromium } from "./chromium.js";
import { playDashboardRecord, TRIALS } from "./dashboard-record.js";
import { axisLabels, connectHost, screenshot, startViewHarness, type ViewHarness } from "./view-harness.js";

// The dashboard view against what a host may do (view-harness.ts, over the record of dashboard-record.ts):
// answer the view's calls out of order, cancel the model's call, be driven by the keyboard alone; and the
// framing filters each tool takes.

let deps: ReturnType<typeof tempDeps>;
let client: Client;
let harness: ViewHarness;

/** The forest's row labels, without its x axis's numbers. */
const forestRowLabels = async (view: Frame) =>
  (await axisLabels(view, "robustness-forest")).filter((l) => !/^-?[\d.]+$/.test(l)).sort();
const statusLine = (view: Frame) => view.$eval("[role=status]", (s) => s.textContent ?? "");
const optionsOf = (view: Frame, name: string) =>
  view.$eval(`select[name="${name}"]`, (s) =>
    [...(s as unknown as { options: { value: string }[] }).options].map((o) => o.value),
  );

describeWithChromium("the dashboard view and its host", () => {
  beforeAll(async () => {
    deps = tempDeps();
    client = await connectHost(deps, "chromium-host");
    await client.listTools();
    await playDashboardRecord(() => connectHost(deps, "player"));
    harness = await startViewHarness(client);
  }, 120_000);

  afterAll(async () => {
    await harness?.close();
    await client?.close();
    deps?.dispose();
  });

  it("a slow answer to an older filter never lands over a newer one: it is cancelled and dropped", async () => {
    // The host answers the first re-run (story-agent) 3 s late and the second (mixed-agent) at once.
    let slowAnswered: () => void = () => undefined;
    const slowDone = new Promise<void>((resolve) => {
      slowAnswered = resolve;
    });
    const { page, view } = await harness.open(
      "robustness",
      { bootstrap: 200, seed: 3 },
      {
        theme: "light",
        width: 760,
        answer: async (call) => {
          const players = call.arguments?.players as string[] | undefined;
          if (call.name !== "robustness" || players?.[0] !== "story-agent") return undefined;
          await new Promise((r) => setTimeout(r, 3000));
          const late = await client.callTool(call);
          slowAnswered();
          return late as Record<string, unknown>;
        },
      },
    );
    const from = harness.calls.length;
    await view.select('select[name="player"]', "story-agent");
    await harness.waitForCall("robustness", from);
    // While it runs, the charts are the previous result's, and the view says so.
    expect(await statusLine(view)).toBe(
      "Running robustness for players story-agent… The result shown is for no filter.",
    );
    expect(await view.$eval("main", (m) => m.hasAttribute("data-stale"))).toBe(true);
    await view.select('select[name="player"]', "mixed-agent");
    await view.waitForFunction(
      'document.body.dataset.ready === "true" && document.querySelector("[role=status]").textContent === ""',
    );
    const mixedOnly = ["mixed-agent · all games", "mixed-agent · prisoners-dilemma", "pooled"];
    expect(await forestRowLabels(view)).toEqual(mixedOnly);
    // The older call was cancelled through the host…
    expect(harness.cancelled.map((c) => c.arguments?.players)).toEqual([["story-agent"]]);
    // …and its answer, when it comes, changes nothing.
    await slowDone;
    await new Promise((r) => setTimeout(r, 500));
    expect(await forestRowLabels(view)).toEqual(mixedOnly);
    expect(await view.$eval('select[name="player"]', (s) => (s as unknown as { value: string }).value)).toBe(
      "mixed-agent",
    );
    expect(await statusLine(view)).toBe("");
    expect(await view.$eval("main", (m) => m.hasAttribute("data-stale"))).toBe(false);
    await screenshot(page, "race-newest-drawn", 500);
    await page.close();
  });

  it("a call the host cancels: the view says it was cancelled, and why, instead of waiting for a result", async () => {
    const { page, view } = await harness.open(
      "robustness",
      { bootstrap: 200 },
      { theme: "light", width: 760, cancelled: { reason: "user action" } },
    );
    expect(await statusLine(view)).toBe("The analysis was cancelled: user action.");
    expect(await view.$eval("header [data-source]", (p) => p.textContent)).toBe("robustness cancelled");
    expect(await view.evaluate("document.body.dataset.ready")).toBe("cancelled");
    await screenshot(page, "host-cancelled", 200);
    await page.close();
  });

  it("every drill-down by keyboard: a repeated-play row, a cooperation cell and a robustness row open on Enter or Space", async () => {
    const { page, view } = await harness.open("report", { bootstrap: 200 }, { theme: "light", width: 760 });
    // The repeated-play row: in the tab order, announced as a button; Enter lists its matches.
    const row = '[data-table=repeated] tr[data-cell="steady-agent|repeated-pd|repeated-plain"]';
    expect(await view.$eval(row, (r) => [r.getAttribute("tabindex"), r.getAttribute("role")].join(" "))).toBe(
      "0 button",
    );
    let from = harness.calls.length;
    await view.focus(row);
    await page.keyboard.press("Enter");
    expect((await harness.waitForCall("list_matches", from)).arguments).toEqual({
      player: "steady-agent",
      game: "repeated-pd",
      framing: "repeated-plain",
      variant: "base",
      opponent: "tit-for-tat",
      limit: 50,
      offset: 0,
    });
    await view.waitForSelector("[data-list=matches] li");
    // The cooperation chart's bars as a table: open it from the keyboard, Space on story-agent under team.
    from = harness.calls.length;
    await view.focus("[data-chart-table=cooperation] summary");
    await page.keyboard.press("Enter");
    const cell = '[data-table=cooperation] tr[data-cell="story-agent|prisoners-dilemma|team"]';
    await view.waitForSelector(cell, { visible: true });
    await view.focus(cell);
    await page.keyboard.press(" ");
    expect((await harness.waitForCall("list_matches", from)).arguments).toEqual({
      player: "story-agent",
      game: "prisoners-dilemma",
      framing: "team",
      variant: "base",
      limit: 50,
      offset: 0,
    });
    await view.waitForFunction(
      `document.querySelectorAll("[data-list=matches] li").length === ${TRIALS} && document.querySelector("[data-section=matches] h2").textContent.endsWith("team")`,
    );
    // The forests' rows: mixed-agent over all its games, both framings.
    from = harness.calls.length;
    await view.focus("[data-chart-table=robustness] summary");
    await page.keyboard.press("Enter");
    const forestRow = '[data-table=robustness] tr[data-cell="mixed-agent|"]';
    await view.waitForSelector(forestRow, { visible: true });
    // Six rows open a cell's matches; the pooled row, the chart's last, opens nothing.
    expect(await view.$$eval("[data-table=robustness] tbody tr.clickable", (trs) => trs.length)).toBe(6);
    expect(
      await view
        .$$eval("[data-table=robustness] tbody tr", (trs) => trs.map((tr) => tr.dataset.cell))
        .then((cells) => cells.at(-1)),
    ).toBe("pooled");
    await view.focus(forestRow);
    await page.keyboard.press("Enter");
    expect((await harness.waitForCall("list_matches", from)).arguments).toEqual({
      player: "mixed-agent",
      variant: "base",
      limit: 50,
      offset: 0,
    });
    await view.waitForFunction(
      `document.querySelectorAll("[data-list=matches] li").length === ${2 * TRIALS}`,
    );
    expect(await view.$eval("[data-section=repeated] p.muted", (p) => p.textContent)).toBe(
      "Click or press Enter on a row to list its matches.",
    );
    await screenshot(page, "keyboard-drill-down");
    await page.close();
  });

  it("report offers as framings of its pair only those with one-shot decisions, never repeated play's", async () => {
    const { page, view } = await harness.open("report", { bootstrap: 200 }, { theme: "light", width: 760 });
    // The record's repeated match was played under repeated-plain: the report shows it, but cannot compare it.
    expect(
      await view.$$eval("[data-table=repeated] tbody tr td:nth-child(3)", (tds) =>
        tds.map((t) => t.textContent),
      ),
    ).toEqual(["repeated-plain"]);
    expect(await optionsOf(view, "baseline")).toEqual(["", "business", "team"]);
    expect(await optionsOf(view, "comparison")).toEqual(["", "business", "team"]);
    await page.close();
  });

  it("repeated_metrics filters on framings as a plain list, not as a pair", async () => {
    const { page, view } = await harness.open("repeated_metrics", {}, { theme: "light", width: 760 });
    expect(await view.$$eval("select", (all) => all.map((s) => s.getAttribute("name")))).toEqual([
      "player",
      "game",
      "framings",
    ]);
    expect(await optionsOf(view, "framings")).toEqual(["repeated-plain"]);
    const from = harness.calls.length;
    await view.select('select[name="framings"]', "repeated-plain");
    expect((await harness.waitForCall("repeated_metrics", from)).arguments).toEqual({
      framings: ["repeated-plain"],
    });
    await view.waitForFunction(
      'document.body.dataset.ready === "true" && document.querySelector("[role=status]").textContent === ""',
    );
    expect(await view.$$eval("[data-table=repeated] tbody tr", (trs) => trs.length)).toBe(1);
    await page.close();
  });
});
