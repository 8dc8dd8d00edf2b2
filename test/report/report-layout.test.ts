import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderReportHtml } from "../../src/report/render-report.js";
import { CHROMIUM, launchChromium } from "../app/chromium.js";
import { WIDE_REPORT, WIDE_REPORT_REPEATED_CELLS } from "./wide-report-data.js";

// The HTML report as a reader sees it: drawn by headless Chromium at a phone's, a laptop's and a desktop
// window's width, in light and in dark mode, with the layout facts measured in the page. Screenshots of
// every case land in test-artifacts/report-layout/ for a person to look at.
//
// Without Chromium these tests are skipped with a message naming the install step; SAME_GAME_REQUIRE_CHROMIUM=1
// (set by .ci/run) makes that a failure instead.

// page.evaluate runs the probes below inside Chromium. This program is typed for Node, without the DOM,
// so the few DOM names the probes use are declared here, with just the members they read.
interface Rect {
  left: number;
  right: number;
  top: number;
  bottom: number;
  width: number;
}
interface PageElement {
  id: string;
  tagName: string;
  textContent: string | null;
  scrollWidth: number;
  clientWidth: number;
  dataset: Record<string, string | undefined>;
  width: { baseVal: { value: number } };
  getBoundingClientRect(): Rect;
  closest(selector: string): PageElement | null;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): ArrayLike<PageElement> & Iterable<PageElement>;
}
declare const document: PageElement & { body: PageElement; documentElement: PageElement };
declare const window: { innerWidth: number };
declare function getComputedStyle(
  element: PageElement,
  pseudo?: string,
): Record<
  "fontSize" | "overflowX" | "backgroundImage" | "content" | "backgroundColor" | "color" | "filter",
  string
>;

const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) {
  const why = `Chromium is not installed at ${CHROMIUM} (apt-get install -y chromium)`;
  if (process.env.SAME_GAME_REQUIRE_CHROMIUM === "1")
    throw new Error(`SAME_GAME_REQUIRE_CHROMIUM=1 but ${why}: the report layout tests cannot run.`);
  console.error(`\n*** ${why}: the report layout tests are SKIPPED ***\n`);
}

const WIDTHS = [400, 800, 1280] as const;
const SCHEMES = ["light", "dark"] as const;
const artifacts = join(process.cwd(), "test-artifacts", "report-layout");

describe.skipIf(!haveChromium)("the report's layout in Chromium", () => {
  let chromium: { browser: Browser; close(): Promise<void> };
  let page: Page;
  let dir: string;
  let file: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "same-game-report-layout-"));
    file = join(dir, "report.html");
    writeFileSync(file, await renderReportHtml(WIDE_REPORT));
    mkdirSync(artifacts, { recursive: true });
    chromium = await launchChromium();
    page = await chromium.browser.newPage();
  }, 120_000);
  afterAll(async () => {
    await chromium?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function open(width: number, scheme: "light" | "dark"): Promise<void> {
    await page.setViewport({ width, height: 900 });
    await page.emulateMediaFeatures([{ name: "prefers-color-scheme", value: scheme }]);
    await page.goto(`file://${file}`, { waitUntil: "load" });
    await page.screenshot({ path: join(artifacts, `report-${width}-${scheme}.png`), fullPage: true });
  }

  for (const width of WIDTHS) {
    for (const scheme of SCHEMES) {
      it(`${width} px, ${scheme}: chart text of 10 px or more, nothing hidden without a scroll box, λ labels apart`, async () => {
        await open(width, scheme);
        const smallest = await page.evaluate(() => {
          const sizes: { text: string; px: number }[] = [];
          for (const svg of document.querySelectorAll("figure svg")) {
            // Drawn size over the chart's own size: below 1 when a chart is scaled down to fit.
            const scale = svg.getBoundingClientRect().width / svg.width.baseVal.value;
            for (const text of svg.querySelectorAll("text")) {
              if (!text.textContent?.trim()) continue;
              sizes.push({ text: text.textContent, px: parseFloat(getComputedStyle(text).fontSize) * scale });
            }
          }
          return sizes.sort((a, b) => a.px - b.px).slice(0, 3);
        });
        expect(smallest.length).toBeGreaterThan(0);
        // 10 px less the rounding of the SVG's width to 0.1 px.
        expect(smallest[0]?.px, JSON.stringify(smallest)).toBeGreaterThanOrEqual(9.99);

        const facts = await page.evaluate(() => {
          const hidden: string[] = [];
          for (const box of document.querySelectorAll("table, figure")) {
            const where = `${box.closest("section")?.id ?? "?"} ${box.tagName.toLowerCase()}`;
            const rect = box.getBoundingClientRect();
            // The box itself must sit inside the window, so its scroll bar and shadow are on screen.
            if (rect.left < 0 || rect.right > window.innerWidth + 0.5)
              hidden.push(`${where} runs off the page`);
            if (box.scrollWidth <= box.clientWidth + 1) continue;
            const style = getComputedStyle(box);
            if (style.overflowX !== "auto" && style.overflowX !== "scroll") hidden.push(`${where} clips`);
            if (!style.backgroundImage.includes("gradient")) hidden.push(`${where} scrolls with no shadow`);
          }
          return { hidden, pageScrollWidth: document.documentElement.scrollWidth, window: window.innerWidth };
        });
        expect(facts.hidden).toEqual([]);
        // The page itself never scrolls sideways: only the boxes that need to.
        expect(facts.pageScrollWidth).toBeLessThanOrEqual(facts.window);

        const overlaps = await page.evaluate(() => {
          const labels = [...document.querySelectorAll("#sensitivity figure svg text")]
            .filter((t) => /^(H|PD|S|SH)$/.test(t.textContent ?? ""))
            .map((t) => ({ text: t.textContent, box: t.getBoundingClientRect() }));
          const found: string[] = [];
          labels.forEach((a, i) => {
            for (const b of labels.slice(i + 1)) {
              const x = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
              const y = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
              if (x > 0.5 && y > 0.5) found.push(`${a.text} / ${b.text}`);
            }
          });
          return { count: labels.length, found };
        });
        // 3 players × 2 framings × 4 games.
        expect(overlaps.count).toBe(24);
        expect(overlaps.found).toEqual([]);
      });
    }
  }

  it("400 px: every column of the R and shift table is on screen, each value beside its column name", async () => {
    await open(400, "light");
    const cells = await page.evaluate(() =>
      [...document.querySelectorAll("#robustness table td")].map((td) => {
        const r = td.getBoundingClientRect();
        return {
          label: td.dataset.label ?? "",
          shownLabel: getComputedStyle(td, "::before").content,
          left: r.left,
          right: r.right,
          width: r.width,
        };
      }),
    );
    // 5 (player, game) rows, 2 player rows and the pool, 7 columns each (the pool's label spans two).
    expect(cells.length).toBe(8 * 7 - 1);
    for (const c of cells) {
      expect(c.width).toBeGreaterThan(0);
      expect(c.left).toBeGreaterThanOrEqual(0);
      expect(c.right).toBeLessThanOrEqual(400);
      expect(c.shownLabel).toBe(`"${c.label}"`);
    }
    expect(new Set(cells.map((c) => c.label))).toEqual(
      new Set(["Player", "Game", "R", "R 95% CI", "Shift", "Shift 95% CI", "CI excludes 0"]),
    );
  });

  it("1280 px: the text stops at 62rem while the equilibrium table shows every column unclipped", async () => {
    await open(1280, "light");
    const facts = await page.evaluate(() => {
      const table = document.querySelector("#equilibrium table");
      const paragraph = document.querySelector("#intro p");
      return {
        textWidth: paragraph?.getBoundingClientRect().width ?? 0,
        tableWidth: table?.getBoundingClientRect().width ?? 0,
        scrollWidth: table?.scrollWidth ?? 0,
        clientWidth: table?.clientWidth ?? 0,
        columns: table?.querySelectorAll("thead th").length ?? 0,
      };
    });
    expect(facts.textWidth).toBeLessThanOrEqual(62 * 16);
    expect(facts.columns).toBe(10);
    expect(facts.scrollWidth).toBeLessThanOrEqual(facts.clientWidth + 1);
  });

  it("follows the system's dark mode: dark page, light text, charts inverted", async () => {
    const look = async () =>
      page.evaluate(() => {
        const luminance = (css: string) => {
          const [r, g, b] = (css.match(/\d+(\.\d+)?/g) ?? []).map(Number);
          return (0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0)) / 255;
        };
        const body = getComputedStyle(document.body);
        const svg = document.querySelector("figure svg");
        return {
          background: luminance(body.backgroundColor),
          text: luminance(body.color),
          chartFilter: svg ? getComputedStyle(svg).filter : "",
        };
      });
    await open(800, "light");
    const light = await look();
    await open(800, "dark");
    const dark = await look();
    expect(light.background).toBeGreaterThan(0.9);
    expect(light.text).toBeLessThan(0.3);
    expect(light.chartFilter).toBe("none");
    expect(dark.background).toBeLessThan(0.2);
    expect(dark.text).toBeGreaterThan(0.8);
    expect(dark.chartFilter).toContain("invert(1)");
  });

  it("the repeated-play grid draws a round axis under each of its cells and none under the empty places", async () => {
    await open(1280, "light");
    const axes = await page.evaluate(
      () =>
        [...document.querySelectorAll("#repeated figure svg text")].filter((t) => t.textContent === "Round")
          .length,
    );
    expect(axes).toBe(WIDE_REPORT_REPEATED_CELLS);
  });
});
