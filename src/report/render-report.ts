import { html, type SafeHtml, trustedHtml } from "./html.js";
import { type ReportData, reportChecks, reportNotes } from "./report-data.js";
import { REPORT_CSS } from "./report-style.js";
import { checksSection } from "./sections/checks-section.js";
import { cooperationSection } from "./sections/cooperation-section.js";
import { equilibriumSection } from "./sections/equilibrium-section.js";
import { headerSection } from "./sections/header-section.js";
import { leaderboardSection } from "./sections/leaderboard-section.js";
import { importedPlayers, provenanceSection } from "./sections/provenance-section.js";
import { repeatedSection } from "./sections/repeated-section.js";
import { robustnessSection } from "./sections/robustness-section.js";
import { sensitivitySection } from "./sections/sensitivity-section.js";
import { spendSection } from "./sections/spend-section.js";

/** Links to every section, so a reader finds the table they cite without scrolling. */
function tableOfContents(data: ReportData): SafeHtml {
  const entries: [string, string][] = [
    ["intro", "What this report measures"],
    ...(data.header.provenance
      ? ([["provenance", "Provenance and reproduction"]] as [string, string][])
      : []),
    ["cooperation", "Cooperation by framing: rates, intervals, n per cell"],
    ["robustness", "Robustness and the planned shift"],
    ["leaderboard", "Leaderboard: which player is more robust"],
    ["sensitivity", "Payoff sensitivity λ"],
    ...(data.equilibrium ? ([["equilibrium", "Equilibrium comparison"]] as [string, string][]) : []),
    ["repeated", "Repeated play and comprehension"],
    ...(data.spend ? ([["spend", "Spend per cell"]] as [string, string][]) : []),
    ["checks", "Verification"],
  ];
  return html`<nav id="contents"><h2>Contents</h2><ol>${entries.map(([id, title]) => html`<li><a href="#${id}">${title}</a></li>`)}</ol></nav>`;
}

/**
 * The whole report as one self-contained HTML document: inline CSS, charts as inline SVG, no scripts and
 * no URL, so it opens offline and can be archived or mailed as a single file.
 */
export async function renderReportHtml(data: ReportData): Promise<string> {
  const checks = reportChecks(data);
  const imported = importedPlayers(data.header);
  const missingRobustness = data.missing?.find((m) => m.section === "robustness")?.reason;
  const missingLeaderboard = data.missing?.find((m) => m.section === "leaderboard")?.reason;
  const missingRepeatedRanks = data.missing?.find((m) => m.section === "leaderboard-repeated")?.reason;
  const uncooperative = data.missing?.find((m) => m.section === "cooperation")?.reason;
  const [cooperation, robustness, leaderboard, sensitivity, repeated] = await Promise.all([
    cooperationSection(data.cooperation ?? [], imported, uncooperative),
    robustnessSection(data.robustness, imported, missingRobustness),
    leaderboardSection(
      data.leaderboard,
      imported,
      missingLeaderboard,
      missingRepeatedRanks,
      data.robustness?.framings,
      data.header.provenance?.catalog ?? null,
      data.header.database ?? null,
      data.robustness?.games,
    ),
    sensitivitySection(data.sensitivity, imported),
    repeatedSection(data.repeated ?? [], imported),
  ]);
  const page = html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${data.header.title}</title>
<style>${trustedHtml(REPORT_CSS)}</style>
</head>
<body>
${headerSection(data.header, checks)}
${tableOfContents(data)}
${provenanceSection(data.header)}
${cooperation}
${robustness}
${leaderboard}
${sensitivity}
${data.equilibrium ? equilibriumSection(data.equilibrium, imported) : ""}
${repeated}
${data.spend ? spendSection(data.spend, imported) : ""}
${checksSection(checks, reportNotes(data))}
</body>
</html>
`;
  return page.text;
}
