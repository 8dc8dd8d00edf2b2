import { beforeAll, describe, expect, it } from "vitest";
import { renderReportHtml } from "../../src/report/render-report.js";
import type { ReportData } from "../../src/report/report-data.js";
import { EXAMPLE_REPORT } from "./example-report-data.js";

const svgCount = (page: string): number => page.match(/<svg\b/g)?.length ?? 0;

/** Every URL-like reference except the SVG/XML namespace declarations and in-page anchors. */
function externalReferences(page: string): string[] {
  const urls = (page.match(/https?:\/\/[^\s"'<>)]*/g) ?? []).filter(
    (u) => !u.startsWith("http://www.w3.org/"),
  );
  const links = [...page.matchAll(/\b(?:src|href)\s*=\s*["']?([^\s"'>]*)/g)]
    .map((m) => m[1] ?? "")
    .filter((target) => !target.startsWith("#"));
  const cssUrls = page.match(/url\(\s*["']?(?!#)[^)]*\)/g) ?? [];
  const protocolRelative = page.match(/["'(]\/\/[^\s"'<>)]+/g) ?? [];
  return [...urls, ...links, ...cssUrls, ...protocolRelative];
}

describe("externalReferences (the detector the no-network test relies on)", () => {
  it("finds links, protocol-relative sources and CSS urls but not namespaces or in-page anchors", () => {
    const page = `<svg xmlns="http://www.w3.org/2000/svg"><a href="#checks"></a><img src="//cdn.example/x.png">
<style>b { background: url(https://x.example/y.png) } c { clip-path: url(#clip1) }</style></svg>`;
    expect(externalReferences(page)).toEqual([
      "https://x.example/y.png",
      "//cdn.example/x.png",
      "url(https://x.example/y.png)",
      '"//cdn.example/x.png',
    ]);
  });
});

describe("renderReportHtml with every section", () => {
  let page: string;
  beforeAll(async () => {
    page = await renderReportHtml(EXAMPLE_REPORT);
  });

  it("draws one SVG chart per section with data: cooperation, shift forest, robustness, sensitivity, comprehension", () => {
    expect(svgCount(page)).toBe(5);
  });

  it("gives every chart its title and axis titles as SVG text", () => {
    const svgText = (page.match(/<svg\b[\s\S]*?<\/svg>/g) ?? []).join("");
    for (const label of [
      "Cooperation rate by framing",
      "Cooperation rate",
      "Framing",
      "Robustness R by game and player",
      "Planned shift business → friend-sharing with 95% intervals",
      "Robustness R",
      "Game",
      "Payoff sensitivity λ by framing",
      "Payoff sensitivity λ",
      "Opponent comprehension",
      "Round",
      "Success share from round on",
    ]) {
      expect(svgText).toContain(`>${label}</text>`);
    }
  });

  it("puts a reading sentence under every chart", () => {
    expect(page.match(/<figcaption>/g)?.length).toBe(5);
  });

  it("references nothing outside the file", () => {
    expect(page).toContain('xmlns="http://www.w3.org/2000/svg"'); // the filter below has something to skip
    expect(page).not.toMatch(/<script|<link|<img|<iframe|@import/i);
    expect(externalReferences(page)).toEqual([]);
  });

  it("shows the robustness table with the pooled numbers and the settings", () => {
    // pooled R = (1 + 1 + 0.848 + 0.903) / 4 = 0.93775 → 0.938; pooled shift (0.45 + 0.35) / 4 = 0.200
    expect(page).toMatch(
      /<strong>Pooled<\/strong><\/td><td class="num" data-label="R">0\.938<\/td><td class="num" data-label="R 95% CI">\[0\.890, 0\.975\]<\/td><td class="num" data-label="Shift">0\.200<\/td>/,
    );
    expect(page).toContain("10,000 bootstrap replicates resampling by decision, seed 1");
    expect(page).toContain(
      "Shift = cooperation under <strong><bdi>friend-sharing</bdi></strong> minus cooperation under <strong><bdi>business</bdi></strong>",
    );
  });

  it("shows the order effect: first-listed choice rate against ½", () => {
    expect(page).toContain("<h3>Order effect</h3>");
    expect(page).toContain("<li><bdi>gpt-4o</bdi>: 0.600 of 240 decisions, 95% CI [0.537, 0.660]</li>");
  });

  it("lists failed checks first, marked FAILED, and counts them in a banner", () => {
    const failed = page.indexOf("✗ FAILED</td><td>CI contains estimate");
    const firstOk = page.indexOf("✓ ok</td>");
    expect(failed).toBeGreaterThan(0);
    expect(failed).toBeLessThan(firstOk);
    // 3 robustness checks + 1 other check, one of them failed
    expect(page).toContain("1 of 4 checks FAILED");
    expect(page).toContain("1 verification check FAILED</a>");
  });
});

describe("renderReportHtml escapes text from the data", () => {
  it("never lets a player name become markup", async () => {
    const evil = `<script>alert("x")</script> & 'co'`;
    const rename = <T extends { player: string }>(row: T): T =>
      row.player === "story-swayed" ? { ...row, player: evil } : row;
    const robustness = EXAMPLE_REPORT.robustness;
    if (!robustness) throw new Error("the example has robustness results");
    const data: ReportData = {
      ...EXAMPLE_REPORT,
      header: { ...EXAMPLE_REPORT.header, players: ["payoff-reader", evil] },
      cooperation: EXAMPLE_REPORT.cooperation?.map(rename),
      robustness: {
        ...robustness,
        games: robustness.games.map(rename),
        players: robustness.players.map(rename),
      },
      repeated: EXAMPLE_REPORT.repeated?.map(rename),
    };
    const page = await renderReportHtml(data);
    expect(page).not.toMatch(/<script/i);
    expect(page).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;");
  });
});

describe("renderReportHtml with no data", () => {
  const header: ReportData["header"] = {
    title: "empty",
    generated_at: "2026-11-30T00:00:00Z",
    database: null,
    study: null,
    players: [],
  };

  it("says so in every section and draws no chart", async () => {
    const page = await renderReportHtml({ header });
    expect(svgCount(page)).toBe(0);
    for (const sentence of [
      "No one-shot decisions were recorded, so there are no cooperation rates to show.",
      "No game was played under two or more framings, so robustness cannot be computed.",
      "No payoff-sensitivity estimates are available for this record.",
      "No repeated matches were played, so there is no repeated-play data to show.",
      "No verification checks were run for this report.",
    ]) {
      expect(page).toContain(sentence);
    }
  });

  it("treats empty lists like missing sections", async () => {
    const page = await renderReportHtml({
      header,
      cooperation: [],
      sensitivity: { cells: [{ player: "p", game: "g", framing: "f", lambda: null }], pooled: [] },
      repeated: [],
      checks: [],
    });
    expect(svgCount(page)).toBe(0);
    expect(page).toContain("No payoff-sensitivity estimates are available for this record.");
  });
});

describe("the report a reviewer asks for", () => {
  const withProvenance: ReportData = {
    ...EXAMPLE_REPORT,
    header: {
      ...EXAMPLE_REPORT.header,
      study: { id: "study-1", name: "demo", design_hash: "d".repeat(64) },
      provenance: {
        server_version: "9.9.9",
        catalog_fingerprint: "c".repeat(64),
        seed: 42,
        bootstrap: 2000,
        command: "same-game report --db /r.db --framings business,friend-sharing --seed 42 --bootstrap 2000",
        imported: [
          {
            source: "lore-heydari-2024",
            kind: "counts",
            rows: 48,
            decisions: 7200,
            sessions: 0,
            players: ["gpt-4"],
            citation: "Lorè & Heydari 2024",
          },
          {
            source: "my-transcripts",
            kind: "transcripts",
            rows: 12,
            decisions: 40,
            sessions: null,
            players: ["claude"],
            citation: null,
          },
        ],
      },
    },
    robustness: EXAMPLE_REPORT.robustness,
    equilibrium: [
      {
        player: "gpt-4",
        game: "prisoners-dilemma",
        variant: "payoff",
        framing: "business",
        n: 300,
        distribution: { cooperate: 0, defect: 1 },
        equilibrium_strategy: { cooperate: 1, defect: 0 },
        total_variation: 1,
        exploitability: 0.5,
        template_persistence: true,
      },
    ],
  };
  let page: string;
  beforeAll(async () => {
    page = await renderReportHtml(withProvenance);
  });

  it("links every section from a table of contents", () => {
    for (const id of [
      "intro",
      "provenance",
      "cooperation",
      "robustness",
      "sensitivity",
      "equilibrium",
      "repeated",
      "checks",
    ]) {
      expect(page).toContain(`<a href="#${id}">`);
      expect(page).toContain(`id="${id}"`);
    }
  });

  it("prints version, catalog fingerprint, design hash, seed, bootstrap and the exact command", () => {
    expect(page).toContain("version 9.9.9");
    expect(page).toContain("c".repeat(64));
    expect(page).toContain("d".repeat(64));
    expect(page).toContain("seed 42, B = 2,000");
    expect(page).toContain(
      "same-game report --db /r.db --framings business,friend-sharing --seed 42 --bootstrap 2000",
    );
  });

  it("marks imported data with its source wherever the player appears, and cites it", () => {
    expect(page).toMatch(
      /lore-heydari-2024<\/bdi><\/strong>: 48 count rows \(aggregate counts, no sessions\), 7,200 decisions, players <bdi>gpt-4<\/bdi> — Lorè &amp; Heydari 2024/,
    );
    expect(page).toMatch(
      /my-transcripts<\/bdi><\/strong>: 12 match transcripts, 40 decisions, players <bdi>claude<\/bdi>\./,
    );
    expect(page).toContain(
      'gpt-4 <span class="imported" title="imported data">(imported: lore-heydari-2024)</span>',
    );
  });

  it("has n per cell, a λ table, and the equilibrium comparison with template persistence", () => {
    expect(page).toContain("Cooperation rate, 95% interval and decisions (n) per cell");
    expect(page).toContain("<h3>λ values</h3>");
    // The game's actions named once beside it; each cell's shares in that order (defect always: 0 / 1).
    expect(page).toContain(
      '<th>prisoners-dilemma <span class="actions">(cooperate / defect)</span></th><th>payoff</th><th>business</th><td>300</td><td>0.00 / 1.00</td><td>1.00 / 0.00</td><td>1.000</td><td>0.500</td><td>yes</td>',
    );
  });

  it("says what is missing when robustness could not run", async () => {
    const one = await renderReportHtml({
      ...EXAMPLE_REPORT,
      robustness: null,
      missing: [{ section: "robustness", reason: "only business has decisions so far" }],
    });
    expect(one).toContain("Robustness not computed: only business has decisions so far");
  });
});
