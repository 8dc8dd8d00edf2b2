import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { tempDeps } from "../support/harness.js";
import { describeWithChromium } from "./chromium.js";
import { playDashboardRecord, TRIALS } from "./dashboard-record.js";
import {
  ARTIFACTS,
  axisLabels,
  connectHost,
  layerMarks,
  markCount,
  screenshot,
  startViewHarness,
  type ViewHarness,
} from "./view-harness.js";

// The dashboard view over the record of dashboard-record.ts, in headless Chromium (view-harness.ts).

let deps: ReturnType<typeof tempDeps>;
let client: Client;
let harness: ViewHarness;

describeWithChromium("the dashboard view in headless Chromium", () => {
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

  it("draws the report: 6 cooperation bars, R and shift forests of 7 rows, a 16-round comprehension curve", async () => {
    const { page, view } = await harness.open("report", { bootstrap: 200 }, { theme: "light", width: 760 });
    // Drawn under the host's strict policy (no eval, no network): vega runs in its interpreter.
    expect(await view.evaluate("document.querySelector('meta[http-equiv]')?.content")).toContain(
      "default-src 'none'",
    );
    // 3 players × 1 game × 2 framings = 6 bars.
    expect(await markCount(view, "cooperation", "child_layer_0", "rect")).toBe(6);
    // Forest rows: 3 (player, game) + 3 players over their games + the pool = 7 dots in each forest.
    expect(await markCount(view, "robustness-forest", "layer_2", "symbol")).toBe(7);
    expect(await markCount(view, "shift-forest", "layer_2", "symbol")).toBe(7);
    expect(await axisLabels(view, "robustness-forest")).toEqual(
      expect.arrayContaining([
        "steady-agent · prisoners-dilemma",
        "story-agent · prisoners-dilemma",
        "pooled",
      ]),
    );
    // One repeated cell of 16 rounds: one line with a point per round.
    expect(await markCount(view, "comprehension", "child_layer_1_layer_1", "symbol")).toBe(16);
    expect(await markCount(view, "comprehension", "child_layer_1_layer_0", "line")).toBe(1);
    // λ̂ of 3 players × 2 framings (hollow), and each player's pooled λ per framing (filled).
    expect(await markCount(view, "sensitivity", "layer_0", "symbol")).toBe(6);
    // Layers: λ̂ points, their game labels, the pooled intervals, the pooled λ (report's spec).
    expect(await markCount(view, "sensitivity", "layer_3", "symbol")).toBe(6);
    expect(await view.$$eval("[data-section=checks] li", (items) => items.length)).toBeGreaterThan(0);
    await screenshot(page, "dashboard-light");
    // The README's picture (docs/dashboard.png is a copy): filters, cooperation and both forest plots.
    await screenshot(page, "dashboard-readme", 1500);
    await page.close();
  });

  it("follows the host's dark theme, also when it changes while open", async () => {
    const { page, view } = await harness.open("report", { bootstrap: 200 }, { theme: "light", width: 760 });
    const background = () => view.evaluate("getComputedStyle(document.body).backgroundColor");
    expect(await background()).toBe("rgb(255, 255, 255)");
    await page.evaluate('setTheme("dark")');
    await view.waitForFunction('document.documentElement.dataset.theme === "dark"');
    await view.waitForSelector('body[data-ready="true"]');
    expect(await background()).toBe("rgb(30, 31, 34)");
    // Chart text switches to light ink too.
    const fill = await view.$eval('[data-chart="robustness-forest"] svg g.role-axis-label text', (t) =>
      t.getAttribute("fill"),
    );
    expect(fill).toBe("#d0d0d0");
    await screenshot(page, "dashboard-dark");
    await page.close();
  });

  it("is usable at 400 px: nothing wider than the frame but the charts' own scroll boxes", async () => {
    const { page, view } = await harness.open(
      "robustness",
      { bootstrap: 200 },
      { theme: "light", width: 400 },
    );
    const overflow = await view.evaluate("document.documentElement.scrollWidth");
    expect(overflow).toBeLessThanOrEqual(400);
    expect(await markCount(view, "robustness-forest", "layer_2", "symbol")).toBe(7);
    await screenshot(page, "dashboard-400px");
    await page.close();
  });

  it("a player filter calls robustness again with players = [story-agent] and redraws its rows", async () => {
    const { page, view } = await harness.open(
      "robustness",
      { bootstrap: 200, seed: 3 },
      { theme: "light", width: 760 },
    );
    const from = harness.calls.length;
    await view.select('select[name="player"]', "story-agent");
    const call = await harness.waitForCall("robustness", from);
    expect(call.arguments).toEqual({ bootstrap: 200, seed: 3, players: ["story-agent"] });
    const rows = layerMarks("robustness-forest", "layer_2", "symbol");
    await view.waitForFunction(`document.querySelectorAll('${rows}').length === 3`);
    // story-agent's game, story-agent over its games, the pool.
    expect(await axisLabels(view, "robustness-forest")).toEqual(
      expect.arrayContaining(["story-agent · prisoners-dilemma", "story-agent · all games", "pooled"]),
    );
    // A click on the (player, game) row lists that player's matches of the game under both framings: 6 + 6.
    const [gameRow] = await view.$$(rows);
    await gameRow?.click();
    const listCall = await harness.waitForCall("list_matches", from);
    expect(listCall.arguments).toEqual({
      player: "story-agent",
      game: "prisoners-dilemma",
      variant: "base",
      limit: 50,
      offset: 0,
    });
    await view.waitForSelector("[data-list=matches] li");
    expect(await view.$$eval("[data-list=matches] li", (items) => items.length)).toBe(2 * TRIALS);
    await page.close();
  });

  it("opens with the model's players and framing pair; a game filter keeps them; 'all players' drops them on purpose", async () => {
    const asked = { bootstrap: 200, seed: 3, players: ["story-agent"], framings: ["team", "business"] };
    const { page, view } = await harness.open("robustness", asked, { theme: "light", width: 760 });
    const selects = () =>
      view.$$eval("select", (all) =>
        all.map((s) => `${s.name}=${(s as unknown as { value: string }).value}`),
      );
    const shiftTitle = () =>
      view.$$eval('[data-chart="shift-forest"] svg text', (texts) =>
        texts.map((t) => t.textContent ?? "").find((t) => t.startsWith("Cooperation shift")),
      );
    const settled = () =>
      view.waitForFunction(
        'document.body.dataset.ready === "true" && document.querySelector("[role=status]").textContent === ""',
      );
    const rows = layerMarks("robustness-forest", "layer_2", "symbol");
    expect(await selects()).toEqual(["player=story-agent", "game=", "baseline=team", "comparison=business"]);
    // Shift = second − first of the model's pair: story-agent defects under business, cooperates under team.
    expect(await shiftTitle()).toBe("Cooperation shift (business − team)");
    expect(await markCount(view, "robustness-forest", "layer_2", "symbol")).toBe(3);
    await screenshot(page, "model-arguments-opened", 700);

    const from = harness.calls.length;
    await view.select('select[name="game"]', "prisoners-dilemma");
    const call = await harness.waitForCall("robustness", from);
    expect(call.arguments).toEqual({ ...asked, games: ["prisoners-dilemma"] });
    await settled();
    expect(await selects()).toEqual([
      "player=story-agent",
      "game=prisoners-dilemma",
      "baseline=team",
      "comparison=business",
    ]);
    expect(await shiftTitle()).toBe("Cooperation shift (business − team)");
    // story-agent · prisoners-dilemma, story-agent · all games, the pool: no other player came in.
    expect(await markCount(view, "robustness-forest", "layer_2", "symbol")).toBe(3);

    // Widening is a choice of its own: "all players" calls without the model's players.
    const next = harness.calls.length;
    await view.select('select[name="player"]', "");
    const widened = await harness.waitForCall("robustness", next);
    expect(widened.arguments).toEqual({
      bootstrap: 200,
      seed: 3,
      framings: ["team", "business"],
      games: ["prisoners-dilemma"],
    });
    await view.waitForFunction(`document.querySelectorAll('${rows}').length === 7`);
    await settled();
    expect(await selects()).toEqual([
      "player=",
      "game=prisoners-dilemma",
      "baseline=team",
      "comparison=business",
    ]);
    await page.close();
  });

  it("report: a player filter redraws without a call; a framing pair calls report with framings = [team, business]", async () => {
    const { page, view } = await harness.open("report", { bootstrap: 200 }, { theme: "light", width: 760 });
    const from = harness.calls.length;
    // report takes no player argument: the view keeps story-agent's 2 bars (business, team) itself.
    await view.select('select[name="player"]', "story-agent");
    const bars = layerMarks("cooperation", "child_layer_0", "rect");
    await view.waitForFunction(`document.querySelectorAll('${bars}').length === 2`);
    expect(harness.calls.length).toBe(from);
    await view.select('select[name="baseline"]', "team");
    // Half a pair asks for the other half and calls nothing.
    expect(harness.calls.length).toBe(from);
    await view.select('select[name="comparison"]', "business");
    const call = await harness.waitForCall("report", from);
    expect(call.arguments).toEqual({ bootstrap: 200, framings: ["team", "business"] });
    await view.waitForFunction(
      'document.querySelector("[data-settings]")?.textContent.includes("team → business")',
    );
    await page.close();
  });

  it("leaderboard: steady, mixed, story in rank order; a click on a player filters the other views to it", async () => {
    const { page, view } = await harness.open(
      "report",
      { bootstrap: 200, seed: 3 },
      { theme: "light", width: 760 },
    );
    // R: steady-agent 1 (same choices), mixed-agent 0.918, story-agent 0 (disjoint): TRIALS decisions each.
    const rows = () =>
      view.$$eval("[data-table=leaderboard] tbody tr", (trs) =>
        trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent ?? "")),
      );
    const table = await rows();
    expect(table.map((r) => [r[0], r[1], r[2]])).toEqual([
      ["1", "steady-agent", "1.000"],
      ["2", "mixed-agent", "0.918"],
      ["3", "story-agent", "0.000"],
    ]);
    expect(await axisLabels(view, "leaderboard")).toEqual(
      expect.arrayContaining(["steady-agent", "mixed-agent", "story-agent"]),
    );
    expect(await markCount(view, "leaderboard", "layer_2", "symbol")).toBe(3);
    const from = harness.calls.length;
    // A click on story-agent's dot in the forest plot: the player filter, without a call (report takes none).
    const dots = await view.$$(layerMarks("leaderboard", "layer_2", "symbol"));
    await dots[2]?.click();
    const bars = layerMarks("cooperation", "child_layer_0", "rect");
    await view.waitForFunction(`document.querySelectorAll('${bars}').length === 2`);
    expect(await view.$eval('select[name="player"]', (s) => (s as unknown as { value: string }).value)).toBe(
      "story-agent",
    );
    // The R forest keeps story-agent's rows and the pool; the leaderboard keeps every player, story-agent marked.
    expect(await markCount(view, "robustness-forest", "layer_2", "symbol")).toBe(3);
    expect(
      await view.$$eval("[data-table=leaderboard] tr.selected", (trs) => trs.map((t) => t.dataset.group)),
    ).toEqual(["story-agent"]);
    expect(harness.calls.length).toBe(from);
    await screenshot(page, "leaderboard-selected-760px");
    // A click on mixed-agent's name switches to it; a second click shows every player again.
    await view.click('[data-table=leaderboard] button[data-group="mixed-agent"]');
    await view.waitForFunction('document.querySelector("select[name=player]").value === "mixed-agent"');
    await view.click('[data-table=leaderboard] button[data-group="mixed-agent"]');
    await view.waitForFunction(`document.querySelectorAll('${bars}').length === 6`);
    expect(await view.$eval('select[name="player"]', (s) => (s as unknown as { value: string }).value)).toBe(
      "",
    );
    await page.close();
  });

  it("compare: R ranks steady 1, mixed 0.918, story 0; a click on story-agent keeps its pairs without a call; a framing pair calls compare again", async () => {
    const { page, view } = await harness.open(
      "compare",
      { bootstrap: 200, seed: 3 },
      { theme: "light", width: 1280 },
    );
    const cells = (table: string) =>
      view.$$eval(`[data-table=${table}] tbody tr`, (trs) =>
        trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent ?? "")),
      );
    // The record's R (see dashboard-record.ts): steady-agent 1, mixed-agent 0.918296, story-agent 0.
    expect((await cells("leaderboard")).map((r) => [r[0], r[1], r[2]])).toEqual([
      ["1", "steady-agent", "1.000"],
      ["2", "mixed-agent", "0.918"],
      ["3", "story-agent", "0.000"],
    ]);
    // The forest's rows, top to bottom, in rank order.
    expect((await axisLabels(view, "leaderboard")).filter((l) => l.endsWith("-agent"))).toEqual([
      "steady-agent",
      "mixed-agent",
      "story-agent",
    ]);
    expect(await markCount(view, "leaderboard", "layer_2", "symbol")).toBe(3);
    // λ and exploitability are ranked too; the one player with repeated play leaves those measures out.
    expect((await cells("leaderboard-exploitability")).map((r) => r[1]).sort()).toEqual([
      "mixed-agent",
      "steady-agent",
      "story-agent",
    ]);
    expect(
      await view.$$eval("[data-skipped]", (items) => items.map((i) => i.getAttribute("data-skipped"))),
    ).toEqual(["points", "cooperation", "comprehension_m"]);
    // Every pair a − b (groups in name order) of R, shift, λ and exploitability: 4 × 3 rows.
    const pairs = async () => (await cells("pairs")).map((r) => [r[0], r[1], r[2]]);
    expect(await pairs()).toHaveLength(12);
    // R: 0.918 − 0 and 1 − 0; shift (team − business): mixed −1/3, steady 0, story +1.
    expect(await pairs()).toEqual(
      expect.arrayContaining([
        ["R", "mixed-agent − story-agent", "0.918"],
        ["R", "steady-agent − story-agent", "1.000"],
        ["Shift", "mixed-agent − steady-agent", "-0.333"],
        ["Shift", "mixed-agent − story-agent", "-1.333"],
        ["Shift", "steady-agent − story-agent", "-1.000"],
      ]),
    );
    const from = harness.calls.length;
    // A click on story-agent's dot: the player filter, no call (a comparison of one player is no comparison).
    const dots = await view.$$(layerMarks("leaderboard", "layer_2", "symbol"));
    await dots[2]?.click();
    await view.waitForSelector("[data-showing=story-agent]");
    expect(await view.$eval('select[name="player"]', (s) => (s as unknown as { value: string }).value)).toBe(
      "story-agent",
    );
    // The pairs keep story-agent's: 2 of each measure.
    const kept = await pairs();
    expect(kept).toHaveLength(8);
    expect(kept.every((r) => r[1]?.includes("story-agent"))).toBe(true);
    // Every ranked measure's table marks it.
    for (const table of ["leaderboard", "leaderboard-lambda", "leaderboard-exploitability"]) {
      expect(
        await view.$$eval(`[data-table=${table}] tr.selected`, (trs) => trs.map((t) => t.dataset.group)),
      ).toEqual(["story-agent"]);
    }
    expect(harness.calls.length).toBe(from);
    await screenshot(page, "compare-selected-1280px");
    // The framing pair the other way round calls compare again; the shifts change sign, the choice stays.
    await view.select('select[name="baseline"]', "team");
    await view.select('select[name="comparison"]', "business");
    const call = await harness.waitForCall("compare", from);
    expect(call.arguments).toEqual({ bootstrap: 200, seed: 3, framings: ["team", "business"] });
    await view.waitForFunction(
      'document.querySelector("[data-pair=\'shift|mixed-agent|story-agent\'] td:nth-child(3)")?.textContent === "1.333"',
    );
    expect(await pairs()).toEqual(
      expect.arrayContaining([
        ["Shift", "mixed-agent − story-agent", "1.333"],
        ["Shift", "steady-agent − story-agent", "1.000"],
      ]),
    );
    expect(await pairs()).toHaveLength(8);
    // A second click on story-agent's name shows every pair again.
    await view.click('[data-table=leaderboard] button[data-group="story-agent"]');
    await view.waitForFunction("document.querySelectorAll('[data-table=pairs] tbody tr').length === 12");
    expect(await view.$eval('select[name="player"]', (s) => (s as unknown as { value: string }).value)).toBe(
      "",
    );
    await page.close();
  });

  it("leaderboard at 400 and 1280 px, light and dark: no page overflow; screenshots", async () => {
    for (const theme of ["light", "dark"] as const) {
      for (const width of [400, 1280]) {
        // compare's own view: the leaderboard and every pair.
        const compared = await harness.open("compare", { bootstrap: 200, seed: 3 }, { theme, width });
        expect(await compared.view.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(
          width,
        );
        await screenshot(compared.page, `compare-${theme}-${width}px`);
        await compared.page.close();
        const opened = await harness.open("report", { bootstrap: 200, seed: 3 }, { theme, width });
        const overflow = await opened.view.evaluate("document.documentElement.scrollWidth");
        expect(overflow).toBeLessThanOrEqual(width);
        // The panel's box in the frame, moved by the frame's place on the page (the page may be taller than
        // its viewport: the frame grows with the view).
        const inFrame = await opened.view.$eval("[data-section=leaderboard]", (s) => {
          const r = s.getBoundingClientRect();
          return {
            x: r.x,
            y: r.y + (globalThis as unknown as { scrollY: number }).scrollY,
            width: r.width,
            height: r.height,
          };
        });
        const frame = await (await opened.page.$("iframe"))?.boundingBox();
        await opened.page.screenshot({
          path: join(ARTIFACTS, `leaderboard-${theme}-${width}px.png`),
          captureBeyondViewport: true,
          clip: { ...inFrame, x: inFrame.x + (frame?.x ?? 0), y: inFrame.y + (frame?.y ?? 0) },
        });
        await opened.page.close();
      }
    }
  }, 180_000);

  it("a click on a cooperation bar lists the cell's 6 matches; a click on one opens its transcript", async () => {
    const { page, view } = await harness.open("report", { bootstrap: 200 }, { theme: "light", width: 760 });
    const from = harness.calls.length;
    const bars = await view.$$(layerMarks("cooperation", "child_layer_0", "rect"));
    expect(bars).toHaveLength(6);
    await bars[0]?.click();
    const listCall = await harness.waitForCall("list_matches", from);
    expect(listCall.arguments).toMatchObject({ game: "prisoners-dilemma", variant: "base" });
    await view.waitForSelector("[data-list=matches] li");
    expect(await view.$$eval("[data-list=matches] li", (items) => items.length)).toBe(TRIALS);
    await view.click("[data-list=matches] li button");
    const getCall = await harness.waitForCall("get_match", from);
    expect(getCall.arguments?.match_id).toMatch(/\S/);
    await view.waitForSelector("[data-table=transcript] tbody tr");
    expect(await view.$$eval("[data-table=transcript] tbody tr", (rows) => rows.length)).toBe(1);
    await screenshot(page, "dashboard-matches");
    await page.close();
  });
});
