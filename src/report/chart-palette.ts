// The colours the charts tell series apart by (players, framings, tied groups). Each has a contrast of at
// least 3:1 (WCAG 1.4.11, graphical objects) against the report's light background (#ffffff) and, as the
// dark mode draws it (the chart inverted, its hues turned back and brightened: report-style.ts), against
// the dark background (#1c1d20); test/report/chart-palette.test.ts computes both. A pale hue (yellow,
// light teal, light orange) is always below 3:1 on white, so each hue is a dark shade of itself.
export const CHART_PALETTE = [
  "#4c78a8", // blue
  "#c45a00", // orange
  "#c03a2b", // red
  "#2a8a84", // teal
  "#3b8a35", // green
  "#8a7200", // ochre
  "#9c5fb5", // purple
  "#c7407a", // pink
  "#8c5a3c", // brown
  "#5d6d7e", // slate
] as const;

/**
 * The shapes that tell the same series apart without colour (a greyscale print, a reader who does not
 * see the hues): 8 of them beside 10 colours, so the pairs stay distinct for 40 series.
 */
export const CHART_SHAPES = [
  "circle",
  "square",
  "triangle-up",
  "diamond",
  "triangle-down",
  "cross",
  "triangle-right",
  "triangle-left",
] as const;
