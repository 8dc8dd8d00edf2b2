import * as vega from "vega";
import type { TopLevelSpec } from "vega-lite";
import * as vl from "vega-lite";
import { describe, expect, it } from "vitest";
import { CHART_CONFIG } from "../../src/report/chart-svg.js";
import { formatComprehensionRound } from "../../src/report/format-numbers.js";
import { cooperationChartSpec } from "../../src/report/sections/cooperation-section.js";
import { labelPositions } from "../../src/report/sections/sensitivity-section.js";

// What the report's charts draw, read from vega's scene graph (the marks with their pixel geometry and
// data), so each fact is a number a reader can check against the spec by hand.

interface SceneItem {
  x?: number;
  y?: number;
  width?: number;
  height?: number;
  text?: string;
  datum?: Record<string, unknown>;
  marktype?: string;
  items?: SceneItem[];
}

async function sceneItems(spec: TopLevelSpec): Promise<SceneItem[]> {
  const view = new vega.View(vega.parse(vl.compile(spec, { config: CHART_CONFIG }).spec), {
    renderer: "none",
  });
  await view.runAsync();
  const found: SceneItem[] = [];
  const walk = (node: SceneItem, marktype?: string) => {
    for (const child of node.items ?? []) {
      const type = node.marktype ?? marktype;
      found.push({ ...child, marktype: type });
      walk(child, child.marktype ?? type);
    }
  };
  walk((view.scenegraph() as unknown as { root: SceneItem }).root);
  view.finalize();
  return found;
}

describe("the cooperation chart", () => {
  const cells = [
    {
      player: "p",
      game: "prisoners-dilemma",
      framing: "business",
      rate: 0,
      ci: [0, 0.16] as [number, number],
      n: 20,
    },
    {
      player: "p",
      game: "prisoners-dilemma",
      framing: "friend-sharing",
      rate: 0.5,
      ci: [0.3, 0.7] as [number, number],
      n: 300,
    },
  ];

  it("draws a rate of 0 as a visible 40 × 3 px bar on the axis, not an empty panel", async () => {
    const items = await sceneItems(cooperationChartSpec(cells));
    // The bar of a zero rate has no height; the tick on its top edge is what the reader sees.
    const zero = items.filter(
      (i) => i.marktype === "rect" && i.datum?.framing === "business" && i.datum?.rate === 0,
    );
    const visible = zero.filter((i) => (i.width ?? 0) >= 30 && (i.height ?? 0) >= 2);
    expect(visible.length).toBe(1);
    expect(visible[0]?.width).toBe(40);
    expect(visible[0]?.height).toBe(3);
  });

  it("writes the number of decisions above each bar", async () => {
    const items = await sceneItems(cooperationChartSpec(cells));
    const labels = items.filter(
      (i) => i.marktype === "text" && typeof i.text === "string" && i.text.startsWith("n="),
    );
    expect(labels.map((l) => l.text).sort()).toEqual(["n=20", "n=300"]);
  });
});

describe("labelPositions (the λ chart's game labels)", () => {
  // LABEL_GAP: a 12 px line on a 240 px axis of 0–20 is 1 λ unit.
  it("keeps labels beside their points when they do not meet", () => {
    expect(labelPositions([3, 10, 0])).toEqual([3, 10, 0]);
  });
  it("stacks labels one line apart where points coincide at 0, in the points' order", () => {
    expect(labelPositions([0, 0, 0, 0])).toEqual([0, 1, 2, 3]);
    expect(labelPositions([0.5, 0])).toEqual([1, 0]);
  });
  it("moves a stack at the cap down so every label stays on the axis", () => {
    expect(labelPositions([20, 20, 20])).toEqual([18, 19, 20]);
  });
});

describe("formatComprehensionRound", () => {
  it("gives m its unit, and says never when no match comprehended", () => {
    expect(formatComprehensionRound(3.24, 10)).toBe("round 3.2");
    expect(formatComprehensionRound(11, 10)).toBe("never (in 10 rounds)");
    expect(formatComprehensionRound(10.4, 10)).toBe("round 10.4 (some never)");
    expect(formatComprehensionRound(null, 10)).toBe("—");
  });
});
