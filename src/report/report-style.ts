// Small, print-friendly CSS: system fonts, one accent for failures, and a layout that reads at any width.
//
// - Text stops at 62rem (a readable line), but a table or chart wider than that may use the window's
//   width to the right of the text column; the max-width below is what is left of the window from the
//   column's left edge: (100vw + column) / 2 − the page padding.
// - Charts are drawn at their own size, never scaled down (scaling a 700 px chart into 400 px made its
//   text 5–6 px). What does not fit scrolls sideways, and a scroll box shows a shadow at the edge that
//   hides more (the shadows scroll with the content, so an edge that is reached loses its shadow).
// - Under 40rem the R and shift table stacks each row into label–value lines, so every column is read
//   without scrolling.
// - Dark mode follows the system: the page swaps its colours, and the charts (drawn with dark ink on a
//   transparent background) are inverted with their hues turned back, so ink becomes light and each
//   series keeps its colour family.
export const REPORT_CSS = `
:root { color-scheme: light dark; --bg: #ffffff; --ink: #222; --ink-soft: #555; --ink-faint: #666; --line: #e3e3e3; --line-strong: #bbb; --rule: #ddd; --bad: #b00020; --ok: #1b6e2f; --imported: #8a4b00; --shadow: rgba(0, 0, 0, .28); }
@media (prefers-color-scheme: dark) {
  :root { --bg: #1c1d20; --ink: #e6e6e6; --ink-soft: #b8b8b8; --ink-faint: #a8a8a8; --line: #3a3b40; --line-strong: #6a6b70; --rule: #44464b; --bad: #ff7b8a; --ok: #7fd18f; --imported: #f0b060; --shadow: rgba(255, 255, 255, .3); }
  figure svg { filter: invert(1) hue-rotate(180deg) brightness(1.35); }
}
html { background: var(--bg); }
body { font: 15px/1.5 Helvetica, Arial, sans-serif; color: var(--ink); background: var(--bg); max-width: 62rem; margin: 2rem auto; padding: 0 1.25rem; }
a { color: inherit; }
h1 { font-size: 1.7rem; margin: 0 0 .5rem; }
h2 { font-size: 1.3rem; border-bottom: 1px solid var(--rule); padding-bottom: .2rem; margin-top: 2.2rem; }
h3 { font-size: 1.05rem; margin-top: 1.5rem; }
h4 { font-size: .95rem; margin: 1.1rem 0 .3rem; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem; margin: 0; }
dl.meta dt { color: var(--ink-faint); }
dl.meta dd { margin: 0; min-width: 0; }
code { font-family: Menlo, Consolas, monospace; font-size: .9em; word-break: break-all; }
.muted, .settings, .note { color: var(--ink-soft); }
figure, table { display: block; width: max-content; max-width: calc((100vw + 100%) / 2 - 1.25rem); overflow-x: auto; }
figure, table { background: linear-gradient(to right, var(--bg) 30%, transparent) left / 2.5rem 100% no-repeat local, linear-gradient(to left, var(--bg) 30%, transparent) right / 2.5rem 100% no-repeat local, radial-gradient(farthest-side at 0 50%, var(--shadow), transparent) left / .9rem 100% no-repeat scroll, radial-gradient(farthest-side at 100% 50%, var(--shadow), transparent) right / .9rem 100% no-repeat scroll; }
figure { margin: 1rem 0; }
figure svg { display: block; max-width: none; height: auto; }
figcaption { color: var(--ink-soft); font-size: .92rem; max-width: min(48rem, calc(100vw - 2.5rem)); margin-top: .3rem; }
table { border-collapse: collapse; margin: .8rem 0; font-size: .9rem; }
th, td { text-align: left; padding: .25rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { border-bottom: 2px solid var(--line-strong); }
td { white-space: nowrap; }
td.detail { white-space: normal; min-width: 16rem; }
/* A cell holding a name (a player's, a framing's) takes its writing direction from the name, so a name
   written right to left reads in its own order; a sentence (a check's detail) stays left to right. */
th, td { unicode-bidi: plaintext; }
td.detail { unicode-bidi: normal; }
td.wrap { white-space: normal; min-width: 7rem; }
/* A player's "(imported: source)" note goes under its name rather than widen every table. */
td .imported, th .imported, th .actions { display: block; }
.actions { color: var(--ink-soft); font-size: .85em; }
/* Row headers (player, game, framing) written once over the rows they head; every other cell a number. */
tbody th { font-weight: normal; border-bottom: 1px solid var(--line); white-space: nowrap; }
.num, table.grouped td { text-align: right; font-variant-numeric: tabular-nums; }
.no-data { font-style: italic; color: var(--ink-faint); }
.failed, .banner a { color: var(--bad); }
tr.failed td.status, p.summary.failed, .banner { font-weight: bold; }
tr.ok td.status, p.summary.ok { color: var(--ok); }
.banner { border: 2px solid var(--bad); padding: .4rem .8rem; margin-top: 1rem; }
.imported { color: var(--imported); font-size: .85em; }
nav#contents ol { columns: 2; margin: .3rem 0; }
@media (max-width: 40rem) {
  nav#contents ol { columns: 1; }
  table.stack { width: 100%; background: none; }
  table.stack thead { display: none; }
  table.stack tbody, table.stack tr, table.stack td { display: block; }
  table.stack tr { border-bottom: 2px solid var(--line-strong); padding: .3rem 0; }
  table.stack td { display: flex; justify-content: space-between; gap: 1rem; border: 0; padding: .1rem .2rem; white-space: normal; text-align: right; }
  table.stack td::before { content: attr(data-label); color: var(--ink-faint); text-align: left; white-space: nowrap; }
}
@media print {
  body { margin: 0; max-width: none; font-size: 11pt; }
  section, figure, table { break-inside: avoid; }
  figure { overflow: visible; max-width: 100%; background: none; }
  figure svg { max-width: 100%; }
  /* Paper does not scroll: a table is laid out as a table at most the page wide, its cells wrapping
     (headers at spaces, a long name or number anywhere), in a smaller type when it has many columns. */
  table { display: table; width: auto; max-width: 100%; table-layout: auto; background: none; font-size: 8.5pt; }
  table.wide { font-size: 7.5pt; }
  th, td, td.detail, td.wrap, tbody th { white-space: normal; overflow-wrap: break-word; min-width: 0; }
  th, td { padding: .2rem .35rem; }
  h2, h3, h4 { break-after: avoid; }
  .banner a { text-decoration: none; }
}
`;
