import * as vega from "vega";
import type { TopLevelSpec } from "vega-lite";
import * as vl from "vega-lite";
import { CHART_PALETTE, CHART_SHAPES } from "./chart-palette.js";
import { compactSvg } from "./compact-svg.js";
import { html, type SafeHtml, trustedHtml, withVisibleBidiControls } from "./html.js";
import { useHelveticaTextWidths } from "./text-width.js";

// One look for every chart: readable sizes, left-aligned titles, light grid lines that print well.
// Header and legend labels have no length limit: a player's or game's name is never cut short.
export const CHART_CONFIG: vl.Config = {
  // Transparent, so a chart sits on the page's own background (and the dark mode's inversion of it).
  background: "transparent",
  font: "Helvetica, Arial, sans-serif",
  title: { fontSize: 15, anchor: "start", offset: 12 },
  axis: { labelFontSize: 11, titleFontSize: 12, titleFontWeight: "normal", gridColor: "#e6e6e6" },
  header: { labelFontSize: 12, titleFontSize: 12, titleFontWeight: "normal", labelLimit: 0 },
  // Legend symbols at full strength: a see-through symbol loses its colour's contrast with the page.
  legend: { labelFontSize: 11, titleFontSize: 12, labelLimit: 0, symbolOpacity: 1 },
  view: { stroke: "#cccccc" },
  // Series colours of 3:1 or more on the light and the dark page, and a shape per series beside them.
  range: { category: [...CHART_PALETTE], symbol: [...CHART_SHAPES] },
};

/**
 * Compile a Vega-Lite spec and render it headless to an SVG string. The specs carry their data inline,
 * so vega never loads anything and the SVG references nothing outside itself.
 */
export async function renderChartSvg(spec: TopLevelSpec): Promise<string> {
  useHelveticaTextWidths();
  // A name's bidirectional controls are shown as text (html.ts), before vega measures the labels.
  const shown = JSON.parse(JSON.stringify(spec), (_, value) =>
    typeof value === "string" ? withVisibleBidiControls(value) : value,
  ) as TopLevelSpec;
  const view = new vega.View(vega.parse(vl.compile(shown, { config: CHART_CONFIG }).spec), {
    renderer: "none",
  });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/**
 * A chart with the sentence under it that says what it shows and how to read it. The chart is one image to
 * assistive technology, named by its title (else its caption); the caption is the figure's description,
 * and the SVG's <title> and <desc> say the same to a reader of the SVG alone.
 */
export async function chartFigure(spec: TopLevelSpec, caption: string): Promise<SafeHtml> {
  const title = chartTitle(spec);
  const name = withVisibleBidiControls(title ?? caption);
  const svg = compactSvg(await renderChartSvg(spec), name, title === undefined ? undefined : caption);
  return html`<figure>${trustedHtml(svg)}<figcaption>${caption}</figcaption></figure>`;
}

function chartTitle(spec: TopLevelSpec): string | undefined {
  const title = spec.title;
  const text = typeof title === "object" && title !== null && !Array.isArray(title) ? title.text : title;
  return Array.isArray(text) ? text.join(" ") : typeof text === "string" ? text : undefined;
}
