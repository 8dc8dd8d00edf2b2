// Small, print-friendly CSS: system fonts, one accent for failures, charts never wider than the page.
export const REPORT_CSS = `
:root { color-scheme: light; }
body { font: 15px/1.5 Helvetica, Arial, sans-serif; color: #222; max-width: 62rem; margin: 2rem auto; padding: 0 1.25rem; }
h1 { font-size: 1.7rem; margin: 0 0 .5rem; }
h2 { font-size: 1.3rem; border-bottom: 1px solid #ddd; padding-bottom: .2rem; margin-top: 2.2rem; }
h3 { font-size: 1.05rem; margin-top: 1.5rem; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem; margin: 0; }
dl.meta dt { color: #666; }
dl.meta dd { margin: 0; }
code { font-family: Menlo, Consolas, monospace; font-size: .9em; word-break: break-all; }
.muted, .settings, .note { color: #555; }
figure { margin: 1rem 0; overflow-x: auto; }
figure svg { max-width: 100%; height: auto; }
figcaption { color: #444; font-size: .92rem; max-width: 48rem; margin-top: .3rem; }
table { border-collapse: collapse; margin: .8rem 0; font-size: .9rem; }
th, td { text-align: left; padding: .25rem .6rem; border-bottom: 1px solid #e3e3e3; vertical-align: top; }
th { border-bottom: 2px solid #bbb; }
td { white-space: nowrap; }
td.detail { white-space: normal; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
.no-data { font-style: italic; color: #666; }
.failed, .banner a { color: #b00020; }
tr.failed td.status, p.summary.failed, .banner { font-weight: bold; }
tr.ok td.status, p.summary.ok { color: #1b6e2f; }
.banner { border: 2px solid #b00020; padding: .4rem .8rem; margin-top: 1rem; }
.imported { color: #8a4b00; font-size: .85em; }
nav#contents ol { columns: 2; margin: .3rem 0; }
table { display: block; max-width: 100%; overflow-x: auto; }
@media print {
  body { margin: 0; max-width: none; font-size: 11pt; }
  section, figure, table { break-inside: avoid; }
  figure { overflow: visible; }
  .banner a { text-decoration: none; }
}
`;
