import { html, trustedHtml } from "./html.js";
import type { ReportData } from "./report-data.js";
import { REPORT_CSS } from "./report-style.js";
import { checksSection } from "./sections/checks-section.js";
import { cooperationSection } from "./sections/cooperation-section.js";
import { headerSection } from "./sections/header-section.js";
import { repeatedSection } from "./sections/repeated-section.js";
import { robustnessSection } from "./sections/robustness-section.js";
import { sensitivitySection } from "./sections/sensitivity-section.js";

/**
 * The whole report as one self-contained HTML document: inline CSS, charts as inline SVG, no scripts and
 * no URL, so it opens offline and can be archived or mailed as a single file.
 */
export async function renderReportHtml(data: ReportData): Promise<string> {
  const checks = [...(data.robustness?.checks ?? []), ...(data.checks ?? [])];
  const [cooperation, robustness, sensitivity, repeated] = await Promise.all([
    cooperationSection(data.cooperation ?? []),
    robustnessSection(data.robustness),
    sensitivitySection(data.sensitivity),
    repeatedSection(data.repeated ?? []),
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
${cooperation}
${robustness}
${sensitivity}
${repeated}
${checksSection(checks)}
</body>
</html>
`;
  return page.text;
}
