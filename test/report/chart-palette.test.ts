import * as vega from "vega";
import type { TopLevelSpec } from "vega-lite";
import * as vl from "vega-lite";
import { describe, expect, it } from "vitest";
import { CHART_PALETTE } from "../../src/report/chart-palette.js";
import { CHART_CONFIG } from "../../src/report/chart-svg.js";
import { renderReportHtml } from "../../src/report/render-report.js";
import type { Leaderboard } from "../../src/report/report-data.js";
import { leaderboardChartSpec } from "../../src/report/sections/leaderboard-section.js";
import { robustnessChartSpec } from "../../src/report/sections/robustness-section.js";
import { sensitivityChartSpec } from "../../src/report/sections/sensitivity-section.js";
import { WIDE_REPORT } from "./wide-report-data.js";

// The charts' colours against the page (WCAG 1.4.11: a graphical object needs 3:1 with what is next to
// it), in light mode and as the dark mode draws them, and a shape beside the colour of every player
// and tier (WCAG 1.4.1: colour is not the only way to tell them apart; a greyscale print keeps them).

const rgb = (hex: string) => [1, 3, 5].map((k) => Number.parseInt(hex.slice(k, k + 2), 16) / 255);
/** WCAG 2 relative luminance of an sRGB colour. */
const luminance = (c: readonly number[]) => {
  const [r, g, b] = c.map((v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)) as number[];
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
};
const contrast = (a: readonly number[], b: readonly number[]) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};
/**
 * A colour as the dark mode shows it: report-style.ts draws a chart through `invert(1) hue-rotate(180deg)
 * brightness(1.35)`. The filters' matrices of the CSS Filter Effects spec, at 180°: cos = −1, sin = 0
 * (Chromium's rendering of the palette matches these to the unit).
 */
const darkMode = (c: readonly number[]) => {
  const inverted = c.map((v) => 1 - v) as [number, number, number];
  const hueRotate180 = [
    [0.213 - 0.787, 0.715 + 0.715, 0.072 + 0.072],
    [0.213 + 0.213, 0.715 - 0.285, 0.072 + 0.072],
    [0.213 + 0.213, 0.715 + 0.715, 0.072 - 0.928],
  ];
  return hueRotate180.map((row) => {
    const v = row.reduce((sum, m, j) => sum + m * (inverted[j] as number), 0);
    return Math.min(1, Math.max(0, v) * 1.35);
  });
};
const WHITE = rgb("#ffffff");
const DARK_PAGE = rgb("#1c1d20");

describe("the charts' colours", () => {
  it("every colour of the palette has 3:1 or more on the light page and, as drawn, on the dark one", () => {
    const ratios = CHART_PALETTE.map((c) => ({
      colour: c,
      light: Number(contrast(rgb(c), WHITE).toFixed(2)),
      dark: Number(contrast(darkMode(rgb(c)), DARK_PAGE).toFixed(2)),
    }));
    // By hand: #4c78a8 has luminance 0.1777, (1.05)/(0.2277) = 4.61; in dark mode it shows as
    // rgb(139, 198, 255), luminance 0.5271, against #1c1d20's 0.0122: 0.5771/0.0622 = 9.28–9.34.
    expect(ratios[0]).toMatchObject({ colour: "#4c78a8", light: 4.61 });
    expect(ratios.filter((r) => r.light < 3 || r.dark < 3)).toEqual([]);
  });

  it("the old pale colours fail that test, so it measures what it says", () => {
    // #eeca3b (tableau's yellow), #72b7b2 (its teal) and #f58518 (its orange): 1.60, 2.30, 2.55 on white.
    expect(["#eeca3b", "#72b7b2", "#f58518"].map((c) => contrast(rgb(c), WHITE).toFixed(2))).toEqual([
      "1.60",
      "2.30",
      "2.55",
    ]);
    expect(contrast(darkMode(rgb("#eeca3b")), DARK_PAGE).toFixed(2)).toBe("2.42");
  });

  it("every colour a chart of the report draws, other than greys, has 3:1 or more on both pages", async () => {
    const page = await renderReportHtml(WIDE_REPORT);
    const svgs = [...page.matchAll(/<figure><svg[\s\S]*?<\/svg>/g)].map((m) => m[0]);
    expect(svgs.length).toBeGreaterThanOrEqual(5);
    const colours = new Set(
      svgs.flatMap((svg) =>
        [...svg.matchAll(/(?:fill|stroke)="(#[0-9a-f]{6})"/gi)].map((m) => m[1] as string),
      ),
    );
    // Greys are the axes, grid and text (ink the page's own contrast covers), not series.
    const series = [...colours].filter((c) => !/^#(..)\1\1$/i.test(c));
    expect(series.length).toBeGreaterThan(2);
    const low = series.filter(
      (c) => contrast(rgb(c), WHITE) < 3 || contrast(darkMode(rgb(c)), DARK_PAGE) < 3,
    );
    expect(low).toEqual([]);
    // No series colour is drawn see-through over the page, which would lighten it below its ratio (the
    // comprehension band, a faint tint behind its line whose numbers are in a table, is the exception).
    const translucent = svgs.flatMap((svg) =>
      [...svg.matchAll(/<[a-z]+ [^>]*>/g)]
        .map((m) => m[0])
        .filter((tag) => {
          const colour = /(?:fill|stroke)="(#[0-9a-f]{6})"/i.exec(tag)?.[1];
          const opacity = Number(/opacity="([\d.]+)"/.exec(tag)?.[1] ?? 1);
          return colour !== undefined && !/^#(..)\1\1$/i.test(colour) && opacity < 1 && opacity !== 0.18;
        }),
    );
    expect(translucent.slice(0, 3)).toEqual([]);
  });
});

interface SceneItem {
  shape?: string;
  fill?: string;
  stroke?: string;
  datum?: Record<string, unknown>;
  marktype?: string;
  items?: SceneItem[];
}

/** The symbols a chart draws (its points), with the datum each stands for. */
async function symbols(spec: TopLevelSpec): Promise<SceneItem[]> {
  const view = new vega.View(vega.parse(vl.compile(spec, { config: CHART_CONFIG }).spec), {
    renderer: "none",
  });
  await view.runAsync();
  const found: SceneItem[] = [];
  const walk = (node: SceneItem) => {
    for (const child of node.items ?? []) {
      if (node.marktype === "symbol" && child.datum?.player !== undefined) found.push(child);
      if (node.marktype === "symbol" && child.datum?.tier !== undefined) found.push(child);
      walk(child);
    }
  };
  walk((view.scenegraph() as unknown as { root: SceneItem }).root);
  view.finalize();
  return found;
}

/** How many legends a chart has. */
function legendCount(spec: TopLevelSpec): number {
  const compiled = vl.compile(spec, { config: CHART_CONFIG }).spec as { legends?: unknown[] };
  return compiled.legends?.length ?? 0;
}

/** key → the set of shapes its symbols have. */
function shapesBy(items: readonly SceneItem[], key: string): Map<string, Set<string>> {
  const by = new Map<string, Set<string>>();
  for (const item of items) {
    const k = String(item.datum?.[key]);
    by.set(k, (by.get(k) ?? new Set()).add(item.shape ?? "circle"));
  }
  return by;
}

describe("a shape per series beside its colour", () => {
  it("no caption names a colour the dark mode changes (its ink is inverted there)", async () => {
    const page = await renderReportHtml(WIDE_REPORT);
    expect(page).toContain("games (in the colour of the text)");
    expect(page).not.toMatch(/\((black|white)\)/);
  });

  it("the R chart draws each player's points in a shape of its own", async () => {
    const robustness = WIDE_REPORT.robustness;
    if (!robustness) throw new Error("the wide report has robustness");
    const by = shapesBy(await symbols(robustnessChartSpec(robustness)), "player");
    // One legend of coloured shapes, not a legend of colours beside one of black shapes.
    expect(legendCount(robustnessChartSpec(robustness))).toBe(1);
    // gpt-3.5-turbo-16k, payoff-reader, story-swayed, in the order of the palette's shapes.
    expect([...by.entries()].map(([p, s]) => [p, [...s]]).sort()).toEqual([
      ["gpt-3.5-turbo-16k", ["circle"]],
      ["payoff-reader", ["square"]],
      ["story-swayed", ["triangle-up"]],
    ]);
  });

  it("the λ chart draws each player's points, single games and pooled, in a shape of its own", async () => {
    const sensitivity = WIDE_REPORT.sensitivity;
    if (!sensitivity) throw new Error("the wide report has λ");
    const by = shapesBy(await symbols(sensitivityChartSpec(sensitivity)), "player");
    expect(legendCount(sensitivityChartSpec(sensitivity))).toBe(1);
    expect([...by.entries()].map(([p, s]) => [p, [...s]]).sort()).toEqual([
      ["gpt-3.5-turbo-16k", ["circle"]],
      ["payoff-reader", ["square"]],
      ["story-swayed", ["triangle-up"]],
    ]);
  });

  it("the leaderboard draws each tied group in a shape of its own", async () => {
    const row = (group: string, estimate: number, tier: number) => ({
      measure: "R",
      group,
      estimate,
      ci: [estimate - 0.05, estimate + 0.05] as [number, number],
      rank: { estimate: tier, ci: [tier, tier] as [number, number] },
      tied_group: tier,
    });
    const board: Leaderboard = {
      by: "player",
      confidence: 0.95,
      bootstrap: 200,
      seed: 1,
      variant: "base",
      study_id: null,
      framings: ["business", "friend-sharing"],
      games: ["prisoners-dilemma"],
      rows: [row("a", 0.9, 1), row("b", 0.88, 1), row("c", 0.5, 2)],
    };
    const by = shapesBy(await symbols(leaderboardChartSpec(board, { width: 300 })), "tier");
    expect(legendCount(leaderboardChartSpec(board, { width: 300 }))).toBe(1);
    expect([...by.entries()].map(([t, s]) => [t, [...s]])).toEqual([
      ["tier 1", ["circle"]],
      ["tier 2", ["square"]],
    ]);
  });
});
