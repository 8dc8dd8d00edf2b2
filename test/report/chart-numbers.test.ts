import { describe, expect, it } from "vitest";
import { renderReportHtml } from "../../src/report/render-report.js";
import { EXAMPLE_REPORT } from "./example-report-data.js";

// What a chart shows is also in the page as text (WCAG 1.1.1): the cooperation chart's rates, intervals
// and n in a table under it, the comprehension curves' shares and bands in a folded table, and every
// chart's SVG names itself in a <title> and describes itself in a <desc>.

const section = (page: string, id: string) =>
  new RegExp(`<section id="${id}">[\\s\\S]*?</section>`).exec(page)?.[0] ?? "";

describe("the charts' numbers as text", async () => {
  // The second repeated cell with a band: ±0.1 around each share, as a hand-made interval.
  const data = {
    ...EXAMPLE_REPORT,
    repeated: (EXAMPLE_REPORT.repeated ?? []).map((cell, i) =>
      i === 1
        ? {
            ...cell,
            curve: cell.curve.map((p) => ({
              ...p,
              lo: p.success_share - 0.1,
              hi: Math.min(1, p.success_share + 0.1),
            })),
          }
        : cell,
    ),
  };
  const page = await renderReportHtml(data);

  it("the cooperation table gives each bar's rate, its 95% interval and its n", () => {
    const cooperation = section(page, "cooperation");
    // payoff-reader, prisoners-dilemma, business: rate 0.02 in [0, 0.075] over 40 decisions.
    expect(cooperation).toContain("<th>prisoners-dilemma</th><td>0.020 [0.000, 0.075] n=40</td>");
    // story-swayed, stag-hunt, business: 0.45 in [0.3, 0.6] over 40.
    expect(cooperation).toContain("<td>0.450 [0.300, 0.600] n=40</td>");
  });

  it("the comprehension curves' numbers: a row per cell, a column per round, the band where there is one", () => {
    const repeated = section(page, "repeated");
    const table = /<details><summary>The curves' numbers[\s\S]*?<\/details>/.exec(repeated)?.[0] ?? "";
    expect(table.match(/<th class="num">Round \d+<\/th>/g)).toHaveLength(10);
    // payoff-reader: 9 of 10 rounds from round 1, then every one (no band: one share per match only).
    expect(table).toContain("<td>0.90</td><td>1.00</td>");
    // story-swayed: 7/10 from round 1 with its band [0.6, 0.8], 6/9 from round 2 in [0.57, 0.77].
    expect(table).toContain("<td>0.70 [0.60, 0.80]</td><td>0.67 [0.57, 0.77]</td>");
  });

  it("every chart's SVG has a <title> and a <desc>", () => {
    const svgs = [...page.matchAll(/<svg[\s\S]*?<\/svg>/g)].map((m) => m[0]);
    expect(svgs.length).toBeGreaterThanOrEqual(5);
    for (const svg of svgs)
      expect(svg).toMatch(/^<svg [^>]*role="img"[^>]*><title>[^<]+<\/title><desc>[^<]+<\/desc>/);
    expect(page).toContain("<title>Opponent comprehension</title><desc>One panel per cell");
  });
});
