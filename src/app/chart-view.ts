import * as vega from "vega";
import { expressionInterpreter } from "vega-interpreter";
import type { TopLevelSpec } from "vega-lite";
import * as vl from "vega-lite";
import { CHART_CONFIG } from "../report/chart-svg.js";

export type Theme = "light" | "dark";

/** Dark theme: the report's look with light ink on the host's dark background. */
const DARK: vl.Config = {
  background: "transparent",
  title: { ...CHART_CONFIG.title, color: "#e8e8e8", subtitleColor: "#c8c8c8" },
  axis: {
    ...CHART_CONFIG.axis,
    labelColor: "#d0d0d0",
    titleColor: "#e0e0e0",
    domainColor: "#8a8a8a",
    tickColor: "#8a8a8a",
    gridColor: "#3a3a3a",
  },
  header: { ...CHART_CONFIG.header, labelColor: "#e0e0e0", titleColor: "#e0e0e0" },
  legend: { ...CHART_CONFIG.legend, labelColor: "#d0d0d0", titleColor: "#e0e0e0" },
  view: { stroke: "#555555" },
};

/** Below this width a legend goes under its chart, so the plot keeps the room beside its labels. */
const NARROW = 560;

function config(theme: Theme, width: number): vl.Config {
  const base =
    theme === "dark" ? { ...CHART_CONFIG, ...DARK } : { ...CHART_CONFIG, background: "transparent" };
  return width < NARROW
    ? { ...base, legend: { ...base.legend, orient: "bottom", direction: "horizontal" } }
    : base;
}

/**
 * The report's specs draw error bars and n labels in near-black ink and the λ chart's game labels in dark
 * grey; on a dark background they need light ink.
 */
function forTheme(spec: TopLevelSpec, theme: Theme): TopLevelSpec {
  return theme === "dark"
    ? (JSON.parse(
        JSON.stringify(spec).replaceAll('"#222"', '"#dddddd"').replaceAll('"#444"', '"#c8c8c8"'),
      ) as TopLevelSpec)
    : spec;
}

export interface ClickedDatum {
  player?: string;
  /** A leaderboard row's group (a player, style, client or model). */
  group?: string;
  game?: string | null;
  framing?: string;
}

/**
 * Draws a Vega-Lite spec (the same specs as the HTML report) as SVG into `container`. Expressions run in
 * vega's interpreter, not through `new Function`, so the view works under a host CSP without 'unsafe-eval'.
 */
export async function drawChart(
  container: HTMLElement,
  spec: TopLevelSpec,
  look: { theme: Theme; width: number },
  onClick?: (datum: ClickedDatum) => void,
): Promise<vega.View> {
  const compiled = vl.compile(forTheme(spec, look.theme), { config: config(look.theme, look.width) });
  const runtime = vega.parse(compiled.spec, undefined, { ast: true });
  const view = new vega.View(runtime, {
    expr: expressionInterpreter,
    renderer: "svg",
    container,
    hover: true,
  });
  if (onClick) {
    view.addEventListener("click", (_event, item) => {
      const datum = (item as { datum?: ClickedDatum } | null | undefined)?.datum;
      if (datum && (typeof datum.player === "string" || typeof datum.group === "string")) onClick(datum);
    });
  }
  await view.runAsync();
  return view;
}
