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

function config(theme: Theme): vl.Config {
  return theme === "dark" ? { ...CHART_CONFIG, ...DARK } : { ...CHART_CONFIG, background: "transparent" };
}

export interface ClickedDatum {
  player?: string;
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
  theme: Theme,
  onClick?: (datum: ClickedDatum) => void,
): Promise<vega.View> {
  const runtime = vega.parse(vl.compile(spec, { config: config(theme) }).spec, undefined, { ast: true });
  const view = new vega.View(runtime, {
    expr: expressionInterpreter,
    renderer: "svg",
    container,
    hover: true,
  });
  if (onClick) {
    view.addEventListener("click", (_event, item) => {
      const datum = (item as { datum?: ClickedDatum } | null | undefined)?.datum;
      if (datum && typeof datum.player === "string") onClick(datum);
    });
  }
  await view.runAsync();
  return view;
}
