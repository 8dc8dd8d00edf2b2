import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page, PaperFormat } from "puppeteer-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { renderReportHtml } from "../../src/report/render-report.js";
import { describeWithChromium, launchChromium } from "../app/chromium.js";
import { WIDE_REPORT } from "./wide-report-data.js";

// The report printed: every column of every table must land on the paper. Printing lays a page out at
// the paper's width less its margins, so the same layout is measured in the page under print media at
// that width (A4: 210 mm − 2 × 10 mm = 718 px; Letter: 8.5 in − 2 × 10 mm = 741 px, at 96 px an inch),
// and, where poppler's pdftotext is installed, the PDF Chromium prints is read back for every header.

interface Rect {
  left: number;
  right: number;
}
interface PageElement {
  innerText: string;
  textContent: string | null;
  getBoundingClientRect(): Rect;
  closest(selector: string): PageElement | null;
  querySelectorAll(selector: string): ArrayLike<PageElement> & Iterable<PageElement>;
  id: string;
}
declare const document: PageElement;
declare function getComputedStyle(element: PageElement): { breakAfter: string };

const PX_PER_MM = 96 / 25.4;
const MARGIN_MM = 10;
const PAPERS: { format: PaperFormat; widthMm: number }[] = [
  { format: "a4", widthMm: 210 },
  { format: "letter", widthMm: 215.9 },
];
const PDFTOTEXT = "/usr/bin/pdftotext";

describeWithChromium("the report printed to paper", () => {
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;
  let dir: string;
  let file: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "same-game-report-print-"));
    file = join(dir, "report.html");
    writeFileSync(file, await renderReportHtml(WIDE_REPORT));
    chromium = await launchChromium();
    page = await chromium.browser.newPage();
  }, 120_000);
  afterAll(async () => {
    await chromium?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Every table header's text, with the section it is in. */
  const headers = () =>
    page.evaluate(() =>
      [...document.querySelectorAll("table thead th")].map((th) => ({
        section: th.closest("section")?.id ?? "?",
        text: (th.textContent ?? "").replace(/\s+/g, " ").trim(),
        right: th.getBoundingClientRect().right,
        left: th.getBoundingClientRect().left,
      })),
    );

  it("keeps every heading on the page of what follows it", async () => {
    await page.emulateMediaType("print");
    await page.goto(`file://${file}`, { waitUntil: "load" });
    const breaks = await page.evaluate(() =>
      [...document.querySelectorAll("h2, h3, h4")].map((h) => getComputedStyle(h).breakAfter),
    );
    expect(breaks.length).toBeGreaterThan(5);
    expect(new Set(breaks)).toEqual(new Set(["avoid"]));
  });

  for (const { format, widthMm } of PAPERS) {
    it(`${format}: every header of every table lies inside the printed page's width`, async () => {
      const width = Math.floor((widthMm - 2 * MARGIN_MM) * PX_PER_MM);
      await page.setViewport({ width, height: 1000 });
      await page.emulateMediaType("print");
      await page.goto(`file://${file}`, { waitUntil: "load" });
      const all = await headers();
      // The repeated-play table (9 columns) and the equilibrium table (10) are the widest.
      expect(all.filter((h) => h.section === "repeated").map((h) => h.text)).toContain(
        "Comprehension m (mean)",
      );
      expect(all.filter((h) => h.section === "equilibrium").map((h) => h.text)).toContain(
        "Template persistence",
      );
      const outside = all.filter((h) => h.left < 0 || h.right > width + 0.5);
      expect(
        outside.map((h) => `${h.section}: ${h.text} ends at ${Math.round(h.right)} px of ${width}`),
      ).toEqual([]);
    });

    it.skipIf(!existsSync(PDFTOTEXT))(
      `${format}: the printed PDF holds every word of every table header`,
      async () => {
        await page.emulateMediaType("print");
        await page.goto(`file://${file}`, { waitUntil: "load" });
        // The words of the headers (whole words of letters, so hyphenated names that wrap do not count),
        // and how often the tables hold each: a column cut off the paper loses its header and the words of
        // its values, so the PDF's text holds the word fewer times.
        const { words, text: pageText } = await page.evaluate(() => ({
          words: [...document.querySelectorAll("table thead th")].flatMap((th) =>
            (th.textContent ?? "").split(/\s+/).filter((w) => /^[A-Za-z]{4,}$/.test(w)),
          ),
          // The tables' own text: the PDF holds it and more (prose, charts).
          // biome-ignore lint/performance/useDomNodeTextContent: the rendered text, a space between cells.
          text: [...document.querySelectorAll("table")].map((t) => t.innerText).join("\n"),
        }));
        const pdf = join(dir, `report-${format}.pdf`);
        const margin = `${MARGIN_MM}mm`;
        await page.pdf({
          path: pdf,
          format,
          margin: { top: margin, bottom: margin, left: margin, right: margin },
        });
        // pdftotext reads only what is drawn on the paper.
        const pdfText = execFileSync(PDFTOTEXT, [pdf, "-"], { encoding: "utf8" });
        const count = (text: string, word: string) =>
          text.match(new RegExp(`\\b${word}\\b`, "g"))?.length ?? 0;
        const short = [...new Set(words)]
          .filter((w) => count(pdfText, w) < count(pageText, w))
          .map((w) => `${w}: ${count(pdfText, w)} in the PDF, ${count(pageText, w)} in the tables`);
        expect(words).toContain("Comprehension");
        expect(short).toEqual([]);
      },
    );
  }
});
