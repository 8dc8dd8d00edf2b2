import type { StudyDesign } from "../domain/study-design.js";

// The demo's two pre-registered designs. One-shot and repeated play are separate studies because a
// study crosses every game with every opponent: a repeated-game opponent such as tit-for-tat would
// otherwise also become a cell of every one-shot dilemma.

/** The planned contrast of the demo, as in the published comparison (Lorè & Heydari 2024). */
export const DEMO_CONTRAST = { baseline: "business", comparison: "friend-sharing" } as const;

export const ONE_SHOT_GAMES = ["prisoners-dilemma", "snowdrift", "stag-hunt", "harmony"];

export function oneShotDemoDesign(trialsPerCell: number, seed: number): StudyDesign {
  return {
    name: "demo: four dilemmas, business vs friend-sharing",
    games: ONE_SHOT_GAMES,
    variants: ["base"],
    framings: [DEMO_CONTRAST.baseline, DEMO_CONTRAST.comparison],
    styles: ["zero-shot"],
    opponents: [{ id: "random", params: {} }],
    trials_per_cell: trialsPerCell,
    seed,
    planned_contrasts: [{ ...DEMO_CONTRAST }],
    history_mode: "full",
    reveal_horizon: false,
  };
}

export function repeatedDemoDesign(trialsPerCell: number, seed: number): StudyDesign {
  return {
    name: "demo: repeated prisoner's dilemma against two reactive opponents",
    games: ["repeated-pd"],
    variants: ["base"],
    framings: ["repeated-plain"],
    styles: ["zero-shot"],
    opponents: [
      { id: "tit-for-tat", params: {} },
      { id: "best-response-last", params: {} },
    ],
    trials_per_cell: trialsPerCell,
    seed,
    planned_contrasts: [],
    history_mode: "full",
    reveal_horizon: false,
  };
}
