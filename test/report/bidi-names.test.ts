import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { renderReportHtml } from "../../src/report/render-report.js";
import type { ReportData } from "../../src/report/report-data.js";
import { describeWithChromium, launchChromium } from "../app/chromium.js";
import { EXAMPLE_REPORT } from "./example-report-data.js";

// Names written right to left, and a name holding a right-to-left override (U+202E), in the report.
// Without isolation the list "alpha, מודל-1, נמר-2" is drawn "alpha, 2-נמר ,1-מודל" (the Hebrew names and
// the comma between them swap places), and an override turns every later name on the line backwards.

const HEBREW = "מודל-1";
const OVERRIDE = "x\u202ey";
/** The example report with its players renamed: story-swayed in Hebrew, payoff-reader with an override. */
const DATA: ReportData = JSON.parse(
  JSON.stringify(EXAMPLE_REPORT).replaceAll("story-swayed", HEBREW).replaceAll("payoff-reader", OVERRIDE),
);
DATA.header.players = ["alpha", HEBREW, "נמר-2", OVERRIDE];

it("isolates every name of a list and shows bidirectional controls as \\u202e, never applies them", async () => {
  const page = await renderReportHtml(DATA);
  expect(page).toContain(
    "<dt>Players</dt><dd><bdi>alpha</bdi>, <bdi>מודל-1</bdi>, <bdi>נמר-2</bdi>, <bdi>x\\u202ey</bdi></dd>",
  );
  expect(page).toContain("<dd><bdi>demo: business vs friend-sharing</bdi>");
  // In tables, in the charts' SVG and in the notes alike: no embedding, override or isolate is left.
  expect(page).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
  expect(page.match(/x\\u202ey/g)?.length).toBeGreaterThan(5);
  // A table cell holding a name takes its direction from the name.
  expect(page).toContain("th, td { unicode-bidi: plaintext; }");
});

describeWithChromium("right-to-left names as Chromium draws them", () => {
  it("draws the names of a list in their order, left to right, each in its own direction", async () => {
    const dir = mkdtempSync(join(tmpdir(), "same-game-bidi-"));
    const chromium = await launchChromium();
    try {
      const file = join(dir, "report.html");
      writeFileSync(file, await renderReportHtml(DATA));
      const page = await chromium.browser.newPage();
      await page.goto(`file://${file}`, { waitUntil: "load" });
      const lefts = await page.$$eval("dl.meta dd bdi", (names) =>
        names.map((n) => ({ text: n.textContent, left: Math.round(n.getBoundingClientRect().left) })),
      );
      const players = lefts.slice(-4);
      expect(players.map((p) => p.text)).toEqual(["alpha", HEBREW, "נמר-2", "x\\u202ey"]);
      // Left to right in the order listed: without isolation the two Hebrew names swap places.
      const order = players.map((p) => p.left);
      expect([...order].sort((a, b) => a - b)).toEqual(order);
    } finally {
      await chromium.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
