// The view's CSS: the host's theme variables when it sends them (MCP Apps style variables), the report's
// palette otherwise; one column that reflows down to 400 px, charts scroll sideways rather than shrink text.
export const DASHBOARD_CSS = `
:root {
  color-scheme: light;
  --bg: var(--color-background-primary, #ffffff);
  --bg-soft: var(--color-background-secondary, #f5f5f5);
  --ink: var(--color-text-primary, #222222);
  --ink-soft: var(--color-text-secondary, #555555);
  --line: var(--color-border-primary, #dddddd);
  --accent: #3a6ea5;
  --ok: #1b6e2f;
  --bad: #b00020;
}
:root[data-theme="dark"] {
  color-scheme: dark;
  --bg: var(--color-background-primary, #1e1f22);
  --bg-soft: var(--color-background-secondary, #2a2b2f);
  --ink: var(--color-text-primary, #e8e8e8);
  --ink-soft: var(--color-text-secondary, #b4b4b4);
  --line: var(--color-border-primary, #44464b);
  --accent: #7fb0e8;
  --ok: #6fcf8a;
  --bad: #ff7b8a;
}
* { box-sizing: border-box; }
html, body { margin: 0; background: var(--bg); color: var(--ink); }
body { font: 14px/1.45 var(--font-sans, Helvetica, Arial, sans-serif); padding: 12px; min-width: 320px; }
h1 { font-size: 1.2rem; margin: 0 0 .2rem; }
h2 { font-size: 1.02rem; margin: 1.2rem 0 .4rem; border-bottom: 1px solid var(--line); padding-bottom: .15rem; }
h3 { font-size: .92rem; margin: .9rem 0 .2rem; }
p { margin: .3rem 0; }
.muted { color: var(--ink-soft); }
form.filters { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: .4rem .6rem; margin: .6rem 0; }
form.filters label { display: flex; flex-direction: column; font-size: .8rem; color: var(--ink-soft); gap: .15rem; }
select, input, button { font: inherit; color: var(--ink); background: var(--bg-soft); border: 1px solid var(--line); border-radius: 4px; padding: .2rem .35rem; min-width: 0; }
button { cursor: pointer; }
button.link { background: none; border: none; color: var(--accent); padding: 0; text-align: left; text-decoration: underline; }
.status { min-height: 1.3em; font-size: .85rem; color: var(--ink-soft); }
.status.error { color: var(--bad); }
main[data-stale] { opacity: .55; }
figure { margin: .4rem 0; overflow-x: auto; }
figcaption { font-size: .82rem; color: var(--ink-soft); max-width: 44rem; }
table { border-collapse: collapse; font-size: .82rem; margin: .4rem 0; }
.table-scroll { overflow-x: auto; }
th, td { text-align: left; padding: .2rem .45rem; border-bottom: 1px solid var(--line); white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.clickable { cursor: pointer; }
tr.selected td { background: var(--bg-soft); font-weight: bold; }
tr.clickable:hover { background: var(--bg-soft); }
tr.clickable:focus-visible { outline: 2px solid var(--accent); outline-offset: -2px; background: var(--bg-soft); }
details > summary { cursor: pointer; font-size: .82rem; color: var(--ink-soft); margin: .2rem 0; }
ul.checks { list-style: none; padding: 0; margin: .3rem 0; }
ul.checks li { padding: .15rem 0; }
ul.checks .ok { color: var(--ok); }
ul.checks .failed { color: var(--bad); font-weight: bold; }
.no-data { font-style: italic; color: var(--ink-soft); }
.left-out { background: var(--bg-soft); border-left: 3px solid var(--accent); padding: .25rem .5rem; font-size: .85rem; }
ul.matches { padding-left: 1.1rem; margin: .3rem 0; }
`;
