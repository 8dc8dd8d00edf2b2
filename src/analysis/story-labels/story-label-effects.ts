import type { ActionCounts, ActionId } from "../../domain/types.js";
import { type CountCell, validateCell } from "../count-cells.js";
import { jensenShannon } from "../divergence.js";
import { type BootstrapOptions, bootstrapSettings } from "../sampling/bootstrap-options.js";
import { createBootstrapRng, type UniformSource } from "../sampling/fast-rng.js";
import { percentileInterval } from "../sampling/percentile.js";

// Did the story or the words move the agent? A study crosses stories (business,
// friend-sharing) with label sets (story-true, familiar); each (player, game) then has one cell per
// (story, labels). On the probability p of a focal action (the game's cooperative action), a 2 × 2
// crossing is a two-way layout:
//   story effect  = mean over label sets of p(story₂, l) − p(story₁, l)
//   label effect  = mean over stories of p(s, labels₂) − p(s, labels₁)
//   interaction   = [p(s₂,l₂) − p(s₁,l₂)] − [p(s₂,l₁) − p(s₁,l₁)]
// With more levels each later level is contrasted with the first. The simple effects (one factor at a
// fixed level of the other) are given too, with the JSD of the whole distributions. Intervals are
// percentile bootstrap intervals, each cell redrawn at its own n (by session when it has sessions).

export interface Presentation {
  readonly story: string;
  readonly labels: string;
}

export interface StoryLabelOptions extends BootstrapOptions {
  /** Story and label set of each framing presentation id. */
  readonly presentationOf: (framing: string) => Presentation;
  /** The action whose probability the effects are measured on, per game (default: its first action). */
  readonly focalAction?: Readonly<Record<string, ActionId | null>>;
  /** Order of the levels: the first is the baseline. Default: sorted, "story-true" first among labels. */
  readonly stories?: readonly string[];
  readonly labels?: readonly string[];
}

export interface Estimate {
  readonly estimate: number;
  readonly ci: [number, number];
}

export interface EffectContrast {
  readonly factor: "story" | "labels";
  readonly baseline: string;
  readonly comparison: string;
  /** Averaged over the levels of the other factor. */
  readonly main: Estimate;
  /** At each level of the other factor: Δp and the JSD of the two distributions. */
  readonly simple: { readonly at: string; readonly delta: Estimate; readonly jsd: number }[];
}

export interface StoryLabelUnit {
  readonly player: string;
  readonly game: string;
  readonly focal_action: ActionId;
  readonly cells: { story: string; labels: string; framing: string; n: number; p_focal: number }[];
  readonly story_effects: EffectContrast[];
  readonly label_effects: EffectContrast[];
  /** 2 × 2 crossings only (first two levels of each factor): difference of differences. */
  readonly interaction: Estimate | null;
  /** Which factor moved the agent: whose main-effect interval excludes 0. */
  readonly verdict: "story" | "labels" | "both" | "neither";
}

export interface StoryLabelResult {
  readonly stories: string[];
  readonly labels: string[];
  readonly bootstrap: number;
  readonly seed: number;
  readonly confidence: number;
  readonly units: StoryLabelUnit[];
  /** (player, game) pairs left out because a (story, labels) combination has no decisions. */
  readonly skipped: { player: string; game: string; missing: string[] }[];
}

interface Grid {
  readonly actions: ActionId[];
  readonly focal: number;
  /** cells[s][l]. */
  readonly cells: { cell: CountCell; counts: number[]; n: number }[][];
}

export function storyLabelEffects(cells: readonly CountCell[], options: StoryLabelOptions): StoryLabelResult {
  const { bootstrap, seed, confidence } = bootstrapSettings(options);
  for (const cell of cells) validateCell(cell);
  const placed = cells.map((cell) => ({ cell, at: options.presentationOf(cell.framing) }));
  const stories = options.stories ?? [...new Set(placed.map((p) => p.at.story))].sort();
  const labels =
    options.labels ??
    [...new Set(placed.map((p) => p.at.labels))].sort((a, b) =>
      a === "story-true" ? -1 : b === "story-true" ? 1 : a < b ? -1 : a > b ? 1 : 0,
    );
  if (stories.length < 2 && labels.length < 2) {
    throw new Error(
      `Separating story from labels needs at least two stories or two label sets; found stories ${stories.join(", ") || "(none)"} and label sets ${labels.join(", ") || "(none)"}.`,
    );
  }
  const units: StoryLabelUnit[] = [];
  const skipped: StoryLabelResult["skipped"] = [];
  const keys = [...new Set(placed.map((p) => JSON.stringify([p.cell.player, p.cell.game])))];
  const rng = createBootstrapRng(`story-labels:${seed}`);
  for (const key of keys) {
    const [player, game] = JSON.parse(key) as [string, string];
    const mine = placed.filter((p) => p.cell.player === player && p.cell.game === game);
    const find = (s: string, l: string) => mine.find((p) => p.at.story === s && p.at.labels === l)?.cell;
    const missing = stories.flatMap((s) => labels.flatMap((l) => (find(s, l) ? [] : [`${s} × ${l}`])));
    if (missing.length > 0) {
      skipped.push({ player, game, missing });
      continue;
    }
    const actions = [...new Set(mine.flatMap((p) => Object.keys(p.cell.counts)))].sort();
    const focalAction = options.focalAction?.[game] ?? (actions[0] as ActionId);
    if (!actions.includes(focalAction)) actions.push(focalAction);
    const grid: Grid = {
      actions,
      focal: actions.indexOf(focalAction as ActionId),
      cells: stories.map((s) =>
        labels.map((l) => {
          const cell = find(s, l) as CountCell;
          const counts = actions.map((a) => cell.counts[a] ?? 0);
          return { cell, counts, n: counts.reduce((x, y) => x + y, 0) };
        }),
      ),
    };
    units.push(analyseUnit(player, game, grid, stories, labels, { bootstrap, confidence, rng }));
  }
  if (units.length === 0) {
    throw new Error(
      `No (player, game) has decisions in every combination of stories ${stories.join(", ")} and label sets ${labels.join(", ")}.`,
    );
  }
  return { stories: [...stories], labels: [...labels], bootstrap, seed, confidence, units, skipped };
}

/** p[s][l] of the focal action, from counts[s][l]. */
type Table = number[][];

function contrasts(
  p: Table,
  stories: readonly string[],
  labels: readonly string[],
): {
  story: number[];
  labels: number[];
  storySimple: number[][];
  labelSimple: number[][];
  interaction: number;
} {
  const S = stories.length;
  const L = labels.length;
  const row = (s: number) => p[s] as number[];
  const storySimple = stories
    .slice(1)
    .map((_, k) => labels.map((_, l) => (row(k + 1)[l] as number) - (row(0)[l] as number)));
  const labelSimple = labels
    .slice(1)
    .map((_, k) => stories.map((_, s) => (row(s)[k + 1] as number) - (row(s)[0] as number)));
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const interaction =
    S >= 2 && L >= 2
      ? (row(1)[1] as number) - (row(0)[1] as number) - ((row(1)[0] as number) - (row(0)[0] as number))
      : Number.NaN;
  return {
    story: storySimple.map(mean),
    labels: labelSimple.map(mean),
    storySimple,
    labelSimple,
    interaction,
  };
}

function analyseUnit(
  player: string,
  game: string,
  grid: Grid,
  stories: readonly string[],
  labels: readonly string[],
  settings: { bootstrap: number; confidence: number; rng: UniformSource },
): StoryLabelUnit {
  const pOf = (counts: readonly number[], n: number) => (counts[grid.focal] as number) / n;
  const observed = grid.cells.map((row) => row.map((c) => pOf(c.counts, c.n)));
  const point = contrasts(observed, stories, labels);
  // Bootstrap: every cell redrawn at its own n; the same replicate feeds every contrast.
  const B = settings.bootstrap;
  const reps = {
    story: point.story.map(() => new Float64Array(B)),
    labels: point.labels.map(() => new Float64Array(B)),
    storySimple: point.storySimple.map((xs) => xs.map(() => new Float64Array(B))),
    labelSimple: point.labelSimple.map((xs) => xs.map(() => new Float64Array(B))),
    interaction: new Float64Array(B),
  };
  for (let r = 0; r < B; r++) {
    const p = grid.cells.map((row) => row.map((c) => redrawFocalShare(c.cell, c.counts, grid, settings.rng)));
    const c = contrasts(p, stories, labels);
    c.story.forEach((v, k) => {
      (reps.story[k] as Float64Array)[r] = v;
    });
    c.labels.forEach((v, k) => {
      (reps.labels[k] as Float64Array)[r] = v;
    });
    c.storySimple.forEach((xs, k) => {
      xs.forEach((v, l) => {
        ((reps.storySimple[k] as Float64Array[])[l] as Float64Array)[r] = v;
      });
    });
    c.labelSimple.forEach((xs, k) => {
      xs.forEach((v, s) => {
        ((reps.labelSimple[k] as Float64Array[])[s] as Float64Array)[r] = v;
      });
    });
    reps.interaction[r] = c.interaction;
  }
  const est = (estimate: number, values: Float64Array): Estimate => ({
    estimate,
    ci: percentileInterval(values, settings.confidence),
  });
  const distribution = (s: number, l: number) => {
    const c = grid.cells[s]?.[l] as Grid["cells"][number][number];
    return c.counts.map((x) => x / c.n);
  };
  const storyEffects: EffectContrast[] = stories.slice(1).map((comparison, k) => ({
    factor: "story",
    baseline: stories[0] as string,
    comparison,
    main: est(point.story[k] as number, reps.story[k] as Float64Array),
    simple: labels.map((at, l) => ({
      at,
      delta: est(
        (point.storySimple[k] as number[])[l] as number,
        (reps.storySimple[k] as Float64Array[])[l] as Float64Array,
      ),
      jsd: jensenShannon(distribution(0, l), distribution(k + 1, l)),
    })),
  }));
  const labelEffects: EffectContrast[] = labels.slice(1).map((comparison, k) => ({
    factor: "labels",
    baseline: labels[0] as string,
    comparison,
    main: est(point.labels[k] as number, reps.labels[k] as Float64Array),
    simple: stories.map((at, s) => ({
      at,
      delta: est(
        (point.labelSimple[k] as number[])[s] as number,
        (reps.labelSimple[k] as Float64Array[])[s] as Float64Array,
      ),
      jsd: jensenShannon(distribution(s, 0), distribution(s, k + 1)),
    })),
  }));
  const excludesZero = (e: Estimate) => e.ci[0] > 0 || e.ci[1] < 0;
  const storyMoved = storyEffects.some((e) => excludesZero(e.main));
  const labelsMoved = labelEffects.some((e) => excludesZero(e.main));
  return {
    player,
    game,
    focal_action: grid.actions[grid.focal] as ActionId,
    cells: stories.flatMap((story, s) =>
      labels.map((label, l) => {
        const c = grid.cells[s]?.[l] as Grid["cells"][number][number];
        return { story, labels: label, framing: c.cell.framing, n: c.n, p_focal: observed[s]?.[l] as number };
      }),
    ),
    story_effects: storyEffects,
    label_effects: labelEffects,
    interaction: stories.length >= 2 && labels.length >= 2 ? est(point.interaction, reps.interaction) : null,
    verdict: storyMoved && labelsMoved ? "both" : storyMoved ? "story" : labelsMoved ? "labels" : "neither",
  };
}

/** One bootstrap draw of a cell's focal share: its sessions with replacement, or its decisions. */
function redrawFocalShare(
  cell: CountCell,
  counts: readonly number[],
  grid: Grid,
  rng: UniformSource,
): number {
  const focal = grid.actions[grid.focal] as ActionId;
  const sessions = (cell.clusters ?? []).filter((s) => Object.values(s).some((c) => c > 0));
  if (sessions.length > 1) {
    let hits = 0;
    let n = 0;
    for (let i = 0; i < sessions.length; i++) {
      const session = sessions[(rng.next() * sessions.length) | 0] as ActionCounts;
      hits += session[focal] ?? 0;
      n += Object.values(session).reduce((a, b) => a + b, 0);
    }
    return hits / n;
  }
  const n = counts.reduce((a, b) => a + b, 0);
  const p = (counts[grid.focal] as number) / n;
  let hits = 0;
  for (let i = 0; i < n; i++) if (rng.next() < p) hits++;
  return hits / n;
}
