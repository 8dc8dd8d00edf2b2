import { describe, expect, it } from "vitest";
import { compactSvg } from "../../src/report/compact-svg.js";
import { renderReportHtml } from "../../src/report/render-report.js";
import { EXAMPLE_REPORT } from "./example-report-data.js";

// A hand-made piece of vega's output: a frame group with an empty background, three bars of one mark, an
// axis label, and a hidden foreground.
const VEGA_LIKE = [
  '<svg xmlns="http://www.w3.org/2000/svg" class="marks" width="100" height="50">',
  '<g fill="none"><g class="mark-group role-frame" role="graphics-object" aria-roledescription="group mark container">',
  '<path class="background" aria-hidden="true" d="M0,0h0v0h0Z"/>',
  "<g>",
  '<g class="mark-rect role-mark" role="graphics-object" aria-roledescription="rect mark container">',
  '<path aria-label="x: a; y: 0.5" role="graphics-symbol" d="M0.30000000000000004,10h19.999999999999996v40h-20Z" fill="#4c78a8" opacity="1"/>',
  '<path aria-label="x: b; y: 0.25" role="graphics-symbol" d="M25,30h20v20h-20Z" fill="#4c78a8" opacity="0.7"/>',
  '<path aria-label="x: c; y: 0.125" role="graphics-symbol" d="M50,40h20v10h-20Z" fill="#4c78a8" opacity="0.7" stroke="#000"/>',
  "</g>",
  '<text font-family="Helvetica" font-size="11px">R = 0.12345</text>',
  "</g>",
  '<path class="foreground" aria-hidden="true" d="" display="none"/>',
  "</g></g></svg>",
].join("");

describe("compactSvg", () => {
  const out = compactSvg(VEGA_LIKE, 'Cooperation "by" framing');

  it("is one image with one accessible name, and no per-mark labels or roles", () => {
    expect(out.startsWith('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50" role="img"')).toBe(
      true,
    );
    expect(out).toContain('aria-label="Cooperation &quot;by&quot; framing"');
    expect(out.match(/aria-label=/g)).toHaveLength(1);
    expect(out).not.toMatch(/role="graphics|aria-roledescription|aria-hidden|class=/);
  });

  it("names the image in a <title> and describes it in a <desc> when given a description", () => {
    expect(out).toContain(
      'role="img" aria-label="Cooperation &quot;by&quot; framing"><title>Cooperation "by" framing</title><g',
    );
    const described = compactSvg(
      '<svg><g><path d="M0,0h1v1Z"/></g></svg>',
      "R by game",
      "One dot <per> player.",
    );
    expect(described).toBe(
      '<svg role="img" aria-label="R by game"><title>R by game</title><desc>One dot &lt;per&gt; player.</desc><path d="M0,0h1v1Z"/></svg>',
    );
  });

  it("draws positions to 1/10 px and keeps an opacity's two decimals", () => {
    const rounded = compactSvg(
      '<svg><path d="M12.34,5.67h1.25v0.04Z" transform="translate(3.16,0.06)" fill-opacity="0.18"/></svg>',
      "x",
    );
    expect(rounded).toContain(
      '<path d="M12.3,5.7h1.3v0Z" transform="translate(3.2,0.1)" fill-opacity="0.18"/>',
    );
  });

  it("keeps every drawn mark, to 1/10 px, and the text exactly as printed", () => {
    expect(out).toContain('d="M0.3,10h20v40h-20Z"');
    expect(out).toContain('d="M25,30h20v20h-20Z"');
    expect(out).toContain('d="M50,40h20v10h-20Z"');
    expect(out).toContain(">R = 0.12345</text>");
    expect(out).not.toContain("M0,0h0v0h0Z");
    expect(out).not.toContain('d=""');
  });

  it("moves a fill every bar repeats onto their group; opacity stays per shape (on the fill when unstroked)", () => {
    expect(out).toContain('<g fill="#4c78a8"><path d="M0.3,10h20v40h-20Z"/>');
    expect(out).toContain('<path d="M25,30h20v20h-20Z" fill-opacity="0.7"/>');
    expect(out).toContain('<path d="M50,40h20v10h-20Z" opacity="0.7" stroke="#000"/>');
  });

  it("places a text moved by a bare translate by x and y; a rotated text keeps its transform", () => {
    const texts = compactSvg(
      '<svg><text transform="translate(66,72.7)">n=20</text><text transform="translate(5,7) rotate(330)">a</text></svg>',
      "x",
    );
    expect(texts).toContain('<text x="66" y="72.7">n=20</text>');
    expect(texts).toContain('<text transform="translate(5,7) rotate(330)">a</text>');
  });

  it("draws a group of bare line segments (whiskers, ticks) as one path of the same segments", () => {
    const whiskers = compactSvg(
      '<svg><g stroke="#000"><line transform="translate(22,85)" x2="0" y2="-32.5"/><line transform="translate(66,90.5)" x2="-5" y2="0"/><line transform="translate(1,2)" x2="3" y2="4"/></g></svg>',
      "x",
    );
    // From (22, 85) up 32.5, from (66, 90.5) left 5, from (1, 2) by (3, 4): the lines' own end points.
    expect(whiskers).toBe(
      '<svg role="img" aria-label="x"><title>x</title><g stroke="#000"><path d="M22,85v-32.5M66,90.5h-5M1,2l3,4"/></g></svg>',
    );
    // A line with a stroke of its own, or a group mixing lines with other marks, is left as it is.
    const mixed =
      '<svg><g stroke="#000"><line transform="translate(1,2)" x2="0" y2="3" stroke="red"/><line transform="translate(4,5)" x2="0" y2="6"/></g></svg>';
    expect(compactSvg(mixed, "x")).toContain('<line transform="translate(1,2)" x2="0" y2="3" stroke="red"/>');
  });

  it("returns what it cannot parse as it came", () => {
    expect(compactSvg("<svg><g></svg>", "x")).toBe("<svg><g></svg>");
  });

  it("marks every report chart as one named image", async () => {
    const page = await renderReportHtml(EXAMPLE_REPORT);
    const charts = page.match(/<svg\b[^>]*>/g) ?? [];
    expect(charts).toHaveLength(5);
    for (const tag of charts) expect(tag).toMatch(/ role="img" aria-label="[^"]+"/);
    expect(page).toContain('aria-label="Cooperation rate by framing"');
    expect(page).not.toContain('role="graphics-symbol"');
  });
});
